// What a shell word means before the shell runs it: quote removal on the parts that are fixed text,
// and a flag when any part depends on the run (expansions, substitutions, globs, braces).
import type { SyntaxNode } from './bashParser';

/** A word of a command line as the policy sees it. */
export interface ShellWord {
  /** The text after quote removal; for dynamic words, the source text as written. */
  readonly text: string;
  /** The source text as written. */
  readonly source: string;
  /** False when the value is only known at run time ($x, $(...), `...`, $'...', ~user). */
  readonly literal: boolean;
  /** True when an unquoted glob character or brace expansion can turn it into other words. */
  readonly expands: boolean;
  /**
   * The text known before the first part that is only known at run time (all of `text` for a
   * literal word): whether `-n"$N"` or `"$x"` can be an option depends on it.
   */
  readonly prefix: string;
  /** True for a whole-word process substitution `<(...)` / `>(...)`: a pipe, not a file (its commands are judged on their own). */
  readonly pipe?: boolean;
  /** Where the word starts and ends in the parsed text (JS string offsets), when it is a node of it. */
  readonly start?: number;
  readonly end?: number;
}

interface Piece {
  text: string;
  literal: boolean;
  expands: boolean;
  prefix: string;
}

/** Backslash escapes of unquoted text: `\x` is x, a backslash-newline disappears. */
function unescapeUnquoted(text: string): { text: string; expands: boolean } {
  let out = '';
  let expands = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') {
      const next = text[index + 1];
      index += 1;
      if (next !== undefined && next !== '\n') {
        out += next;
      }
      continue;
    }
    if (char === '*' || char === '?' || char === '[') {
      expands = true;
    }
    if (char === '{' && /\{[^}]*(,|\.\.)[^}]*\}/.test(text.slice(index))) {
      expands = true;
    }
    out += char;
  }
  return { text: out, expands };
}

/** Backslash escapes inside double quotes: only \" \\ \$ \` and backslash-newline are special. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([\\"$`\n])/g, (_match, char: string) => (char === '\n' ? '' : char));
}

function evaluate(node: SyntaxNode): Piece {
  switch (node.type) {
    case 'word':
    case 'number': {
      const { text, expands } = unescapeUnquoted(node.text);
      const tildeUser = /^~[^/]/.test(node.text);
      return { text, literal: !tildeUser, expands, prefix: tildeUser ? '' : text };
    }
    case 'raw_string':
      return { text: node.text.slice(1, -1), literal: true, expands: false, prefix: node.text.slice(1, -1) };
    case 'string':
    case 'translated_string': {
      const parts = node.namedChildren.filter((child): child is SyntaxNode => child !== null);
      const firstDynamic = parts.findIndex((child) => child.type !== 'string_content');
      if (firstDynamic !== -1) {
        // The grammar leaves text between expansions out of the children: the prefix is the
        // source between the opening quote and the first expansion.
        const start = parts[firstDynamic].startIndex - node.startIndex;
        return { text: node.text, literal: false, expands: false, prefix: unescapeDoubleQuoted(node.text.slice(1, start)) };
      }
      const text = unescapeDoubleQuoted(parts.map((child) => child.text).join(''));
      return { text, literal: true, expands: false, prefix: text };
    }
    case 'concatenation': {
      const pieces = node.namedChildren.filter((child): child is SyntaxNode => child !== null).map(evaluate);
      // Brace expansion spans the parts of a concatenation, so look at the whole source too.
      const braces = /\{[^}]*(,|\.\.)[^}]*\}/.test(node.text);
      const firstDynamic = pieces.findIndex((piece) => !piece.literal);
      const known = firstDynamic === -1 ? pieces : pieces.slice(0, firstDynamic);
      return {
        prefix: known.map((piece) => piece.text).join('') + (firstDynamic === -1 ? '' : pieces[firstDynamic].prefix),
        text: pieces.every((piece) => piece.literal) ? pieces.map((piece) => piece.text).join('') : node.text,
        literal: pieces.every((piece) => piece.literal),
        expands: braces || pieces.some((piece) => piece.expands),
      };
    }
    default:
      // $x, ${x}, $(...), `...`, <(...), $((...)), $'...' and anything unforeseen: known only at run time.
      return { text: node.text, literal: false, expands: false, prefix: '' };
  }
}

/** The meaning of one word node of the syntax tree. */
export function shellWord(node: SyntaxNode): ShellWord {
  const piece = evaluate(node);
  const pipe = node.type === 'process_substitution' ? { pipe: true } : {};
  return { text: piece.text, source: node.text, literal: piece.literal, expands: piece.expands, prefix: piece.prefix, ...pipe, start: node.startIndex, end: node.endIndex };
}
