// @ts-check
// What "waiting for input" detection costs a command: at spawn, one readlink of the command's fd 0
// (the pipe to find readers of later); while it prints or for its first 3 quiet seconds, nothing
// (a timer); after that, one look at /proc a second. Measured: the spawn's readlink, the cost of
// one look at a waiting command, how many looks a command that ends within 1 s gets (none), and a
// short command's run with the watch against the same run without it.
import * as os from 'node:os';
import * as path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { medianMs, printTable } from './measure.mjs';
import { compiled } from './ourContext.mjs';

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchInputWatch({ log }) {
  /** @type {typeof import('../../src/core/process/node/processRunner.js')} */
  const { startProcess } = compiled('core/process/node/processRunner');
  /** @type {typeof import('../../src/core/process/node/inputReaders.js')} */
  const { inputPipeOf, inputReadersOf } = compiled('core/process/node/inputReaders');
  /** @type {typeof import('../../src/core/process/inputWatch.js')} */
  const { InputWatch } = compiled('core/process/inputWatch');
  /** @type {typeof import('../../src/core/time.js')} */
  const { systemClock } = compiled('core/time');
  const logs = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-input-'));
  const never = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
  let counter = 0;
  /** @param {string} commandLine */
  const start = (commandLine) => startProcess({ shell: '/bin/sh', commandLine, cwd: logs, env: process.env, killGraceMs: 1000, logPath: path.join(logs, `${counter++}.log`), headChars: 10_000, tailChars: 10_000, maxLogChars: 1_000_000, token: never });
  /** @type {(string | number)[][]} */
  const rows = [];
  try {
    // A command that ends at once, with and without a watch on it.
    const plain = await medianMs(async () => { await start('echo hi').outcome; }, 21);
    let looks = 0;
    const watched = await medianMs(async () => {
      const child = start('echo hi');
      const watch = new InputWatch(systemClock);
      watch.watch(() => { looks += 1; return child.inputReaders(); });
      await child.outcome;
      watch.stop();
    }, 21);
    rows.push(['`echo hi`, run to its end', plain.toFixed(2), watched.toFixed(2), `+${(watched - plain).toFixed(2)}`]);
    // A command of 0.9 s: no look at all.
    const before = looks;
    const child = start('sleep 0.9');
    const watch = new InputWatch(systemClock);
    watch.watch(() => { looks += 1; return child.inputReaders(); });
    await child.outcome;
    watch.stop();
    rows.push(['looks at /proc during a 0.9 s command', '', String(looks - before), '']);
    // One look at a command that waits for input.
    const waiting = start('read x');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pipe = inputPipeOf(/** @type {number} */ (waiting.pgid));
    const readlink = await medianMs(async () => { inputPipeOf(/** @type {number} */ (waiting.pgid)); }, 201);
    const look = await medianMs(async () => { inputReadersOf(/** @type {number} */ (waiting.pgid), pipe); }, 51);
    const seen = inputReadersOf(/** @type {number} */ (waiting.pgid), pipe);
    waiting.stop('stopped');
    await waiting.outcome;
    rows.push(['readlink of fd 0 at spawn (once per command)', '', readlink.toFixed(3), '']);
    rows.push([`one look at a waiting command (${seen.state}${'program' in seen ? `: ${seen.program}` : ''}), once a second after 3 s of quiet`, '', look.toFixed(2), '']);
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
  printTable(log, ['case', 'without ms', 'with detection ms', 'added ms'], rows);
}
