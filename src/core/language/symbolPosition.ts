// The column of a symbol on a line: the model names the line and the symbol, and the tools find
// where on the line it stands, because models count columns badly.
import { ToolError } from '../errors';

function isIdentifierChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_$]/u.test(char);
}

/** The 0-based character where `symbol` starts on `lineText`: the first whole-word match, else the first match. */
export function symbolColumn(lineText: string, symbol: string, line: number, shownPath: string): number {
  if (symbol === '') {
    throw new ToolError('symbol is empty. Pass the name as it is written on the line, e.g. "formatName".');
  }
  let first = -1;
  for (let index = lineText.indexOf(symbol); index >= 0; index = lineText.indexOf(symbol, index + 1)) {
    if (first < 0) {
      first = index;
    }
    if (!isIdentifierChar(lineText[index - 1]) && !isIdentifierChar(lineText[index + symbol.length])) {
      return index;
    }
  }
  if (first >= 0) {
    return first;
  }
  const shown = lineText.length > 200 ? `${lineText.slice(0, 200)}…` : lineText;
  throw new ToolError(`"${symbol}" is not on line ${line} of ${shownPath}, which reads: ${JSON.stringify(shown)}. Pass the line where the symbol is written (workspace_grep finds it).`);
}
