// @ts-check
// The lines people and CI read: a verdict after each pass, then the summary over all passes of all
// VS Code versions, which ends with `integration: N passed, N failed, N skipped`. Every verdict and
// summary line names the VS Code version (and code-server's) and the pass.
import { hostLabel } from './code-server.mjs';
import { banner } from './logs.mjs';

/** @typedef {import('./pass.mjs').PassResult} PassResult */

/** @param {PassResult} result */
function counts(result) {
  const flaky = result.flaky?.length ? ` (${result.flaky.length} of them only when run again)` : '';
  return `${result.passes} passing${flaky}, ${result.failures} failing, ${result.pending} pending`;
}

/** @param {PassResult} result */
export function printPassVerdict(result) {
  console.log(
    `\n[${result.version.vscode} ${result.pass}] ${result.ok ? 'PASSED' : 'FAILED'} — ${hostLabel(result.version)}, pass ${result.pass}; ` +
      `${counts(result)}; ${result.seconds.toFixed(1)} s${result.ok ? '' : ` — ${result.reason}`}`,
  );
}

/** @param {string} error the head of a test's error, a few lines */
function indented(error) {
  return error
    .split('\n')
    .map((line) => `           ${line}`)
    .join('\n');
}

/**
 * @param {PassResult[]} results
 * @param {number} startedAt when the run started (Date.now())
 */
export function printSummary(results, startedAt) {
  banner('Integration summary');
  for (const result of results) {
    console.log(
      `  ${result.ok ? 'ok  ' : 'FAIL'} ${result.pass.padEnd(9)} ${hostLabel(result.version)}: ${counts(result)} (${result.seconds.toFixed(1)} s)${result.ok ? '' : ` — ${result.reason}`}`,
    );
    for (const { title, error } of result.failed ?? []) console.log(`         failed: ${title}\n${indented(error)}`);
    for (const { title, error } of result.flaky ?? []) console.log(`         FLAKY (passed when run again): ${title}\n           first try:\n${indented(error)}`);
  }
  console.log(`  total ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  // The plain closing line CI reads: counts over every pass of every version.
  /** @param {'passes' | 'failures' | 'pending'} key */
  const sum = (key) => results.reduce((total, result) => total + (result[key] ?? 0), 0);
  console.log(`integration: ${sum('passes')} passed, ${sum('failures')} failed, ${sum('pending')} skipped`);
}
