// The built-in judgement of one simple command: which programs only read, which flags of
// harmless-looking programs can run code or write files, and why everything else asks. Wrappers,
// sed, awk and git have rule sets of their own beside this file.
import * as path from 'node:path';
import type { Judgement } from '../../decisions';
import { judgeAwk } from './awk';
import { judgeGit } from './git';
import { allow, ask, optionValuePaths, positional, programName, unpredictable, type InvocationJudge } from './judgement';
import { judgeSed } from './sed';
import type { ShellWord } from './shell/words';
import { WRAPPERS } from './wrappers';

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
