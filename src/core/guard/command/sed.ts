// sed: read-only unless its script or flags write files, edit in place, read a script file or run
// commands. The script is read as sed reads it, command by command.
import type { Judgement } from '../../decisions';
import { ask, positional } from './judgement';
import type { ShellWord } from './shell/words';

export function judgeSed(args: readonly ShellWord[]): Judgement | undefined {
  const sandboxed = args.some((word) => word.text === '--sandbox');
  const scripts: string[] = [];
  let scriptGiven = false;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index].text;
    if (word === '-i' || word.startsWith('--in-place') || /^-[a-zA-Z]*i/.test(word) && !word.startsWith('--')) {
      return ask(`sed ${word} edits files in place`);
    }
    if (word === '-f' || word.startsWith('--file') || /^-[a-zA-Z]*f$/.test(word) && !word.startsWith('--')) {
      return ask('sed -f runs a script from a file, which cannot be checked');
    }
    if (word === '-e' || word === '--expression') {
      scripts.push(args[index + 1]?.text ?? '');
      scriptGiven = true;
      index += 1;
    } else if (word.startsWith('--expression=')) {
      scripts.push(word.slice('--expression='.length));
      scriptGiven = true;
    } else if (word === '-l' || word === '--line-length') {
      index += 1;
    }
  }
  if (!scriptGiven) {
    const first = positional(args)[0];
    if (first) {
      scripts.push(first.text);
    }
  }
  if (sandboxed) {
    return undefined;
  }
  const unsafe = scripts.map(unsafeSedCommand).find((found) => found !== undefined);
  return unsafe ? ask(`sed script uses ${unsafe}, which runs commands or reads or writes files`) : undefined;
}

const SED_SIMPLE = new Set(['p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'l', 'F', 'z', '=', '{', '}', 'q', 'Q', '#']);

/** The first command of a sed script that executes, writes or reads files (e, w, W, r, R, s///e, s///w). */
export function unsafeSedCommand(script: string): string | undefined {
  let index = 0;
  const at = (offset = 0): string => script[index + offset] ?? '';
  const skipDelimited = (delimiter: string): void => {
    while (index < script.length && at() !== delimiter) {
      index += at() === '\\' ? 2 : 1;
    }
    index += 1;
  };
  while (index < script.length) {
    while (/[\s;]/.test(at())) {
      index += 1;
    }
    if (index >= script.length) {
      break;
    }
    // Addresses: line numbers, $, ranges, steps, /regex/ and \cregexc, negation.
    while (/[0-9$,~+!]/.test(at()) || at() === '/' || (at() === '\\' && at(1) !== '')) {
      if (at() === '/') {
        index += 1;
        skipDelimited('/');
      } else if (at() === '\\') {
        const delimiter = at(1);
        index += 2;
        skipDelimited(delimiter);
      } else {
        index += 1;
      }
      while (at() === 'I' || at() === 'M') {
        index += 1;
      }
      while (at() === ' ') {
        index += 1;
      }
    }
    const command = at();
    index += 1;
    if (command === 's' || command === 'y') {
      const delimiter = at();
      if (delimiter === '' || delimiter === '\n' || delimiter === '\\') {
        return `${command} with an unusual delimiter`;
      }
      index += 1;
      skipDelimited(delimiter);
      skipDelimited(delimiter);
      if (command === 's') {
        const flags = /^[^;\n}]*/.exec(script.slice(index))?.[0] ?? '';
        const bad = /[ewWrR]/.exec(flags);
        if (bad) {
          return `the s///${bad[0]} flag`;
        }
        index += flags.length;
      }
    } else if (command === 'a' || command === 'i' || command === 'c') {
      const end = script.indexOf('\n', index);
      index = end === -1 ? script.length : end + 1;
    } else if (command === ':' || command === 'b' || command === 't' || command === 'T') {
      const end = script.slice(index).search(/[;\n]/);
      index = end === -1 ? script.length : index + end;
    } else if (command === '#') {
      const end = script.indexOf('\n', index);
      index = end === -1 ? script.length : end + 1;
    } else if (SED_SIMPLE.has(command)) {
      while (/[0-9]/.test(at())) {
        index += 1;
      }
    } else {
      return `the ${command} command`;
    }
  }
  return undefined;
}
