// find reads its own command line: global options, then starting points, then an expression of
// tests and actions. Each primary must be in the table below with its argument kinds; actions
// that run commands, delete or write files ask, and so does any primary the table does not know.
import type { Judgement } from '../../decisions';
import { allow, ask, inertOperands, type InvocationJudge } from './judgement';
import type { ShellWord } from './shell/words';

type Argument = 'inert' | 'path';

/** Tests and read-only actions, by the kinds of the arguments each takes. */
const PRIMARIES: Readonly<Record<string, readonly Argument[]>> = {
  ...Object.fromEntries(
    ['-daystart', '-depth', '-d', '-ignore_readdir_race', '-noignore_readdir_race', '-mount', '-xdev', '-noleaf', '-nowarn', '-warn', '-empty', '-executable',
      '-false', '-true', '-readable', '-writable', '-nogroup', '-nouser', '-print', '-print0', '-ls', '-prune', '-quit', '!', '-not', '-a', '-and',
      '-o', '-or', ',', '(', ')', '-help', '--help', '-version', '--version'].map((name) => [name, []]),
  ),
  ...Object.fromEntries(
    ['-maxdepth', '-mindepth', '-amin', '-atime', '-cmin', '-ctime', '-mmin', '-mtime', '-gid', '-group', '-ilname', '-iname', '-inum', '-ipath', '-iregex',
      '-iwholename', '-links', '-lname', '-name', '-path', '-perm', '-regex', '-regextype', '-size', '-type', '-uid', '-used', '-user', '-wholename', '-xtype',
      '-context', '-printf', '-fstype'].map((name) => [name, ['inert'] as const]),
  ),
  ...Object.fromEntries(['-newer', '-anewer', '-cnewer', '-samefile'].map((name) => [name, ['path'] as const])),
};

/** Primaries that run programs, delete or write files. */
const ACTIONS: Readonly<Record<string, string>> = {
  '-exec': 'runs a command for each file',
  '-execdir': 'runs a command for each file',
  '-ok': 'runs a command for each file',
  '-okdir': 'runs a command for each file',
  '-delete': 'deletes files',
  '-fprint': 'writes a file',
  '-fprint0': 'writes a file',
  '-fprintf': 'writes a file',
  '-fls': 'writes a file',
  '-follow': 'follows symbolic links, which can lead it out of the workspace',
  '-files0-from': 'reads its starting points from a file or standard input, which cannot be checked',
};

/** The argument kinds of a primary; -newerXY compares with a file unless Y is t (a date). */
function primary(name: string): readonly Argument[] | undefined {
  const newer = /^-newer([aBcm])([aBcmt])$/.exec(name);
  if (newer) {
    return [newer[2] === 't' ? 'inert' : 'path'];
  }
  return Object.prototype.hasOwnProperty.call(PRIMARIES, name) ? PRIMARIES[name] : undefined;
}

/** True where find starts reading its expression. */
function startsExpression(word: ShellWord): boolean {
  return (word.prefix.startsWith('-') && word.text !== '-') || ['(', '!', ')', ','].includes(word.text) || (!word.literal && word.prefix === '');
}

export async function judgeFind(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  let index = 0;
  // Global options: -H -L -P, -D debugopts, -Olevel.
  while (index < args.length && args[index].literal && /^-([HLP]|D|O\d*)$/.test(args[index].text)) {
    if (args[index].text === '-L') {
      return ask('find -L follows symbolic links, which can lead it out of the workspace');
    }
    index += args[index].text === '-D' ? 2 : 1;
  }
  const starts: ShellWord[] = [];
  while (index < args.length && !startsExpression(args[index])) {
    starts.push(args[index]);
    index += 1;
  }
  const paths: ShellWord[] = [...starts];
  while (index < args.length) {
    const word = args[index];
    if (!word.literal || word.expands) {
      return ask(`find gets ${word.source} where a test or action belongs, and it is only known when it runs`);
    }
    if (ACTIONS[word.text]) {
      return ask(`find ${word.text} ${ACTIONS[word.text]}`);
    }
    const kinds = primary(word.text);
    if (!kinds) {
      return ask(`find ${word.text} is not a test this policy knows to be read-only`);
    }
    const values = args.slice(index + 1, index + 1 + kinds.length);
    if (values.length < kinds.length) {
      return ask(`find ${word.text} is missing its value`);
    }
    const inert = values.filter((_value, position) => kinds[position] === 'inert');
    const expanding = inertOperands('find', inert);
    if (expanding) {
      return ask(expanding);
    }
    paths.push(...values.filter((_value, position) => kinds[position] === 'path'));
    index += 1 + kinds.length;
  }
  if (paths.length === 0) {
    return allow('find only lists files');
  }
  const verdict = await judge.readPaths(paths);
  return verdict.decision === 'allow' ? allow('find only lists files') : verdict;
}
