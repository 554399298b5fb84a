// A command run in a terminal the user watches, until it ends or moves to the background. Still
// running at its timeout (unless on_timeout: "kill", which stops it then) or when the caller needs
// an answer (ctx.call.returnBy), it is handed to the background registry with its process, its
// output so far, its terminal and its lease, and the call returns its id. Before that,
// cancellation stops it; Ctrl+C in the terminal stops it at any time. When the background limit is
// full it cannot move, and it is stopped as a timed-out command always was, with the reason.
import type { ToolContext } from '../../context';
import { errorMessage, NEVER_CANCELLED, ToolError } from '../../errors';
import type { BackgroundCommand, CommandTerminal, ProcessOutcome, StartedProcess } from '../../ports/process';
import { InputWatch } from '../../process/inputWatch';
import { OutputCursor } from '../../process/outputCursor';
import { followToItsEnd } from './background';
import { CLIENT_NEEDS_ANSWER, describeWaiting, formatBackground, whenAnswerDue } from './backgroundResults';
import { noRoomStatusLine, sandboxLine, seconds, statusLine, type CommandReport } from './format';
import type { HeldLease } from './lease';
import type { PreparedCommand } from './prepare';

/** How a foreground run came back: ended by itself or stopped (the status line the terminal showed), or moved to the background (the result text, with its id). */
export type ForegroundRun =
  | { readonly kind: 'ended'; readonly outcome: ProcessOutcome; readonly status: string }
  | { readonly kind: 'moved'; readonly report: CommandReport };

/** What ended the foreground wait: the process's end, its timeout, the time the caller needs an answer by, or a wait for input. */
type Moment = 'ended' | 'timeout' | 'due' | 'waiting';

type OutputSink = (chunk: string, stream: 'stdout' | 'stderr') => void;

export async function runInForeground(prepared: PreparedCommand, held: HeldLease, ctx: ToolContext): Promise<ForegroundRun> {
  const { host } = prepared;
  const sandbox = sandboxLine(prepared.placement, prepared.verdict, prepared.withheld.length, undefined, prepared.grant, held.notWritable, held.staging);
  const terminal = host.openTerminal(prepared.command, prepared.cwd.path);
  terminal.write(`${sandbox}\n`);
  const startedAt = ctx.host.clock.now();
  // Kept for the model too, as a background command's unread output, in case it moves there.
  const output = new OutputCursor(held.request.headChars, held.request.tailChars, prepared.command);
  // Whether it waits for input: then the call returns at once with its id, so the model can answer.
  const input = new InputWatch(ctx.host.clock, host.inputTiming);
  let keep: OutputSink = (chunk, stream) => {
    input.heard(chunk);
    output.append(chunk, stream);
  };
  let started: StartedProcess;
  try {
    started = host.processes.start({
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
    throw couldNotRun(error, terminal);
  }
  const child = started;
  const timeoutSeconds = prepared.timeoutSeconds;
  input.watch(() => child.inputReaders());

  // The timer's action changes: first it ends the wait; after a move, with on_timeout "kill", it stops the command.
  let atTimeout = (): void => undefined;
  const timer = ctx.host.clock.setTimeout(() => atTimeout(), timeoutSeconds * 1000);
  void child.outcome.then(() => timer.dispose(), () => timer.dispose());
  const token = ctx.call.token;
  // Only while the call waits: a command that moved to the background outlives the call.
  let waiting = true;
  const cancellation = token.onCancellationRequested(() => (waiting ? child.stop('cancelled') : undefined));
  if (token.isCancellationRequested) {
    child.stop('cancelled');
  }
  let answer: { dispose(): void } | undefined;
  let prompt: { dispose(): void } | undefined;
  const moment = await new Promise<Moment>((resolve) => {
    atTimeout = () => resolve('timeout');
    answer = whenAnswerDue(ctx, () => resolve('due'));
    // Only when it can move: with the background limit full it runs on to its timeout.
    prompt = input.onDidChange(() => (input.current() && hasRoom() ? resolve('waiting') : undefined));
    void child.outcome.then(() => resolve('ended'), () => resolve('ended'));
  });
  cancellation.dispose();
  answer?.dispose();
  prompt?.dispose();
  atTimeout = () => undefined;

  let noRoom: string | undefined;
  if (moment !== 'ended' && !token.isCancellationRequested) {
    if (moment === 'timeout' && prepared.onTimeout === 'kill') {
      child.stop('timeout');
    } else {
      const elapsed = moment === 'timeout' ? `${timeoutSeconds} s` : seconds(ctx.host.clock.now() - startedAt);
      const moved = moveToBackground();
      if (typeof moved === 'string') {
        noRoom = noRoomStatusLine(moment, elapsed, moved);
        child.stop('timeout');
      } else {
        waiting = false;
        const release = held.handOff();
        followToItsEnd(moved, terminal, release, ctx, held.configChanges, held.staged);
        const extra: string[] = [];
        if (moment !== 'timeout' && prepared.onTimeout === 'kill') {
          // The limit the model asked for still holds in the background.
          atTimeout = () => child.stop('timeout');
          extra.push(`It will be stopped at its timeout, ${timeoutSeconds} s after it started (on_timeout: "kill").`);
        } else {
          timer.dispose();
        }
        const asks = moved.waitingForInput();
        const why = moment === 'timeout' ? 'at its timeout' : moment === 'waiting' ? 'because it waits for input' : `because ${CLIENT_NEEDS_ANSWER}`;
        terminal.note(`${asks ? `Waiting for input after ${elapsed}` : `Still running after ${elapsed}`}: moved to the background as ${moved.id} ${why}. It keeps running here; Ctrl+C stops it.`);
        const headline = asks
          ? `Still running after ${elapsed} and ${describeWaiting(asks)}: moved to the background${moment === 'timeout' ? ' at the timeout' : ''}; the command was not stopped.`
          : moment === 'timeout'
            ? `Still running after ${elapsed}: moved to the background at the timeout instead of being stopped (on_timeout: "kill" stops it instead).`
            : `Still running after ${elapsed}: moved to the background because ${CLIENT_NEEDS_ANSWER}; the command was not stopped.`;
        return { kind: 'moved', report: formatBackground(moved, headline, moved.takeOutput(), extra) };
      }
    }
  }

  let outcome: ProcessOutcome;
  try {
    outcome = await child.outcome;
  } catch (error) {
    // A spawn that fails this way started nothing.
    throw couldNotRun(error, terminal);
  } finally {
    input.stop();
  }
  const status = noRoom && outcome.stopped === 'timeout' ? noRoom : statusLine(outcome, timeoutSeconds);
  terminal.finish(`${status} (${seconds(outcome.durationMs)})`);
  if (outcome.spawnError) {
    throw new ToolError(`The command could not be started: ${outcome.spawnError}. Check that ${host.shell} exists and that the folder ${prepared.cwd.shown} is readable.`);
  }
  return { kind: 'ended', outcome, status };

  /** Whether the background limit has room for it now. */
  function hasRoom(): boolean {
    try {
      host.background.checkRoom(ctx.settings.runCommandMaxBackground);
      return true;
    } catch {
      return false;
    }
  }

  /** The command registered as a background command, or why it could not be (the limit is full: the registry's words, with the running ids). */
  function moveToBackground(): BackgroundCommand | string {
    try {
      return host.background.adopt({
        commandLine: prepared.command,
        cwdShown: prepared.cwd.shown,
        cwd: prepared.cwd.path,
        sandboxLine: sandbox,
        logPath: held.request.logPath,
        maxRunning: ctx.settings.runCommandMaxBackground,
        startedAt,
        process: child,
        output,
        input,
        attach: (onOutput) => {
          keep = onOutput;
        },
      });
    } catch (error) {
      return errorMessage(error);
    }
  }
}

function couldNotRun(error: unknown, terminal: CommandTerminal): ToolError {
  const detail = errorMessage(error);
  terminal.finish(`Could not run the command: ${detail}`);
  return new ToolError(`The command could not be run: ${detail}. Nothing was started.`);
}
