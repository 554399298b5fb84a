// A command run in a terminal the user watches, until it ends or moves to the background. Still
// running at its timeout (unless on_timeout: "kill", which stops it then) or when the caller needs
// an answer (ctx.call.returnBy), it is handed to the background registry with its process, its
// output so far, its terminal and its lease, and the call returns its id. Before that,
// cancellation stops it; Ctrl+C in the terminal stops it at any time. When the background limit is
// full it cannot move, and it is stopped as a timed-out command always was, with the reason.
// Three steps: startForeground (terminal, process, input watch, timeout), waitForMoment (the race
// of what ends the wait) and afterMoment (finish, stop, or handToBackground in background.ts).
import type { ToolContext } from '../../context';
import { errorMessage, NEVER_CANCELLED, ToolError } from '../../errors';
import type { Timer } from '../../ports/clock';
import type { CommandTerminal, ProcessOutcome, StartedProcess } from '../../ports/process';
import { InputWatch } from '../../process/inputWatch';
import { OutputCursor } from '../../process/outputCursor';
import { handToBackground } from './background';
import { whenAnswerDue } from './backgroundResults';
import { couldNotRun, couldNotStart, noRoomStatusLine, sandboxLine, seconds, statusLine, type CommandReport, type MoveCause } from './format';
import type { HeldLease } from './lease';
import type { PreparedCommand } from './prepare';

/** How a foreground run came back: ended by itself or stopped (the status line the terminal showed), or moved to the background (the result text, with its id). */
export type ForegroundRun =
  | { readonly kind: 'ended'; readonly outcome: ProcessOutcome; readonly status: string }
  | { readonly kind: 'moved'; readonly report: CommandReport };

/** What ended the foreground wait: the process's end, its timeout, the time the caller needs an answer by, or a wait for input. */
type Moment = 'ended' | MoveCause;

type OutputSink = (chunk: string, stream: 'stdout' | 'stderr') => void;

export async function runInForeground(prepared: PreparedCommand, held: HeldLease, ctx: ToolContext): Promise<ForegroundRun> {
  const run = startForeground(prepared, held, ctx);
  const moment = await waitForMoment(run, ctx);
  return afterMoment(run, moment, ctx);
}

/** A foreground command once started: what waitForMoment and afterMoment act on. */
interface StartedForeground {
  readonly prepared: PreparedCommand;
  readonly held: HeldLease;
  readonly sandbox: string;
  readonly terminal: CommandTerminal;
  readonly startedAt: number;
  /** Kept for the model too, as a background command's unread output, in case it moves there. */
  readonly output: OutputCursor;
  /** Whether it waits for input: then the call returns at once with its id, so the model can answer. */
  readonly input: InputWatch;
  readonly child: StartedProcess;
  /** Its timeout timer, dropped when the command ends. */
  readonly timer: Timer;
  /** What its timeout timer does from now on: first it ends the wait; after a move, with on_timeout "kill", it stops the command. */
  atTimeout(action: () => void): void;
  /** From now on every chunk of its output goes to `onOutput` besides its terminal, no longer to `input` and `output`. */
  attach(onOutput: OutputSink): void;
}

/** Opens its terminal, starts the process, watches its input and sets its timeout; a start that fails finishes the terminal and throws. */
function startForeground(prepared: PreparedCommand, held: HeldLease, ctx: ToolContext): StartedForeground {
  const { host } = prepared;
  const sandbox = sandboxLine(prepared.placement, prepared.verdict, prepared.withheld.length, undefined, prepared.grant, held.notWritable, held.staging);
  const terminal = host.openTerminal(prepared.command, prepared.cwd.path);
  terminal.write(`${sandbox}\n`);
  const startedAt = ctx.host.clock.now();
  const output = new OutputCursor(held.request.headChars, held.request.tailChars, prepared.command);
  const input = new InputWatch(ctx.host.clock, host.inputTiming);
  let keep: OutputSink = (chunk, stream) => {
    input.heard(chunk);
    output.append(chunk, stream);
  };
  let child: StartedProcess;
  try {
    child = host.processes.start({
      ...held.request,
      // This step stops it at the timeout or on cancellation while the call waits; once it moved to
      // the background, only its end, a stop request or Ctrl+C in its terminal does.
      token: NEVER_CANCELLED,
      onOutput: (chunk, stream) => {
        terminal.write(chunk);
        keep(chunk, stream);
      },
      onInterrupt: (listener) => terminal.onInterrupt(listener),
    });
  } catch (error) {
    throw failedToRun(error, terminal);
  }
  const started = child;
  input.watch(() => started.inputReaders());
  let atTimeout = (): void => undefined;
  const timer = ctx.host.clock.setTimeout(() => atTimeout(), prepared.timeoutSeconds * 1000);
  void started.outcome.then(() => timer.dispose(), () => timer.dispose());
  return {
    prepared, held, sandbox, terminal, startedAt, output, input, child: started, timer,
    atTimeout: (action) => {
      atTimeout = action;
    },
    attach: (onOutput) => {
      keep = onOutput;
    },
  };
}

/** Waits for the first of: its end, its timeout, the time the caller needs an answer by, a wait for input (only with room to move); cancellation stops it meanwhile. */
async function waitForMoment(run: StartedForeground, ctx: ToolContext): Promise<Moment> {
  const { child, input } = run;
  const token = ctx.call.token;
  // Only while the call waits (even where disposing does not unsubscribe): a command that moved to the background outlives the call.
  let waiting = true;
  const cancellation = token.onCancellationRequested(() => (waiting ? child.stop('cancelled') : undefined));
  if (token.isCancellationRequested) {
    child.stop('cancelled');
  }
  let answer: { dispose(): void } | undefined;
  let prompt: { dispose(): void } | undefined;
  try {
    return await new Promise<Moment>((resolve) => {
      run.atTimeout(() => resolve('timeout'));
      answer = whenAnswerDue(ctx, () => resolve('due'));
      // Only when it can move: with the background limit full it runs on to its timeout.
      prompt = input.onDidChange(() => (input.current() && hasRoom(run.prepared, ctx) ? resolve('waiting') : undefined));
      void child.outcome.then(() => resolve('ended'), () => resolve('ended'));
    });
  } finally {
    waiting = false;
    cancellation.dispose();
    answer?.dispose();
    prompt?.dispose();
    run.atTimeout(() => undefined);
  }
}

/** Ended (or cancelled): its outcome. At the timeout with on_timeout "kill": stopped. Otherwise moved to the background, or stopped when there is no room. */
async function afterMoment(run: StartedForeground, moment: Moment, ctx: ToolContext): Promise<ForegroundRun> {
  const { prepared, child } = run;
  if (moment === 'ended' || ctx.call.token.isCancellationRequested) {
    return finish(run);
  }
  if (moment === 'timeout' && prepared.onTimeout === 'kill') {
    child.stop('timeout');
    return finish(run);
  }
  const elapsed = moment === 'timeout' ? `${prepared.timeoutSeconds} s` : seconds(ctx.host.clock.now() - run.startedAt);
  const moved = handToBackground({
    prepared,
    held: run.held,
    terminal: run.terminal,
    adoption: {
      commandLine: prepared.command,
      cwdShown: prepared.cwd.shown,
      cwd: prepared.cwd.path,
      sandboxLine: run.sandbox,
      logPath: run.held.request.logPath,
      maxRunning: ctx.settings.runCommandMaxBackground,
      startedAt: run.startedAt,
      process: child,
      output: run.output,
      input: run.input,
      attach: (onOutput) => run.attach(onOutput),
    },
    keepTimeout: (stop) => (stop ? run.atTimeout(stop) : run.timer.dispose()),
  }, moment, elapsed, ctx);
  if (typeof moved !== 'string') {
    return { kind: 'moved', report: moved };
  }
  child.stop('timeout');
  return finish(run, noRoomStatusLine(moment, elapsed, moved));
}

/** Waits for its end and closes its terminal; `noRoom`: the status line of a command stopped because it could not move. */
async function finish(run: StartedForeground, noRoom?: string): Promise<ForegroundRun> {
  const { prepared, terminal } = run;
  let outcome: ProcessOutcome;
  try {
    outcome = await run.child.outcome;
  } catch (error) {
    // A spawn that fails this way started nothing.
    throw failedToRun(error, terminal);
  } finally {
    run.input.stop();
  }
  const status = noRoom && outcome.stopped === 'timeout' ? noRoom : statusLine(outcome, prepared.timeoutSeconds);
  terminal.finish(`${status} (${seconds(outcome.durationMs)})`);
  if (outcome.spawnError) {
    throw new ToolError(couldNotStart(outcome.spawnError, prepared.host.shell, prepared.cwd.shown));
  }
  return { kind: 'ended', outcome, status };
}

/** Whether the background limit has room for it now. */
function hasRoom(prepared: PreparedCommand, ctx: ToolContext): boolean {
  try {
    prepared.host.background.checkRoom(ctx.settings.runCommandMaxBackground);
    return true;
  } catch {
    return false;
  }
}

function failedToRun(error: unknown, terminal: CommandTerminal): ToolError {
  const words = couldNotRun(errorMessage(error));
  terminal.finish(words.terminal);
  return new ToolError(words.message);
}
