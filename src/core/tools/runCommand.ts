import { nonInteractiveEnvironment } from '../process/commandEnvironment';
import { commandLogPath } from '../process/commandLogs';
import type { ToolContext } from '../context';
import { throwIfCancelled, ToolError } from '../errors';
import { commandPolicyOptions } from '../guard/command/pathJudge';
import { evaluateCommandPolicy, type CommandVerdict } from '../guard/command/policy';
import { judgeLocation, resolveRoots } from '../guard/judgeLocation';
import { denialMessage } from '../guard/rules';
import { resolveWorkspacePath } from '../guard/workspacePaths';
import { displayPath, isInside } from '../location';
import { headAndTailShares } from '../output/budget';
import type { CommandHost, ProcessOutcome } from '../ports/process';
import { planSandbox } from '../sandbox/plan';
import { sandboxLaunch, sandboxSummary } from '../sandbox/launcher';
import { placeCommand, type ExtraPermission, type Placement } from '../sandbox/placement';
import { oneLine } from '../text/truncate';
import { defineTool, textResult, type Tool } from './toolSpec';

export interface RunCommandInput {
  command: string;
  cwd?: string;
  timeout?: number;
  permissions?: ExtraPermission;
}

export const DEFAULT_TIMEOUT_SECONDS = 120;
const KILL_GRACE_MS = 2000;
const MAX_LOG_CHARS = 50 * 1024 * 1024;
const LEAVE_SANDBOX = 'Run Outside the Sandbox';

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
    'Commands run in an OS sandbox: they can write only in the workspace folders and /tmp, cannot change .git/config, .git/hooks, .vscode or *.code-workspace, cannot read secrets (~/.ssh, .env files), and have no network unless the user approved the command. permissions: leave it out, unless a sandboxed run failed because of the sandbox: "network" runs it with the network, "unsandboxed" outside the sandbox; either asks the user every time.',
    'Result: whether it ran sandboxed, the exit code, the duration, stdout and stderr. Long output keeps its beginning and end and says where the full log was saved, which you can read with workspace_read_file.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line to run.' },
      cwd: { type: 'string', description: 'The folder to run in, workspace-relative. Default: the workspace root.' },
      timeout: { type: 'integer', description: 'Seconds before the command is killed, from 1 to 1800. Default 120.' },
      permissions: { type: 'string', enum: ['network', 'unsandboxed'], description: 'Only after a run failed because of the sandbox: "network" (network access) or "unsandboxed" (no sandbox). The user is asked every time.' },
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
    const cwd = await resolveCommandCwd(input.cwd, ctx);
    const verdict = await judgeCommand(command, cwd.path, ctx);
    if (verdict.decision === 'deny') {
      throw new ToolError(`The command was refused by the command policy:\n${bulleted(verdict.reasons)}\nSuggestion: run something else, or ask the user to run it themselves.`);
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
    const timeoutSeconds = input.timeout ?? DEFAULT_TIMEOUT_SECONDS;
    const shares = headAndTailShares(ctx.settings.commandOutputChars);
    const plan = placement.where === 'sandbox' ? await planSandbox(ctx, host.sandbox, placement.network) : undefined;
    const launch = placement.where === 'sandbox' && plan ? sandboxLaunch(placement.sandbox, plan, cwd.path) : undefined;
    const sandboxLine = placement.where === 'sandbox' ? `Sandbox: ${sandboxSummary(placement.sandbox, placement.network)}` : `Sandbox: none, it ran outside the sandbox (${placement.why})`;
    const terminal = host.openTerminal(command, cwd.path);
    terminal.write(`${sandboxLine}\n`);
    const outcome = await host.processes.run({
      shell: host.shell,
      commandLine: command,
      launcher: launch?.argv,
      cwd: cwd.path,
      env: { ...nonInteractiveEnvironment(host.environment()), ...launch?.env },
      timeoutMs: timeoutSeconds * 1000,
      killGraceMs: KILL_GRACE_MS,
      logPath: commandLogPath(host.logDirectory, command, ctx.host.clock.now()),
      headChars: shares.head,
      tailChars: shares.tail,
      maxLogChars: MAX_LOG_CHARS,
      token: ctx.call.token,
      onOutput: (chunk) => terminal.write(chunk),
      onInterrupt: (listener) => terminal.onInterrupt(listener),
    }).catch((error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      terminal.finish(`Could not run the command: ${detail}`);
      throw new ToolError(`The command could not be run: ${detail}. Nothing was started.`);
    }).finally(() => (plan ? host.sandbox.releaseMountPoints(plan.heldFolders) : undefined));
    const status = statusLine(outcome, timeoutSeconds);
    terminal.finish(`${status} (${seconds(outcome.durationMs)})`);
    if (outcome.spawnError) {
      throw new ToolError(`The command could not be started: ${outcome.spawnError}. Check that ${host.shell} exists and that the folder ${cwd.shown} is readable.`);
    }
    const hint = placement.where === 'sandbox' ? sandboxFailureHint(outcome, placement.network) : undefined;
    return textResult(formatOutcome(outcome, status, cwd.shown, sandboxLine, hint));
  },
});

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
  const reasons = needsApproval(verdict).join('; ');
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
    verdict = { decision: 'ask', reasons: [error instanceof Error ? error.message : String(error)] };
  }
  if (verdict.decision !== 'ask') {
    return undefined;
  }
  const host = ctx.host.commands;
  const placement = host ? await placeFor('ask', input.permissions, ctx, host) : undefined;
  if (placement && placement.where !== 'sandbox') {
    return undefined;
  }
  const sandboxed = placement?.where === 'sandbox' ? `\n\nIt runs in the sandbox (${sandboxSummary(placement.sandbox, true)}).` : '';
  return {
    title: 'Run this command?',
    message: `\`\`\`sh\n${input.command}\n\`\`\`\nin \`${cwdShown}\`\n\nIt needs approval because:\n${bulleted(needsApproval(verdict))}${sandboxed}`,
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

function needsApproval(verdict: CommandVerdict): string[] {
  const asking = verdict.reasons.filter((reason) => !reason.includes(': runs without asking ('));
  return asking.length ? asking : [...verdict.reasons];
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
  if (/read-only file system|EROFS/i.test(text)) {
    return 'The sandbox may have caused this failure: the command tried to write outside the workspace folders and /tmp, or to a protected file (.git/config, .git/hooks, .vscode, *.code-workspace). If it must, call again with permissions: "unsandboxed" (the user is asked), or ask the user to run it.';
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
