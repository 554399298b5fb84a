// The first step of workspace_run_command, and what its chat confirmation shares with it: the
// line and the folder checked, the environment, the policy's verdict and where the command would
// run. Everything refused here is refused before anyone is asked.
import * as path from 'node:path';
import type { ToolContext } from '../../context';
import { ToolError } from '../../errors';
import { commandPolicyOptions } from '../../guard/command/pathJudge';
import { evaluateCommandPolicy } from '../../guard/command/policy';
import { evaluatePowerShellPolicy, judgeCmdLine } from '../../guard/command/powershell/policy';
import { GIT_SAFETY_ENVIRONMENT } from '../../guard/command/gitSafety';
import { describeVerdict, type CommandVerdict } from '../../guard/command/verdict';
import { judgeLocation, resolveRoots } from '../../guard/judgeLocation';
import { denialMessage } from '../../guard/rules';
import { resolveToolPath } from '../../guard/workspacePaths';
import { displayPath, fileLocation, isInside, isInsidePath } from '../../location';
import type { CommandHost, ShellKind } from '../../ports/process';
import { argumentSizeProblem, type ArgumentSizeProblem } from '../../process/argumentLimits';
import { nonInteractiveEnvironment, searchPathVariable, withoutSecrets } from '../../process/commandEnvironment';
import { shellInvocation } from '../../process/shellChoice';
import { sensitiveLocalPaths } from '../../guard/protectedNames';
import { refusedGrant, searchPathOf } from '../../sandbox/grants';
import { placeCommand, withCaseInsensitiveFolders, type ExtraPermission, type Placement } from '../../sandbox/placement';
import { mayAskAfter } from './askAfter';
import { compileWaitFor } from './backgroundResults';
import { bulleted } from './format';

export interface RunCommandInput {
  command: string;
  cwd?: string;
  timeout?: number;
  permissions?: ExtraPermission;
  /** One folder outside the workspace made writable in the sandbox for this run (sandbox/grants.ts). */
  writable_path?: string;
  background?: boolean;
  wait_for?: string;
  on_timeout?: OnTimeout;
  /** Standard input a terminal the call can type into (workspace_send_input), instead of end of file. */
  interactive?: boolean;
}

/** What happens to a foreground command still running at its timeout: it moves to the background (the default), or it is stopped. */
export type OnTimeout = 'background' | 'kill';

export const DEFAULT_TIMEOUT_SECONDS = 120;
/** How long a background start waits for wait_for (or the end) before it returns with the output so far. */
export const DEFAULT_BACKGROUND_WAIT_SECONDS = 30;

/** Where a command may run: the sandbox (with or without the network) or the host, and who approves. */
export type RunnablePlacement = Exclude<Placement, { where: 'refused' }>;

/** The folder a command runs in: on the host's disk, and as the model sees it. */
export interface CommandCwd {
  readonly path: string;
  readonly shown: string;
}

/** A command checked and judged, ready to be approved and run. */
export interface PreparedCommand {
  readonly host: CommandHost;
  /** The command line as the model sent it (the verdict's commandLine may add git's safety options). */
  readonly command: string;
  readonly cwd: CommandCwd;
  /** The environment it starts from: non-interactive, PATH without the folders a command can write. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The names of the secret variables left out of `env` (withoutSecrets). */
  readonly withheld: readonly string[];
  readonly verdict: CommandVerdict;
  /** Where it runs; `approve` returns the command with the placement the user chose. */
  readonly placement: RunnablePlacement;
  /** The folder outside the workspace the call asked to make writable in the sandbox (the extension's own question asks). */
  readonly grant?: string;
  readonly background: boolean;
  readonly waitFor: ((line: string) => boolean) | undefined;
  /** The foreground's time limit, or how long a background start waits. */
  readonly timeoutSeconds: number;
  /** A foreground command still running at the timeout: moved to the background, or stopped. */
  readonly onTimeout: OnTimeout;
  /** Its standard input: a terminal to answer prompts through, or end of file. */
  readonly interactive: boolean;
  /**
   * runCommand.askAfterStaged let it run staged without the policy's question (askAfter.ts): then
   * `placement` has no network and no approval, and `question` is the placement to ask with if
   * staging or the checkpoint turns out missing before it runs.
   */
  readonly askAfter?: { readonly question: Extract<RunnablePlacement, { where: 'sandbox' }> };
}

export async function prepareCommand(input: RunCommandInput, ctx: ToolContext): Promise<PreparedCommand> {
  const host = commandHost(ctx);
  const command = checkedCommand(input.command);
  if (input.wait_for !== undefined && !input.background) {
    throw new ToolError('wait_for only applies with background: true. Either add background: true to start a long-running process and wait for its ready line, or leave wait_for out to run the command to its end.');
  }
  if (input.on_timeout === 'kill' && input.background) {
    throw new ToolError('on_timeout: "kill" only applies to a foreground command: with background: true the timeout only ends the wait, and the command keeps running. Leave on_timeout out, and stop the command with workspace_stop_command when you no longer need it.');
  }
  const waitFor = compileWaitFor(input.wait_for);
  if (input.background) {
    // Refused before anyone is asked: a question for a command that cannot start wastes the user's time.
    host.background.checkRoom(ctx.settings.runCommandMaxBackground);
  }
  const cwd = await resolveCommandCwd(input.cwd, ctx);
  // Secrets stay out of every command's environment, sandboxed or not (env, printenv, /proc/self/environ).
  const grant = input.writable_path === undefined ? undefined : await grantedFolder(input.writable_path, host, ctx);
  const { env, withheld } = withoutSecrets(nonInteractiveEnvironment(host.environment(), await writableSearchPathEntries(host, ctx, grant), ctx.workspace.platform), ctx.settings.runCommandPassEnvironment);
  // Refused before anyone is asked: the kernel would not start it, and nothing may be held for it.
  refuseOversized(argumentSizeProblem(shellArgv(host, command), env));
  const verdict = await judgeCommand(command, cwd.path, ctx);
  if (verdict.decision === 'deny') {
    throw new ToolError(`The command was refused by the command policy:\n${bulleted(describeVerdict(verdict))}\nSuggestion: run something else, or ask the user to run it themselves.`);
  }
  const placement = await placeFor(verdict.decision, input.permissions, ctx, host, verdict.readOnly === true);
  if (placement.where === 'refused') {
    throw new ToolError(`The command was not run: ${placement.why}. Ask the user to install the sandbox or change the setting, or to run the command themselves.`);
  }
  const background = input.background ?? false;
  const timeoutSeconds = input.timeout ?? (background ? DEFAULT_BACKGROUND_WAIT_SECONDS : DEFAULT_TIMEOUT_SECONDS);
  // Widening the sandbox is asked in the extension's own question, like leaving it; outside the sandbox there is nothing to widen.
  const granted = grant && placement.where === 'sandbox'
    ? { grant, placement: { ...placement, approval: 'own' as const, why: `the call asked to make ${grant} writable` } }
    : { placement };
  // git the policy placed its safety options on fetches nothing lazily either (gitSafety.ts).
  const runEnv = verdict.commandLine === undefined ? env : { ...env, ...GIT_SAFETY_ENVIRONMENT };
  // Asked after instead of before: staged, with no network, as a line that runs without asking.
  const askAfter = placement.where === 'sandbox' && (await mayAskAfter(verdict, placement, input, ctx, host))
    ? { placement: { ...placement, network: false, approval: 'none' as const }, askAfter: { question: placement } }
    : {};
  return { host, command, cwd, env: runEnv, withheld, verdict, background, waitFor, timeoutSeconds, onTimeout: input.on_timeout ?? 'background', interactive: input.interactive ?? false, ...granted, ...askAfter };
}

/** The folder writable_path names, checked (a ToolError says why it cannot be granted). */
async function grantedFolder(input: string, host: CommandHost, ctx: ToolContext): Promise<string> {
  const home = ctx.workspace.home;
  const folder = path.posix.normalize(input.startsWith('~/') ? path.posix.join(home, input.slice(2)) : input).replace(/(.)\/$/, '$1');
  const roots = (await resolveRoots('write', ctx)).map((root) => ctx.host.fs.localPath(root)).filter((root): root is string => root !== undefined);
  if (roots.some((root) => isInsidePath(folder, root))) {
    throw new ToolError(`writable_path ${input} is inside the workspace, which commands can write already. Leave writable_path out.`);
  }
  const refused = refusedGrant(folder, home, [...sensitiveLocalPaths(home), ...host.sandbox.privateFolders], searchPathOf(host));
  if (refused) {
    throw new ToolError(`writable_path cannot be granted: ${refused}. Ask the user to run the command, or call again with permissions: "unsandboxed" (the user is asked).`);
  }
  const stat = await ctx.host.fs.stat(fileLocation(folder));
  if (stat && stat.kind !== 'directory') {
    throw new ToolError(`writable_path ${input} is not a folder; name the folder the command writes in.`);
  }
  return folder;
}

/**
 * The ToolError for a command line the kernel would refuse, with what to do instead. Checked
 * twice: the line and the environment before anyone is asked, and again with the sandbox's
 * arguments (one or more per protected or secret file of the workspace) once they are known.
 */
export function refuseOversized(problem: ArgumentSizeProblem | undefined, stage: 'before asking' | 'with the sandbox' = 'before asking'): void {
  if (!problem) {
    return;
  }
  if (stage === 'with the sandbox') {
    throw new ToolError(`The command line, the sandbox's arguments and the environment take ${problem.bytes} bytes together; the system starts no program with more than ${problem.limit}, so it was not run. Ask the user to run it themselves, or to open a smaller folder.`);
  }
  const what = problem.kind === 'argument'
    ? `The command line is ${problem.bytes} bytes; the system starts no command line longer than ${problem.limit} bytes (Linux's limit for one argument, and the whole line is one argument of the shell)`
    : `The command line and the environment take ${problem.bytes} bytes together; the system starts no program with more than ${problem.limit}`;
  throw new ToolError(`${what}, so it was not run and nothing was asked. Write the long text to a file with workspace_write_file and run a short command or script that reads it (e.g. \`sh ./script.sh\` or \`node ./generate.js\`).`);
}

/** The PATH entries a command could write to: inside the writable folders, /tmp and the private /tmp, and a folder granted for this run, followed through links. */
async function writableSearchPathEntries(host: CommandHost, ctx: ToolContext, grant: string | undefined): Promise<(entry: string) => boolean> {
  const fs = ctx.host.fs;
  const windows = ctx.workspace.platform === 'win32';
  const env = host.environment();
  // Windows' paths compare in any case and with either separator; its temporary folder is the user's to write.
  const comparable = (p: string): string => (windows ? p.replace(/\\/g, '/').replace(/(.)\/+$/, '$1').toLowerCase() : p);
  const temporary = windows ? [env.TEMP, env.TMP].filter((folder): folder is string => folder !== undefined) : ['/tmp', '/var/tmp', '/dev/shm'];
  const writable = [...(await resolveRoots('write', ctx)).map((root) => fs.localPath(root)).filter((root): root is string => root !== undefined), ...temporary, host.sandbox.tempDirectory, ...(grant ? [grant] : [])].map(comparable);
  const inside = (entry: string): boolean => writable.some((root) => isInsidePath(comparable(entry), root));
  const variable = searchPathVariable(env, ctx.workspace.platform);
  const dropped = new Set<string>();
  for (const entry of (env[variable.key] ?? '').split(variable.separator)) {
    if (!variable.absolute(entry)) {
      continue;
    }
    const resolved = await fs.realpath(fileLocation(entry)).then((location) => fs.localPath(location) ?? entry, () => entry);
    if (inside(windows ? entry : path.posix.normalize(entry)) || inside(resolved)) {
      dropped.add(entry);
    }
  }
  return (entry) => dropped.has(entry);
}

/** Where the command runs, with the machine's sandbox tried once. */
export async function placeFor(decision: 'allow' | 'ask', extra: ExtraPermission | undefined, ctx: ToolContext, host: CommandHost, readOnly = false): Promise<Placement> {
  const mode = ctx.settings.runCommandSandbox;
  const availability = mode === 'off' ? { kind: 'none' as const, reason: 'off' } : await host.sandbox.availability(ctx.settings.bubblewrapPath);
  const caseInsensitive = ctx.workspace.folders.filter((folder) => folder.caseInsensitive).map((folder) => ctx.host.fs.localPath(folder.location) ?? folder.location.path);
  return withCaseInsensitiveFolders(placeCommand(mode, availability, decision, extra, readOnly), caseInsensitive);
}

/** The shell and the arguments that run the line (`bash -c line`, PowerShell's -EncodedCommand, cmd's /d /s /c). */
export function shellArgv(host: CommandHost, commandLine: string): string[] {
  return [host.shell, ...shellInvocation({ program: host.shell, kind: host.shellKind ?? 'bash' }, commandLine).args];
}

function commandHost(ctx: ToolContext): CommandHost {
  const first = ctx.workspace.folders[0];
  if (!ctx.host.commands || (first && first.location.scheme !== 'file')) {
    throw new ToolError('workspace_run_command is not available here: the workspace is not on a local or remote disk where processes can run (a virtual workspace). Use the file tools instead, or ask the user to run the command.');
  }
  if (!first) {
    throw new ToolError('workspace_run_command needs an open workspace folder to run in. Ask the user to open a folder.');
  }
  return ctx.host.commands;
}

export function checkedCommand(command: string): string {
  if (command.trim() === '') {
    throw new ToolError('The command is empty. Pass the command line to run, e.g. "npm test".');
  }
  if (command.includes('\0')) {
    throw new ToolError('The command contains a NUL character, which no shell accepts. Remove it.');
  }
  return command;
}

/** The folder to run in: inside the folders writes may use, and a directory. */
export async function resolveCommandCwd(input: string | undefined, ctx: ToolContext): Promise<CommandCwd> {
  const literal = resolveToolPath(input ?? '.', ctx);
  const roots = await resolveRoots('write', ctx);
  const { resolved, stat, verdict } = await judgeLocation(literal, 'write', ctx, { roots });
  const shown = displayPath(literal, ctx.workspace);
  if (!roots.some((root) => isInside(resolved, root))) {
    throw new ToolError(`The cwd ${shown} is outside the workspace; commands only run inside the workspace folders. Pass a workspace-relative folder, or omit cwd for the workspace root.`);
  }
  if (verdict.decision === 'deny') {
    throw new ToolError(denialMessage(verdict));
  }
  if (!stat || stat.kind !== 'directory') {
    throw new ToolError(`The cwd ${shown} ${stat ? 'is not a folder' : 'does not exist'}. Pass an existing workspace folder; use workspace_list_directory to see what exists.`);
  }
  return { path: ctx.host.fs.localPath(resolved) ?? resolved.path, shown };
}

/**
 * The verdict of the policy for the shell that runs the line: bash's (bash, sh, dash, Git Bash),
 * PowerShell's, or none for cmd.exe (every line asks). `kind` overrides the host's shell (input
 * typed into a bash started as a command is a bash line wherever it runs).
 */
export async function judgeCommand(command: string, cwd: string, ctx: ToolContext, kind: ShellKind = ctx.host.commands?.shellKind ?? 'bash'): Promise<CommandVerdict> {
  if (kind === 'cmd') {
    return judgeCmdLine();
  }
  const options = await commandPolicyOptions(ctx, cwd);
  return kind === 'powershell' ? evaluatePowerShellPolicy(command, options) : evaluateCommandPolicy(command, options);
}
