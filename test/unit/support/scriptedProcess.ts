// A process the test plays by hand, for the stages of the command tools and the background
// registry: it prints what the test says, reads its input when told, and ends when the test (or a
// stop) ends it. No real process, no real time: with a ManualClock the tests run in milliseconds.
import type { CommandInput, InputReaders, ProcessOutcome, ProcessRequest, ProcessRunner, StartedProcess, StopReason } from '../../../src/core/ports/process';

/** A process the test ends by hand; its pgid and start time are made up. */
export class ScriptedProcess implements StartedProcess {
  readonly startTime = '4242';
  readonly outcome: Promise<ProcessOutcome>;
  stops: StopReason[] = [];
  /** What was written to its input, in order; `<EOF>` when it was closed, `<INT>` for an interrupt. */
  input: string[] = [];
  readers: InputReaders = { state: 'none' };
  private closed = false;
  private ended = false;
  /** What its standard input is: a terminal, as workspace_run_command's interactive: true gives. */
  stdin: CommandInput = 'terminal';
  private resolve: (outcome: ProcessOutcome) => void = () => undefined;
  constructor(readonly pgid: number, readonly print: (chunk: string, stream: 'stdout' | 'stderr') => void) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve));
  }
  stop(reason: StopReason): void {
    this.stops.push(reason);
    this.end({ stopped: reason, exitCode: null, signal: 'SIGTERM' });
  }
  writeInput(text: string): boolean {
    this.input.push(text);
    return !this.closed;
  }
  closeInput(): boolean {
    this.input.push('<EOF>');
    this.closed = true;
    return true;
  }
  interrupt(): boolean {
    this.input.push('<INT>');
    return true;
  }
  inputReaders(): InputReaders {
    return this.closed ? { state: 'closed' } : this.readers;
  }
  /** Ends it (once; later calls do nothing) with an outcome: exit 0 unless `how` says otherwise. */
  end(how: Partial<ProcessOutcome>): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    const empty = { text: '', totalChars: 0, omittedChars: 0 };
    this.resolve({ exitCode: 0, signal: null, leftoversStopped: false, durationMs: 1, stdout: empty, stderr: empty, logPath: '/log', logTruncated: false, ...how });
  }
}

/**
 * A ProcessRunner whose every start is a ScriptedProcess printing to the request's onOutput; as the
 * real runner does, the request's onInterrupt (Ctrl+C in the terminal) stops it with `interrupted`.
 * `started` holds them, with their requests.
 */
export class ScriptedRunner implements ProcessRunner {
  readonly started: Array<{ readonly request: ProcessRequest; readonly process: ScriptedProcess }> = [];
  private nextPid = 700;
  private readonly waiting: Array<{ readonly index: number; readonly resolve: (process: ScriptedProcess) => void }> = [];

  /** The process started `index`-th (from 0), once it is: a test waits on this for a call that gets there through real I/O. */
  startedAt(index: number): Promise<ScriptedProcess> {
    const known = this.started[index];
    return known ? Promise.resolve(known.process) : new Promise((resolve) => this.waiting.push({ index, resolve }));
  }

  start(request: ProcessRequest): StartedProcess {
    const process = new ScriptedProcess(this.nextPid++, request.onOutput ?? (() => undefined));
    process.stdin = request.input === 'terminal' ? 'terminal' : 'eof';
    const interrupt = request.onInterrupt?.(() => process.stop('interrupted'));
    void process.outcome.then(() => interrupt?.dispose());
    this.started.push({ request, process });
    for (const waiter of this.waiting.filter((candidate) => candidate.index < this.started.length)) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve(this.started[waiter.index].process);
    }
    return process;
  }
  /** The one process started, or a failure naming how many were. */
  only(): ScriptedProcess {
    if (this.started.length !== 1) {
      throw new Error(`expected one started process, found ${this.started.length}`);
    }
    return this.started[0].process;
  }
}
