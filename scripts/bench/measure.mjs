// @ts-check
// Timing and memory helpers shared by the benchmark cases.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/**
 * What run.mjs hands each benchmark case: where to print, and a folder for large inputs kept between runs.
 * @typedef {{ log: (line: string) => void, scratchDir: string }} BenchContext
 */

/**
 * Median wall time in milliseconds of `runs` calls of an async function, after one warm-up call.
 * @param {() => unknown} fn
 */
export async function medianMs(fn, runs = 7) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * Median wall time of a command line, spawned without a shell, stdout discarded.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions & { allowFailure?: boolean }} options allowFailure: a non-zero exit is measured, not thrown
 */
export async function medianCommandMs(command, args, runs = 7, options = {}) {
  return medianMs(async () => {
    const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    if (result.status !== 0 && !options.allowFailure) {
      throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    }
  }, runs);
}

/**
 * Peak resident memory (KiB) of a command, from the kernel's rusage of that one child. python3
 * posix_spawns it (no fork of the measuring process, whose pages would count) and wait4s it.
 * @param {string} command
 * @param {string[]} args
 */
export function peakRssKiB(command, args) {
  const probe = [
    'import os, shutil, sys',
    'devnull = os.open(os.devnull, os.O_WRONLY)',
    'pid = os.posix_spawn(shutil.which(sys.argv[1]) or sys.argv[1], sys.argv[1:], os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])',
    '_, status, usage = os.wait4(pid, 0)',
    'sys.exit(1) if os.waitstatus_to_exitcode(status) else print(usage.ru_maxrss)',
  ].join('\n');
  const result = spawnSync('python3', ['-c', probe, command, ...args], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`measuring ${command} failed: ${result.stderr}`);
  }
  return Number(result.stdout.trim());
}

/**
 * The first line of an error's message, for one-line reports.
 * @param {unknown} error
 */
export function firstLine(error) {
  return String(error instanceof Error ? error.message : error).split('\n')[0];
}

/**
 * `ours` as a multiple of `reference`, such as "1.25x".
 * @param {number} ours
 * @param {number} reference
 */
export function ratio(ours, reference) {
  return reference > 0 ? `${(ours / reference).toFixed(2)}x` : 'n/a';
}

/**
 * Prints rows as an aligned table.
 * @param {(line: string) => void} log
 * @param {string[]} header
 * @param {unknown[][]} rows cells are printed with String()
 */
export function printTable(log, header, rows) {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  for (const [index, row] of all.entries()) {
    log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
    if (index === 0) {
      log(widths.map((width) => '-'.repeat(width)).join('  '));
    }
  }
}
