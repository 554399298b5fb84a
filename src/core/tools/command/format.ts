// What the command tools tell the model and the terminal: the status line, the sandbox line, one
// stream of output with what was left out, the result of a foreground run, what a foreground
// command that moved to the background or could not start says, and the hints about failures the
// sandbox may have caused. The foreground result and the background results
// (backgroundResults.ts) write their streams with the same streamSection.
import type { ToolContext } from '../../context';
import { describeProtected, whyProtected } from '../../guard/protectedNames';
import type { CommandVerdict } from '../../guard/command/verdict';
import { displayPath, fileLocation } from '../../location';
import type { KeptOutput, ProcessOutcome, StagedChange, StagedMerge, WaitingForInput } from '../../ports/process';
import type { ExecutionConfigChange } from '../../sandbox/configWatch';
import { sandboxSummary } from '../../sandbox/launcher';
import type { Placement } from '../../sandbox/placement';
import type { NotWritable } from '../../sandbox/plan';

/** The result's line when git ran with the policy's safety options (gitSafety.ts). */
const GIT_SAFETY_NOTE = "Git: ran with forced safety options (no hooks, fsmonitor, external diff, textconv, filters or signature programs; no fetching; submodules not entered; .env and netrc files left out of its output), in a repository whose own config holds only settings known to be harmless, or outside any repository.";

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** How a foreground run ended: the exit code, the signal, or who stopped it. */
export function statusLine(outcome: ProcessOutcome, timeoutSeconds: number): string {
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

/** Why a call returns before its wait ends (ctx.call.returnBy). */
export const CLIENT_NEEDS_ANSWER = 'the client needs an answer now';

/** Why a foreground command still running moves to the background: its timeout, the time the caller needs an answer by, or a wait for input. */
export type MoveCause = 'timeout' | 'due' | 'waiting';

/** `waiting for input: Continue? [y/N]`, and which program reads it when known. */
export function describeWaiting(waiting: WaitingForInput): string {
  return `waiting for input: ${waiting.prompt}${waiting.reader ? ` (${waiting.reader} reads its input)` : ''}`;
}

/** The first line of a foreground command's result once it moved to the background (`waiting`: what it waits for, if it does). */
export function movedHeadline(cause: MoveCause, elapsed: string, waiting: WaitingForInput | undefined): string {
  return waiting
    ? `Still running after ${elapsed} and ${describeWaiting(waiting)}: moved to the background${cause === 'timeout' ? ' at the timeout' : ''}; the command was not stopped.`
    : cause === 'timeout'
      ? `Still running after ${elapsed}: moved to the background at the timeout instead of being stopped (on_timeout: "kill" stops it instead).`
      : `Still running after ${elapsed}: moved to the background because ${CLIENT_NEEDS_ANSWER}; the command was not stopped.`;
}

/** The line its terminal shows when a foreground command moves to the background as `id`. */
export function movedTerminalNote(cause: MoveCause, elapsed: string, id: string, waiting: WaitingForInput | undefined): string {
  const why = cause === 'timeout' ? 'at its timeout' : cause === 'waiting' ? 'because it waits for input' : `because ${CLIENT_NEEDS_ANSWER}`;
  return `${waiting ? `Waiting for input after ${elapsed}` : `Still running after ${elapsed}`}: moved to the background as ${id} ${why}. It keeps running here; Ctrl+C stops it.`;
}

/** The result's note for a command that moved before its timeout with on_timeout "kill": the limit still holds in the background. */
export function stoppedAtTimeoutNote(timeoutSeconds: number): string {
  return `It will be stopped at its timeout, ${timeoutSeconds} s after it started (on_timeout: "kill").`;
}

/** A start that failed before any process ran (E2BIG, EMFILE): the terminal's closing line and the error's message. */
export function couldNotRun(detail: string): { readonly terminal: string; readonly message: string } {
  return { terminal: `Could not run the command: ${detail}`, message: `The command could not be run: ${detail}. Nothing was started.` };
}

/** A spawn that failed once under way (the shell or the folder missing), and what to check. */
export function couldNotStart(spawnError: string, shell: string, cwdShown: string): string {
  return `The command could not be started: ${spawnError}. Check that ${shell} exists and that the folder ${cwdShown} is readable.`;
}

/**
 * The status line of a foreground command that should have moved to the background (at its
 * timeout, or when the client needed an answer) but found the background limit full, so it was
 * stopped; `why` is the registry's refusal, which names the running ids.
 */
export function noRoomStatusLine(cause: MoveCause, elapsed: string, why: string): string {
  const when = cause === 'timeout' ? `Timed out after ${elapsed}` : cause === 'due' ? `Stopped after ${elapsed}, when the client needed an answer` : `Stopped after ${elapsed}, when it waited for input`;
  return `${when}: the command and every process it started were stopped (TERM, then KILL), because it could not move to the background: ${why.replace(/\.$/, '')}`;
}

/** `Sandbox: ...` (where it runs, how many secret variables were withheld), and the git note when the policy gave git its safety options. */
export function sandboxLine(placement: Exclude<Placement, { where: 'refused' }>, verdict: CommandVerdict, withheld = 0, network?: string, grant?: string, notWritable: readonly NotWritable[] = [], staging?: string): string {
  const kept = placement.where === 'sandbox' ? notWritable.map(({ folder, why }) => `; kept read-only: ${why.startsWith(folder) ? why : `${folder}, since ${why}`}`).join('') + (staging ? `; ${staging}` : '') : '';
  const oneSpelling = placement.where === 'sandbox' && placement.oneSpelling ? `; protected and secret names kept under one spelling only (${placement.oneSpelling.join(', ')} ignore${placement.oneSpelling.length === 1 ? 's' : ''} letter case)` : '';
  const also = (grant ? `; also writable: ${grant}` : '') + kept + oneSpelling;
  const where = placement.where === 'sandbox'
    ? `Sandbox: ${sandboxSummary(placement.sandbox, network ?? placement.network)}${also}`
    : placement.where === 'host' && placement.windows
      ? `Sandbox: none on Windows (there is no OS sandbox here: a command the policy cannot prove read-only asks first, and every command runs with all the user's rights)`
      : placement.unavailable ? `Sandbox: none, ${placement.unavailable}` : `Sandbox: none, it ran outside the sandbox (${placement.why})`;
  const secrets = withheld === 0 ? '' : `; ${withheld} secret environment variable${withheld === 1 ? '' : 's'} withheld (runCommand.passEnvironment lets named ones through)`;
  return where + secrets + (verdict.commandLine ? `\n${GIT_SAFETY_NOTE}` : '');
}

/** What a stream section covers: a whole foreground run, or a background command since the last read. */
export interface StreamSpan {
  /** Shown for a stream with nothing in it. */
  readonly empty: string;
  /** Follows the stream's name in the note about what was left out (e.g. ` since the last read`). */
  readonly scope: string;
}

export const WHOLE_RUN: StreamSpan = { empty: '(empty)', scope: '' };
export const SINCE_LAST_READ: StreamSpan = { empty: '(no new output)', scope: ' since the last read' };

/**
 * One stream of a result: a header, its kept head and tail, what the reduction rules left out
 * (`reduced: ...`), and a note when the middle was left out.
 */
export function streamSection(name: 'stdout' | 'stderr', kept: KeptOutput, span: StreamSpan): string[] {
  const lines = ['', `--- ${name} ---`, kept.totalChars === 0 ? span.empty : kept.text.replace(/\n$/, '')];
  if (kept.reduction) {
    lines.push(`reduced: ${kept.reduction.summary} (the full log below has every line)`);
  }
  if (kept.omittedChars > 0) {
    const after = kept.reduction ? ` (${kept.reduction.keptChars} after reduction)` : '';
    lines.push(`[${name}${span.scope} was ${kept.totalChars} characters${after}; ${kept.omittedChars} in the middle were left out. The full output is in the log below: read it with workspace_read_file (offset and limit), or search it with workspace_grep.]`);
  }
  return lines;
}

/** A command tool's text and, when output was left out, the note on where all of it is (ToolResult.continuation). */
export interface CommandReport {
  readonly text: string;
  readonly continuation?: string;
}

/** When the middle of a stream was left out: where the whole output is and how to read it. */
export function outputContinuation(streams: readonly KeptOutput[], logPath: string): string | undefined {
  const omitted = streams.reduce((total, stream) => total + stream.omittedChars, 0);
  return omitted === 0 ? undefined : `[${omitted} characters of output were left out. All of it is in ${logPath}: read it with workspace_read_file (offset and limit), or search it with workspace_grep.]`;
}

/** The result of a foreground run. */
export function formatOutcome(outcome: ProcessOutcome, status: string, cwdShown: string, sandbox: string, hint: string | undefined): CommandReport {
  const lines = [status, `Duration: ${seconds(outcome.durationMs)}`, `Cwd: ${cwdShown}`, sandbox];
  if (hint) {
    lines.push(hint);
  }
  if (outcome.leftoversStopped) {
    lines.push('Background processes still running after the shell exited were stopped.');
  }
  lines.push(...streamSection('stdout', outcome.stdout, WHOLE_RUN), ...streamSection('stderr', outcome.stderr, WHOLE_RUN));
  lines.push('', `Full log: ${outcome.logPath}${outcome.logTruncated ? ' (the log itself stopped growing at 50 MB)' : ''}`);
  return { text: lines.join('\n'), continuation: outputContinuation([outcome.stdout, outcome.stderr], outcome.logPath) };
}

/**
 * When a sandboxed command failed with an error the sandbox causes (a read-only file system, no
 * network), says so and how to go on; undefined when the failure looks like the command's own.
 */
export function sandboxFailureHint(outcome: ProcessOutcome, network: boolean, grant?: GrantOffer): string | undefined {
  if (outcome.exitCode === 0 || outcome.stopped) {
    return undefined;
  }
  const text = `${outcome.stdout.text}\n${outcome.stderr.text}`;
  if (grant) {
    return `The sandbox caused this failure: it refused a write to ${grant.denied}, outside the workspace folders, /tmp and the package caches. To run it again in the sandbox with ${grant.folder} writable too, call again with writable_path: "${grant.folder}" (the user is asked); only if that is not enough, permissions: "unsandboxed".`;
  }
  if (/read-only file system|EROFS|device or resource busy|EBUSY/i.test(text)) {
    return `The sandbox may have caused this failure: the command tried to write outside the workspace folders and /tmp, or to change, move or replace a protected file (${describeProtected('brief')}). If it must, call again with permissions: "unsandboxed" (the user is asked), or ask the user to run it.`;
  }
  if (!network && /could not resolve|name resolution|network is unreachable|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH|connection refused|ECONNREFUSED/i.test(text)) {
    return 'The sandbox may have caused this failure: commands that run without asking have no network. If it needs the network, call again with permissions: "network" (the user is asked).';
  }
  if (network && /Workspace Agent Tools proxy|CONNECT tunnel failed|403 Forbidden|could not resolve|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH|network is unreachable/i.test(text)) {
    return 'The sandbox may have caused this failure: the command reaches the network only through the extension\'s proxy (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY), which allows the workspace\'s package registries, its git remotes and the domains the user allowed, and refuses private addresses. A program that ignores the proxy variables has no network; tell the user which domain it needs.';
  }
  return undefined;
}

/** A refused write outside the writable folders, and the folder a retry could make writable (sandbox/grants.ts). */
export interface GrantOffer {
  readonly denied: string;
  readonly folder: string;
}

/** The hint for a command that ran in the sandbox; none outside it. */
export function placementFailureHint(placement: Exclude<Placement, { where: 'refused' }>, outcome: ProcessOutcome, grant?: GrantOffer): string | undefined {
  return placement.where === 'sandbox' ? sandboxFailureHint(outcome, placement.network, grant) : undefined;
}

/** Puts the execution config a command created or changed on the call's record, and returns the note for its result or report. */
export function reportConfigChanges(changes: readonly ExecutionConfigChange[], ctx: ToolContext): string {
  ctx.call.observer?.onExecutionConfigChanged(changes.map((entry) => ({ path: displayPath(fileLocation(entry.path), ctx.workspace), change: entry.change })));
  return describeConfigChanges(changes, ctx);
}

/** The note for execution config an approved command created (the sandbox cannot stop that) or changed (outside the sandbox). */
function describeConfigChanges(changes: readonly ExecutionConfigChange[], ctx: ToolContext): string {
  const shown = changes.slice(0, 20).map((entry) => `- ${entry.change} ${displayPath(fileLocation(entry.path), ctx.workspace)}: ${whyProtected(entry.path)}`);
  const more = changes.length > shown.length ? [`- and ${changes.length - shown.length} more`] : [];
  const changed = changes.some((entry) => entry.change === 'changed');
  return [
    changed
      ? 'Warning: the command changed execution config that VS Code or git obey (it ran outside the sandbox, which keeps existing ones read-only):'
      : 'Warning: the command created execution config that VS Code or git obey; the sandbox keeps existing ones read-only but cannot stop a command from creating new ones:',
    ...shown,
    ...more,
    'Tell the user about these files and why they were made or changed before anything opens or runs them; undo them if they were not intended (the activity record lists them).',
  ].join('\n');
}

/** The most changes a staged command's result lists one by one. */
const STAGED_LISTED = 40;

/**
 * What a staged command changed, as `git status --short` names it, merged or held for review; and
 * where held changes (or the rest of a merge that stopped) are kept.
 */
export function reportStagedChanges(merge: StagedMerge, ctx: ToolContext): string {
  const shown = (change: StagedChange): string => displayPath(fileLocation(`${change.folder}/${change.path}`), ctx.workspace);
  const kept = merge.changes.filter((change) => change.held !== undefined && change.keptAt !== undefined);
  if (kept.length) {
    ctx.call.observer?.onHeldChanges?.(kept.map((change) => ({ path: shown(change), status: change.status, why: change.held ?? '', keptAt: change.keptAt ?? '' })));
  }
  const line = (change: StagedChange): string => `${change.status} ${shown(change)}${change.held ? ` (held: ${change.held})` : ''}`;
  const held = merge.changes.filter((change) => change.held !== undefined);
  const merged = merge.changes.filter((change) => change.held === undefined);
  const listed = [...held, ...merged].slice(0, STAGED_LISTED).map(line);
  const more = merge.changes.length > listed.length ? [`and ${merge.changes.length - listed.length} more`] : [];
  const head = merge.changes.length === 0
    ? 'Changes: none (the command wrote nothing in the workspace folders).'
    : `Changes (staged, merged when the command ended${held.length ? `; ${held.length} held for the user's review, not merged` : ''}):`;
  const tail = [
    ...(merge.stopped ? [`The merge stopped: ${merge.stopped}`] : []),
    ...(merge.keptIn ? [`What was not merged is kept in ${merge.keptIn}. Tell the user: held execution config is never merged unasked; they can review it in the Activity view (Show Held Change) or there.`] : []),
  ];
  return [head, ...listed.map((entry) => `- ${entry}`), ...more.map((entry) => `- ${entry}`), ...tail].join('\n');
}

export function bulleted(lines: readonly string[]): string {
  return lines.map((line) => `- ${line}`).join('\n');
}
