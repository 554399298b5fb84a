// Output budgets: the model's context is finite, so every long output is cut with an explicit note
// saying what was left out and how to get it.

/** The longest line any tool shows in full. */
export const MAX_LINE_CHARS = 2000;

/** Default of workspaceAgentTools.output.maxResultChars: about 25k tokens, what the peers allow one read. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** Default of workspaceAgentTools.output.commandOutputChars, for each of stdout and stderr. */
export const DEFAULT_COMMAND_OUTPUT_CHARS = 30_000;

/** Cuts a line longer than `max` characters and says how much was cut. */
export function capLine(line: string, max = MAX_LINE_CHARS): string {
  if (line.length <= max) {
    return line;
  }
  return `${line.slice(0, max)}… [line truncated: ${line.length - max} more characters]`;
}

/** Keeps the first `maxLines` lines; the note says how many were left out. */
export function capLines(lines: readonly string[], maxLines: number, what = 'lines'): { lines: string[]; omitted: number; note?: string } {
  if (lines.length <= maxLines) {
    return { lines: [...lines], omitted: 0 };
  }
  const omitted = lines.length - maxLines;
  return { lines: lines.slice(0, maxLines), omitted, note: `[${omitted} more ${what} not shown]` };
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

/** Keeps the start and the end of a long text, where the interesting parts of logs usually are. */
export function headAndTail(text: string, maxChars: number): { text: string; omittedChars: number } {
  if (text.length <= maxChars) {
    return { text, omittedChars: 0 };
  }
  const head = Math.floor(maxChars * 0.4);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n[... ${omitted} characters omitted ...]\n${text.slice(text.length - tail)}`,
    omittedChars: omitted,
  };
}
