// @ts-check
// The checkpoint store on the search bench's large tree (Debian's linux-source-6.1), against
// `git add -A` into a scratch repository with its own index (GIT_DIR, GIT_INDEX_FILE,
// GIT_WORK_TREE: the user's .git is never used). First: an empty store, every file hashed, as the
// background build (what the window does once trusted) and as a first checkpoint without one; the
// two sides alternate, each from an empty store, and the medians are compared. Then the first
// call's "before" right after the build, and incremental checkpoints: the store kept, the tree
// unchanged, and with one file touched (its mtime changed, so its content is hashed again); this
// is what every changing call pays twice.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { medianMs, printTable, ratio } from './measure.mjs';
import { ensureTree } from './search.mjs';

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.WAT_BENCH_RUNS ?? 7);
/** Runs of each first (empty store) case: each hashes the whole tree. */
const FIRST_RUNS = Number(process.env.WAT_BENCH_FIRST_RUNS ?? 3);
/** @type {typeof import('../../src/core/checkpoints/node/git/gitCheckpointStore.js')} */
const { GitCheckpointStore } = require(path.join(repo, 'out/src/core/checkpoints/node/git/gitCheckpointStore.js'));
/** @type {typeof import('../../src/core/checkpoints/node/git/gitRunner.js')} */
const { gitCommandLine } = require(path.join(repo, 'out/src/core/checkpoints/node/git/gitRunner.js'));

const LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxTotalBytes: 100 * 1024 * 1024 * 1024, excludes: ['**/.git', '**/.svn', '**/.hg', '**/CVS', '**/.DS_Store', '**/Thumbs.db'] };

/**
 * `git add -A` into a scratch repository: the reference; at low priority (as the store's build
 * runs its git) when `lowPriority`.
 * @param {string} root
 * @param {string} gitDir
 */
function gitAddAll(root, gitDir, lowPriority = false) {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_DIR: gitDir, GIT_INDEX_FILE: path.join(gitDir, 'scratch-index'), GIT_WORK_TREE: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: gitDir };
  const command = gitCommandLine(['add', '-A'], lowPriority);
  const result = spawnSync(command.program, command.args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git add -A failed: ${result.stderr}`);
}

/**
 * CPU seconds used so far by this process and the children it has waited for (git), from
 * /proc/self/stat: on a shared machine CPU time says more than wall time, which other work
 * stretches. NaN where /proc is missing.
 */
function cpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat(5); here counted from field 3.
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    return ticks / 100;
  } catch {
    return Number.NaN;
  }
}

/** @type {number[]} CPU seconds of each `once` */
const cpuOf = [];

/** Wall time in ms of one call; its CPU seconds (with git's) go to `cpuOf`. @param {() => unknown} fn */
async function once(fn) {
  const cpu = cpuSeconds();
  const start = performance.now();
  await fn();
  const ms = performance.now() - start;
  cpuOf.push(cpuSeconds() - cpu);
  return ms;
}

/** @param {number} ms */
const shown = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

/** @param {number[]} times */
function median(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Files a command changes in the staged row: each a new file in its own folder of the tree, removed afterwards. */
const COMMAND_FILES = 10;

/**
 * A command that changes 10 files, its checkpoints today (a whole "before" ahead of it, a whole
 * "after") against a staged command's (issue 40): the "before" runs while the command does and the
 * merge waits for it, which after a command of ~0 s is the whole "before" still; the "after" is the
 * paths the merge touched only. The same store, the two sides alternating; the files are new ones in
 * ten folders of the tree (not its own files), removed and recorded again, untimed, after each run.
 * @param {string} root
 * @param {string} scratchDir
 * @param {(line: string) => void} log
 */
async function benchStagedCommand(root, scratchDir, log) {
  // Its own store folder: the scratch folder may be shared with another bench run.
  const work = path.join(scratchDir, `checkpoint-staged-${process.pid}`);
  const store = new GitCheckpointStore(work, { lowPriorityBuild: false });
  await store.build([root], LIMITS);
  const folders = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name).sort().slice(0, COMMAND_FILES);
  const paths = folders.map((folder) => `${folder}/wat-bench-staged-${process.pid}.txt`);
  let round = 0;
  const command = () => {
    round += 1;
    for (const relative of paths) writeFileSync(path.join(root, relative), `round ${round}\n`);
  };
  const clean = async () => {
    for (const relative of paths) rmSync(path.join(root, relative), { force: true });
    await store.take([root], LIMITS);
  };
  /** @type {number[]} */ const today = [];
  /** @type {number[]} */ const stagedBefore = [];
  /** @type {number[]} */ const stagedAfter = [];
  /** CPU seconds of each touched "after", git's with this process's. @type {number[]} */ const afterCpu = [];
  /** How the store took the touched "after"s. @type {Set<string>} */ const afterWays = new Set();
  try {
    for (let run = 0; run < RUNS; run += 1) {
      today.push(await once(async () => {
        const before = await store.take([root], LIMITS);
        command();
        await store.take([root], LIMITS, [before.id]);
      }));
      cpuOf.pop();
      await clean();
      // Staged: the command (~0 s) ran in its layer meanwhile; the merge waits for the whole "before", then writes the files.
      let beforeId = '';
      stagedBefore.push(await once(async () => {
        const before = store.take([root], LIMITS);
        // As the lease says it when a staged command starts (its "before" already queued).
        store.expectTouched([root]);
        beforeId = (await before).id;
      }));
      cpuOf.pop();
      command();
      stagedAfter.push(await once(() => store.take([root], LIMITS, [beforeId], [{ folder: root, paths }])));
      afterCpu.push(/** @type {number} */ (cpuOf.pop()));
      afterWays.add(String(store.lastTakeOf(root)));
      await clean();
    }
  } finally {
    for (const relative of paths) rmSync(path.join(root, relative), { force: true });
    rmSync(work, { recursive: true, force: true });
  }
  const staged = stagedBefore.map((ms, i) => ms + stagedAfter[i]);
  printTable(log, [`a command that changes ${COMMAND_FILES} files`, 'checkpoints on its path', 'of which the "after"'], [
    ['today: a whole "before" ahead of it, a whole "after"', shown(median(today)), ''],
    ['staged, a command of ~0 s: the wait for the "before", the touched paths\' "after"', shown(median(staged)), shown(median(stagedAfter))],
    ['staged, a command longer than the "before": the "after" only', shown(median(stagedAfter)), shown(median(stagedAfter))],
  ]);
  log(`Staged: medians of ${RUNS} alternating runs; the "before" ${stagedBefore.map(shown).join(', ')}; the touched "after" ${stagedAfter.map(shown).join(', ')} (budget 50 ms: ${median(stagedAfter) <= 50 ? 'met' : 'NOT met'} on this machine); today ${today.map(shown).join(', ')}. The touched "after" taken as: ${[...afterWays].join(', ')}; its CPU (git's and this process's) ${afterCpu.map((seconds) => `${(seconds * 1000).toFixed(0)} ms`).join(', ')}.`);
}

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchCheckpoint({ log, scratchDir }) {
  const { root, label } = await ensureTree(scratchDir, log);
  if (process.env.WAT_BENCH_CHECKPOINT === 'staged') {
    // Only the staged command's row (the rest hashes the whole tree several times over).
    log(`Tree: ${label} (${root})`);
    await benchStagedCommand(root, scratchDir, log);
    return;
  }
  const work = path.join(scratchDir, 'checkpoint');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  log(`Tree: ${label} (${root})`);
  /** An empty scratch repository for `git add -A`. */
  const freshReference = () => {
    const referenceDir = path.join(work, 'reference.git');
    rmSync(referenceDir, { recursive: true, force: true });
    const init = spawnSync('git', ['init', '-q', '--bare', referenceDir], { env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    if (init.status !== 0) throw new Error(`git init failed: ${init.stderr}`);
    spawnSync('git', ['--git-dir', referenceDir, 'config', 'core.bare', 'false']);
    return referenceDir;
  };
  let stores = 0;
  const freshStore = () => {
    rmSync(path.join(work, `store-${stores}`), { recursive: true, force: true });
    stores += 1;
    return new GitCheckpointStore(path.join(work, `store-${stores}`));
  };

  // One pass over the tree first, so no side pays for a cold page cache.
  gitAddAll(root, freshReference());
  /** CPU seconds per case and run. @type {Record<string, number[]>} */
  const cpu = { reference: [], referenceLow: [], built: [], taken: [] };
  /** @param {keyof typeof cpu} name */
  const keepCpu = (name) => cpu[name].push(/** @type {number} */ (cpuOf.pop()));
  /** @type {number[]} */
  const reference = [];
  /** @type {number[]} */
  const referenceLow = [];
  /** @type {number[]} */
  const built = [];
  /** @type {number[]} */
  const taken = [];
  /** @type {number[]} */
  const afterBuild = [];
  for (let run = 0; run < FIRST_RUNS; run += 1) {
    const lowDir = freshReference();
    referenceLow.push(await once(() => gitAddAll(root, lowDir, true)));
    keepCpu('referenceLow');
    const store = freshStore();
    built.push(await once(() => store.build([root], LIMITS)));
    keepCpu('built');
    afterBuild.push(await once(() => store.take([root], LIMITS)));
    const referenceDir = freshReference();
    reference.push(await once(() => gitAddAll(root, referenceDir)));
    keepCpu('reference');
    const cold = freshStore();
    taken.push(await once(() => cold.take([root], LIMITS)));
    keepCpu('taken');
  }
  const store = freshStore();
  await store.build([root], LIMITS);
  const referenceDir = freshReference();
  gitAddAll(root, referenceDir);
  const unchangedOurs = await medianMs(() => store.take([root], LIMITS), RUNS);
  const unchangedReference = await medianMs(() => gitAddAll(root, referenceDir), RUNS);
  // Touching one file (same bytes, new mtime) makes both hash it again.
  const touched = path.join(root, 'Makefile');
  const { atime, mtime } = statSync(touched);
  let tick = 0;
  const touch = () => utimesSync(touched, atime, new Date(mtime.getTime() + 1000 * (tick += 1)));
  const touchedOurs = await medianMs(async () => {
    touch();
    await store.take([root], LIMITS);
  }, RUNS);
  const touchedReference = await medianMs(() => {
    touch();
    gitAddAll(root, referenceDir);
  }, RUNS);
  utimesSync(touched, atime, mtime);

  const firstReference = median(reference);
  printTable(log, ['checkpoint', 'ours', 'git add -A (scratch index)', 'ratio'], [
    ['store build in the background (empty store; both at low priority)', shown(median(built)), shown(median(referenceLow)), ratio(median(built), median(referenceLow))],
    ['first checkpoint without a build (empty store)', shown(median(taken)), shown(firstReference), ratio(median(taken), firstReference)],
    ['first call\'s "before", right after the build', shown(median(afterBuild)), shown(unchangedReference), ratio(median(afterBuild), unchangedReference)],
    ['incremental, unchanged tree', shown(unchangedOurs), shown(unchangedReference), ratio(unchangedOurs, unchangedReference)],
    ['incremental, 1 file touched', shown(touchedOurs), shown(touchedReference), ratio(touchedOurs, touchedReference)],
  ]);
  /** @param {number} seconds */
  const cpuShown = (seconds) => `${seconds.toFixed(1)} s`;
  printTable(log, ['first record, CPU (with git\'s)', 'ours', 'git add -A (scratch index)', 'ratio'], [
    ['store build (empty store)', cpuShown(median(cpu.built)), cpuShown(median(cpu.referenceLow)), ratio(median(cpu.built), median(cpu.referenceLow))],
    ['first checkpoint without a build (empty store)', cpuShown(median(cpu.taken)), cpuShown(median(cpu.reference)), ratio(median(cpu.taken), median(cpu.reference))],
  ]);
  log(`First: medians of ${FIRST_RUNS} alternating runs: built ${built.map(shown).join(', ')} vs ${referenceLow.map(shown).join(', ')}; first checkpoint ${taken.map(shown).join(', ')} vs ${reference.map(shown).join(', ')}.`);
  log(`Incremental target: under 300 ms (${unchangedOurs < 300 && touchedOurs < 300 ? 'met' : 'NOT met'} on this machine).`);
  rmSync(work, { recursive: true, force: true });
  await benchStagedCommand(root, scratchDir, log);
}
