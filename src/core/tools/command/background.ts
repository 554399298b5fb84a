// A command started in the background: its own terminal and process group, registered under an id
// (BackgroundCommands), and the call waits for wait_for, its end, the timeout or the time the caller
// needs an answer by. It takes over the lease's release and the call's "after" checkpoint: both
// happen when the command ends (or at once when it cannot start); `handToBackground` moves a
// foreground command still running here, and `followToItsEnd` does the same for it. A call
// cancelled while it waits stops the command: nothing the caller can no longer see an id for is
// left running.
import type { ToolContext } from '../../context';
import { errorMessage, NEVER_CANCELLED, throwIfCancelled, ToolError } from '../../errors';
import type { BackgroundAdoption, BackgroundCommand, CommandTerminal, StagedMerge } from '../../ports/process';
import type { ExecutionConfigChange } from '../../sandbox/configWatch';
import { describeStatus, statusOf } from '../../process/backgroundCommands';
import { asksForSecret } from '../../process/backgroundSummary';
import { ANSWER_DUE, formatBackground, notesAtEnd, setNotesAtEnd, waitWithinCall } from './backgroundResults';
import { couldNotStart, describeWaiting, movedHeadline, movedTerminalNote, placementFailureHint, reportConfigChanges, reportStagedChanges, sandboxLine, seconds, stoppedAtTimeoutNote, type CommandReport, type MoveCause } from './format';
import type { HeldLease } from './lease';
import type { PreparedCommand } from './prepare';

/** Starts the command and returns the result text (and its continuation) once wait_for matched, it ended or the wait timed out. */
export async function startInBackground(prepared: PreparedCommand, held: HeldLease, ctx: ToolContext): Promise<CommandReport> {
  const { host, placement } = prepared;
  const base = held.request;
  const sandbox = sandboxLine(placement, prepared.verdict, prepared.withheld.length, undefined, prepared.grant, held.notWritable);
  // From here this step lets go of the lease: when the command ends, or now if it does not start.
  const release = held.handOff();
  let terminal: CommandTerminal | undefined;
  let started: BackgroundCommand;
  try {
    terminal = host.openTerminal(prepared.command, base.cwd, true);
    terminal.write(`${sandbox}\n`);
    const shown = terminal;
    started = host.background.start({
      commandLine: prepared.command,
      cwdShown: prepared.cwd.shown,
      cwd: base.cwd,
      sandboxLine: sandbox,
      logPath: base.logPath,
      maxRunning: ctx.settings.runCommandMaxBackground,
      headChars: base.headChars,
      tailChars: base.tailChars,
      ports: held.ports,
      launch: (onOutput) => host.processes.start({
        ...base,
        // The command outlives the call that started it: only workspace_stop_command or its end stops it.
        token: NEVER_CANCELLED,
        onOutput: (chunk, stream) => {
          shown.write(chunk);
          onOutput(chunk, stream);
        },
        onInterrupt: (listener) => shown.onInterrupt(listener),
      }),
    });
  } catch (error) {
    terminal?.finish(`Not started: ${errorMessage(error)}`);
    await release();
    throw error;
  }
  const command = started;
  followToItsEnd(command, terminal, release, ctx, held.configChanges);

  const { waitFor, timeoutSeconds } = prepared;
  const how = await waitWithinCall(command, waitFor, timeoutSeconds * 1000, ctx);
  if (how === 'cancelled') {
    await command.stop();
    throwIfCancelled(ctx.call.token);
  }
  const final = command.status();
  const outcome = final.state === 'running' ? undefined : await command.ended;
  if (outcome?.spawnError) {
    throw new ToolError(couldNotStart(outcome.spawnError, host.shell, prepared.cwd.shown));
  }
  const elapsed = seconds(ctx.host.clock.now() - command.startedAt);
  const waiting = final.state === 'running' ? command.waitingForInput() : undefined;
  const headline = how === 'matched'
    ? `Started in the background; a line matched wait_for (${elapsed}).`
    : waiting
      ? `Started in the background; after ${elapsed} it is ${describeWaiting(waiting)}${waitFor ? ' (no line matched wait_for yet)' : ''}.`
      : final.state === 'running'
      ? `Started in the background; still running after ${how === 'due' ? elapsed : `${timeoutSeconds} s`}${waitFor ? ', and no line matched wait_for yet' : ''}${how === 'due' ? `; ${ANSWER_DUE}` : ''}.`
      : `The background command ended (${describeStatus(final)}) within ${elapsed}${waitFor ? ' before any line matched wait_for' : ''}.`;
  const hint = outcome ? placementFailureHint(placement, outcome) : undefined;
  // What it listens on is reachable before the caller reads that it is (ports.ts): the forwards are brought up to date first.
  await command.settlePorts();
  return formatBackground(command, headline, command.takeOutput(), [...(hint ? [hint] : []), ...(await notesAtEnd(command))]);
}

/** A foreground command still running, as runInForeground hands it over (foreground.ts). */
export interface ForegroundHandOff {
  readonly prepared: PreparedCommand;
  readonly held: HeldLease;
  readonly terminal: CommandTerminal;
  /** What the registry takes over: the process, its output so far, its input watch. */
  readonly adoption: BackgroundAdoption;
  /** What its timeout timer does from now on: stops the command, or (undefined) nothing, the timer dropped. */
  keepTimeout(stop: (() => void) | undefined): void;
}

/**
 * Moves a foreground command still running (at its timeout, when the caller needs an answer, or
 * waiting for input; `elapsed` as the result says it) to the background: registered under an id,
 * followed to its end with the lease and the "after" checkpoint, its terminal told. With
 * on_timeout "kill" and the timeout still ahead, the timeout stops it in the background. Returns
 * the result, or the registry's refusal (its limit is full) when it could not move.
 */
export function handToBackground(handOff: ForegroundHandOff, cause: MoveCause, elapsed: string, ctx: ToolContext): CommandReport | string {
  const { prepared, held, terminal, adoption } = handOff;
  let moved: BackgroundCommand;
  try {
    moved = prepared.host.background.adopt(adoption);
  } catch (error) {
    return errorMessage(error);
  }
  const release = held.handOff();
  followToItsEnd(moved, terminal, release, ctx, held.configChanges, held.staged);
  const extra: string[] = [];
  if (cause !== 'timeout' && prepared.onTimeout === 'kill') {
    // The limit the model asked for still holds in the background.
    handOff.keepTimeout(() => adoption.process.stop('timeout'));
    extra.push(stoppedAtTimeoutNote(prepared.timeoutSeconds));
  } else {
    handOff.keepTimeout(undefined);
  }
  const asks = moved.waitingForInput();
  terminal.note(movedTerminalNote(cause, elapsed, moved.id, asks));
  return formatBackground(moved, movedHeadline(cause, elapsed, asks), moved.takeOutput(), extra);
}

/**
 * A command now in the background, however it got there: when it ends, its terminal says so and the
 * lease is let go of (`release`, from HeldLease.handOff); the execution config it created or changed
 * (`configChanges`, from HeldLease: none for a read-only line) then goes to the call's observer
 * (which amends the call's record) and into every later report of the command (notesAtEnd), as a
 * foreground command's result says it; last, the call's "after" checkpoint, deferred here because
 * the command changes files until it ends, is taken.
 */
export function followToItsEnd(command: BackgroundCommand, terminal: CommandTerminal, release: () => Promise<void>, ctx: ToolContext, configChanges: () => Promise<ExecutionConfigChange[]>, staged: () => StagedMerge | undefined = () => undefined): void {
  const checkpointAfter = ctx.call.checkpoint?.deferAfter();
  // The person may answer it in its terminal: what they type is theirs, so no policy question. A command without input takes only Ctrl+C.
  const typing = command.stdin === 'eof' ? { dispose: () => undefined } : terminal.acceptInput({ send: (text, key) => command.sendInput(text, key), hidden: () => asksForSecret(command.waitingForInput()) });
  const notes = command.ended.then(async (outcome): Promise<string[]> => {
    typing.dispose();
    try {
      terminal.finish(`${describeStatus(statusOf(outcome))} (${seconds(outcome.durationMs)}, background command ${command.id})`);
    } finally {
      await release();
    }
    const changes = await configChanges();
    // A staged foreground command that moved here was merged when it ended (its launcher's hold).
    const merged = staged();
    return [...(merged ? [reportStagedChanges(merged, ctx)] : []), ...(changes.length ? [reportConfigChanges(changes, ctx)] : [])];
  }).catch((): string[] => []);
  // The "after" checkpoint once the notes are known: a report that waits for them does not wait for it.
  void notes.then(() => checkpointAfter?.finish()).catch(() => undefined);
  setNotesAtEnd(command, notes);
}
