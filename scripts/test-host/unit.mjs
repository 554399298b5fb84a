// @ts-check
// The unit tier (`npm run test:unit`): the compiled tests of out/test/unit in several small mocha
// processes, as many at a time as the machine has cores (--jobs N to choose), cut as unitGroups.mjs
// says. Each group's output is kept; a line per group says its result and seconds when it ends, and
// a failing group's whole output follows its line. At the end: the groups by time, the wall time and
// the CPU seconds of all of them (Linux). Exits 1 when a group failed. One file still runs with plain
// mocha: npx mocha --ui bdd --timeout 60000 --require out/test/unit/support/leftoverProcesses.js <file>
//
//   node scripts/test-host/unit.mjs [--jobs N] [files or folders under out/test/unit ...]

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unitGroups } from './unitGroups.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const unitRoot = path.join(repo, 'out', 'test', 'unit');
const mocha = path.join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js');
const MOCHA_OPTIONS = ['--ui', 'bdd', '--timeout', '60000', '--require', path.join(unitRoot, 'support', 'leftoverProcesses.js')];

/**
 * @param {string} message
 * @returns {never}
 */
function usage(message) {
  console.error(`unit: ${message}\nusage: node scripts/test-host/unit.mjs [--jobs N] [files or folders under out/test/unit ...]`);
  process.exit(2);
}

let jobs = os.availableParallelism();
/** @type {string[]} */
const wanted = [];
const args = process.argv.slice(2);
for (let index = 0; index < args.length; index += 1) {
  if (args[index] === '--jobs') {
    jobs = Number(args[++index]);
    if (!Number.isInteger(jobs) || jobs < 1) usage(`--jobs takes a whole number of processes at a time, not ${args[index]}`);
  } else if (args[index].startsWith('-')) {
    usage(`unknown option ${args[index]} (mocha's options go to plain mocha, on one file)`);
  } else {
    wanted.push(path.resolve(args[index]));
  }
}
if (!fs.existsSync(unitRoot)) usage(`${path.relative(process.cwd(), unitRoot)} does not exist: run npm run compile first`);

/** @param {string} target a file or folder under out/test/unit */
function testFiles(target) {
  const relative = path.relative(unitRoot, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) usage(`${target} is not under ${unitRoot}`);
  if (!fs.existsSync(target)) usage(`${target} does not exist`);
  if (fs.statSync(target).isFile()) return target.endsWith('.test.js') ? [relative] : usage(`${target} is not a compiled test (*.test.js)`);
  return fs.readdirSync(target, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .map((name) => path.join(relative, name));
}
const files = [...new Set((wanted.length > 0 ? wanted : [unitRoot]).flatMap(testFiles))].map((file) => file.split(path.sep).join('/'));
if (files.length === 0) usage('no *.test.js found');
const groups = unitGroups(files);

/** CPU seconds of the waited-for children of this process (Linux: /proc/self/stat's cutime and cstime, in 1/100 s). */
function childrenCpu() {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[13]) / 100, system: Number(fields[14]) / 100 };
  } catch {
    return undefined;
  }
}

/** @typedef {{ name: string, files: string[], code: number, seconds: number, output: string, summary: string }} Result */

/**
 * Runs one group's mocha with its output kept.
 * @param {{ name: string, files: string[] }} group
 * @returns {Promise<Result>}
 */
function runGroup(group) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [mocha, ...MOCHA_OPTIONS, ...group.files.map((file) => path.join(unitRoot, file))], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const end = (/** @type {number} */ code) => {
      running.delete(child);
      const text = Buffer.concat(output).toString('utf8');
      const summary = ['passing', 'pending', 'failing'].map((word) => text.match(new RegExp(`^\\s*(\\d+) ${word}`, 'm'))?.[0].trim()).filter(Boolean).join(', ');
      resolve({ ...group, code, seconds: (Date.now() - started) / 1000, output: text, summary });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`unit: cannot start mocha: ${error.message}\n`));
      end(1);
    });
    child.on('close', (code, signal) => end(code ?? (signal ? 1 : 0)));
  });
}

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(1);
  });
}

const startedAt = Date.now();
const before = childrenCpu();
console.log(`unit: ${files.length} files in ${groups.length} mocha processes, ${jobs} at a time`);
/** @type {Result[]} */
const results = [];
const queue = [...groups];
await Promise.all(Array.from({ length: Math.min(jobs, groups.length) }, async () => {
  for (let group = queue.shift(); group; group = queue.shift()) {
    const result = await runGroup(group);
    results.push(result);
    console.log(`${result.code === 0 ? 'ok  ' : 'FAIL'} ${result.seconds.toFixed(1).padStart(6)} s  ${result.name} (${result.files.length} file${result.files.length === 1 ? '' : 's'}${result.summary ? `: ${result.summary}` : ''})`);
    if (result.code !== 0) console.log(`--- output of ${result.name} (exit code ${result.code}) ---\n${result.output.trimEnd()}\n--- end of ${result.name} ---`);
  }
}));

const failed = results.filter((result) => result.code !== 0);
const after = childrenCpu();
console.log('\nunit: groups by time');
for (const result of [...results].sort((a, b) => b.seconds - a.seconds)) console.log(`  ${result.code === 0 ? 'ok  ' : 'FAIL'} ${result.seconds.toFixed(1).padStart(6)} s  ${result.name}`);
const cpu = before && after ? `, CPU ${(after.user - before.user).toFixed(1)} s user + ${(after.system - before.system).toFixed(1)} s system` : '';
console.log(`unit: ${((Date.now() - startedAt) / 1000).toFixed(1)} s wall${cpu}, ${jobs} at a time, load ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`);
if (failed.length > 0) console.log(`unit: FAILED: ${failed.map((result) => result.name).join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
