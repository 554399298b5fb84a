// Output budgets: the model's context is finite, so every long output is cut with an explicit note
// saying what was left out and how to get it.

/**
 * The longest text part of a result. Copilot Chat moves any single text part over 8,192 characters
 * into a file outside the workspace and tells the model to open it with its own read tool; parts
 * up to this size reach the model inline.
 */
export const MAX_TEXT_PART_CHARS = 8000;

/**
 * The longest continuation a result leads with (ToolResult.continuation): a note or two of one
 * line each. Every client measured keeps at least the first 2,000 characters of a result (Claude
 * Code's preview of a result it saves to a file), so the note stays well inside that.
 */
export const MAX_CONTINUATION_CHARS = 1000;

/** Characters per token assumed when a client gives a token budget: low, so the budget holds for code. */
export const CHARS_PER_TOKEN = 3;

/** The characters one result may hold: the user's setting, or less when the client gave a token budget. */
export function resultCharBudget(maxResultChars: number, tokenBudget: number | undefined): number {
  return tokenBudget === undefined || tokenBudget <= 0 ? maxResultChars : Math.max(1000, Math.min(maxResultChars, tokenBudget * CHARS_PER_TOKEN));
}

/** Splits text into pieces of at most `max` characters, at line ends where a line fits (a longer line is cut across pieces). */
export function splitAtLines(text: string, max = MAX_TEXT_PART_CHARS): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const cut = rest.lastIndexOf('\n', max - 1);
    const end = cut >= 0 ? cut + 1 : max;
    pieces.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  if (rest.length > 0 || pieces.length === 0) {
    pieces.push(rest);
  }
  return pieces;
}

/** Text parts as one text again: parts split by splitAtLines join back as they were; others are separated by a newline. */
export function joinTextParts(texts: readonly string[]): string {
  return texts.reduce((joined, text) => (joined === '' || joined.endsWith('\n') ? joined + text : `${joined}\n${text}`), '');
}

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
export function capChars(text: string, maxChars: number, hint = ''): { text: string; omittedChars: number; note?: string } {
  if (text.length <= maxChars) {
    return { text, omittedChars: 0 };
  }
  const cut = text.lastIndexOf('\n', maxChars);
  const end = cut > maxChars * 0.8 ? cut : maxChars;
  const note = `[output truncated: ${text.length - end} more characters not shown${hint ? `. ${hint}` : ''}]`;
  return { text: `${text.slice(0, end)}\n${note}`, omittedChars: text.length - end, note };
}

/**
 * How a budget for a long stream is shared between its start and its end, where the interesting
 * parts of logs usually are: 40% head, the rest tail.
 */
export function headAndTailShares(maxChars: number): { readonly head: number; readonly tail: number } {
  const head = Math.floor(maxChars * 0.4);
  return { head, tail: maxChars - head };
}
