// What the three background-command tools share: the wait_for pattern (RE2, linear time, so a
// hostile pattern cannot freeze the host), the lookup of an id the model gave, the result text, and
// the time the caller needs an answer by (ctx.call.returnBy), which ends every wait early.
import type { ToolContext } from '../../context';
import { ToolError, type CancellationSignal } from '../../errors';
import type { BackgroundCommand, BackgroundCommands, BackgroundWait, TakenOutput } from '../../ports/process';
import { commandLabel, describeStatus } from '../../process/backgroundCommands';
import { describeForwards } from '../../sandbox/ports';
import { compileLineMatcher, InvalidRegexError } from '../../search/regex';
import { oneLine } from '../../text/truncate';
import { CLIENT_NEEDS_ANSWER, describeWaiting, outputContinuation, SINCE_LAST_READ, streamSection, type CommandReport } from './format';

/** Longer patterns are refused: a ready line never needs one, and each line is matched against it. */
const MAX_WAIT_FOR_CHARS = 1000;
/** The largest compiled wait_for (re2js instructions): ordinary patterns take 10 to 100. */
const MAX_WAIT_FOR_PROGRAM = 500;
/** wait_for looks at this much of each line. */
const MATCHED_LINE_CHARS = 4096;

/** The line test of a wait_for pattern, or an error that says how to fix it. */
export function compileWaitFor(pattern: string | undefined): ((line: string) => boolean) | undefined {
  if (pattern === undefined) {
    return undefined;
  }
  if (pattern.length === 0) {
    throw new ToolError('wait_for is empty. Pass a regular expression that matches the line to wait for, e.g. "listening on|ready", or leave wait_for out.');
  }
  if (pattern.length > MAX_WAIT_FOR_CHARS) {
    throw new ToolError(`wait_for is ${pattern.length} characters long; at most ${MAX_WAIT_FOR_CHARS} are accepted. Pass a short regular expression that matches the line to wait for, e.g. "listening on|ready".`);
  }
  try {
    const matcher = compileLineMatcher({ pattern, caseInsensitive: false, fixedStrings: false }, MAX_WAIT_FOR_PROGRAM);
    // Every line of a chatty command is matched in the extension host: the cost is bounded by the
    // program's size and the start of the line a ready message is in.
    return (line) => matcher(line.length > MATCHED_LINE_CHARS ? line.slice(0, MATCHED_LINE_CHARS) : line) !== undefined;
  } catch (error) {
    if (error instanceof InvalidRegexError) {
      throw new ToolError(
        `wait_for is not a valid regular expression ${JSON.stringify(oneLine(pattern, 120))}:\n${error.detail}\nIt uses RE2 syntax (no backreferences, no lookaround). Escape special characters such as ( [ { . * + ? with a backslash to match them literally.`,
      );
    }
    throw error;
  }
}

/** The registry of this window, or an error where commands cannot run. */
export function backgroundRegistry(ctx: ToolContext, tool: string): BackgroundCommands {
  const registry = ctx.host.commands?.background;
  if (!registry) {
    throw new ToolError(`${tool} is not available here: the workspace is not on a disk where processes can run (a virtual workspace), so no background command can exist.`);
  }
  return registry;
}

/** The command of an id the model gave, or an error that lists the running ids. */
export function commandById(registry: BackgroundCommands, id: string): BackgroundCommand {
  const command = registry.get(id);
  if (command) {
    return command;
  }
  const running = registry.running();
  const listed = running.length === 0
    ? 'No background command is running.'
    : `Running: ${running.map(commandLabel).join(', ')}.`;
  throw new ToolError(`There is no background command with id ${JSON.stringify(oneLine(id, 40))}. ${listed} Use an id a workspace_run_command call returned (a line "id: bg<n>").`);
}

/** What each background command's end left to say (execution config it created or changed), known once its lease is let go of (followToItsEnd). */
const endNotes = new WeakMap<BackgroundCommand, Promise<string[]>>();

export function setNotesAtEnd(command: BackgroundCommand, notes: Promise<string[]>): void {
  endNotes.set(command, notes);
}

/** For a report of a command that has ended: what its end left to say; nothing while it runs. */
export async function notesAtEnd(command: BackgroundCommand): Promise<string[]> {
  return command.status().state === 'running' ? [] : ((await endNotes.get(command)) ?? []);
}

/** The result of any of the background tools: a headline, the id and status, the new output and what to do next. */
/** The servers' ports line, while the command runs and has any (sandbox/ports.ts). */
function portsLine(command: BackgroundCommand): string[] {
  const line = command.status().state === 'running' ? describeForwards(command.ports()) : undefined;
  return line ? [line] : [];
}

export function formatBackground(command: BackgroundCommand, headline: string, taken: TakenOutput, extra: readonly string[] = []): CommandReport {
  const status = command.status();
  const waiting = command.waitingForInput();
  const state = waiting ? `running, ${describeWaiting(waiting)}` : describeStatus(status);
  const lines = [headline, `id: ${command.id}`, `Status: ${state}${command.inputClosed && status.state === 'running' ? ' (its input is closed)' : ''}`, `Command: ${oneLine(command.commandLine, 200)}`, `Cwd: ${command.cwdShown}`, command.sandboxLine, ...portsLine(command), ...extra];
  lines.push(...streamSection('stdout', taken.stdout, SINCE_LAST_READ), ...streamSection('stderr', taken.stderr, SINCE_LAST_READ));
  lines.push('', `Full log: ${command.logPath}`);
  lines.push(waiting
    ? `It waits for input. Answer with workspace_send_input (id "${command.id}", text; Enter is added), or press a key (keys: "ctrl-c" interrupts, "ctrl-d" ends its input); stop it with workspace_stop_command (id "${command.id}") if it should not go on.`
    : status.state === 'running'
      ? `It keeps running. Read new output with workspace_command_output (id "${command.id}", optionally wait_for and timeout); stop it with workspace_stop_command (id "${command.id}") when you no longer need it.`
      : 'It has ended; its group of processes is gone.');
  return { text: lines.join('\n'), continuation: outputContinuation([taken.stdout, taken.stderr], command.logPath) };
}

/** setTimeout's longest delay; a later time is read again when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `onDue` once when the caller needs an answer (ctx.call.returnBy, on ctx.host.clock): the time
 * is read again whenever the timer fires, as it can move later. Never fires for a call without that
 * limit (or once returnBy answers undefined). Dispose to stop watching.
 */
export function whenAnswerDue(ctx: ToolContext, onDue: () => void): { dispose(): void } {
  const returnBy = ctx.call.returnBy;
  let timer: { dispose(): void } | undefined;
  let watching = returnBy !== undefined;
  const check = (): void => {
    timer = undefined;
    const due = watching ? returnBy?.() : undefined;
    if (due === undefined) {
      watching = false;
      return;
    }
    const left = due - ctx.host.clock.now();
    if (left <= 0) {
      watching = false;
      onDue();
      return;
    }
    timer = ctx.host.clock.setTimeout(check, Math.min(left, MAX_TIMER_MS));
  };
  check();
  return {
    dispose: () => {
      watching = false;
      timer?.dispose();
    },
  };
}

/**
 * A background command's wait (wait_for, its end, `timeoutMs`) inside a call: `cancelled` when the
 * call is, and `due` when the caller needs an answer first (ctx.call.returnBy), with what it has.
 */
export async function waitWithinCall(command: BackgroundCommand, matches: ((line: string) => boolean) | undefined, timeoutMs: number, ctx: ToolContext): Promise<BackgroundWait | 'due'> {
  const token = ctx.call.token;
  let due = false;
  const listeners = new Set<() => void>();
  const stopWaiting: CancellationSignal = {
    get isCancellationRequested() {
      return due || token.isCancellationRequested;
    },
    onCancellationRequested: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  const fire = (): void => [...listeners].forEach((listener) => listener());
  const cancellation = token.onCancellationRequested(fire);
  const answer = whenAnswerDue(ctx, () => {
    due = true;
    fire();
  });
  try {
    const how = await command.waitFor(matches, timeoutMs, stopWaiting);
    return how === 'cancelled' && !token.isCancellationRequested ? 'due' : how;
  } finally {
    cancellation.dispose();
    answer.dispose();
  }
}

/** The words a result adds when it returns early because the caller needs an answer. */
export const ANSWER_DUE = `the call returns because ${CLIENT_NEEDS_ANSWER}`;
