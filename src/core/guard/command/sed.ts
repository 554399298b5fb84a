// sed: read-only unless its script or options write files, edit in place, read a script file or run
// commands. The options are parsed exactly (options.ts); the script is read as sed reads it, command
// by command: every -e/--expression value, or the first operand when there is none.
import type { Judgement } from '../../decisions';
import { allow, ask, inertOperands, type InvocationJudge } from './judgement';
import { hasOption, optionTable, optionValues, parseOptions, scriptsAndFiles } from './options';
import { SED_TABLE } from './programSpecs';
import type { ShellWord } from './shell/words';
import { writeCause } from './writes';

/** sed's table with -i read as GNU reads it (an optional attached backup suffix), for an edit in place. */
const SED_IN_PLACE_TABLE = optionTable('nrEsuze:l:i?', 'quiet silent debug expression= regexp-extended separate unbuffered null-data line-length= posix sandbox follow-symlinks in-place? help version', {
  '-f': 'runs a script from a file, which cannot be checked',
  '--file': 'runs a script from a file, which cannot be checked',
});

const EDITS_IN_PLACE = 'sed edits files in place';

export async function judgeSed(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const inPlace = parseOptions('sed', SED_IN_PLACE_TABLE, args);
  const editsInPlace = inPlace.ok && hasOption(inPlace.parsed, '-i', '--in-place');
  const outcome = editsInPlace ? inPlace : parseOptions('sed', SED_TABLE, args);
  if (!outcome.ok) {
    return outcome.judgement;
  }
  const parsed = outcome.parsed;
  const { scripts, files } = scriptsAndFiles(parsed, '-e', '--expression');
  if (scripts.length === 0) {
    return ask('sed has no script to check');
  }
  const hidden = scripts.find((word) => !word.literal);
  if (hidden) {
    return ask(`the sed script ${hidden.source} is only known when it runs`);
  }
  const expanding = inertOperands('sed', scripts);
  if (expanding) {
    return ask(expanding);
  }
  if (!hasOption(parsed, '--sandbox')) {
    // sed joins its scripts with newlines; each is read alone too, in case joining hides a command.
    const texts = [...scripts.map((word) => word.text), scripts.map((word) => word.text).join('\n')];
    const unsafe = texts.map(unsafeSedCommand).find((found) => found !== undefined);
    if (unsafe) {
      return ask(`sed script uses ${unsafe}, which runs commands or reads or writes files`);
    }
  }
  if (editsInPlace) {
    // A backup suffix names one more file per file (`-i.bak`, and `-ie` is -i with the suffix e): it asks with no cause.
    return optionValues(parsed, '-i', '--in-place').length > 0 ? ask(EDITS_IN_PLACE) : writeCause(files, [], judge, ask(EDITS_IN_PLACE));
  }
  if (files.length === 0) {
    return allow('sed only prints');
  }
  const verdict = await judge.readPaths(files);
  return verdict.decision === 'allow' ? allow('sed only reads and prints') : verdict;
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
