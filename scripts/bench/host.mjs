// @ts-check
// Round trips and memory measured in the real extension host, on every VS Code version the
// integration runner knows (floor and newest), side by side. The runner starts code-server and
// Chromium with the extension (scripts/test-host/run-integration.mjs) and loads the bench's own
// in-host entry, out/test/bench/host/index.js, instead of the integration tests; that entry writes
// its raw samples to one JSON file per version (test/bench/host/roundTrips.test.ts says what is
// measured and how), and this file turns them into p50, p90, ratios and the goals of issue 22.
// The runner installs code-server into .cache on first use, and the entry writes its own input
// file, so a fresh clone needs nothing prepared.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, ratio } from './measure.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What the in-host entry writes per version (HostBenchResult in test/bench/host/roundTrips.test.ts).
 * @typedef {{ rssKiB: number, heapUsedKiB: number }} MemorySample
 * @typedef {object} HostBenchResult
 * @property {string} vscode
 * @property {string} node
 * @property {boolean} gcForced
 * @property {{ lm: number[], core: number[], mcp: number[], runCall: number[], workbenchRoundTrip: number[], resultChars: number }} read milliseconds per call
 * @property {{ calls: number, totalMs: number, top: { name: string, selfMs: number }[] }} [profile] with WAT_BENCH_HOST_PROFILE=1 (read_file through vscode.lm.invokeTool), =mcp (the same through the agent and the relay) or =command (run_command true through core)
 * @property {{ sandboxed: number[], unsandboxed: number[], sandboxedRunCall: number[], unsandboxedRunCall: number[], sandboxedCore: number[], unsandboxedCore: number[] }} command milliseconds per call
 * @property {{ idle: MemorySample, background: MemorySample, after100: MemorySample, after1000: MemorySample }} memory
 */

/**
 * The value below which `fraction` of the samples lie (nearest rank).
 * @param {number[]} samples
 * @param {number} fraction
 */
export function percentile(samples, fraction) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/** @param {number[]} samples */
const p50 = (samples) => percentile(samples, 0.5);
/** @param {number[]} samples */
const p90 = (samples) => percentile(samples, 0.9);
/** @param {number} ms */
const fixed = (ms) => ms.toFixed(2);
/** @param {number} kib */
const mib = (kib) => (kib / 1024).toFixed(1);
/** @param {boolean} met */
const verdict = (met) => (met ? 'met' : 'MISSED');

/**
 * Runs the in-host entry on every version and returns what each wrote, by VS Code version.
 * @param {(line: string) => void} log
 * @returns {Promise<HostBenchResult[]>}
 */
async function runInHosts(log) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-host-'));
  try {
    const args = [path.join(repo, 'scripts/test-host/run-integration.mjs'), '--vscode', process.env.WAT_VSCODE ?? 'all', '--pass', 'trusted'];
    const env = { ...process.env, WAT_TESTS_PATH: path.join(repo, 'out/test/bench/host/index.js'), WAT_BENCH_HOST_OUT: out };
    const started = performance.now();
    /** @type {string[]} */
    const output = [];
    const code = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk) => output.push(String(chunk)));
      child.stderr.on('data', (chunk) => output.push(String(chunk)));
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) {
      log(output.join(''));
      throw new Error(`the in-host bench failed (run-integration exited ${code}); its output is above`);
    }
    log(`(code-server + Chromium, pass trusted, both versions: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    return readdirSync(out)
      .filter((name) => name.endsWith('.json'))
      .map((name) => /** @type {HostBenchResult} */ (JSON.parse(readFileSync(path.join(out, name), 'utf8'))))
      .sort((a, b) => a.vscode.localeCompare(b.vscode, undefined, { numeric: true }));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchHost({ log }) {
  const results = await runInHosts(log);
  const header = (/** @type {string} */ first) => [first, ...results.flatMap((result) => [`${result.vscode} p50`, 'p90'])];
  /** @param {string} label @param {(result: HostBenchResult) => number[]} pick */
  const timeRow = (label, pick) => [label, ...results.flatMap((result) => [fixed(p50(pick(result))), fixed(p90(pick(result)))])];
  /** @param {string} label @param {(result: HostBenchResult) => [string, string]} cells */
  const derivedRow = (label, cells) => [label, ...results.flatMap(cells)];

  log(`read_file, 500 lines (${results[0]?.read.resultChars ?? '?'} characters), ms; ${results[0]?.read.lm.length ?? 0} interleaved calls of each`);
  printTable(log, header('front'), [
    timeRow('core invokeTool, same process', (r) => r.read.core),
    timeRow('core runCall (+ trace, record)', (r) => r.read.runCall),
    timeRow('vscode.lm.invokeTool', (r) => r.read.lm),
    derivedRow('  host overhead over core', (r) => [fixed(p50(r.read.lm) - p50(r.read.core)), fixed(p90(r.read.lm) - p90(r.read.core))]),
    derivedRow('    ours: runCall - invokeTool', (r) => [fixed(p50(r.read.runCall) - p50(r.read.core)), fixed(p90(r.read.runCall) - p90(r.read.core))]),
    derivedRow("    VS Code's: lm - runCall", (r) => [fixed(p50(r.read.lm) - p50(r.read.runCall)), fixed(p90(r.read.lm) - p90(r.read.runCall))]),
    timeRow('one workbench round trip (setContext)', (r) => r.read.workbenchRoundTrip),
    timeRow('agent → dist/mcp.js → endpoint', (r) => r.read.mcp),
    derivedRow('  relay / vscode.lm.invokeTool', (r) => [ratio(p50(r.read.mcp), p50(r.read.lm)), ratio(p90(r.read.mcp), p90(r.read.lm))]),
    derivedRow('  relay / core invokeTool', (r) => [ratio(p50(r.read.mcp), p50(r.read.core)), ratio(p90(r.read.mcp), p90(r.read.core))]),
  ]);
  log('');
  log(`run_command \`true\`, ms; ${results[0]?.command.sandboxed.length ?? 0} alternating calls of each`);
  printTable(log, header('placement, front'), [
    timeRow('unsandboxed, core invokeTool', (r) => r.command.unsandboxedCore),
    timeRow('unsandboxed, core runCall (+ checkpoints)', (r) => r.command.unsandboxedRunCall),
    timeRow('unsandboxed, vscode.lm.invokeTool', (r) => r.command.unsandboxed),
    timeRow('sandboxed, core invokeTool', (r) => r.command.sandboxedCore),
    timeRow('sandboxed, core runCall (+ checkpoints)', (r) => r.command.sandboxedRunCall),
    timeRow('sandboxed, vscode.lm.invokeTool', (r) => r.command.sandboxed),
    derivedRow('  sandbox cost (core invokeTool)', (r) => [fixed(p50(r.command.sandboxedCore) - p50(r.command.unsandboxedCore)), ratio(p50(r.command.sandboxedCore), p50(r.command.unsandboxedCore))]),
  ]);
  log('');
  log(`extension host memory (MiB, after a forced GC: ${results.map((r) => `${r.vscode} ${r.gcForced ? 'yes' : 'no'}`).join(', ')})`);
  printTable(log, ['moment', ...results.flatMap((r) => [`${r.vscode} RSS`, 'V8 heap'])], [
    ...(/** @type {const} */ ([['idle', 'idle'], ['5 background commands running', 'background'], ['after 100 read_file calls', 'after100'], ['after 1,000 read_file calls', 'after1000']])).map(([label, key]) => [
      label,
      ...results.flatMap((r) => [mib(r.memory[key].rssKiB), mib(r.memory[key].heapUsedKiB)]),
    ]),
    ['  1,000 / 100', ...results.flatMap((r) => [ratio(r.memory.after1000.rssKiB, r.memory.after100.rssKiB), ratio(r.memory.after1000.heapUsedKiB, r.memory.after100.heapUsedKiB)])],
  ]);
  log('');
  for (const r of results.filter((each) => each.profile)) {
    const cpu = r.profile;
    if (!cpu) continue;
    log(`where the host's CPU went, VS Code ${r.vscode}: ${cpu.calls} calls (WAT_BENCH_HOST_PROFILE=${process.env.WAT_BENCH_HOST_PROFILE}) in ${cpu.totalMs.toFixed(0)} ms, self time per call`);
    printTable(log, ['function', 'ms per call'], cpu.top.map((entry) => [entry.name, (entry.selfMs / cpu.calls).toFixed(3)]));
    log('');
  }
  for (const r of results) {
    const overhead = p50(r.read.lm) - p50(r.read.core);
    const ours = p50(r.read.runCall) - p50(r.read.core);
    const relay = p50(r.read.mcp) / p50(r.read.lm);
    const growth = r.memory.after1000.rssKiB / r.memory.after100.rssKiB;
    log(
      `goals, VS Code ${r.vscode} (Node ${r.node}): host overhead ${fixed(overhead)} ms p50 <= 2 ms ${verdict(overhead <= 2)} ` +
        `(the extension's share ${fixed(ours)} ms ${verdict(ours <= 2)}, VS Code's tool service the rest); ` +
        `relay ${relay.toFixed(2)}x vscode.lm.invokeTool <= 2x ${verdict(relay <= 2)}; ` +
        `RSS after 1,000 calls ${((growth - 1) * 100).toFixed(1)}% of after 100, within 10% ${verdict(Math.abs(growth - 1) <= 0.1)}`,
    );
  }
}
