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
}

interface Piece {
  text: string;
  literal: boolean;
  expands: boolean;
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
      return { text, literal: !tildeUser, expands };
    }
    case 'raw_string':
      return { text: node.text.slice(1, -1), literal: true, expands: false };
    case 'string':
    case 'translated_string': {
      const parts = node.namedChildren.filter((child): child is SyntaxNode => child !== null);
      if (parts.some((child) => child.type !== 'string_content')) {
        return { text: node.text, literal: false, expands: false };
      }
      return { text: unescapeDoubleQuoted(parts.map((child) => child.text).join('')), literal: true, expands: false };
    }
    case 'concatenation': {
      const pieces = node.namedChildren.filter((child): child is SyntaxNode => child !== null).map(evaluate);
      // Brace expansion spans the parts of a concatenation, so look at the whole source too.
      const braces = /\{[^}]*(,|\.\.)[^}]*\}/.test(node.text);
      return {
        text: pieces.every((piece) => piece.literal) ? pieces.map((piece) => piece.text).join('') : node.text,
        literal: pieces.every((piece) => piece.literal),
        expands: braces || pieces.some((piece) => piece.expands),
      };
    }
    default:
      // $x, ${x}, $(...), `...`, <(...), $((...)), $'...' and anything unforeseen: known only at run time.
      return { text: node.text, literal: false, expands: false };
  }
}

/** The meaning of one word node of the syntax tree. */
export function shellWord(node: SyntaxNode): ShellWord {
  const piece = evaluate(node);
  return { text: piece.text, source: node.text, literal: piece.literal, expands: piece.expands };
}
