// ripgrep's output format, made deterministic: files in path order whichever engine found them and
// in whatever order, the first max_results matches (or files) shown and the rest counted.
import type { GrepCollector, GrepFileResult, GrepLine, GrepMode } from '../ports/search';

/** Lines longer than this are cut to a window around their first match. */
export const MAX_GREP_LINE_CHARS = 400;
/** How much of the window comes before the match. */
const LEAD_CHARS = 120;

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Keeps only the files that can be printed: the first ones in path order until they hold
 * `maxResults` matches (content) or `maxResults` files (the other modes); the rest are counted.
 */
export class SortedGrepCollector implements GrepCollector {
  readonly kept: GrepFileResult[] = [];
  totalFiles = 0;
  totalMatches = 0;
  private keptMatches = 0;

  constructor(
    private readonly mode: GrepMode,
    private readonly maxResults: number,
  ) {}

  get maxLinesPerFile(): number {
    return this.maxResults;
  }

  get enough(): boolean {
    return this.mode === 'content' ? this.totalMatches > this.maxResults : this.totalFiles > this.maxResults;
  }

  wants(path: string): boolean {
    if (!this.full()) {
      return true;
    }
    const last = this.kept[this.kept.length - 1];
    return last !== undefined && path < last.path;
  }

  add(file: GrepFileResult): void {
    this.totalFiles += 1;
    this.totalMatches += file.matchingLines;
    if (!this.wants(file.path)) {
      return;
    }
    let index = this.kept.length;
    while (index > 0 && byPath(this.kept[index - 1], file) > 0) {
      index -= 1;
    }
    this.kept.splice(index, 0, file);
    this.keptMatches += file.matchingLines;
    while (this.kept.length > 1 && this.fullWithoutLast()) {
      const dropped = this.kept.pop()!;
      this.keptMatches -= dropped.matchingLines;
    }
  }

  private full(): boolean {
    return this.mode === 'content' ? this.keptMatches >= this.maxResults : this.kept.length >= this.maxResults;
  }

  private fullWithoutLast(): boolean {
    const last = this.kept[this.kept.length - 1];
    return this.mode === 'content' ? this.keptMatches - last.matchingLines >= this.maxResults : this.kept.length - 1 >= this.maxResults;
  }
}

/** Cuts a long line to a window around its match, saying how much was left out on each side. */
export function cutLongLine(line: GrepLine): string {
  const { text } = line;
  if (text.length <= MAX_GREP_LINE_CHARS) {
    return text;
  }
  const matchStart = line.match?.start ?? 0;
  const start = Math.max(0, Math.min(matchStart - LEAD_CHARS, text.length - MAX_GREP_LINE_CHARS));
  const end = Math.min(text.length, start + MAX_GREP_LINE_CHARS);
  const before = start > 0 ? `[…${start} chars] ` : '';
  const after = end < text.length ? ` […${text.length - end} chars]` : '';
  return `${before}${text.slice(start, end)}${after}`;
}

export interface GrepReport {
  readonly body: string;
  /** Matches (content) or files (other modes) left out by max_results. */
  readonly omitted: number;
  readonly shownMatches: number;
}

/** Prints the kept files as ripgrep would, stopping after `maxResults` matches or files. */
export function formatGrep(collector: SortedGrepCollector, mode: GrepMode, context: number, maxResults: number, show: (relative: string) => string): GrepReport {
  const files = collector.kept;
  if (mode === 'files_with_matches') {
    const shown = files.slice(0, maxResults);
    return { body: shown.map((file) => show(file.path)).join('\n'), omitted: collector.totalFiles - shown.length, shownMatches: shown.length };
  }
  if (mode === 'count') {
    const shown = files.slice(0, maxResults);
    return { body: shown.map((file) => `${show(file.path)}:${file.matchingLines}`).join('\n'), omitted: collector.totalFiles - shown.length, shownMatches: shown.length };
  }
  const out: string[] = [];
  let shownMatches = 0;
  let previous: { path: string; number: number } | undefined;
  for (const file of files) {
    const shownPath = show(file.path);
    for (const line of file.lines) {
      if (line.match && shownMatches >= maxResults) {
        break;
      }
      const contiguous = previous !== undefined && previous.path === file.path && previous.number + 1 === line.number;
      if (context > 0 && previous !== undefined && !contiguous) {
        out.push('--');
      }
      out.push(`${shownPath}${line.match ? ':' : '-'}${line.number}${line.match ? ':' : '-'}${cutLongLine(line)}`);
      previous = { path: file.path, number: line.number };
      if (line.match) {
        shownMatches += 1;
      }
    }
    if (shownMatches >= maxResults) {
      break;
    }
  }
  return { body: out.join('\n'), omitted: collector.totalMatches - shownMatches, shownMatches };
}
