// @ts-check
// Runs the integration tests (out/test/integration/index.js) inside a real VS Code extension host:
// code-server 4.100.3 (VS Code 1.100.3, Node 20) driven by headless Chromium through playwright-core.
// Two passes: `trusted` (code-server --disable-workspace-trust) and `untrusted` (trust enabled; the
// trust prompt cannot be answered in this mode, so the workspace stays untrusted).
//
// Prerequisites: dist/extension.js (node esbuild.mjs) and out/test/integration (tsc -p .).
//
//   node scripts/test-host/run-integration.mjs [--pass trusted|untrusted] [--grep <text>] [--verbose]
//
// Environment:
//   VSCODE_TEST_HOST=electron   delegate to run-electron.mjs (@vscode/test-electron; needs internet)
//   WAT_EXTENSION_DIR           extension to load (default: this repo)
//   WAT_TESTS_PATH              tests module (default: <repo>/out/test/integration/index.js)
//   WAT_FIXTURE_DIR             workspace to copy (default: test/fixtures/workspace)
//   CHROMIUM_PATH               browser (default: /usr/bin/chromium)
//   WAT_PASS_TIMEOUT_MS         per-pass limit (default 600000)
//   WAT_KEEP_TMP=1              keep the temp folders (workspace, report, code-server data)
//   WAT_VERBOSE=1 / --verbose   stream code-server output and browser console
//
// Each pass gets a fresh copy of the fixture at <tmp>/ws (tests may create <tmp>/ws-sibling,
// <tmp>/outside), a fresh code-server (user data, extensions dir) and a fresh browser context.
// The extension host inherits code-server's environment; it receives WAT_TEST_PASS,
// WAT_TEST_WORKSPACE, WAT_TEST_REPORT, WAT_TEST_GREP, WAT_TEST_COLOR. The in-host mocha writes its
// spec report to WAT_TEST_REPORT, which is streamed here while the pass runs.
//
// The parts, in the order a run uses them: cli.mjs (flags and environment), preconditions.mjs,
// cleanup.mjs (undo on every exit route), browser.mjs, pass.mjs (one pass), screenshots.mjs,
// logs.mjs (report stream, logs of a failed pass), summary.mjs (the lines CI reads).
import * as fs from 'node:fs';
import { launchBrowser } from './browser.mjs';
import { CleanupRegistry } from './cleanup.mjs';
import { fail, readOptions } from './cli.mjs';
import { CODE_SERVER_VERSION, ensureCodeServer } from './code-server.mjs';
import { banner, errorText } from './logs.mjs';
import { runPass } from './pass.mjs';
import { unmetPrecondition } from './preconditions.mjs';
import { SCREENSHOT_DIR } from './screenshots.mjs';
import { printPassVerdict, printSummary } from './summary.mjs';

const options = readOptions(); // exits after --help, and on an unknown pass
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
  await ensureCodeServer();
  const { browser, closeBrowser } = await launchBrowser(chromium, options.chromiumPath, cleanups);
  console.log(`Host: code-server ${CODE_SERVER_VERSION} + Chromium ${browser.version()} (headless); extension ${options.extensionDir}${options.grep ? `; grep "${options.grep}"` : ''}`);
  for (const pass of options.passes) {
    banner(`Integration tests, pass: ${pass}`);
    const result = await runPass(browser, pass, options, cleanups);
    results.push(result);
    if (cleanups.interrupted) break;
    printPassVerdict(result);
  }
  await cleanups.runNow(closeBrowser);
} catch (error) {
  console.error(`run-integration: ${errorText(error)}`);
  exitCode = 1;
} finally {
  await cleanups.finish(); // after a signal, this exits once the signal handler's cleanup is done
}

if (!cleanups.interrupted) printSummary(results, startedAt);
if (results.length < options.passes.length || results.some((result) => !result.ok)) exitCode = 1;
process.exit(cleanups.interrupted ? 130 : exitCode);
