// Brace expansion as bash does it (`a{b,c}` is `ab ac`, `{1..3}` is `1 2 3`), with a cap. The
// literal word is kept too: under sh braces are plain text.
import expand from 'brace-expansion';

/** More words than this from one brace expansion and the word is not checked. */
export const MAX_BRACE_WORDS = 256;

/** The words a word can become by brace expansion, the literal word included; undefined past the cap. */
export function braceAlternatives(text: string): string[] | undefined {
  if (!/[{]/.test(text)) {
    return [text];
  }
  const words = expand(text, { max: MAX_BRACE_WORDS + 1 });
  if (words.length > MAX_BRACE_WORDS) {
    return undefined;
  }
  return [...new Set([text, ...words])];
}
