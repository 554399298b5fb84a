// @ts-check
// One pass of the integration tests in one VS Code version: a fresh copy of the fixture workspace, a
// fresh code-server of that version and a fresh browser context on the workbench URL that carries the tests. The pass ends when the
// in-host mocha exits (codeAutomationExit), or the page crashes, code-server exits, or time runs
// out; it is judged from the exit code and the summary the in-host runner writes.
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { hostLabel, startCodeServer, workbenchUrl } from './code-server.mjs';
import { leftoversAfterExit } from './leftovers.mjs';
import { errorText, printLogs, tailFile } from './logs.mjs';
import { answerScreenshotRequests, screenshotDir } from './screenshots.mjs';

/**
 * @typedef {import('playwright-core').Browser} Browser
 * @typedef {import('playwright-core').Page} Page
 * @typedef {import('./cli.mjs').RunOptions} RunOptions
 * @typedef {import('./cleanup.mjs').CleanupRegistry} CleanupRegistry
 * @typedef {import('./code-server.mjs').CodeServer} CodeServer
 * @typedef {import('./code-server.mjs').HostVersion} HostVersion
 * @typedef {import('./logs.mjs').BrowserLog} BrowserLog
 */

/**
 * How a pass ended: the first of these to happen.
 * @typedef {{ kind: 'exit', code: number, logs?: BrowserLog[] }
 *   | { kind: 'crash' }
 *   | { kind: 'server-exit', code: number | null, signal: NodeJS.Signals | null }
 *   | { kind: 'timeout' }
 *   | { kind: 'error', error: unknown }} Outcome
 */

/**
 * What the in-host runner (test/integration/index.ts) writes to `<report>.json` when it finishes.
 * @typedef {{ tests: number, failures: number, passes: number, pending: number, failed?: { title: string, error: string }[], flaky?: { title: string, error: string }[], durations?: { title: string, ms: number }[], startedAt?: number, vscodeVersion: string, appName: string }} Summary
 */

/**
 * @typedef {object} PassResult
 * @property {HostVersion} version the VS Code version it ran in (code-server's)
 * @property {string} pass
 * @property {boolean} ok
 * @property {number} tests
 * @property {number} failures
 * @property {number} passes
 * @property {number} pending
 * @property {number} seconds the whole pass, code-server's start included
 * @property {number} [testSeconds] from code-server being up to the end
 * @property {string} reason why it failed; '' when it passed
 * @property {{ title: string, error: string }[]} [failed] the failed tests, with their errors' first lines
 * @property {{ title: string, error: string }[]} [flaky] tests that failed once and passed when run again, with the first error
 */

/**
 * "1.139.1 trusted": which pass of which version a log line is about.
 * @param {HostVersion} host
 * @param {string} pass
 */
export function passLabel(host, pass) {
  return `${host.vscode} ${pass}`;
}

/**
 * The result of a pass that never started, e.g. because its version could not be installed.
 * @param {HostVersion} version
 * @param {string} pass
 * @param {string} reason
 * @returns {PassResult}
 */
export function notRun(version, pass, reason) {
  return { version, pass, ok: false, tests: 0, failures: 0, passes: 0, pending: 0, seconds: 0, reason };
}

/**
 * Runs one pass and returns its result; prints the logs when it failed (unless interrupted).
 * @param {Browser} browser
 * @param {HostVersion} version
 * @param {string} pass
 * @param {RunOptions} options
 * @param {CleanupRegistry} cleanups
 * @returns {Promise<PassResult>}
 */
export async function runPass(browser, version, pass, options, cleanups) {
  const startedAt = Date.now();
  const label = passLabel(version, pass);
  const folders = await makePassFolders(pass, options.fixtureDir);
  const screenshots = screenshotDir(version);

  const codeServer = await startCodeServer({
    host: version,
    trustDisabled: pass !== 'untrusted',
    verbose: options.verbose,
    installExtensions: options.vsix ? [options.vsix] : [],
    keepDirs: true, // removed below, after the logs had a chance to be printed
    env: {
      WAT_TEST_PASS: pass,
      WAT_TEST_VSCODE: version.vscode,
      WAT_TEST_HOST_ID: version.id, // the floor leaves out the files test/integration/versions.ts names
      WAT_TEST_FULL_FLOOR: options.fullFloor ? '1' : '0',
      WAT_TEST_WORKSPACE: folders.workspace,
      WAT_TEST_REPORT: folders.reportFile,
      WAT_LEFTOVERS_FILE: folders.leftoversFile,
      WAT_SCREENSHOT_DIR: screenshots,
      WAT_TEST_GREP: options.grep,
      WAT_TEST_COLOR: process.stdout.isTTY ? '1' : '0',
    },
  });
  const removeFolders = async () => {
    if (options.keepTmp) return;
    for (const dir of [folders.tmp, folders.reportDir, codeServer.root]) await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  cleanups.add(removeFolders); // runs after stopCodeServer (cleanups run in reverse order)
  const stopCodeServer = () => codeServer.stop();
  cleanups.add(stopCodeServer);
  const serverUpAt = Date.now();
  console.log(
    `[${label}] ${hostLabel(version)} on Node ${codeServer.node.version} up at ${codeServer.url} in ${((serverUpAt - startedAt) / 1000).toFixed(1)} s; workspace ${folders.workspace}`,
  );

  const workbench = await openWorkbench(browser, label, screenshots, codeServer, options, cleanups);
  const url = workbenchUrl({ port: codeServer.port, folder: folders.workspace, extensionDir: options.extensionDir, testsPath: options.testsPath });
  const pageOpenedAt = Date.now();
  const outcome = await runTests(workbench, url, folders.reportFile, label, options.verbose, options.sideBySide);
  const testsEndedAt = Date.now();

  const summary = await readSummary(folders.reportFile);
  if (summary) printTimes(label, summary, { serverStart: pageOpenedAt - startedAt, pageOpenedAt, testsEndedAt });
  const reason = failureReason(outcome, summary, options.passTimeoutMs) ?? wrongVersion(summary, version);
  /** @type {PassResult} */
  const result = {
    version,
    pass,
    ok: reason === undefined,
    ...(summary
      ? { tests: summary.tests, failures: summary.failures, passes: summary.passes, pending: summary.pending }
      : { tests: 0, failures: 0, passes: 0, pending: 0 }),
    failed: summary?.failed ?? [],
    flaky: summary?.flaky ?? [],
    seconds: (Date.now() - startedAt) / 1000,
    testSeconds: (Date.now() - serverUpAt) / 1000,
    reason: reason ?? '',
  };

  if (!result.ok && !cleanups.interrupted) await printLogs(codeServer, outcome.kind === 'exit' ? outcome.logs : undefined, workbench.consoleLines);
  // A later pass's screenshot requests are for its own page, not this closed one.
  await cleanups.runNow(workbench.stopScreenshots);
  await cleanups.runNow(workbench.closeContext).catch(() => {});
  await cleanups.runNow(stopCodeServer);
  // What tests left running on purpose must have ended with the extension host.
  const leftovers = await leftoversAfterExit(folders.leftoversFile);
  if (leftovers && result.ok) {
    result.ok = false;
    result.reason = leftovers;
  }
  if (!result.ok && options.keepTmp) console.log(`[${label}] kept: workspace ${folders.tmp}, report ${folders.reportDir}, code-server data ${codeServer.root}`);
  await cleanups.runNow(removeFolders);
  return result;
}

/** How many of a pass's slowest tests its log names. */
const SLOWEST = 12;

/**
 * Where a pass spent its time: code-server's start (the fixture's copy included), the workbench's
 * load and the extension's activation until the in-host runner started, the tests, and the
 * slowest of them.
 * @param {string} label
 * @param {Summary} summary
 * @param {{ serverStart: number, pageOpenedAt: number, testsEndedAt: number }} times in ms; the last two from Date.now()
 */
function printTimes(label, summary, { serverStart, pageOpenedAt, testsEndedAt }) {
  if (summary.startedAt === undefined || !summary.durations) return;
  const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;
  const tests = summary.durations.reduce((total, test) => total + test.ms, 0);
  console.log(
    `[${label}] times: start ${seconds(serverStart)}, workbench and activation ${seconds(summary.startedAt - pageOpenedAt)}, ` +
      `the runner ${seconds(testsEndedAt - summary.startedAt)} (${seconds(tests)} in the tests themselves, the rest loading them, in hooks and between tests); slowest:`,
  );
  for (const test of [...summary.durations].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) console.log(`  ${seconds(test.ms).padStart(8)}  ${test.title}`);
}

/** The mounted volume that ignores letter case the `case-insensitive` pass's workspace goes on. */
function caseInsensitiveVolume() {
  const volume = process.env.WAT_CASE_INSENSITIVE_VOLUME;
  if (!volume) {
    throw new Error(
      'the case-insensitive pass needs WAT_CASE_INSENSITIVE_VOLUME: a folder on a mounted volume that ignores letter case, ' +
        'such as an exFAT image mounted with exfat-fuse (.ci/run mounts one as root; CONTRIBUTING.md says how by hand)',
    );
  }
  return volume;
}

/**
 * The pass's folders: `<tmp>/ws`, a fresh copy of the fixture (tests may create `<tmp>/ws-sibling`
 * and `<tmp>/outside`), and an empty report file the in-host mocha writes its spec report to.
 * @param {string} pass
 * @param {string} fixtureDir
 */
async function makePassFolders(pass, fixtureDir) {
  const tmp = await fsp.mkdtemp(path.join(pass === 'case-insensitive' ? caseInsensitiveVolume() : os.tmpdir(), `wat-it-${pass}-`));
  const workspace = path.join(tmp, 'ws');
  await fsp.cp(fixtureDir, workspace, { recursive: true });
  const reportDir = await fsp.mkdtemp(path.join(os.tmpdir(), `wat-report-${pass}-`));
  const reportFile = path.join(reportDir, 'report.txt');
  await fsp.writeFile(reportFile, '');
  return { tmp, workspace, reportDir, reportFile, leftoversFile: path.join(reportDir, 'leftovers.json') };
}

/**
 * A browser context and page for the pass, with the hooks the workbench calls in smoke-test mode
 * (codeAutomationExit when the tests are done, codeAutomationLog for its log) and a watch on
 * everything else that ends a pass: a page crash, code-server's exit, the time limit.
 * @param {Browser} browser
 * @param {string} label which version and pass, for the log
 * @param {string} screenshots the folder the pass's screenshot requests arrive in
 * @param {CodeServer} codeServer
 * @param {RunOptions} options
 * @param {CleanupRegistry} cleanups
 */
async function openWorkbench(browser, label, screenshots, codeServer, { verbose, passTimeoutMs }, cleanups) {
  const context = await browser.newContext();
  const closeContext = () => context.close();
  cleanups.add(closeContext);
  /** @type {string[]} */
  const consoleLines = [];
  /** @param {string} line */
  const remember = (line) => {
    consoleLines.push(line);
    if (consoleLines.length > 2000) consoleLines.splice(0, 1000);
    if (verbose) console.log(line);
  };
  /** @type {(outcome: Outcome) => void} */
  let settle = () => {};
  /** @type {Promise<Outcome>} */
  const outcome = new Promise((resolve) => (settle = resolve));
  await context.exposeFunction('codeAutomationExit', (/** @type {number} */ code, /** @type {BrowserLog[] | undefined} */ logs) => {
    settle({ kind: 'exit', code, logs });
  });
  await context.exposeFunction('codeAutomationLog', (/** @type {string} */ level, /** @type {unknown} */ args) => {
    remember(`[workbench ${level}] ${Array.isArray(args) ? args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ') : String(args)}`);
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    // '%c'-styled messages are the workbench logger, already received through codeAutomationLog.
    if (message.text().startsWith('%c')) return;
    remember(`[browser ${message.type()}] ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.stack ?? error.message}`));
  page.on('crash', () => settle({ kind: 'crash' }));
  codeServer.process.once('exit', (code, signal) => settle({ kind: 'server-exit', code, signal }));
  const timeLimit = setTimeout(() => settle({ kind: 'timeout' }), passTimeoutMs);
  const screenshotTimer = setInterval(() => void answerScreenshotRequests(page, screenshots, label), 200);
  const stopScreenshots = async () => clearInterval(screenshotTimer);
  cleanups.add(stopScreenshots);
  return { page, consoleLines, outcome, timeLimit, stopScreenshots, closeContext };
}

/**
 * Opens the workbench URL that runs the tests and waits for the pass to end, streaming the spec
 * report meanwhile.
 * @param {{ page: Page, outcome: Promise<Outcome>, timeLimit: NodeJS.Timeout }} workbench
 * @param {string} url
 * @param {string} reportFile
 * @param {string} label which version and pass, for the log
 * @param {boolean} verbose
 * @param {boolean} sideBySide another pass runs at the same time: each report line is prefixed with the label
 * @returns {Promise<Outcome>}
 */
async function runTests({ page, outcome, timeLimit }, url, reportFile, label, verbose, sideBySide) {
  const report = tailFile(reportFile, sideBySide ? `[${label}] ` : '');
  try {
    if (verbose) console.log(`[${label}] opening ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    return await outcome;
  } catch (error) {
    return { kind: 'error', error };
  } finally {
    clearTimeout(timeLimit);
    report.stop();
  }
}

/**
 * @param {string} reportFile
 * @returns {Promise<Summary | undefined>} undefined when the runner never finished
 */
async function readSummary(reportFile) {
  try {
    return JSON.parse(await fsp.readFile(reportFile + '.json', 'utf8')) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a pass that passed must fail all the same: it ran in another VS Code than the version it was for.
 * @param {Summary | undefined} summary
 * @param {HostVersion} version
 * @returns {string | undefined}
 */
function wrongVersion(summary, version) {
  if (!summary || summary.vscodeVersion === version.vscode) return undefined;
  return `ran in VS Code ${summary.vscodeVersion}, expected ${version.vscode}`;
}

/**
 * Why the pass failed, or undefined when it passed: the host exited with 0 after at least one
 * test ran and none failed.
 * @param {Outcome} outcome
 * @param {Summary | undefined} summary
 * @param {number} passTimeoutMs
 * @returns {string | undefined}
 */
function failureReason(outcome, summary, passTimeoutMs) {
  switch (outcome.kind) {
    case 'exit':
      if (!summary) return `extension host exited with code ${outcome.code} before the test runner wrote its summary`;
      if (outcome.code === 0 && summary.tests > 0 && summary.failures === 0) return undefined;
      return summary.tests === 0 ? 'zero tests ran' : `exit code ${outcome.code}, ${summary.failures} failing`;
    case 'timeout':
      return `timed out after ${passTimeoutMs / 1000} s`;
    case 'crash':
      return 'the browser page crashed';
    case 'server-exit':
      return `code-server exited (${outcome.signal ?? outcome.code})`;
    case 'error':
      return `error: ${errorText(outcome.error)}`;
  }
}
