// The built-in judgement of one simple command. The list is closed: a program runs without asking
// only when it is in programSpecs.ts (or has a module of its own: sed, awk, find, git, test, cd
// and the wrappers), every option is one its table knows, and every path it reads is allowed by
// the guard. Known-dangerous programs ask with a reason the user recognises; all others ask too.
import * as path from 'node:path';
import type { Judgement } from '../../decisions';
import { judgeAwk } from './awk';
import { judgeFind } from './find';
import { judgeGit } from './git';
import { allow, ask, inertOperands, programName, type InvocationJudge } from './judgement';
import { parseOptions, valuesOfKind, type ParsedArguments } from './options';
import { INERT_PROGRAMS, PROGRAM_SPECS, type ProgramSpec } from './programSpecs';
import { judgeSed } from './sed';
import type { ShellWord } from './shell/words';
import { judgeTestWords } from './testExpressions';
import { judgeCd, WRAPPERS } from './wrappers';
import { isWorkspaceWriter, judgeWriter } from './writes';

const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'python', 'python2', 'python3', 'pypy', 'pypy3',
  'node', 'nodejs', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'julia', 'pwsh', 'powershell',
  'osascript', 'tclsh', 'wish', 'expect', 'gdb', 'vim', 'vi', 'nvim', 'emacs', 'busybox', 'ex', 'ed', 'less', 'more', 'man',
]);

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
  [['trap', 'alias', 'builtin', 'enable', 'coproc', 'hash', 'set', 'shopt', 'ulimit', 'umask', 'pushd', 'popd', 'fc', 'history', 'bind', 'complete', 'compgen', 'read', 'mapfile', 'readarray', 'let', 'disown', 'fg', 'bg', 'suspend', 'logout', 'exit', 'return', 'shift', 'getopts', 'jobs', 'declare', 'typeset', 'local', 'export', 'readonly', 'unset'], 'is a shell builtin that changes how the rest of the line runs'],
  [['xargs', 'parallel', 'watch', 'flock', 'chroot', 'nsenter', 'unshare', 'setsid', 'strace', 'ltrace', 'script'], 'runs other commands that cannot be checked'],
  [['npm', 'npx', 'yarn', 'pnpm', 'pip', 'pip3', 'pipx', 'uv', 'poetry', 'cargo', 'go', 'make', 'cmake', 'ninja', 'gradle', 'gradlew', 'mvn', 'dotnet', 'bundle', 'gem', 'composer', 'apt', 'apt-get', 'brew', 'dnf', 'yum', 'pacman', 'snap', 'docker', 'podman', 'kubectl', 'tsc', 'esbuild', 'jest', 'mocha', 'vitest', 'pytest'], 'runs project scripts, builds or installs packages, which can run any code'],
  [['crontab', 'systemctl', 'service', 'mount', 'umount', 'shutdown', 'reboot', 'halt', 'poweroff', 'mkfs', 'fdisk', 'parted', 'iptables', 'useradd', 'userdel', 'passwd'], 'changes the system'],
];

const RISK_BY_NAME = new Map<string, string>(KNOWN_RISKS.flatMap(([names, reason]) => names.map((name) => [name, reason] as [string, string])));

/** Where a program named by absolute path still counts as the system's program of that name. */
const SYSTEM_BIN_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin']);

/** Programs with a rule set of their own. */
const OWN_RULES: Readonly<Record<string, (name: string, args: readonly ShellWord[], judge: InvocationJudge, nameWord: ShellWord) => Promise<Judgement> | Judgement>> = {
  cd: (_name, args, judge) => judgeCd(args, judge),
  git: (_name, args, judge, nameWord) => judgeGit(nameWord, args, judge),
  find: (_name, args, judge) => judgeFind(args, judge),
  sed: (_name, args, judge) => judgeSed(args, judge),
  awk: judgeAwk,
  gawk: judgeAwk,
  mawk: judgeAwk,
  nawk: judgeAwk,
  test: (name, args) => judgeTestWords(name, args),
  '[': (name, args) => judgeTestWords(name, args),
};

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
  const risk = RISK_BY_NAME.get(name);
  if (risk) {
    return isWorkspaceWriter(name) ? judgeWriter(name, args, judge, ask(`${name} ${risk}`)) : ask(`${name} ${risk}`);
  }
  const wrapper = WRAPPERS[name];
  if (wrapper) {
    return wrapper(args, judge);
  }
  const own = OWN_RULES[name];
  if (own) {
    return own(name, args, judge, nameWord);
  }
  if (INERT_PROGRAMS.has(name)) {
    return allow(`${name} only prints its arguments`);
  }
  const spec = PROGRAM_SPECS[name];
  if (!spec) {
    return ask(`${name} is not on the list of read-only programs`);
  }
  return judgeBySpec(name, spec, args, judge);
}

/** An interpreter runs code in every mode but one: an exact, lone `--version`. */
function judgeInterpreter(name: string, args: readonly ShellWord[]): Judgement {
  if (args.length === 1 && args[0].literal && args[0].text === '--version') {
    return allow(`${name} --version only prints its version`);
  }
  return ask(`${name} runs code (a script, inline code or its input), which can do anything`);
}

/** Parses the arguments with the program's table, then judges its paths with the guard. */
export async function judgeBySpec(name: string, spec: ProgramSpec, args: readonly ShellWord[], judge: InvocationJudge): Promise<Judgement> {
  const outcome = parseOptions(name, spec.table, args);
  if (!outcome.ok) {
    return outcome.judgement;
  }
  const parsed = outcome.parsed;
  const problem = spec.check?.(parsed) ?? responseFile(name, spec, parsed);
  if (problem) {
    return ask(problem);
  }
  const operands = operandPaths(name, spec, parsed);
  if (typeof operands === 'string') {
    return ask(operands);
  }
  const paths = [...operands, ...valuesOfKind(parsed, 'path')];
  const follows = spec.followsLinksInFolders;
  if (follows && !parsed.options.some((option) => follows.unless.includes(option.name))) {
    const folder = await judge.firstFolder(operands);
    if (folder) {
      return ask(`${name} reads the files inside the folder ${folder.source} and follows the symbolic links there, which can lead out of the workspace (${follows.unless[0]} turns that off)`);
    }
  }
  if (paths.length === 0) {
    return allow(`${name} only reads`);
  }
  const verdict = await judge.readPaths(paths);
  return verdict.decision === 'allow' ? allow(`${name} only reads`) : verdict;
}

function responseFile(name: string, spec: ProgramSpec, parsed: ParsedArguments): string | undefined {
  const found = spec.responseFiles ? parsed.operands.find((word) => word.prefix.startsWith('@') || !word.literal) : undefined;
  return found ? `${name} ${found.source} may read more options from a file` : undefined;
}

/** The operands that are paths, or why the operands ask. */
function operandPaths(name: string, spec: ProgramSpec, parsed: ParsedArguments): ShellWord[] | string {
  const operands = parsed.operands;
  const rule = spec.operands;
  switch (rule.kind) {
    case 'paths':
      return rule.max !== undefined && operands.length > rule.max ? `${name} with more than ${rule.max} file ${rule.beyond ?? 'is not understood'}` : [...operands];
    case 'inert':
      return inertOperands(name, operands) ?? [];
    case 'none':
      return operands.length > 0 ? `${name} ${operands[0].source}: ${rule.reason}` : [];
    case 'patternThenPaths': {
      if (parsed.options.some((option) => rule.patternOptions.includes(option.name))) {
        return [...operands];
      }
      const [pattern, ...paths] = operands;
      return (pattern ? inertOperands(name, [pattern]) : undefined) ?? paths;
    }
  }
}
