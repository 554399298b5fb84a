// Runs one command line in its own process group and makes sure every process of that group has
// ended before the outcome resolves: on a stop (the caller's timeout, a stop request), cancellation
// or an interrupt, and also when the shell exits and leaves background processes behind. TERM
// first, KILL after a grace period.
//
// Limit: a process that leaves the group (setsid, or a daemon that double-forks into a new
// session) is out of reach of a group signal; it is not tracked and may outlive the command.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import * as path from 'node:path';
import type { Socket } from 'node:net';
import type { Duplex, Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ARGS_FD, HOLD_FD, type AheadLaunch, type CommandInput, type InputReaders, type ProcessOutcome, type ProcessRequest, type ProcessRunner, type StartedProcess, type StopReason } from '../../ports/process';
import { stripAnsi } from '../boundedOutput';
import { ReducedOutput } from '../reducedOutput';
import { shellArguments } from '../shellArguments';
import { inputPipeOf, inputReadersOf } from './inputReaders';
import { terminalHelperArgv, terminalHelperPython } from './terminalInput';
import { delay, groupAlive, killGroupNow, processStartTime, terminateGroup, waitUntilGone } from './processGroup';

/** After the group is gone, how long to wait for the pipes to report end of file. */
const DRAIN_MS = 500;
/**
 * A launcher with its own pid namespace (the sandbox) ends everything in it when the shell ends,
 * but the kernel takes a moment: how long to let it before counting what is left as leftovers.
 */
const LAUNCHER_SETTLE_MS = 300;


/** Process groups of commands still running, so the extension can stop them when it shuts down. */
const runningGroups = new Set<number>();

/** Stops every command still running (extension deactivation): TERM, then KILL after the grace. */
export async function stopAllCommands(graceMs: number): Promise<void> {
  await Promise.all([...runningGroups].map((pgid) => terminateGroup(pgid, graceMs)));
}

/** Launchers started ahead and still waiting, by the handle given out for each. */
const waitingAhead = new Map<AheadLaunch, ChildProcess>();

// The last line of defence when the host exits without deactivating the extension (the process
// ends through process.exit): what still runs gets KILL, synchronously, as 'exit' allows no waiting.
// (A launcher started ahead also exits by itself when the host dies: its hold reads end of file.)
process.once('exit', () => {
  for (const pgid of runningGroups) {
    killGroupNow(pgid);
  }
  for (const child of waitingAhead.values()) {
    if (child.pid !== undefined) killGroupNow(child.pid);
  }
});

/**
 * Starts a launcher ahead of its command (ProcessRequest.adopt): in its own process group, in `/`,
 * with `env` (no secret of the command's: its own comes with the command), input end of file, its
 * output piped, fd 3 (the launcher's input), HOLD_FD and ARGS_FD open to the host. Until adopted it
 * keeps nothing of the host alive (its handles are unreferenced).
 */
export function startAhead(argv: readonly string[], env: Readonly<Record<string, string>>): AheadLaunch {
  const [program, ...args] = argv;
  const child = spawn(program, args, { cwd: '/', env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'] });
  const handles = (): Socket[] => child.stdio.filter((stream): stream is Socket => stream !== null) as Socket[];
  child.unref();
  handles().forEach((handle) => {
    handle.unref();
    handle.on('error', () => undefined);
  });
  let ended = false;
  child.once('exit', () => {
    ended = true;
    waitingAhead.delete(launch);
  });
  child.once('error', () => {
    ended = true;
    waitingAhead.delete(launch);
  });
  const launch: AheadLaunch = {
    waiting: () => !ended && waitingAhead.has(launch),
    discard: () => {
      if (waitingAhead.delete(launch)) {
        // End of file on its hold: it exits without mounting or running anything.
        handles().forEach((handle) => handle.destroy());
      }
    },
  };
  waitingAhead.set(launch, child);
  return launch;
}

/** Takes a launcher started ahead for one command: it keeps the host's handles from now on. */
function adopt(launch: AheadLaunch): ChildProcess | undefined {
  const child = waitingAhead.get(launch);
  if (!child || !launch.waiting()) {
    return undefined;
  }
  waitingAhead.delete(launch);
  child.ref();
  for (const stream of child.stdio) {
    (stream as Socket | null)?.ref();
  }
  return child;
}

/** The ProcessRunner of the extension host's machine. */
export const nodeProcessRunner: ProcessRunner = { start: (request) => startProcess(request) };

/** The log file: bounded, and the pipes pause while the disk catches up so memory stays flat. */
class LogWriter {
  private readonly stream: WriteStream;
  private written = 0;
  truncated = false;

  constructor(logPath: string, header: string, private readonly maxChars: number) {
    mkdirSync(path.dirname(logPath), { recursive: true });
    this.stream = createWriteStream(logPath, { encoding: 'utf8' });
    this.stream.on('error', () => {
      this.truncated = true;
    });
    this.stream.write(header);
  }

  /** Writes a chunk; calls `resume` later when the caller should wait for the disk. */
  write(text: string, pause: () => void, resume: () => void): void {
    if (this.truncated) {
      return;
    }
    if (this.written + text.length > this.maxChars) {
      this.truncated = true;
      this.stream.write(`${text.slice(0, Math.max(0, this.maxChars - this.written))}\n[log truncated at ${this.maxChars} characters]\n`);
      return;
    }
    this.written += text.length;
    if (!this.stream.write(text)) {
      pause();
      this.stream.once('drain', resume);
    }
  }

  close(footer: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stream.destroyed) {
        resolve();
        return;
      }
      this.stream.end(footer, () => resolve());
    });
  }
}

/** A command that was not started: its outcome says why, as a spawn failure does. */
function notStarted(request: ProcessRequest, log: LogWriter, stdout: ReducedOutput, stderr: ReducedOutput, kind: CommandInput, why: string): StartedProcess {
  const finish = async (): Promise<ProcessOutcome> => {
    await log.close(`\n# not started: ${why}\n`);
    return { exitCode: null, signal: null, leftoversStopped: false, spawnError: why, durationMs: 0, stdout: stdout.take(), stderr: stderr.take(), logPath: request.logPath, logTruncated: log.truncated };
  };
  return {
    pgid: undefined,
    startTime: undefined,
    outcome: finish(),
    stdin: kind,
    stop: () => undefined,
    writeInput: () => false,
    closeInput: () => false,
    interrupt: () => false,
    inputReaders: () => ({ state: 'closed' }),
  };
}

/** Starts the command line in its own process group; the handle's outcome resolves when every process of it has ended. */
export function startProcess(request: ProcessRequest): StartedProcess {
  const started = Date.now();
  // Each stream reduced (passing tests, progress lines, ...) before its head-and-tail cut; the log keeps every line.
  const stdout = new ReducedOutput(request.headChars, request.tailChars, request.commandLine);
  const stderr = new ReducedOutput(request.headChars, request.tailChars, request.commandLine);
  const log = new LogWriter(request.logPath, `$ ${request.commandLine}\n# cwd: ${request.cwd}\n`, request.maxLogChars);

  // End of file unless the caller asked for a terminal: a program that reads stdin when it is not
  // a terminal (ripgrep with no path, a CLI reading piped input) gets none at once and never waits.
  // A terminal is the helper's pseudoterminal where there is one (terminalInput.ts), else a pipe.
  const python = request.input === 'terminal' ? terminalHelperPython(request.env) : undefined;
  const kind: CommandInput = request.input !== 'terminal' ? 'eof' : python ? 'terminal' : 'pipe';
  // The arguments workspace_run_command built for the shell it chose, else those of the shell's kind by its name.
  const shellArgs = request.shellArguments ? { args: request.shellArguments, verbatim: request.verbatimArguments === true } : shellArguments(request.shell, request.commandLine);
  const [program, ...args] = [...(request.launcher ?? []), ...(python ? terminalHelperArgv(python) : []), request.shell, ...shellArgs.args];
  const adopted = request.adopt && request.hold && kind === 'eof' ? adopt(request.adopt) : undefined;
  if (adopted) {
    // Its argv as data on ARGS_FD (never as script); the launcher's input and the line that lets it go follow.
    ((adopted.stdio as unknown as Writable[])[ARGS_FD]).end([program, ...args].map((arg) => `${arg}\0`).join(''));
  } else if (request.adopt) {
    // Its argv is not the plain launch's (a staged one's would run without its overlays): nothing runs.
    request.adopt.discard();
    return notStarted(request, log, stdout, stderr, kind, 'the launch started ahead for it had ended, or cannot take this command; nothing ran');
  }
  const child = adopted ?? spawn(program, args, {
    cwd: request.cwd,
    env: request.env,
    // Its own process group (on Windows: its own console-less process tree, with no window shown).
    detached: true,
    windowsHide: true,
    windowsVerbatimArguments: shellArgs.verbatim && program === request.shell,
    // The command's input (end of file, a pipe, or the helper's terminal), the launcher's input, when it has one, on its fd 3, and its hold on fd 4.
    stdio: [kind === 'eof' ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(request.launcherInput !== undefined || request.hold ? [request.launcherInput !== undefined ? 'pipe' as const : 'ignore' as const] : []), ...(request.hold ? ['pipe' as const] : [])],
  });
  // A fourth 'pipe' is a socket the parent writes to.
  const launcherInput = child.stdio[3] as Writable | null | undefined;
  if ((request.launcherInput !== undefined || adopted) && launcherInput) {
    // A launcher that ends before reading it all (it failed to start) makes the write fail with EPIPE: its exit says why.
    launcherInput.on('error', () => undefined);
    launcherInput.end(request.launcherInput ?? '');
  }
  const input = child.stdin;
  // A write after the command stopped reading fails with EPIPE: writeInput reports it, nothing throws.
  input?.on('error', () => undefined);
  // The pipe as the command's processes see it (their fd 0), to find who reads it; with the helper, any terminal is theirs.
  const inputPipe = kind === 'terminal' ? 'terminal' : child.pid === undefined || kind === 'eof' ? undefined : inputPipeOf(child.pid);
  // The launcher (the sandbox) waits on descriptors of its own; it never reads the command's input.
  const launchers = new Set(request.launcher?.length ? [path.basename(request.launcher[0]).slice(0, 15)] : []);

  // A staged launcher reports the command's exit code on its hold and waits there until `request.hold` settles.
  let ended = false;
  let held: Promise<void> | undefined;
  const holdOnce = (pid: number | undefined): Promise<void> => (held ??= (request.hold?.(pid) ?? Promise.resolve()).catch(() => undefined));
  const hold = request.hold ? (child.stdio[HOLD_FD] as Duplex | null | undefined) : undefined;
  if (hold) {
    let report = '';
    hold.on('error', () => undefined);
    hold.on('data', (chunk: Buffer) => {
      report += chunk.toString('utf8');
      if (!ended && report.includes('\n')) {
        ended = true;
        void holdOnce(child.pid).finally(() => hold.end('\n'));
      }
    });
    // A launcher started ahead goes on from its hold's line: it mounts, then runs the argv it read.
    if (adopted) {
      hold.write('go\n');
    }
  }

  let spawnError: string | undefined;
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => {
      spawnError = error.message;
      resolve({ code: null, signal: null });
    });
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  // Always pipes (stdio above); typed as possibly null because stdin may not be one.
  const pipes = [child.stdout, child.stderr] as [Readable, Readable];
  const pause = (): void => pipes.forEach((pipe) => pipe.pause());
  const resume = (): void => pipes.forEach((pipe) => pipe.resume());
  for (const [pipe, name, kept] of [[pipes[0], 'stdout', stdout], [pipes[1], 'stderr', stderr]] as const) {
    const decoder = new StringDecoder('utf8');
    pipe.on('data', (data: Buffer) => {
      const text = decoder.write(data);
      if (text.length === 0) {
        return;
      }
      kept.append(text);
      request.onOutput?.(text, name);
      if (!log.truncated) {
        log.write(stripAnsi(text), pause, resume);
      }
    });
  }

  let stopped: StopReason | undefined;
  let stopping: Promise<void> | undefined;
  // Once the group is gone its id may be reused by another process: nothing is signalled after that.
  let gone = false;
  const pgid = child.pid;
  if (pgid !== undefined) {
    runningGroups.add(pgid);
  }
  const stop = (reason: StopReason): void => {
    // Once a staged command has ended, its launcher holds only for the merge: nothing is left to stop.
    if (stopping || pgid === undefined || gone || ended) {
      return;
    }
    stopped = reason;
    stopping = terminateGroup(pgid, request.killGraceMs);
  };
  const cancellation = request.token.onCancellationRequested(() => stop('cancelled'));
  const interrupt = request.onInterrupt?.(() => stop('interrupted'));
  if (request.token.isCancellationRequested) {
    stop('cancelled');
  }

  const finish = async (): Promise<ProcessOutcome> => {
    const exit = await exited;
    input?.destroy();
    cancellation.dispose();
    interrupt?.dispose();

    let leftoversStopped = false;
    if (pgid !== undefined && !spawnError) {
      const lingering = !stopping && groupAlive(pgid) && !(request.launcher && (await waitUntilGone(pgid, LAUNCHER_SETTLE_MS)));
      if (lingering && !stopping) {
        // The shell is done but something it started in the background still runs: it must not outlive the command.
        leftoversStopped = true;
        stopping = terminateGroup(pgid, request.killGraceMs);
      }
      await stopping;
      await Promise.race([closed, delay(DRAIN_MS)]);
    }
    if (request.hold && !spawnError) {
      // A launcher stopped before its command reported: the merge still runs, without its namespace.
      await holdOnce(undefined);
    }
    pipes.forEach((pipe) => pipe.destroy());
    launcherInput?.destroy();
    hold?.destroy();
    gone = true;
    if (pgid !== undefined) {
      runningGroups.delete(pgid);
    }

    const durationMs = Date.now() - started;
    const how = stopped ? `stopped (${stopped})` : exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code ?? 'unknown'}`;
    await log.close(`\n# ${how}, ${(durationMs / 1000).toFixed(1)} s\n`);
    return {
      exitCode: exit.code,
      signal: exit.signal,
      stopped,
      leftoversStopped,
      spawnError,
      durationMs,
      stdout: stdout.take(),
      stderr: stderr.take(),
      logPath: request.logPath,
      logTruncated: log.truncated,
    };
  };
  const running = (): boolean => pgid !== undefined && !gone && !stopping;
  return {
    pgid,
    startTime: pgid === undefined ? undefined : processStartTime(pgid),
    outcome: finish(),
    stdin: kind,
    stop,
    writeInput: (text) => {
      if (!input || !running() || input.destroyed || input.writableEnded) {
        return false;
      }
      input.write(text);
      return true;
    },
    closeInput: () => {
      if (!input || input.destroyed || input.writableEnded) {
        return false;
      }
      input.end();
      return true;
    },
    interrupt: () => {
      if (!running() || pgid === undefined) {
        return false;
      }
      try {
        process.kill(-pgid, 'SIGINT');
        return true;
      } catch {
        return false;
      }
    },
    inputReaders: (): InputReaders => {
      if (!input || input.destroyed || input.writableEnded) {
        return { state: 'closed' };
      }
      return pgid === undefined || gone || process.platform !== 'linux' ? { state: 'unknown' } : inputReadersOf(pgid, inputPipe, launchers);
    },
  };
}
