// @ts-check
// The extension's activation in the real extension host, on both VS Code versions: the integration
// runner (scripts/test-host) starts a fresh code-server per launch, with out/test/activation as its
// tests module, which reads the timings activate() records (src/vscode/activationTimings.ts). Prints
// the median over a few launches of activate() and of each of its steps, and of the work deferred
// until after it returned. Launches take the integration lock, as every integration run does.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable } from './measure.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LAUNCHES = Number(process.env.WAT_BENCH_ACTIVATION_RUNS ?? 3);
const VERSIONS = (process.env.WAT_BENCH_ACTIVATION_VSCODE ?? 'floor,newest').split(',');
/** The goal of issue 22: activate() itself at most this long; the rest deferred. */
export const ACTIVATION_BUDGET_MS = 50;

/**
 * What test/activation/index.ts writes: the ActivationReport plus where it ran.
 * @typedef {import('../../src/vscode/activationTimings.js').ActivationReport & { vscodeVersion: string, toolsRegistered: number }} LaunchReport
 */

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * One launch of a fresh code-server of `version` that runs the activation entry; its report.
 * @param {string} version floor | newest
 * @returns {LaunchReport}
 */
function launch(version) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wat-activation-'));
  const reportFile = path.join(dir, 'activation.json');
  try {
    const result = spawnSync('flock', ['/tmp/wat-integration.lock', process.execPath, 'scripts/test-host/run-integration.mjs', '--vscode', version, '--pass', 'trusted'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, WAT_TESTS_PATH: path.join(repo, 'out/test/activation/index.js'), WAT_ACTIVATION_REPORT: reportFile },
    });
    if (result.status !== 0) throw new Error(`the ${version} launch failed (${result.status}): ${(result.stdout + result.stderr).slice(-2000)}`);
    return JSON.parse(readFileSync(reportFile, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The median of each named step over the launches, in the order of the first launch.
 * @param {(readonly { step: string, ms: number }[])[]} launches
 */
function stepMedians(launches) {
  return launches[0].map(({ step }) => ({ step, ms: median(launches.map((steps) => steps.find((done) => done.step === step)?.ms ?? NaN)) }));
}

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchActivation({ log }) {
  /** @type {{ what: string, ratio: number, budget: number, peers: boolean[] }[]} */
  const verdicts = [];
  for (const version of VERSIONS) {
    /** @type {LaunchReport[]} */
    const reports = [];
    for (let index = 0; index < LAUNCHES; index += 1) reports.push(launch(version));
    const activate = median(reports.map((report) => report.activateMs ?? NaN));
    const bundle = median(reports.map((report) => report.bundleLoadMs ?? NaN));
    log('');
    log(`activate() in VS Code ${reports[0].vscodeVersion} (code-server, trusted workspace): ${activate.toFixed(1)} ms, median of ${LAUNCHES} launches (${reports.map((report) => report.activateMs?.toFixed(1)).join(', ')}); ${reports[0].toolsRegistered} tools registered`);
    const rows = [
      ['before', 'bundle loaded (dist/extension.js evaluated)', `${bundle.toFixed(2)} ms`],
      ...stepMedians(reports.map((report) => report.steps)).map(({ step, ms }) => ['activate()', step, `${ms.toFixed(2)} ms`]),
      ...stepMedians(reports.map((report) => report.deferred)).map(({ step, ms }) => ['deferred', step, `${ms.toFixed(2)} ms`]),
    ];
    printTable(log, ['when', 'step', 'median'], rows);
    verdicts.push({ what: `activate() in VS Code ${reports[0].vscodeVersion}`, ratio: activate / ACTIVATION_BUDGET_MS, budget: 1, peers: [] });
  }
  log('');
  for (const verdict of verdicts) log(`${verdict.ratio <= verdict.budget ? 'within' : 'OVER'} ${ACTIVATION_BUDGET_MS} ms (${(verdict.ratio * ACTIVATION_BUDGET_MS).toFixed(1)} ms): ${verdict.what}`);
  return { case: 'activation', verdicts };
}
