// One ripgrep process, spawned without a shell, with the call's cancellation and time budget.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { CancelledError } from '../../../errors';
import type { SearchLimits } from '../../../ports/search';

/**
 * ripgrep's worker threads: one per core as ripgrep itself picks (at most 12), but at least 4. On a
 * machine with 2 cores the directory walk, not the CPU, bounds most searches, and 4 threads overlap
 * it better: on linux-source a full listing took 124 ms instead of 172, the first 100 files with a
 * match 21 ms instead of 28 (`npm run bench -- search`).
 */
export const RIPGREP_THREADS = Math.min(12, Math.max(4, availableParallelism()));

/** How a ripgrep run ended. */
export interface RipgrepRun {
  readonly timedOut: boolean;
  /** Stopped on purpose: the caller had enough. */
  readonly stopped: boolean;
  readonly exitCode: number | null;
  readonly stderr: string;
}

/**
 * Runs ripgrep in `cwd` until it ends, the token is cancelled (kill at once, CancelledError) or the
 * deadline passes (kill, partial). `onStdout` may call `stop` once it has enough.
 */
export function runRipgrep(rgPath: string, cwd: string, args: readonly string[], limits: SearchLimits, onStdout: (chunk: Buffer, stop: () => void) => void): Promise<RipgrepRun> {
  if (limits.token.isCancellationRequested) {
    return Promise.reject(new CancelledError());
  }
  return new Promise<RipgrepRun>((resolve, reject) => {
    const child = spawn(rgPath, ['--threads', String(RIPGREP_THREADS), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
    let cancelled = false;
    let timedOut = false;
    let stopped = false;
    const stop = (): void => {
      stopped = true;
      child.kill('SIGKILL');
    };
    let stderr = '';
    const cancellation = limits.token.onCancellationRequested(() => {
      cancelled = true;
      child.kill('SIGKILL');
    });
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill('SIGKILL');
      },
      Math.max(0, limits.deadline - limits.clock.now()),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      if (!cancelled && !timedOut && !stopped) {
        onStdout(chunk, stop);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) {
        stderr += chunk.toString('utf8');
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      cancellation.dispose();
      reject(new Error(`ripgrep could not be started (${rgPath}): ${error.message}`));
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      cancellation.dispose();
      if (cancelled) {
        reject(new CancelledError());
      } else {
        resolve({ timedOut, stopped, exitCode, stderr });
      }
    });
  });
}

/** Exit code 2 is an error; with --no-messages it only comes from fatal ones when nothing was found. */
export function failOnError(run: RipgrepRun, foundSomething: boolean): void {
  if (!run.timedOut && !run.stopped && run.exitCode === 2 && !foundSomething && run.stderr.trim() !== '') {
    throw new Error(`ripgrep failed: ${run.stderr.trim()}`);
  }
}
