// The built-in judgement of one simple command: which programs only read, which flags of
// harmless-looking programs can run code or write files, and why everything else asks.
import * as path from 'node:path';
import type { Judgement } from '../decisions';
import type { ShellWord } from '../shell/words';

/** What the rules need from the policy: path checks, `cd`, and judging a wrapped command. */
export interface InvocationJudge {
  /** Judges the words as paths the command reads (relative to every directory the line may be in). */
  readPaths(words: readonly ShellWord[]): Promise<Judgement>;
  /** Judges a `cd` to the word (undefined: `cd` alone, the home folder) and records the new directory. */
  changeDirectory(word: ShellWord | undefined): Promise<Judgement>;
  /** Judges the command a wrapper (env, timeout, nice, time, command...) runs, settings included. */
  wrapped(words: readonly ShellWord[]): Promise<Judgement>;
}

const allow = (reason: string): Judgement => ({ decision: 'allow', reason });
const ask = (reason: string): Judgement => ({ decision: 'ask', reason });

/** Programs whose arguments are never paths they open: nothing to check beyond the name. */
const INERT_ARGUMENTS = new Set([
  'echo', 'printf', 'pwd', 'true', 'false', ':', 'sleep', 'whoami', 'id', 'uname', 'nproc', 'uptime', 'free',
  'locale', 'ps', 'which', 'whereis', 'type', 'basename', 'dirname', 'seq', 'expr', 'test', '[', 'printenv', 'tty',
  'groups', 'arch', 'getconf', 'cal', 'wait', 'jobs', 'times', 'caller',
]);

/** Programs that only read the files they are given (checked like workspace_read_file paths). */
const READS_PATHS = new Set([
  'ls', 'cat', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'wc', 'sort', 'uniq', 'tr', 'cut', 'cmp', 'diff', 'tree',
  'column', 'realpath', 'readlink', 'stat', 'file', 'du', 'df', 'jq', 'nl', 'tac', 'rev', 'od', 'xxd', 'hexdump',
  'strings', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'comm',
  'join', 'paste', 'fold', 'fmt', 'expand', 'unexpand', 'base64', 'rg', 'find', 'sed', 'awk', 'gawk', 'mawk', 'date',
  'hostname',
]);

const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'python', 'python2', 'python3', 'pypy', 'pypy3',
  'node', 'nodejs', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'julia', 'pwsh', 'powershell',
  'osascript', 'tclsh', 'wish', 'expect', 'gdb', 'vim', 'vi', 'nvim', 'emacs', 'busybox',
]);

const INLINE_CODE_FLAGS = new Set(['-c', '-e', '-E', '-p', '-r', '-x', '--eval', '--print', '--command', '-Command', '-command', '--exec']);

/** Programs that ask, with the reason shown to the user. */
const KNOWN_RISKS: ReadonlyArray<[readonly string[], string]> = [
  [['rm', 'rmdir', 'unlink', 'shred', 'del', 'erase', 'rd', 'truncate'], 'deletes or destroys files'],
  [['mv', 'cp', 'ln', 'install', 'touch', 'mkdir', 'tee', 'dd', 'rsync', 'tar', 'zip', 'unzip', 'patch'], 'creates or changes files'],
  [['curl', 'wget', 'nc', 'ncat', 'netcat', 'ssh', 'scp', 'sftp', 'ftp', 'telnet', 'socat'], 'uses the network (downloads can carry instructions or code)'],
  [['chmod', 'chown', 'chgrp', 'setfacl', 'chattr'], 'changes file permissions or ownership'],
  [['kill', 'pkill', 'killall', 'taskkill'], 'stops processes'],
  [['sudo', 'su', 'doas', 'pkexec', 'runuser'], 'runs a command as another user'],
  [['eval'], 'runs a string as shell code, which cannot be checked'],
  [['source', '.'], 'runs the commands of a file in this shell, which cannot be checked'],
  [['exec'], 'replaces the shell with another program or changes its file descriptors'],
  [['trap', 'alias', 'builtin', 'enable', 'coproc', 'hash', 'set', 'shopt', 'ulimit', 'umask', 'pushd', 'popd', 'fc', 'history', 'bind', 'complete', 'compgen', 'read', 'mapfile', 'readarray', 'let', 'disown', 'fg', 'bg', 'suspend', 'logout', 'exit', 'return', 'shift', 'getopts'], 'is a shell builtin that changes how the rest of the line runs'],
  [['xargs', 'parallel', 'watch', 'flock', 'chroot', 'nsenter', 'unshare', 'setsid', 'strace', 'ltrace', 'script'], 'runs other commands that cannot be checked'],
  [['npm', 'npx', 'yarn', 'pnpm', 'pip', 'pip3', 'pipx', 'uv', 'poetry', 'cargo', 'go', 'make', 'cmake', 'ninja', 'gradle', 'gradlew', 'mvn', 'dotnet', 'bundle', 'gem', 'composer', 'apt', 'apt-get', 'brew', 'dnf', 'yum', 'pacman', 'snap', 'docker', 'podman', 'kubectl', 'tsc', 'esbuild', 'jest', 'mocha', 'vitest', 'pytest'], 'runs project scripts, builds or installs packages, which can run any code'],
  [['crontab', 'systemctl', 'service', 'mount', 'umount', 'shutdown', 'reboot', 'halt', 'poweroff', 'mkfs', 'fdisk', 'parted', 'iptables', 'useradd', 'userdel', 'passwd'], 'changes the system'],
];

const RISK_BY_NAME = new Map<string, string>(KNOWN_RISKS.flatMap(([names, reason]) => names.map((name) => [name, reason] as [string, string])));

/** Where a program named by absolute path still counts as the system's program of that name. */
const SYSTEM_BIN_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin']);

/** The program's name for rules: quote-removed, by basename, so `/bin/rm` and `r''m` are rm. */
export function programName(word: ShellWord): string {
  return path.posix.basename(word.text) || word.text;
}

function positional(words: readonly ShellWord[]): ShellWord[] {
  const result: ShellWord[] = [];
  let afterDashes = false;
  for (const word of words) {
    if (!afterDashes && word.text === '--') {
      afterDashes = true;
    } else if (afterDashes || !word.text.startsWith('-') || word.text === '-') {
      result.push(word);
    }
  }
  return result;
}

/**
 * Paths hidden inside options: `--file=/etc/shadow`, `--files0-from=list`, `-f~/.ssh/key`. Values
 * that look like paths (a slash, a leading dot or tilde) are judged like positional paths.
 */
function optionValuePaths(words: readonly ShellWord[]): ShellWord[] {
  const result: ShellWord[] = [];
  for (const word of words) {
    const value = /^--[^=]+=(.*)$/s.exec(word.text)?.[1] ?? /^-[A-Za-z](.+)$/s.exec(word.text)?.[1];
    if (value !== undefined && /^[.~]|\//.test(value)) {
      result.push({ ...word, text: value });
    }
  }
  return result;
}

/** Arguments that can turn into other arguments at run time, which flag checks cannot see. */
function unpredictable(args: readonly ShellWord[]): ShellWord | undefined {
  return args.find((word) => !word.literal || word.expands);
}

/** Judges one simple command. `words[0]` is the literal command name. */
export async function judgeInvocation(words: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const nameWord = words[0];
  const name = programName(nameWord);
  const args = words.slice(1);
  if (nameWord.text.includes('/') && !SYSTEM_BIN_DIRS.has(path.posix.dirname(nameWord.text))) {
    return ask(`runs the program ${nameWord.text} from a path, which can contain anything`);
  }
  if (INTERPRETERS.has(name)) {
    return judgeInterpreter(name, args);
  }
  const wrapper = WRAPPERS[name];
  if (wrapper) {
    return wrapper(args, judge);
  }
  if (name === 'cd') {
    return judgeCd(args, judge);
  }
  if (name === 'git') {
    return judgeGit(args, judge);
  }
  const risk = RISK_BY_NAME.get(name);
  if (risk) {
    return ask(`${name} ${risk}`);
  }
  if (args.some((word) => /^--output(=|$)/.test(word.text))) {
    return ask(`${name} --output writes a file`);
  }
  if (INERT_ARGUMENTS.has(name)) {
    return allow(`${name} only prints information`);
  }
  if (!READS_PATHS.has(name)) {
    return ask(`${name} is not on the list of read-only commands`);
  }
  const special = SPECIAL_FLAGS[name]?.(args);
  if (special) {
    return special;
  }
  const hidden = unpredictable(args);
  if (hidden) {
    return ask(`${name} gets the argument ${hidden.source}, which is only known when it runs, so its flags and paths cannot be checked`);
  }
  const paths = await judge.readPaths([...positional(args), ...optionValuePaths(args)]);
  return paths.decision === 'allow' ? allow(`${name} only reads`) : paths;
}

/** `cd [-L|-P [-e]] [-@] [--] [dir]`: options are skipped, the one folder is judged and tracked. */
async function judgeCd(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  let index = 0;
  while (index < args.length && /^-[LPe@]+$/.test(args[index].text)) {
    index += 1;
  }
  if (args[index]?.text === '--') {
    index += 1;
  }
  const rest = args.slice(index);
  if (rest.length > 1 || (rest[0] && !rest[0].literal)) {
    return judge.changeDirectory(rest[0] ?? args[0]).then((judgement) =>
      rest.length > 1 ? { decision: 'ask', reason: 'cd with more than one folder is not understood' } : judgement,
    );
  }
  if (rest.length === 0 && index < args.length) {
    return ask(`cd ${args[index].text} is not understood`);
  }
  return judge.changeDirectory(rest[0]);
}

function judgeInterpreter(name: string, args: readonly ShellWord[]): Judgement {
  if (args.length === 1 && ['--version', '-V', '-v', 'version'].includes(args[0].text)) {
    return allow(`${name} ${args[0].text} only prints its version`);
  }
  const inline = args.find((word) => INLINE_CODE_FLAGS.has(word.text) || /^-[a-zA-Z]*[ce]$/.test(word.text));
  if (inline) {
    return ask(`${name} ${inline.text} runs inline code`);
  }
  if (args.length === 0 || positional(args).length === 0) {
    return ask(`${name} runs the code it reads from its input`);
  }
  return ask(`${name} runs a script, which can do anything`);
}

type WrapperJudge = (args: readonly ShellWord[], judge: InvocationJudge) => Promise<Judgement>;

/**
 * Skips a wrapper's own options and judges what it runs. `valued` are options that take the next
 * word; `leading` says how many plain words (such as timeout's duration) come before the command.
 */
function wrapperOf(name: string, valued: readonly string[], leading = 0, refused: readonly string[] = []): WrapperJudge {
  return async (args, judge) => {
    let index = 0;
    while (index < args.length && args[index].text.startsWith('-') && args[index].text !== '-') {
      const option = args[index].text;
      if (option === '--') {
        index += 1;
        break;
      }
      if (refused.some((flag) => option === flag || option.startsWith(`${flag}=`))) {
        return ask(`${name} ${option} changes how the wrapped command runs`);
      }
      index += valued.includes(option) ? 2 : 1;
    }
    index += leading;
    const wrapped = args.slice(index);
    const hidden = unpredictable(args.slice(0, index + 1));
    if (hidden) {
      return ask(`${name} gets ${hidden.source}, which is only known when it runs`);
    }
    if (wrapped.length === 0) {
      return name === 'env' ? allow('env only prints the environment') : ask(`${name} is used without a command`);
    }
    return judge.wrapped(wrapped);
  };
}

const WRAPPERS: Record<string, WrapperJudge> = {
  env: async (args, judge) => {
    const assignment = args.find((word) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text));
    if (assignment) {
      return ask(`env sets ${assignment.text.split('=')[0]} for the command, which can change what it runs`);
    }
    return wrapperOf('env', ['-u', '--unset'], 0, ['-S', '--split-string', '-C', '--chdir', '-P'])(args, judge);
  },
  command: async (args, judge) => {
    if (args.some((word) => word.text === '-v' || word.text === '-V')) {
      return allow('command -v only looks a command up');
    }
    return wrapperOf('command', [])(args, judge);
  },
  nice: wrapperOf('nice', ['-n', '--adjustment']),
  timeout: wrapperOf('timeout', ['-s', '--signal', '-k', '--kill-after'], 1),
  time: wrapperOf('time', ['-f', '--format', '-o', '--output'], 0, ['-o', '--output', '-a', '--append']),
  nohup: wrapperOf('nohup', []),
  stdbuf: wrapperOf('stdbuf', ['-i', '-o', '-e']),
  ionice: wrapperOf('ionice', ['-c', '-n', '-p', '-P', '-u'], 0, ['-p', '-P', '-u']),
};

const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);

/** Checks of programs with flags that run code or write files; undefined when none applies. */
const SPECIAL_FLAGS: Record<string, (args: readonly ShellWord[]) => Judgement | undefined> = {
  find: (args) => {
    const action = args.find((word) => FIND_ACTIONS.has(word.text));
    return action ? ask(`find ${action.text} runs commands or deletes or writes files`) : undefined;
  },
  sed: judgeSed,
  awk: (args) => judgeAwk('awk', args),
  gawk: (args) => judgeAwk('gawk', args),
  mawk: (args) => judgeAwk('mawk', args),
  rg: (args) => {
    const pre = args.find((word) => /^--pre(-glob)?(=|$)/.test(word.text));
    return pre ? ask(`rg ${pre.text} runs a program on every file it searches`) : undefined;
  },
  sort: (args) => {
    if (args.some((word) => word.text.startsWith('--compress-program'))) {
      return ask('sort --compress-program runs a program');
    }
    const output = args.find((word) => /^-[a-zA-Z]*o/.test(word.text) && !word.text.startsWith('--'));
    return output ? ask('sort -o writes a file') : undefined;
  },
  uniq: (args) => (positional(args).length > 1 ? ask('uniq with two file names writes the second one') : undefined),
  xxd: (args) => (positional(args).length > 1 ? ask('xxd with two file names writes the second one') : undefined),
  tree: (args) => (args.some((word) => word.text === '-o') ? ask('tree -o writes a file') : undefined),
  file: (args) => (args.some((word) => word.text === '-C' || word.text === '--compile') ? ask('file -C writes a compiled magic file') : undefined),
  date: (args) => (args.some((word) => /^(-s|--set)/.test(word.text)) ? ask('date --set changes the system clock') : undefined),
  hostname: (args) => (positional(args).length > 0 || args.some((word) => word.text === '-F' || word.text === '--file') ? ask('hostname with a name changes the host name') : undefined),
};

function judgeSed(args: readonly ShellWord[]): Judgement | undefined {
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

function judgeAwk(name: string, args: readonly ShellWord[]): Judgement | undefined {
  for (const word of args) {
    const text = word.text;
    if (text === '-f' || text.startsWith('--file') || text === '-i' || text.startsWith('--include') || text === '-l' || text.startsWith('--load') || text === '-E' || text.startsWith('--exec')) {
      return ask(`${name} ${text} loads a program from a file, which cannot be checked`);
    }
  }
  // Programs can come as the first operand or through any number of -e/--source options, so every
  // argument is checked: a file name with these characters asks too, which is the safe side.
  for (const word of args) {
    const unsafe = /\bsystem\s*\(|\|&?|>|\bgetline\b|@load|\bENVIRON\b/.exec(word.text);
    if (unsafe) {
      return ask(`${name} program uses ${unsafe[0].trim()}, which can run commands or read and write files`);
    }
  }
  return positional(args).length === 0 ? ask(`${name} has no program to check`) : undefined;
}

const GIT_READ_ONLY = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'annotate', 'shortlog', 'describe', 'rev-parse', 'rev-list', 'ls-files',
  'ls-tree', 'cat-file', 'diff-tree', 'diff-files', 'diff-index', 'merge-base', 'name-rev', 'grep', 'whatchanged',
  'count-objects', 'check-ignore', 'check-attr', 'show-ref', 'for-each-ref', 'version', 'help', 'var', 'cherry',
  'range-diff', 'show-branch', 'verify-commit', 'verify-tag',
]);

const GIT_NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'submodule', 'remote-update', 'send-email', 'request-pull']);

async function judgeGit(args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  let index = 0;
  const directories: ShellWord[] = [];
  while (index < args.length && args[index].text.startsWith('-')) {
    const option = args[index].text;
    if (['--version', '-v', '--help', '-h', '--html-path', '--man-path', '--info-path'].includes(option)) {
      return allow(`git ${option} only prints information`);
    }
    if (option === '-C') {
      if (args[index + 1]) {
        directories.push(args[index + 1]);
      }
      index += 2;
    } else if (['--no-pager', '-P', '--paginate', '-p', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects', '--bare'].includes(option)) {
      index += 1;
    } else {
      return ask(`git ${option} changes git's configuration for the command, which can make it run programs`);
    }
  }
  const hidden = unpredictable(args);
  if (hidden) {
    return ask(`git gets the argument ${hidden.source}, which is only known when it runs`);
  }
  const sub = args[index]?.text;
  const rest = args.slice(index + 1);
  if (sub === undefined) {
    return allow('git alone only prints help');
  }
  if (GIT_NETWORK.has(sub)) {
    return ask(`git ${sub} uses the network or changes remote repositories`);
  }
  const written = rest.find((word) => /^(--output|-o$|--ext-diff|--open-files-in-pager|-O)/.test(word.text));
  if (written) {
    return ask(`git ${sub} ${written.text} writes a file or runs a program`);
  }
  const listing = gitListingVerdict(sub, rest);
  if (listing) {
    return listing;
  }
  if (!GIT_READ_ONLY.has(sub)) {
    return ask(`git ${sub} changes the repository or the working tree`);
  }
  const where = await judge.readPaths(directories);
  return where.decision === 'allow' ? allow(`git ${sub} only reads the repository`) : where;
}

/** git commands that list by default and change things with arguments. */
function gitListingVerdict(sub: string, rest: readonly ShellWord[]): Judgement | undefined {
  const texts = rest.map((word) => word.text);
  const changes = (reason: string): Judgement => ask(`git ${sub} ${texts.join(' ')} ${reason}`.replace(/\s+/g, ' '));
  switch (sub) {
    case 'branch':
    case 'tag': {
      const listing = texts.some((text) => text === '-l' || text === '--list' || text === '--show-current');
      const flags = sub === 'branch' ? /^(-[dDmMcCfut]|--delete|--move|--copy|--force|--set-upstream|--unset-upstream|--edit-description|--track)/ : /^(-[dfasemuF]|--delete|--force|--annotate|--sign|--message|--file|--local-user|--edit)/;
      const modifying = texts.some((text) => flags.test(text));
      if (modifying || (!listing && positional(rest).length > 0)) {
        return changes(`creates, renames or deletes a ${sub}`);
      }
      return allow(`git ${sub} only lists`);
    }
    case 'remote':
      return texts.every((text) => text === '-v' || text === '--verbose') || texts[0] === 'get-url' ? allow('git remote only lists') : changes('changes or contacts remotes');
    case 'stash':
      return texts[0] === 'list' || texts[0] === 'show' ? allow(`git stash ${texts[0]} only reads`) : changes('changes the stash and the working tree');
    case 'config': {
      const reading = texts.some((text) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l)$/.test(text));
      const writing = texts.some((text) => /^(--add|--unset|--unset-all|--replace-all|--edit|-e|--rename-section|--remove-section)$/.test(text));
      return reading && !writing ? allow('git config only reads settings') : changes('changes git settings');
    }
    case 'reflog':
      return texts.length === 0 || texts[0] === 'show' || texts[0].startsWith('-') ? allow('git reflog only lists') : changes('changes the reflog');
    case 'worktree':
      return texts[0] === 'list' ? allow('git worktree list only lists') : changes('changes worktrees');
    case 'notes':
      return texts[0] === 'list' || texts[0] === 'show' ? allow('git notes only reads') : changes('changes notes');
    default:
      return undefined;
  }
}
