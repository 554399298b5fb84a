// How a change is described back to the model: counts of lines, and the changed lines themselves.
import { diffArrays } from 'diff';
import type { TextLine } from '../text/lineEndings';
import { numberLines } from '../edit/lineMatching';

/** Lines added and removed between two versions, by a line diff. */
export function countLineChanges(before: readonly TextLine[], after: readonly TextLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of diffArrays(before.map((line) => line.text + line.eol), after.map((line) => line.text + line.eol))) {
    if (change.added) {
      added += change.count ?? change.value.length;
    } else if (change.removed) {
      removed += change.count ?? change.value.length;
    }
  }
  return { added, removed };
}

const MAX_SHOWN_LINES = 60;

/** The lines an edit wrote, numbered like workspace_read_file, so the model need not read the file again. */
export function showChangedLines(lines: readonly TextLine[], ranges: readonly { start: number; end: number }[]): string {
  const texts = lines.map((line) => line.text);
  const parts: string[] = [];
  let budget = MAX_SHOWN_LINES;
  for (const range of ranges) {
    if (budget <= 0) {
      parts.push(`[${ranges.length - parts.length} more changed regions not shown]`);
      break;
    }
    if (range.end === range.start) {
      parts.push(`[lines removed; the next line is now line ${range.start + 1}]`);
      continue;
    }
    const shown = Math.min(range.end - range.start, budget);
    parts.push(numberLines(texts.slice(range.start, range.start + shown), range.start + 1, shown));
    if (shown < range.end - range.start) {
      parts.push(`[${range.end - range.start - shown} more changed lines not shown]`);
    }
    budget -= shown;
  }
  return parts.join('\n...\n');
}
