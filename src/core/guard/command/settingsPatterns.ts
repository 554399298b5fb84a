// The user's runCommand.allow and runCommand.deny patterns: what they match against and how.
import { programName } from './judgement';
import type { Judgement } from '../../decisions';
import type { TerminalAskRule } from '../../settings';
import type { ShellWord } from './shell/words';

/** The text settings patterns are matched against: program name by basename, then the arguments. */
export function normalisedLine(words: readonly ShellWord[]): string {
  return [programName(words[0]), ...words.slice(1).map((word) => (word.literal ? word.text : word.source))].join(' ');
}

/** A `/regex/flags` entry tests the line; any other entry is a prefix of whole words. */
export function matchesPattern(pattern: string, line: string): boolean {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (regex) {
    try {
      return new RegExp(regex[1], regex[2]).test(line);
    } catch {
      return false;
    }
  }
  const prefix = pattern.trim().split(/\s+/).filter(Boolean);
  const words = line.split(' ');
  return prefix.length > 0 && prefix.every((part, index) => words[index] === part);
}

/**
 * Programs no "Always allow" rule is offered for: shells, interpreters and wrappers run whatever
 * their arguments say, and a rule for them would let any program through (VS Code's terminal tool
 * makes the same exception).
 */
const RUNS_ANYTHING = new Set([
  'bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'busybox', 'pwsh', 'powershell',
  'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'osascript', 'tclsh', 'expect',
  'eval', 'exec', 'source', '.', 'command', 'builtin', 'sudo', 'su', 'doas', 'pkexec', 'runuser', 'env', 'xargs', 'parallel', 'nohup', 'setsid',
  'nice', 'ionice', 'timeout', 'time', 'stdbuf', 'chroot', 'unshare', 'nsenter', 'flock', 'watch', 'script', 'ssh', 'curl', 'wget',
]);

/** Programs whose first word names what they do (`git commit`, `npm test`): their rule is that prefix. */
const SUBCOMMAND_PROGRAMS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'npx', 'pnpx', 'cargo', 'go', 'dotnet', 'mvn', 'gradle', 'make', 'pip', 'pip3', 'poetry', 'uv', 'pipenv',
  'docker', 'podman', 'kubectl', 'helm', 'terraform', 'rustup', 'composer', 'bundle', 'gem', 'swift', 'mix', 'flutter', 'dart', 'tsc',
]);

/** Sub-commands whose next word is what runs (`npm run build`): the rule takes that word too. */
const RUNS_NAMED = new Set(['run', 'run-script', 'exec', 'x', 'dlx']);

/** A plain word a prefix rule can hold: no option, path, expansion or space. */
const PLAIN_WORD = /^[A-Za-z0-9][A-Za-z0-9_.:@+-]*$/;

/**
 * The runCommand.allow entry that would let one simple command through from now on, or undefined
 * when none should be offered. For a program with sub-commands it is the prefix up to the
 * sub-command (`npm run build`, `git commit`); for any other program it is the exact command as
 * written, anchored at both ends (`/^rm -rf build$/`), so the rule allows what the user saw and
 * nothing more.
 */
export function suggestedAllowRule(words: readonly ShellWord[]): string | undefined {
  if (words.length === 0 || words.some((word) => !word.literal || word.expands || /\s/.test(word.text) || word.text === '')) {
    return undefined;
  }
  const program = programName(words[0]);
  if (RUNS_ANYTHING.has(program)) {
    return undefined;
  }
  if (SUBCOMMAND_PROGRAMS.has(program)) {
    const sub = words[1]?.text;
    if (sub === undefined || !PLAIN_WORD.test(sub)) {
      return exactRule(words);
    }
    const named = words[2]?.text;
    if (RUNS_NAMED.has(sub)) {
      return named !== undefined && PLAIN_WORD.test(named) ? `${program} ${sub} ${named}` : undefined;
    }
    return `${program} ${sub}`;
  }
  return exactRule(words);
}

function exactRule(words: readonly ShellWord[]): string {
  return `/^${normalisedLine(words).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;
}

/**
 * The entries of `chat.tools.terminal.autoApprove` (already merged over its scopes) that deny:
 * `false`, or `{ approve: false }`. `true` and `null` (no opinion) entries are not ours to honour:
 * only the commands VS Code stops become a floor.
 */
export function terminalAskRules(setting: unknown): TerminalAskRule[] {
  if (setting === null || typeof setting !== 'object' || Array.isArray(setting)) {
    return [];
  }
  const rules: TerminalAskRule[] = [];
  for (const [pattern, value] of Object.entries(setting)) {
    if (pattern.trim() === '') {
      continue;
    }
    if (value === false) {
      rules.push({ pattern, commandLine: false });
    } else if (value !== null && typeof value === 'object' && (value as { approve?: unknown }).approve === false) {
      rules.push({ pattern, commandLine: (value as { matchCommandLine?: unknown }).matchCommandLine === true });
    }
  }
  return rules;
}

/**
 * Whether a VS Code terminal rule matches: a `/regex/flags` is tested as VS Code tests it; a plain
 * entry matches text that starts with it at a word boundary (`rm` matches `rm -rf x`, not `rmdir`).
 */
export function matchesTerminalRule(rule: TerminalAskRule, text: string): boolean {
  if (/^\/(.*)\/([a-z]*)$/s.test(rule.pattern)) {
    return matchesPattern(rule.pattern, text);
  }
  const key = rule.pattern.trim();
  if (!text.startsWith(key)) {
    return false;
  }
  const next = text.charAt(key.length);
  return next === '' || !/\w/.test(key.charAt(key.length - 1)) || !/\w/.test(next);
}

/** The settings that judge a command by how it is written. */
export interface CommandPatterns {
  readonly deny: readonly string[];
  readonly allow: readonly string[];
  readonly terminalAskRules: readonly TerminalAskRule[];
}

/**
 * The settings' judgement of one command's words as written (`normalisedLine`), for every shell's
 * policy: runCommand.deny refuses, a VS Code rule that asks asks whatever allow says, runCommand.allow
 * lets it run; `by` says which, undefined when none matches.
 */
export function judgeByPatterns(line: string, patterns: CommandPatterns): { readonly judgement: Judgement; readonly by: 'deny' | 'terminal' | 'allow' } | undefined {
  const denied = patterns.deny.find((pattern) => matchesPattern(pattern, line));
  if (denied) {
    return { by: 'deny', judgement: { decision: 'deny', reason: `matches the deny pattern ${denied} of workspaceAgentTools.runCommand.deny` } };
  }
  const floor = patterns.terminalAskRules.find((rule) => !rule.commandLine && matchesTerminalRule(rule, line));
  if (floor) {
    return { by: 'terminal', judgement: { decision: 'ask', reason: `matches "${floor.pattern}" of VS Code's chat.tools.terminal.autoApprove, which asks for it` } };
  }
  const allowed = patterns.allow.find((pattern) => matchesPattern(pattern, line));
  return allowed ? { by: 'allow', judgement: { decision: 'allow', reason: `matches ${allowed} of workspaceAgentTools.runCommand.allow` } } : undefined;
}

/** A VS Code rule that asks for the whole command line (`commandLine: true`), as the line's finding. */
export function wholeLineAskRule(command: string, rules: readonly TerminalAskRule[]): Judgement | undefined {
  const floor = rules.find((rule) => rule.commandLine && matchesTerminalRule(rule, command));
  return floor && { decision: 'ask', reason: `the command line matches "${floor.pattern}" of VS Code's chat.tools.terminal.autoApprove, which asks for it` };
}
