// The background commands of one window: each registered under a short id with its output cursor,
// its status and its process handle; at most `maxRunning` at once; every one ended at shutdown;
// each running group recorded (pid and start time) so a window that starts after a crash can end it.
// A command gets here started in the background (`start`) or, still running at the end of its
// foreground wait, moved here with its output so far (`adopt`).
import { errorMessage, ToolError } from '../errors';
import type { BackgroundAdoption, BackgroundCommand, BackgroundCommands, BackgroundStart, CommandIdentity, BackgroundStatus, BackgroundWait, CommandInput, CommandPortWatch, ForwardedPort, InputKey, InputTiming, InputWatcher, KeptCommandOutput, ProcessOutcome, RunningGroupRecords, StartedProcess, TakenOutput, WaitingForInput } from '../ports/process';
import type { CancellationSignal } from '../errors';
import type { Clock } from '../ports/clock';
import { oneLine } from '../text/truncate';
import { ageOf } from './backgroundSummary';
import { InputWatch } from './inputWatch';
import { OutputCursor } from './outputCursor';

/** What the keys workspace_send_input presses write, where they write something (Ctrl+C and Ctrl+D act instead). */
const KEY_SEQUENCES: Readonly<Record<Exclude<InputKey, 'ctrl-c' | 'ctrl-d'>, string>> = { escape: '\u001b', up: '\u001b[A', down: '\u001b[B', tab: '\t' };

/** Ended commands whose last output and status can still be read; older ones are forgotten. */
const KEPT_ENDED = 20;

type Listener<T extends unknown[]> = (...args: T) => void;

class Listeners<T extends unknown[]> {
  private readonly listeners = new Set<Listener<T>>();

  add(listener: Listener<T>): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  fire(...args: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch {
        // One listener's failure must not keep the others (or the registry) from running.
      }
    }
  }
}

/** The words of a final status: `exited <code>` or `killed (...)`. */
export function statusOf(outcome: ProcessOutcome): BackgroundStatus {
  if (outcome.stopped) {
    const why = { stopped: 'stopped on request', cancelled: 'the call that started it was cancelled', interrupted: 'stopped by the user in its terminal', timeout: 'timed out' }[outcome.stopped];
    return { state: 'killed', how: why };
  }
  if (outcome.spawnError) {
    return { state: 'killed', how: `it could not be started: ${outcome.spawnError}` };
  }
  if (outcome.exitCode === null) {
    return { state: 'killed', how: `by signal ${outcome.signal ?? 'unknown'}` };
  }
  return { state: 'exited', code: outcome.exitCode };
}

/** How a command is named in lists of running ones: `bg2 (npm run dev)`. */
export function commandLabel(command: Pick<BackgroundCommand, 'id' | 'commandLine'>): string {
  return `${command.id} (${oneLine(command.commandLine, 60)})`;
}

/** `running`, `exited 0`, `killed (stopped on request)`. */
export function describeStatus(status: BackgroundStatus): string {
  return status.state === 'running' ? 'running' : status.state === 'exited' ? `exited ${status.code}` : `killed (${status.how})`;
}

/** What a registered command is made of, however it got to the background. */
interface Registration extends CommandIdentity {
  readonly startedAt: number;
  readonly cursor: KeptCommandOutput;
  readonly input: InputWatcher;
  /** Its servers' ports as the machine reaches them; none for a command that is not a sandboxed background start. */
  readonly ports?: CommandPortWatch;
  /** Connects the process's output to `onOutput` and returns its handle (starting it, or the one already running). */
  connect(onOutput: (chunk: string, stream: 'stdout' | 'stderr') => void): StartedProcess;
}

/** The fields of a CommandIdentity alone, none of the rest of what carries them. */
function identityOf({ commandLine, cwdShown, cwd, sandboxLine, logPath }: CommandIdentity): CommandIdentity {
  return { commandLine, cwdShown, cwd, sandboxLine, logPath };
}

/** A class whose instances are a command's identity, copied from its registration: RegisteredCommand's base. */
const IdentifiedCommand = class {
  constructor(identity: CommandIdentity) {
    Object.assign(this, identityOf(identity));
  }
} as new (identity: CommandIdentity) => CommandIdentity;

class RegisteredCommand extends IdentifiedCommand implements BackgroundCommand {
  readonly startedAt: number;
  readonly ended: Promise<ProcessOutcome>;
  private readonly cursor: KeptCommandOutput;
  private readonly input: InputWatcher;
  private readonly portWatch: CommandPortWatch | undefined;
  private closedInput = false;
  private sent = 0;
  private readonly inputKind: CommandInput;
  private final: ProcessOutcome | undefined;
  private handle: StartedProcess | undefined;
  private readonly lineListeners = new Listeners<[string]>();
  private readonly endListeners = new Listeners<[]>();
  private readonly waitingListeners = new Listeners<[]>();

  constructor(readonly id: string, request: Registration, private readonly clock: Clock, whenEnded: (command: RegisteredCommand, outcome: ProcessOutcome) => void, whenWaiting: () => void) {
    super(request);
    this.startedAt = request.startedAt;
    this.portWatch = request.ports;
    const cursor = request.cursor;
    this.cursor = cursor;
    const input = request.input;
    this.input = input;
    const handle = request.connect((chunk, stream) => {
      input.heard(chunk);
      this.heard(cursor.append(chunk, stream));
    });
    this.handle = handle;
    this.inputKind = handle.stdin;
    input.onDidChange(() => {
      this.waitingListeners.fire();
      whenWaiting();
    });
    input.watch(() => handle.inputReaders());
    this.ended = handle.outcome.then(
      (outcome) => this.finish(outcome, whenEnded),
      (error: unknown) => this.finish(failedOutcome(error, request.logPath), whenEnded),
    );
  }

  ports(): readonly ForwardedPort[] {
    return this.portWatch?.now() ?? [];
  }

  async settlePorts(): Promise<void> {
    if (this.final === undefined) {
      await this.portWatch?.settle();
    }
  }

  get pgid(): number | undefined {
    return this.handle?.pgid;
  }

  get startTime(): string | undefined {
    return this.handle?.startTime;
  }

  status(): BackgroundStatus {
    return this.final ? statusOf(this.final) : { state: 'running' };
  }

  takeOutput(): TakenOutput {
    return this.cursor.take();
  }

  waitingForInput(): WaitingForInput | undefined {
    return this.final ? undefined : this.input.current();
  }

  get inputClosed(): boolean {
    return this.closedInput;
  }

  get inputsSent(): number {
    return this.sent;
  }

  get stdin(): CommandInput {
    return this.inputKind;
  }

  sendInput(text: string, key?: InputKey): void {
    const handle = this.handle;
    if (this.final || !handle) {
      throw new ToolError(`Background command ${this.id} has ended (${describeStatus(this.status())}): there is nothing to send input to. Read its last output with workspace_command_output, or start the command again with workspace_run_command.`);
    }
    if (this.inputKind === 'eof' && (text !== '' || key !== 'ctrl-c')) {
      throw new ToolError(`Background command ${this.id} was started without input: its standard input is end of file, so it reads nothing and nothing can be typed into it. Stop it with workspace_stop_command (or press ctrl-c, keys: "ctrl-c"), then run it again with interactive: true to answer its prompts.`);
    }
    if (this.closedInput && (text !== '' || key !== 'ctrl-c')) {
      throw new ToolError(`The input of background command ${this.id} was closed (ctrl-d was sent): it can read nothing more. Press ctrl-c (keys: "ctrl-c") to interrupt it, or stop it with workspace_stop_command.`);
    }
    if (text !== '' && !handle.writeInput(text)) {
      throw new ToolError(`Background command ${this.id} is stopping: the input could not be written.`);
    }
    if (key === 'ctrl-c') {
      handle.interrupt();
    } else if (key === 'ctrl-d') {
      handle.closeInput();
      this.closedInput = true;
    } else if (key !== undefined) {
      handle.writeInput(KEY_SEQUENCES[key]);
    }
    this.sent += 1;
    this.input.answered();
  }

  waitFor(matches: ((line: string) => boolean) | undefined, timeoutMs: number, token: CancellationSignal): Promise<BackgroundWait> {
    if (matches && this.cursor.untakenLines().some(matches)) {
      return Promise.resolve('matched');
    }
    if (this.final) {
      return Promise.resolve('ended');
    }
    if (this.input.current()) {
      return Promise.resolve('waiting');
    }
    if (token.isCancellationRequested) {
      return Promise.resolve('cancelled');
    }
    return new Promise((resolve) => {
      const subscriptions: Array<{ dispose(): void }> = [];
      const settle = (how: BackgroundWait): void => {
        timer.dispose();
        subscriptions.forEach((subscription) => subscription.dispose());
        resolve(how);
      };
      const timer = this.clock.setTimeout(() => settle('timeout'), timeoutMs);
      if (matches) {
        subscriptions.push(this.lineListeners.add((line) => (matches(line) ? settle('matched') : undefined)));
      }
      subscriptions.push(this.endListeners.add(() => settle('ended')));
      subscriptions.push(this.waitingListeners.add(() => (this.input.current() ? settle('waiting') : undefined)));
      subscriptions.push(token.onCancellationRequested(() => settle('cancelled')));
    });
  }

  stop(): Promise<ProcessOutcome> {
    if (!this.final) {
      this.handle?.stop('stopped');
    }
    return this.ended;
  }

  private heard(lines: readonly string[]): void {
    for (const line of lines) {
      this.lineListeners.fire(line);
    }
  }

  private finish(outcome: ProcessOutcome, whenEnded: (command: RegisteredCommand, outcome: ProcessOutcome) => void): ProcessOutcome {
    this.heard(this.cursor.end());
    this.input.stop();
    this.final = outcome;
    this.handle = undefined;
    this.endListeners.fire();
    whenEnded(this, outcome);
    return outcome;
  }
}

function failedOutcome(error: unknown, logPath: string): ProcessOutcome {
  const empty = { text: '', totalChars: 0, omittedChars: 0 };
  return { exitCode: null, signal: null, leftoversStopped: false, spawnError: errorMessage(error), durationMs: 0, stdout: empty, stderr: empty, logPath, logTruncated: false };
}

export class BackgroundCommandRegistry implements BackgroundCommands {
  private readonly commands = new Map<string, RegisteredCommand>();
  private readonly changed = new Listeners<[]>();
  private counter = 0;

  /** `inputTiming` shortens the input watch's waits for tests. */
  constructor(private readonly options: { readonly clock: Clock; readonly records?: RunningGroupRecords; readonly inputTiming?: InputTiming }) {}

  checkRoom(maxRunning: number): void {
    const running = this.running();
    if (running.length >= maxRunning) {
      const ids = running.map(commandLabel).join(', ');
      // A command waiting for input nobody answers holds its place until it is stopped: each is named with the call that frees it.
      const now = this.options.clock.now();
      const waiting = running.flatMap((command) => {
        const asks = command.waitingForInput();
        return asks ? [`${command.id} has waited for input for ${ageOf(asks.since, now)} (${oneLine(asks.prompt, 60)}): answer it with workspace_send_input, or stop it with workspace_stop_command {"id": "${command.id}"}.`] : [];
      });
      throw new ToolError(`${running.length} background commands are already running, the most workspaceAgentTools.runCommand.maxBackground allows: ${ids}. ${waiting.length ? `${waiting.join(' ')} Otherwise stop` : 'Stop'} one you no longer need with workspace_stop_command, or read its output with workspace_command_output, then start this one again.`);
    }
  }

  start(request: BackgroundStart): BackgroundCommand {
    this.checkRoom(request.maxRunning);
    return this.register({
      ...request,
      startedAt: this.options.clock.now(),
      cursor: new OutputCursor(request.headChars, request.tailChars, request.commandLine),
      input: new InputWatch(this.options.clock, this.options.inputTiming),
      connect: (onOutput) => request.launch(onOutput),
    });
  }

  adopt(request: BackgroundAdoption): BackgroundCommand {
    this.checkRoom(request.maxRunning);
    return this.register({
      ...request,
      cursor: request.output,
      input: request.input,
      connect: (onOutput) => {
        request.attach(onOutput);
        return request.process;
      },
    });
  }

  private register(registration: Registration): BackgroundCommand {
    const id = `bg${++this.counter}`;
    const command = new RegisteredCommand(id, registration, this.options.clock, (ended) => this.ended(ended), () => this.changed.fire());
    this.commands.set(id, command);
    if (command.pgid !== undefined && command.startTime !== undefined && command.status().state === 'running') {
      this.options.records?.add(id, command.pgid, command.startTime);
    }
    this.changed.fire();
    return command;
  }

  get(id: string): BackgroundCommand | undefined {
    return this.commands.get(id);
  }

  running(): BackgroundCommand[] {
    return [...this.commands.values()].filter((command) => command.status().state === 'running');
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.running().map((command) => command.stop()));
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.changed.add(listener);
  }

  private ended(command: RegisteredCommand): void {
    this.options.records?.remove(command.id);
    const ended = [...this.commands.values()].filter((candidate) => candidate.status().state !== 'running');
    for (const old of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED))) {
      this.commands.delete(old.id);
    }
    this.changed.fire();
  }
}

