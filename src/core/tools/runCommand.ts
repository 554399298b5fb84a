import * as path from 'node:path';
import { nonInteractiveEnvironment } from '../process/commandEnvironment';
import { argumentSizeProblem, type ArgumentSizeProblem } from '../process/argumentLimits';
import { commandLogPath } from '../process/commandLogs';
import type { ToolContext } from '../context';
import { throwIfCancelled, ToolError, type CancellationSignal } from '../errors';
import { commandPolicyOptions } from '../guard/command/pathJudge';
import { evaluateCommandPolicy } from '../guard/command/policy';
import { approvalReasons, describeVerdict, type CommandVerdict } from '../guard/command/verdict';
import { judgeLocation, resolveRoots } from '../guard/judgeLocation';
import { denialMessage } from '../guard/rules';
import { describeProtected, describeSecrets, whyProtected } from '../guard/protectedNames';
import { resolveWorkspacePath } from '../guard/workspacePaths';
import { displayPath, fileLocation, isInside, isInsidePath } from '../location';
import { headAndTailShares } from '../output/budget';
import type { BackgroundCommand, CommandHost, CommandTerminal, ProcessOutcome, ProcessRequest } from '../ports/process';
import { describeStatus, statusOf } from '../process/backgroundCommands';
import { acquireSandboxLease } from '../sandbox/lease';
import { sandboxSummary } from '../sandbox/launcher';
import { placeCommand, type ExtraPermission, type Placement } from '../sandbox/placement';
import { oneLine } from '../text/truncate';
import { compileWaitFor, formatBackground } from './backgroundResults';
import { defineTool, textResult, type Tool } from './toolSpec';

export interface RunCommandInput {
  command: string;
  cwd?: string;
  timeout?: number;
  permissions?: ExtraPermission;
  background?: boolean;
  wait_for?: string;
}

export const DEFAULT_TIMEOUT_SECONDS = 120;
/** How long a background start waits for wait_for (or the end) before it returns with the output so far. */
export const DEFAULT_BACKGROUND_WAIT_SECONDS = 30;
const KILL_GRACE_MS = 2000;
const MAX_LOG_CHARS = 50 * 1024 * 1024;
const LEAVE_SANDBOX = 'Run Outside the Sandbox';
/** The result's line when git ran with the policy's safety options (gitSafety.ts). */
const GIT_SAFETY_NOTE = 'Git: ran with forced safety options (no hooks, fsmonitor, external diff, textconv, filters or signature programs; submodules not entered; .env and netrc files left out of its output).';

export const runCommandTool: Tool = defineTool<RunCommandInput>({
  name: 'workspace_run_command',
  displayName: 'Run Command',
  toolReferenceName: 'workspaceRunCommand',
  icon: '$(terminal)',
  access: 'command',
  userDescription: 'Run a shell command in a sandboxed terminal you can watch; risky commands ask first.',
  modelDescription: [
    'Use this instead of the built-in terminal tools: commands run inside an OS sandbox (writes only to the workspace, no network, secrets hidden) and read-only commands run without asking under a closed policy; everything else asks the user.',
    'Run a shell command non-interactively in the workspace, e.g. builds, tests, git commands, package scripts. The user watches it in a terminal. Do not use it to read, search or edit files: the workspace_* file tools are faster and safer.',
    'command: one shell command line (pipes and && work). cwd: a workspace-relative folder to run in; default the workspace root. timeout: seconds before the whole process tree is killed (default 120, at most 1800).',
    'There is no stdin and no TTY: commands that prompt fail instead of waiting; pagers and colours are off. Commands that only read run at once; others (deleting, network, installing, interpreters with inline code) ask the user first.',
    `Commands run in an OS sandbox: they can write only in the workspace folders and /tmp, cannot change, move or replace ${describeProtected()}, cannot read secrets (${describeSecrets()}) or reach the session's sockets (ssh agent, session bus), and have no network unless the user approved the command. Programs are never found by name in a folder a command can write (the workspace, /tmp): run a workspace script by its path, e.g. ./scripts/build.sh. permissions: leave it out, unless a sandboxed run failed because of the sandbox: "network" runs it with the network, "unsandboxed" outside the sandbox; either asks the user every time.`,
    'Result: whether it ran sandboxed, the exit code, the duration, stdout and stderr. Long output keeps its beginning and end and says where the full log was saved, which you can read with workspace_read_file.',
    'Long-running processes (dev servers, watchers, anything you must talk to while it runs): never append "&" and never run them in the foreground (the timeout would kill them). Pass background: true and a wait_for regex that matches the line the process prints when it is ready (e.g. "listening on|ready in"): the call returns as soon as a line matches, the process exits, or timeout seconds pass (default 30 in the background), with the output so far and a line "id: <id>". The process keeps running in its own terminal. Then use workspace_command_output with that id to read what it printed since (optionally waiting for another line), and workspace_stop_command to stop it when you are done; stop what you started. At most a few run at once (workspaceAgentTools.runCommand.maxBackground, default 5).',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line to run.' },
      cwd: { type: 'string', description: 'The folder to run in, workspace-relative. Default: the workspace root.' },
      timeout: { type: 'integer', description: 'Seconds before the command is killed, from 1 to 1800. Default 120. With background: seconds to wait for wait_for or the end before returning (the process keeps running), default 30.' },
      permissions: { type: 'string', enum: ['network', 'unsandboxed'], description: 'Only after a run failed because of the sandbox: "network" (network access) or "unsandboxed" (no sandbox). The user is asked every time.' },
      background: { type: 'boolean', description: 'Start a long-running process (a server, a watcher) and return while it keeps running, with an id for workspace_command_output and workspace_stop_command. Default false.' },
      wait_for: { type: 'string', description: 'With background: a regular expression (RE2 syntax) matched against each output line; the call returns as soon as one matches, e.g. the server\'s ready line.' },
    },
    required: ['command'],
    additionalProperties: false,
  },
  bounds: { timeout: { min: 1, max: 1800 } },
  invocationMessage: (input) => `Running \`${oneLine(input.command, 80)}\``,
  // Virtual workspaces have no disk to run in; the tool still fails clearly if invoked directly.
  when: '!virtualWorkspace',
  confirmation: (input, ctx) => commandConfirmation(input, ctx),

  async run(input, ctx) {
    const host = commandHost(ctx);
    const command = checkedCommand(input.command);
    if (input.wait_for !== undefined && !input.background) {
      throw new ToolError('wait_for only applies with background: true. Either add background: true to start a long-running process and wait for its ready line, or leave wait_for out to run the command to its end.');
    }
    const waitFor = compileWaitFor(input.wait_for);
    if (input.background) {
      // Refused before anyone is asked: a question for a command that cannot start wastes the user's time.
      host.background.checkRoom(ctx.settings.runCommandMaxBackground);
    }
    const cwd = await resolveCommandCwd(input.cwd, ctx);
    const env = nonInteractiveEnvironment(host.environment(), await writableSearchPathEntries(host, ctx));
    // Refused before anyone is asked: the kernel would not start it, and nothing may be held for it.
    refuseOversized(argumentSizeProblem([host.shell, '-c', command], env));
    const verdict = await judgeCommand(command, cwd.path, ctx);
    if (verdict.decision === 'deny') {
      throw new ToolError(`The command was refused by the command policy:\n${bulleted(describeVerdict(verdict))}\nSuggestion: run something else, or ask the user to run it themselves.`);
    }
    let placement = await placeFor(verdict.decision, input.permissions, ctx, host);
    if (placement.where === 'refused') {
      throw new ToolError(`The command was not run: ${placement.why}. Ask the user to install the sandbox or change the setting, or to run the command themselves.`);
    }
    placement = await approve(command, cwd.shown, verdict, placement, ctx);
    throwIfCancelled(ctx.call.token);
    if (!verdict.readOnly) {
      // Anything but a read-only line may change files: record the workspace first (a failure is a note, not an error).
      await ctx.call.checkpoint?.beforeChange();
      throwIfCancelled(ctx.call.token);
    }
    const timeoutSeconds = input.timeout ?? (input.background ? DEFAULT_BACKGROUND_WAIT_SECONDS : DEFAULT_TIMEOUT_SECONDS);
    const shares = headAndTailShares(ctx.settings.commandOutputChars);
    const lease = placement.where === 'sandbox'
      ? await acquireSandboxLease(ctx, host.sandbox, { sandbox: placement.sandbox, network: placement.network, cwd: cwd.path, env: host.environment() })
      : undefined;
    // From here every way out lets go of the lease: at the end of this block, or (once a background
    // command was handed its release) when that command ends or fails to start.
    let releasedByBackground = false;
    let result: string;
    let ran = false;
    try {
      const sandboxLine = (placement.where === 'sandbox' ? `Sandbox: ${sandboxSummary(placement.sandbox, placement.network)}` : `Sandbox: none, it ran outside the sandbox (${placement.why})`) + (verdict.commandLine ? `\n${GIT_SAFETY_NOTE}` : '');
      const launchEnv = { ...env, ...lease?.launch.env };
      // The line as judged runs, except that git gets its safety options (the policy's commandLine).
      const commandLine = verdict.commandLine ?? command;
      refuseOversized(argumentSizeProblem([...(lease?.launch.argv ?? []), host.shell, '-c', commandLine], launchEnv), 'with the sandbox');
      const base: BaseProcessRequest = {
        shell: host.shell,
        commandLine,
        launcher: lease?.launch.argv,
        cwd: cwd.path,
        env: launchEnv,
        killGraceMs: KILL_GRACE_MS,
        logPath: commandLogPath(host.logDirectory, command, ctx.host.clock.now()),
        headChars: shares.head,
        tailChars: shares.tail,
        maxLogChars: MAX_LOG_CHARS,
      };
      if (input.background) {
        const release = (): Promise<void> => lease?.release() ?? Promise.resolve();
        const network = placement.where === 'sandbox' ? placement.network : undefined;
        const failureHint = (outcome: ProcessOutcome): string | undefined => (network === undefined ? undefined : sandboxFailureHint(outcome, network));
        releasedByBackground = true;
        return textResult(await startInBackground({ base, shownCommand: command, cwdShown: cwd.shown, sandboxLine, release, failureHint }, waitFor, timeoutSeconds, host, ctx));
      }
      const terminal = host.openTerminal(command, cwd.path);
      terminal.write(`${sandboxLine}\n`);
      let outcome: ProcessOutcome;
      try {
        outcome = await host.processes.run({
          ...base,
          timeoutMs: timeoutSeconds * 1000,
          token: ctx.call.token,
          onOutput: (chunk) => terminal.write(chunk),
          onInterrupt: (listener) => terminal.onInterrupt(listener),
        });
      } catch (error) {
        // A spawn that throws (E2BIG, EMFILE) started nothing.
        const detail = error instanceof Error ? error.message : String(error);
        terminal.finish(`Could not run the command: ${detail}`);
        throw new ToolError(`The command could not be run: ${detail}. Nothing was started.`);
      }
      const status = statusLine(outcome, timeoutSeconds);
      terminal.finish(`${status} (${seconds(outcome.durationMs)})`);
      if (outcome.spawnError) {
        throw new ToolError(`The command could not be started: ${outcome.spawnError}. Check that ${host.shell} exists and that the folder ${cwd.shown} is readable.`);
      }
      const hint = placement.where === 'sandbox' ? sandboxFailureHint(outcome, placement.network) : undefined;
      result = formatOutcome(outcome, status, cwd.shown, sandboxLine, hint);
      ran = true;
    } finally {
      if (!releasedByBackground) {
        await lease?.release();
      }
    }
    if (lease && ran && !verdict.readOnly) {
      const added = await lease.addedSince().catch(() => []);
      if (added.length) {
        result += `\n\n${describeAdded(added, ctx)}`;
      }
    }
    return textResult(result);
  },
});

/**
 * The ToolError for a command line the kernel would refuse, with what to do instead. Checked
 * twice: the line and the environment before anyone is asked, and again with the sandbox's
 * arguments (one or more per protected or secret file of the workspace) once they are known.
 */
function refuseOversized(problem: ArgumentSizeProblem | undefined, stage: 'before asking' | 'with the sandbox' = 'before asking'): void {
  if (!problem) {
    return;
  }
  if (stage === 'with the sandbox') {
    throw new ToolError(`The command line, the sandbox's arguments (it binds every protected and secret file of the workspace) and the environment take ${problem.bytes} bytes together; the system starts no program with more than ${problem.limit}, so it was not run. Ask the user to run it themselves, or to open a smaller folder.`);
  }
  const what = problem.kind === 'argument'
    ? `The command line is ${problem.bytes} bytes; the system starts no command line longer than ${problem.limit} bytes (Linux's limit for one argument, and the whole line is one argument of the shell)`
    : `The command line and the environment take ${problem.bytes} bytes together; the system starts no program with more than ${problem.limit}`;
  throw new ToolError(`${what}, so it was not run and nothing was asked. Write the long text to a file with workspace_write_file and run a short command or script that reads it (e.g. \`sh ./script.sh\` or \`node ./generate.js\`).`);
}

/** The PATH entries a command could write to: inside the writable folders, /tmp and the private /tmp, followed through links. */
async function writableSearchPathEntries(host: CommandHost, ctx: ToolContext): Promise<(entry: string) => boolean> {
  const fs = ctx.host.fs;
  const writable = [...(await resolveRoots('write', ctx)).map((root) => fs.localPath(root)).filter((root): root is string => root !== undefined), '/tmp', '/var/tmp', '/dev/shm', host.sandbox.tempDirectory];
  const inside = (entry: string): boolean => writable.some((root) => isInsidePath(entry, root));
  const dropped = new Set<string>();
  for (const entry of (host.environment().PATH ?? '').split(':')) {
    if (!entry.startsWith('/')) {
      continue;
    }
    const resolved = await fs.realpath(fileLocation(entry)).then((location) => fs.localPath(location) ?? entry, () => entry);
    if (inside(path.posix.normalize(entry)) || inside(resolved)) {
      dropped.add(entry);
    }
  }
  return (entry) => dropped.has(entry);
}

/** The note for protected entries an approved command created: the sandbox could not stop that. */
function describeAdded(added: readonly string[], ctx: ToolContext): string {
  const shown = added.slice(0, 20).map((entry) => `- ${displayPath(fileLocation(entry), ctx.workspace)}: ${whyProtected(entry)}`);
  const more = added.length > shown.length ? [`- and ${added.length - shown.length} more`] : [];
  return [
    'Warning: the command created execution config that VS Code or git obey; the sandbox keeps existing ones read-only but cannot stop a command from creating new ones:',
    ...shown,
    ...more,
    'Tell the user about these files and why they were made before anything opens or runs them; delete them if they were not intended.',
  ].join('\n');
}

/** What a foreground and a background run of the same command share. */
type BaseProcessRequest = Omit<ProcessRequest, 'timeoutMs' | 'token' | 'onOutput' | 'onInterrupt'>;

/** Everything a background start needs once the command was judged, placed and approved. */
interface BackgroundLaunch {
  readonly base: BaseProcessRequest;
  /** The command line as the model sent it (base.commandLine may carry git's safety options). */
  readonly shownCommand: string;
  readonly cwdShown: string;
  readonly sandboxLine: string;
  /** Lets go of the sandbox's mount points once the command has ended. */
  release(): Promise<void>;
  /** Why a command that ended may have failed because of the sandbox, if it looks so. */
  failureHint(outcome: ProcessOutcome): string | undefined;
}

/** A signal that is never cancelled: a background command outlives the call that started it. */
const NEVER_CANCELLED: CancellationSignal = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

/**
 * Starts the command in its own terminal and process group, registered under a new id, and waits
 * for wait_for, its end or the timeout. A call cancelled while it waits stops the command: nothing
 * the caller can no longer see an id for is left running.
 */
async function startInBackground(request: BackgroundLaunch, waitFor: ((line: string) => boolean) | undefined, timeoutSeconds: number, host: CommandHost, ctx: ToolContext): Promise<string> {
  const { base } = request;
  let terminal: CommandTerminal | undefined;
  let started: BackgroundCommand;
  try {
    terminal = host.openTerminal(request.shownCommand, base.cwd, true);
    terminal.write(`${request.sandboxLine}\n`);
    const shown = terminal;
    started = host.background.start({
      commandLine: request.shownCommand,
      cwdShown: request.cwdShown,
      sandboxLine: request.sandboxLine,
      logPath: base.logPath,
      maxRunning: ctx.settings.runCommandMaxBackground,
      headChars: base.headChars,
      tailChars: base.tailChars,
      launch: (onOutput) => host.processes.start({
        ...base,
        token: NEVER_CANCELLED,
        onOutput: (chunk, stream) => {
          shown.write(chunk);
          onOutput(chunk, stream);
        },
        onInterrupt: (listener) => shown.onInterrupt(listener),
      }),
    });
  } catch (error) {
    terminal?.finish(`Not started: ${error instanceof Error ? error.message : String(error)}`);
    await request.release();
    throw error;
  }
  const command = started;
  const shown = terminal;
  // The command changes files until it ends: the call's "after" checkpoint is taken then.
  const checkpointAfter = ctx.call.checkpoint?.deferAfter();
  void command.ended.then(async (outcome) => {
    shown.finish(`${describeStatus(statusOf(outcome))} (${seconds(outcome.durationMs)}, background command ${command.id})`);
    await request.release();
    await checkpointAfter?.finish();
  }).catch(() => undefined);

  const how = await command.waitFor(waitFor, timeoutSeconds * 1000, ctx.call.token);
  if (how === 'cancelled') {
    await command.stop();
    throwIfCancelled(ctx.call.token);
  }
  const final = command.status();
  const outcome = final.state === 'running' ? undefined : await command.ended;
  if (outcome?.spawnError) {
    throw new ToolError(`The command could not be started: ${outcome.spawnError}. Check that ${host.shell} exists and that the folder ${request.cwdShown} is readable.`);
  }
  const headline = how === 'matched'
    ? `Started in the background; a line matched wait_for (${seconds(Date.now() - command.startedAt)}).`
    : final.state === 'running'
      ? `Started in the background; still running after ${timeoutSeconds} s${waitFor ? ', and no line matched wait_for yet' : ''}.`
      : `The background command ended (${describeStatus(final)}) within ${seconds(Date.now() - command.startedAt)}${waitFor ? ' before any line matched wait_for' : ''}.`;
  const hint = outcome ? request.failureHint(outcome) : undefined;
  return formatBackground(command, headline, command.takeOutput(), hint ? [hint] : []);
}

/** Where the command runs, with the machine's sandbox tried once. */
async function placeFor(decision: 'allow' | 'ask', extra: ExtraPermission | undefined, ctx: ToolContext, host: CommandHost): Promise<Placement> {
  const mode = ctx.settings.runCommandSandbox;
  const availability = mode === 'off' ? { kind: 'none' as const, reason: 'off' } : await host.sandbox.availability(ctx.settings.bubblewrapPath);
  return placeCommand(mode, availability, decision, extra);
}

/**
 * Asks whoever must say yes and returns where the command runs then: the policy's question may be
 * answered in chat or, in the extension's question, with the choice to leave the sandbox; the
 * extension's own question (leaving the sandbox, the network for a read-only command) only here.
 */
async function approve(command: string, cwdShown: string, verdict: CommandVerdict, placement: Exclude<Placement, { where: 'refused' }>, ctx: ToolContext): Promise<Exclude<Placement, { where: 'refused' }>> {
  const where = cwdShown === '.' ? 'the workspace root' : cwdShown;
  const title = `workspace_run_command: ${oneLine(command, 80)}`;
  const declined = (): ToolError => new ToolError(`The user declined to run \`${oneLine(command, 80)}\`. Do not retry it; ask the user how to proceed or do something else.`);
  if (placement.approval === 'none' || (placement.approval === 'policy' && ctx.call.confirmedInChat)) {
    return placement;
  }
  const reasons = approvalReasons(verdict).join('; ');
  if (placement.approval === 'own') {
    const consequence = placement.where === 'host'
      ? 'It would run OUTSIDE the sandbox, with all your rights: it could change any of your files, read your secrets and use the network'
      : 'It would run in the sandbox WITH the network';
    const policy = verdict.decision === 'ask' ? ` The command policy also asks because: ${reasons}.` : '';
    const approved = await ctx.session.approver.confirm({ kind: 'command', title, detail: `In ${where}: ${consequence}, because ${placement.why}.${policy} Run it?` }, ctx.call.token);
    throwIfCancelled(ctx.call.token);
    if (!approved) {
      throw declined();
    }
    return placement;
  }
  const detail = `In ${where}, it needs approval because: ${reasons}.`;
  if (placement.where === 'sandbox' && placement.canLeave) {
    const answer = await ctx.session.approver.choose({ kind: 'command', title, detail: `${detail} Accept runs it in the sandbox with the network; ${LEAVE_SANDBOX} runs it with all your rights.`, alternative: LEAVE_SANDBOX }, ctx.call.token);
    throwIfCancelled(ctx.call.token);
    if (answer === 'reject') {
      throw declined();
    }
    return answer === 'alternative' ? { where: 'host', approval: 'own', why: 'the user chose to run it outside the sandbox' } : placement;
  }
  const approved = await ctx.session.approver.confirm({ kind: 'command', title, detail: `${detail} Run it?` }, ctx.call.token);
  throwIfCancelled(ctx.call.token);
  if (!approved) {
    throw declined();
  }
  return placement;
}

/** The chat confirmation for a call, or undefined when the policy lets it run without asking or only the extension's own question may answer. */
export async function commandConfirmation(input: RunCommandInput, ctx: ToolContext): Promise<{ title: string; message: string } | undefined> {
  let cwdShown = input.cwd ?? '.';
  let verdict: CommandVerdict;
  try {
    const cwd = await resolveCommandCwd(input.cwd, ctx);
    cwdShown = cwd.shown;
    verdict = await judgeCommand(checkedCommand(input.command), cwd.path, ctx);
  } catch (error) {
    // The run fails with the same error; asking first costs nothing and keeps the rule "nothing unapproved".
    verdict = { decision: 'ask', findings: [{ decision: 'ask', reason: error instanceof Error ? error.message : String(error) }] };
  }
  const host = ctx.host.commands;
  // A line the system cannot start is refused by run before anyone is asked: no question for it.
  if (verdict.decision !== 'ask' || (host && argumentSizeProblem([host.shell, '-c', input.command], host.environment()))) {
    return undefined;
  }
  const placement = host ? await placeFor('ask', input.permissions, ctx, host) : undefined;
  if (placement && placement.where !== 'sandbox') {
    return undefined;
  }
  const sandboxed = placement?.where === 'sandbox' ? `\n\nIt runs in the sandbox (${sandboxSummary(placement.sandbox, true)}).` : '';
  return {
    title: 'Run this command?',
    message: `\`\`\`sh\n${input.command}\n\`\`\`\nin \`${cwdShown}\`${input.background ? ', in the background (it keeps running until it exits or is stopped)' : ''}\n\nIt needs approval because:\n${bulleted(approvalReasons(verdict))}${sandboxed}`,
  };
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

function checkedCommand(command: string): string {
  if (command.trim() === '') {
    throw new ToolError('The command is empty. Pass the command line to run, e.g. "npm test".');
  }
  if (command.includes('\0')) {
    throw new ToolError('The command contains a NUL character, which no shell accepts. Remove it.');
  }
  return command;
}

/** The folder to run in: inside the folders writes may use, and a directory. */
async function resolveCommandCwd(input: string | undefined, ctx: ToolContext): Promise<{ path: string; shown: string }> {
  const literal = resolveWorkspacePath(input ?? '.', ctx.workspace);
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

async function judgeCommand(command: string, cwd: string, ctx: ToolContext): Promise<CommandVerdict> {
  return evaluateCommandPolicy(command, await commandPolicyOptions(ctx, cwd));
}

function bulleted(lines: readonly string[]): string {
  return lines.map((line) => `- ${line}`).join('\n');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function statusLine(outcome: ProcessOutcome, timeoutSeconds: number): string {
  switch (outcome.stopped) {
    case 'timeout':
      return `Timed out after ${timeoutSeconds} s: the command and every process it started were stopped (TERM, then KILL)`;
    case 'cancelled':
      return 'Cancelled: the command and every process it started were stopped';
    case 'interrupted':
      return 'Stopped by the user (Ctrl+C in the terminal)';
    default:
      return outcome.signal ? `Killed by signal ${outcome.signal}` : `Exit code: ${outcome.exitCode ?? 'unknown'}`;
  }
}

/**
 * When a sandboxed command failed with an error the sandbox causes (a read-only file system, no
 * network), says so and how to go on; undefined when the failure looks like the command's own.
 */
export function sandboxFailureHint(outcome: ProcessOutcome, network: boolean): string | undefined {
  if (outcome.exitCode === 0 || outcome.stopped) {
    return undefined;
  }
  const text = `${outcome.stdout.text}\n${outcome.stderr.text}`;
  if (/read-only file system|EROFS|device or resource busy|EBUSY/i.test(text)) {
    return `The sandbox may have caused this failure: the command tried to write outside the workspace folders and /tmp, or to change, move or replace a protected file (${describeProtected('brief')}). If it must, call again with permissions: "unsandboxed" (the user is asked), or ask the user to run it.`;
  }
  if (!network && /could not resolve|name resolution|network is unreachable|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH|connection refused|ECONNREFUSED/i.test(text)) {
    return 'The sandbox may have caused this failure: commands that run without asking have no network. If it needs the network, call again with permissions: "network" (the user is asked).';
  }
  return undefined;
}

function formatOutcome(outcome: ProcessOutcome, status: string, cwdShown: string, sandboxLine: string, hint: string | undefined): string {
  const lines = [status, `Duration: ${seconds(outcome.durationMs)}`, `Cwd: ${cwdShown}`, sandboxLine];
  if (hint) {
    lines.push(hint);
  }
  if (outcome.leftoversStopped) {
    lines.push('Background processes still running after the shell exited were stopped.');
  }
  for (const [name, kept] of [['stdout', outcome.stdout], ['stderr', outcome.stderr]] as const) {
    lines.push('', `--- ${name} ---`, kept.totalChars === 0 ? '(empty)' : kept.text.replace(/\n$/, ''));
    if (kept.omittedChars > 0) {
      lines.push(`[${name} was ${kept.totalChars} characters; ${kept.omittedChars} in the middle were left out. The full output is in the log below: read it with workspace_read_file (offset and limit), or search it with workspace_grep.]`);
    }
  }
  lines.push('', `Full log: ${outcome.logPath}${outcome.logTruncated ? ' (the log itself stopped growing at 50 MB)' : ''}`);
  return lines.join('\n');
}
