// Output budgets: the model's context is finite, so every long output is cut with an explicit note
// saying what was left out and how to get it.

/** The longest line any tool shows in full. */
export const MAX_LINE_CHARS = 2000;

/** The start of a line of `fullLength` characters cut to `max`, with the marker saying how much is missing. */
export function cutLine(start: string, fullLength: number, max = MAX_LINE_CHARS): string {
  return `${start.slice(0, max)}… [line truncated: ${fullLength - max} more characters]`;
}

/** Cuts a line longer than `max` characters and says how much was cut. */
export function capLine(line: string, max = MAX_LINE_CHARS): string {
  return line.length <= max ? line : cutLine(line, line.length, max);
}

/**
 * Keeps the first `maxChars` characters, cutting at a line boundary when one is near; `hint`
 * follows the note (what limit applied, how to see the rest).
 */
export function capChars(text: string, maxChars: number, hint = ''): { text: string; omittedChars: number } {
  if (text.length <= maxChars) {
    return { text, omittedChars: 0 };
  }
  const cut = text.lastIndexOf('\n', maxChars);
  const end = cut > maxChars * 0.8 ? cut : maxChars;
  const note = `[output truncated: ${text.length - end} more characters not shown${hint ? `. ${hint}` : ''}]`;
  return { text: `${text.slice(0, end)}\n${note}`, omittedChars: text.length - end };
}

/**
 * How a budget for a long stream is shared between its start and its end, where the interesting
 * parts of logs usually are: 40% head, the rest tail.
 */
export function headAndTailShares(maxChars: number): { readonly head: number; readonly tail: number } {
  const head = Math.floor(maxChars * 0.4);
  return { head, tail: maxChars - head };
}
