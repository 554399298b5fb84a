// Which expansions only read a value and which can run a command or assign. Plain `$x`, `${x}`,
// `${#x}`, defaults and pattern edits with plain words are values. Everything else asks: `${x=..}`
// and `${x:=..}` assign, `${x@P}` and the other transformations can run code, `${!x}` follows a
// name, subscripts and arithmetic evaluate variables as arithmetic (which runs `$(...)` hidden in
// them), and the grammar does not see backticks inside `${...}` or heredocs, so the raw text is read.
const NAME = '(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])';
/** A word inside `${x:-word}`: plain text, escapes and simple `$name` / `${name}` references only. */
const PLAIN_WORD = '(?:[^`$\\\\{}]|\\\\.|\\$[A-Za-z_][A-Za-z0-9_]*|\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}|\\$[0-9@*#?$!-])*';
const OPERATOR = '(?::?[-+]|#{1,2}|%{1,2}|/[/#%]?|\\^{1,2}|,{1,2})';

const SIMPLE = new RegExp(`^\\$\\{#?${NAME}\\}$`, 's');
const WITH_WORD = new RegExp(`^\\$\\{${NAME}${OPERATOR}${PLAIN_WORD}\\}$`, 's');
const SUBSTRING = /^\$\{[A-Za-z_][A-Za-z0-9_]*:\s*-?\d+(\s*:\s*-?\d+)?\}$/;
/** Arithmetic of numbers only: nothing named, so nothing evaluated beyond the digits. */
const NUMERIC_ARITHMETIC = /^\$(\(\([\s\d+\-*/%()<>=!&|^~?:]*\)\)|\[[\s\d+\-*/%()<>=!&|^~?:]*\])$/;

/** Why a `${...}` expansion asks; undefined when it only reads a value. */
export function unsafeParameterExpansion(text: string): string | undefined {
  if (SIMPLE.test(text) || WITH_WORD.test(text) || SUBSTRING.test(text)) {
    return undefined;
  }
  if (/`|\$\(|\$\[/.test(text)) {
    return `${text} runs a command inside a parameter expansion`;
  }
  if (/^\$\{!/.test(text)) {
    return `${text} reads a variable named by another, which can evaluate a subscript`;
  }
  if (/^\$\{[^}]*@/.test(text) && !/^\$\{[@]/.test(text)) {
    return `${text} transforms a value, which can run commands hidden in it`;
  }
  if (/^\$\{[A-Za-z_][A-Za-z0-9_]*\[/.test(text)) {
    return `${text} has a subscript, which is evaluated as arithmetic and can run commands`;
  }
  if (/^\$\{[A-Za-z_0-9@*#?$!-]+:?[=?]/.test(text)) {
    return `${text} assigns a default or fails the command`;
  }
  return `${text} is a parameter expansion this policy does not read`;
}

/** Why an arithmetic expansion asks; undefined for arithmetic of plain numbers. */
export function unsafeArithmetic(text: string): string | undefined {
  return NUMERIC_ARITHMETIC.test(text) ? undefined : `${text} evaluates arithmetic on variables, which can assign them or run commands hidden in them`;
}

/** Why the body of an unquoted heredoc asks: command substitutions and arithmetic the grammar may not show. */
export function unsafeHeredocText(text: string): string | undefined {
  const found = /`|\$\(|\$\[/.exec(text);
  return found ? `the heredoc body contains ${found[0]}, which runs when the heredoc is read` : undefined;
}
