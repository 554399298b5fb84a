// Text replacements at line/character ranges applied to a file's text, as a rename provider's edit
// describes them. Ranges are VS Code's: 0-based lines, UTF-16 characters.
import { BugError, ToolError } from '../errors';
import type { TextPosition, TextReplacement } from '../ports/language';

/** The offset of a position in `text` (lines end at \n; a \r before it belongs to the line end). */
function offsetOf(text: string, lineStarts: readonly number[], position: TextPosition, shownPath: string): number {
  const start = lineStarts[position.line];
  if (start === undefined) {
    throw new ToolError(`The rename provider's edit names line ${position.line + 1} of ${shownPath}, which has ${lineStarts.length} lines; the file changed. Nothing was changed.`);
  }
  const next = lineStarts[position.line + 1];
  let end = next === undefined ? text.length : next - 1;
  if (end > start && text[end - 1] === '\r') {
    end -= 1;
  }
  return Math.min(start + position.character, end);
}

/** The text after the replacements (which must not overlap), applied from the end so offsets hold. */
export function applyReplacements(text: string, replacements: readonly TextReplacement[], shownPath: string): string {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
    lineStarts.push(index + 1);
  }
  const spans = replacements
    .map((replacement) => ({ from: offsetOf(text, lineStarts, replacement.range.start, shownPath), to: offsetOf(text, lineStarts, replacement.range.end, shownPath), newText: replacement.newText }))
    .sort((a, b) => b.from - a.from || b.to - a.to);
  let result = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const span of spans) {
    if (span.to > limit || span.from > span.to) {
      throw new BugError(`overlapping rename replacements in ${shownPath}`);
    }
    result = result.slice(0, span.from) + span.newText + result.slice(span.to);
    limit = span.from;
  }
  return result;
}
