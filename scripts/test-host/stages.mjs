// @ts-check
// Runs `npm test`'s stages one after the other, as `a && b && c` did, and prints each stage's
// seconds when it ends and all of them at the end, so where a run spends its time is read, not
// guessed. With each, the machine's mean load while it ran (the 1-minute load average every 5 s),
// against the cores: a stage's seconds on a busy machine are not those of an idle one. A stage is an npm script, or several joined with `+`, run side by side by together.mjs.
// The first stage that fails ends the run with its exit code; the stages after it are listed as not run.
//
//   node scripts/test-host/stages.mjs compile lint test:unit+test:agents test:integration

import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const stages = process.argv.slice(2);
if (stages.length === 0 || stages.some((stage) => stage.split('+').some((script) => script === ''))) {
  console.error('usage: node scripts/test-host/stages.mjs <npm script>[+<npm script>...] ...');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const together = path.join(path.dirname(fileURLToPath(import.meta.url)), 'together.mjs');

/**
 * Runs one stage with the terminal as its output.
 * @param {string} stage
 * @returns {Promise<number>} its exit code
 */
function runStage(stage) {
  const scripts = stage.split('+');
  const [command, args] = scripts.length === 1 ? [npm, ['run', stage]] : [process.execPath, [together, ...scripts]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`stages: cannot start ${stage}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** @param {number} seconds */
const shown = (seconds) => `${seconds.toFixed(1)} s`;

/** Samples the 1-minute load average every 5 s until stopped; returns their mean. */
function watchLoad() {
  const samples = [os.loadavg()[0]];
  const timer = setInterval(() => samples.push(os.loadavg()[0]), 5000);
  return () => {
    clearInterval(timer);
    samples.push(os.loadavg()[0]);
    return samples.reduce((total, sample) => total + sample, 0) / samples.length;
  };
}
const cores = os.availableParallelism();

const startedAt = Date.now();
/** @type {{ stage: string, code: number, seconds: number, load: number }[]} */
const done = [];
for (const stage of stages) {
  const started = Date.now();
  const stopWatching = watchLoad();
  const code = await runStage(stage);
  const seconds = (Date.now() - started) / 1000;
  const load = stopWatching();
  done.push({ stage, code, seconds, load });
  console.log(`\nstage ${stage}: ${code === 0 ? 'ok' : `FAILED (exit code ${code})`} in ${shown(seconds)}, mean load ${load.toFixed(1)} on ${cores} cores\n`);
  if (code !== 0) break;
}

const width = Math.max(...stages.map((stage) => stage.length));
console.log(`npm test, seconds per stage (and the mean load on ${cores} cores):`);
for (const [index, stage] of stages.entries()) {
  const result = done[index];
  const verdict = !result ? 'not run' : result.code === 0 ? 'ok' : 'FAIL';
  console.log(`  ${verdict.padEnd(7)} ${stage.padEnd(width)} ${result ? `${shown(result.seconds).padStart(9)}  (load ${result.load.toFixed(1)})` : ''}`.trimEnd());
}
console.log(`  total   ${''.padEnd(width)} ${shown((Date.now() - startedAt) / 1000).padStart(9)}`);
process.exit(done.find((result) => result.code !== 0)?.code ?? 0);
