// @ts-check
// The checkpoint taken before a changing command, on the search bench's large tree (Debian's
// linux-source-6.1), against `git add -A` into a scratch repository with its own index (GIT_DIR,
// GIT_INDEX_FILE, GIT_WORK_TREE: the user's .git is never used). First: an empty store, every file
// hashed. Incremental: the store kept, the tree unchanged, and with one file touched (its mtime
// changed, so its content is hashed again); this is what every changing call pays twice.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { medianMs, printTable, ratio } from './measure.mjs';
import { ensureTree } from './search.mjs';

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.WAT_BENCH_RUNS ?? 7);
/** @type {typeof import('../../src/core/checkpoints/node/git/gitCheckpointStore.js')} */
const { GitCheckpointStore } = require(path.join(repo, 'out/src/core/checkpoints/node/git/gitCheckpointStore.js'));

const LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxTotalBytes: 100 * 1024 * 1024 * 1024, excludes: ['**/.git', '**/.svn', '**/.hg', '**/CVS', '**/.DS_Store', '**/Thumbs.db'] };

/**
 * `git add -A` into a scratch repository: the reference.
 * @param {string} root
 * @param {string} gitDir
 */
function gitAddAll(root, gitDir) {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_DIR: gitDir, GIT_INDEX_FILE: path.join(gitDir, 'scratch-index'), GIT_WORK_TREE: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: gitDir };
  const result = spawnSync('git', ['add', '-A'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git add -A failed: ${result.stderr}`);
}

/** @param {() => unknown} fn */
async function once(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** @param {number} ms */
const shown = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchCheckpoint({ log, scratchDir }) {
  const { root, label } = await ensureTree(scratchDir, log);
  const work = path.join(scratchDir, 'checkpoint');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const referenceDir = path.join(work, 'reference.git');
  const init = spawnSync('git', ['init', '-q', '--bare', referenceDir], { env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  if (init.status !== 0) throw new Error(`git init failed: ${init.stderr}`);
  spawnSync('git', ['--git-dir', referenceDir, 'config', 'core.bare', 'false']);
  const store = new GitCheckpointStore(path.join(work, 'store'));
  log(`Tree: ${label} (${root})`);

  const firstOurs = await once(() => store.take([root], LIMITS));
  const firstReference = await once(() => gitAddAll(root, referenceDir));
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

  printTable(log, ['checkpoint', 'ours', 'git add -A (scratch index)', 'ratio'], [
    ['first (empty store)', shown(firstOurs), shown(firstReference), ratio(firstOurs, firstReference)],
    ['incremental, unchanged tree', shown(unchangedOurs), shown(unchangedReference), ratio(unchangedOurs, unchangedReference)],
    ['incremental, 1 file touched', shown(touchedOurs), shown(touchedReference), ratio(touchedOurs, touchedReference)],
  ]);
  log(`Incremental target: under 300 ms (${unchangedOurs < 300 && touchedOurs < 300 ? 'met' : 'NOT met'} on this machine).`);
  rmSync(work, { recursive: true, force: true });
}
