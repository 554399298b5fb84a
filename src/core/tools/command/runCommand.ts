// workspace_run_command: the spec and its run, in steps: prepare (checks, the policy's verdict,
// where it runs) → approve → the sandbox lease → foreground (which may move the command to the
// background) or background → the result.
import { throwIfCancelled } from '../../errors';
import { describeProtected, describeSecrets, sensitiveLocalPaths } from '../../guard/protectedNames';
import { fileLocation } from '../../location';
import { oneLine } from '../../text/truncate';
import { defineTool, textResult, type Tool } from '../toolSpec';
import { approve, commandConfirmation } from './approve';
import { ASKED_AFTER, NotStagedError } from './askAfter';
import { startInBackground } from './background';
import { formatOutcome, placementFailureHint, reportConfigChanges, reportStagedChanges, sandboxLine, type GrantOffer } from './format';
import { runInForeground } from './foreground';
import { isStaged, withCommandLease, type HeldLease, type LeaseOutcome } from './lease';
import { prepareCommand, type PreparedCommand, type RunCommandInput } from './prepare';
import type { ToolContext } from '../../context';
import { resolveRoots } from '../../guard/judgeLocation';
import type { ProcessOutcome } from '../../ports/process';
import { deniedWritePath, grantFor, searchPathOf } from '../../sandbox/grants';
import { OtherSpellingsError } from '../../sandbox/lease';
import { withCaseInsensitiveFolders } from '../../sandbox/placement';

export const runCommandTool: Tool = defineTool<RunCommandInput>({
  name: 'workspace_run_command',
  displayName: 'Run Command',
  toolReferenceName: 'workspaceRunCommand',
  icon: '$(terminal)',
  access: 'command',
  userDescription: 'Run a shell command in a sandboxed terminal you can watch; risky commands ask first.',
  // What matters first: MCP clients cut a description at about 2,048 characters (Claude Code), and a
  // unit test keeps every tool's under that. Details of one field go in its schema description.
  modelDescription: [
    'Run a shell command line non-interactively in the workspace (builds, tests, git, package scripts); the user watches it in a terminal. Use this instead of the built-in terminal tools, and not to read, search or edit files: the workspace_* file tools are faster and safer.',
    'Commands that only read run at once under a closed policy; others (deleting, network, installing, interpreters with inline code) ask the user first. No pagers or colours; stdin is end of file. For a prompt or REPL pass interactive: true; it returns in 6 s with "waiting for input: <prompt>" and its id: answer with workspace_send_input.',
    'Still running at timeout, a command moves to the background (not killed); the result has its output so far, "still running" and "id: bg<n>" (on_timeout: "kill" stops it instead). Servers and watchers: never append "&"; pass background: true and a wait_for regex for their ready line (e.g. "listening on|ready in"); it returns when that matches, it exits or timeout passes, with its output and id. Its servers are reachable at 127.0.0.1:<port> while it runs. Read on with workspace_command_output; stop it with workspace_stop_command.',
    `Sandbox: commands write only in the workspace folders, /tmp and package caches, cannot change, move or replace ${describeProtected()}, cannot read secrets (${describeSecrets()}) or reach the session's sockets, and have no network unless approved (then proxied). Run workspace scripts by path (./scripts/build.sh), never by name from a writable folder. permissions, writable_path: only after a run failed because of the sandbox.`,
    'Result: sandboxed or not, exit code, duration, stdout, stderr. Long output is reduced (passing tests, progress, repeats; never errors), then keeps start and end; the full log has every line.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line to run.' },
      cwd: { type: 'string', description: 'The folder to run in, workspace-relative. Default: the workspace root.' },
      timeout: { type: 'integer', description: 'Seconds to wait for the command to end, from 1 to 1800. Default 120. Still running then: it moves to the background and the result gives its id (or it is stopped, with on_timeout: "kill"). With background: seconds to wait for wait_for or the end before returning (the process keeps running), default 30.' },
      permissions: { type: 'string', enum: ['network', 'unsandboxed'], description: 'Leave it out, unless a sandboxed run failed because of the sandbox: "network" runs it in the sandbox with the network, "unsandboxed" outside the sandbox. The user is asked every time.' },
      writable_path: { type: 'string', description: 'Leave it out, unless a sandboxed run failed on a write outside the workspace and its result named the folder: that absolute folder is also writable in the sandbox for this run. The user is asked every time.' },
      background: { type: 'boolean', description: 'Start a long-running process (a server, a watcher) and return while it keeps running in its own terminal, with an id for workspace_command_output and workspace_stop_command; stop what you started. At most a few run at once (workspaceAgentTools.runCommand.maxBackground, default 5). Default false.' },
      wait_for: { type: 'string', description: 'With background: a regular expression (RE2 syntax) matched against each output line; the call returns as soon as one matches, e.g. the server\'s ready line.' },
      interactive: { type: 'boolean', description: 'Give the command a terminal as its standard input, to answer its prompts (read -p, [y/N], a REPL, a shell) with workspace_send_input. Default false: stdin is end of file (/dev/null), so a program that reads input gets none and goes on or fails at once, never waits. On Linux with python3 the input is a pseudoterminal (isatty true; stdout and stderr stay pipes; it starts some 20 ms slower); elsewhere it is a pipe.' },
      on_timeout: { type: 'string', enum: ['background', 'kill'], description: 'What happens to a foreground command still running at timeout: "background" (default) keeps it running as a background command and returns its id; "kill" stops it and every process it started.' },
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
    let approved = await approve(await prepareCommand(input, ctx), ctx);
    throwIfCancelled(ctx.call.token);
    const { verdict } = approved;
    if (!verdict.readOnly) {
      // Anything but a read-only line may change files: record the workspace first (a failure is a note, not an error).
      // A staged command's writes reach the folders only when its merge runs, which waits for this: it is taken while the command runs (lease.ts).
      const before = ctx.call.checkpoint?.beforeChange();
      if (!isStaged(approved, ctx)) {
        await before;
        throwIfCancelled(ctx.call.token);
      }
    }
    // Run unasked only where Restore to Before This Call can undo it: without the checkpoint, it asks now.
    if (approved.askAfter && !(await ctx.call.checkpoint?.recordedBefore?.())) {
      approved = await askNow(approved, ctx, 'the checkpoint to restore from could not be taken');
    }
    if (approved.background) {
      const { ran: started } = await leased(approved, ctx, startInBackground);
      return textResult(started.value.text, started.value.continuation);
    }
    const { ran, prepared } = await leased(approved, ctx, runInForeground);
    const unasked = ranUnasked(prepared, ctx);
    const { placement } = prepared;
    if (ran.value.kind === 'moved') {
      // Still running: the lease and the "after" checkpoint went with it to the background.
      return textResult(ran.value.report.text, ran.value.report.continuation);
    }
    const { outcome, status } = ran.value;
    const grant = placement.where === 'sandbox' ? await grantOffer(outcome, ctx, prepared) : undefined;
    const report = formatOutcome(outcome, status, prepared.cwd.shown, sandboxLine(placement, verdict, prepared.withheld.length, ran.network(), prepared.grant, ran.notWritable, ran.staging), placementFailureHint(placement, outcome, grant));
    // After the release: a protected entry the command created (the sandbox cannot stop that), or changed outside it.
    const changes = await ran.configChanges();
    const staged = ran.staged();
    const text = [report.text, ...unasked, ...(staged ? [reportStagedChanges(staged, ctx)] : []), ...(changes.length ? [reportConfigChanges(changes, ctx)] : [])].join('\n\n');
    if (staged) {
      // The next launch started ahead is made once this result is on its way.
      const staging = prepared.host.sandbox.staging;
      setImmediate(() => staging?.resultGiven?.());
    }
    return textResult(text, report.continuation);
  },
});

/**
 * The run under its lease. Where the lease finds a folder in which another spelling reaches a
 * protected or secret entry and the placement did not know it (sandbox/lease.ts), nothing has run:
 * the person is asked the extension's own question, which says why, and the lease is taken again.
 */
async function leased<T>(prepared: PreparedCommand, ctx: ToolContext, step: (prepared: PreparedCommand, held: HeldLease, ctx: ToolContext) => Promise<T>): Promise<{ prepared: PreparedCommand; ran: LeaseOutcome<T> }> {
  try {
    return { prepared, ran: await withCommandLease(prepared, ctx, (held) => step(prepared, held, ctx)) };
  } catch (error) {
    if (error instanceof NotStagedError) {
      const again = await askNow(prepared, ctx, error.why);
      return { prepared: again, ran: await withCommandLease(again, ctx, (held) => step(again, held, ctx)) };
    }
    if (!(error instanceof OtherSpellingsError) || prepared.placement.where !== 'sandbox') {
      throw error;
    }
    const placement = withCaseInsensitiveFolders(prepared.placement, [...(prepared.placement.oneSpelling ?? []), ...error.folders]);
    // Asked now, so not "asked after" any more: it runs as the person was told it would.
    const again = await approve({ ...prepared, placement, askAfter: undefined }, ctx);
    throwIfCancelled(ctx.call.token);
    return { prepared: again, ran: await withCommandLease(again, ctx, (held) => step(again, held, ctx)) };
  }
}

/**
 * A line that was to run staged without asking, where that cannot be kept before it runs: the
 * placement the policy's question had, asked as the extension's own question (no chat
 * confirmation answers it: chat was not asked), which says why.
 */
async function askNow(prepared: PreparedCommand, ctx: ToolContext, why: string): Promise<PreparedCommand> {
  const question = prepared.askAfter?.question;
  if (!question) {
    return prepared;
  }
  const asked = await approve({ ...prepared, askAfter: undefined, placement: { ...question, approval: 'own', why: `it was to run staged without asking (runCommand.askAfterStaged), but ${why}` } }, ctx);
  throwIfCancelled(ctx.call.token);
  return asked;
}

/** The result's words, and the record's, for a command that ran unasked because it was staged. */
function ranUnasked(prepared: PreparedCommand, ctx: ToolContext): string[] {
  if (!prepared.askAfter) {
    return [];
  }
  ctx.call.observer?.onAskedAfter?.(`workspace_run_command: ${oneLine(prepared.command, 80)} ${ASKED_AFTER}`);
  return [`Not asked before: this command ${ASKED_AFTER}. Its changes are listed below; the user reviews them in the Activity view and can undo them with Restore to Before This Call.`];
}

/** The folder a retry could make writable, when a sandboxed run failed on a write outside the writable folders. */
async function grantOffer(outcome: ProcessOutcome, ctx: ToolContext, prepared: PreparedCommand): Promise<GrantOffer | undefined> {
  if (outcome.exitCode === 0 || outcome.stopped) {
    return undefined;
  }
  const fs = ctx.host.fs;
  const writable = (await resolveRoots('write', ctx)).map((root) => fs.localPath(root)).filter((root): root is string => root !== undefined);
  const denied = deniedWritePath(`${outcome.stdout.text}\n${outcome.stderr.text}`, [...writable, ...(prepared.grant ? [prepared.grant] : [])]);
  if (!denied) {
    return undefined;
  }
  const home = ctx.workspace.home;
  const folder = await grantFor(denied, home, [...sensitiveLocalPaths(home), ...prepared.host.sandbox.privateFolders], searchPathOf(prepared.host), async (p) => (await fs.stat(fileLocation(p)))?.kind);
  return folder ? { denied: denied.path, folder } : undefined;
}
