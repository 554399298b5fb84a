// In-host mocha runner: VS Code loads this module (compiled to out/test/integration/index.js) as
// `extensionTestsPath` and calls run() inside the extension host. It runs every
// out/test/integration/**/*.test.js with the spec reporter. The report goes to the file named by
// WAT_TEST_REPORT (the runner streams that file to its terminal), or to console.log when that is
// unset (test-electron forwards the host's stdout); a JSON summary goes to `${WAT_TEST_REPORT}.json`.
// (console.log in the code-server host reaches the runner through codeAutomationLog; it is shown
// when a pass fails or with --verbose.)
//
// Environment (set by scripts/test-host/run-integration.mjs, inherited by the extension host):
//   WAT_TEST_PASS       'trusted' | 'untrusted' (electron runs: 'electron')
//   WAT_TEST_VSCODE     the VS Code version the runner started (host.test.ts checks it)
//   WAT_TEST_WORKSPACE  the copied fixture workspace folder (<tmp>/ws)
//   WAT_TEST_REPORT     report file path
//   WAT_TEST_GREP       only run tests whose full title contains this string
//   WAT_TEST_COLOR      '1' for ANSI colours in the report
//   WAT_TEST_HOST_ID    'floor' | 'newest': the floor leaves out the files versions.ts names
//   WAT_TEST_FULL_FLOOR '1': the floor runs every file too (run-integration --full-floor)
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { filesForHost, testFileName } from './versions';

function findTests(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) findTests(full, out);
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(full);
  }
  // A `*.last.test.js` file runs after all the others: it may leave processes running for the
  // runner's check after the host exits, which must not disturb other suites (a restore refuses
  // while background commands run).
  const last = (file: string): number => (file.endsWith('.last.test.js') ? 1 : 0);
  return out.sort((a, b) => last(a) - last(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The pass whose workspace is on a volume that ignores letter case runs the `*.volume.test.js` files, and no other pass does. */
export const VOLUME_PASS = 'case-insensitive';

function testsOfPass(files: readonly string[], pass: string): string[] {
  return files.filter((file) => file.endsWith('.volume.test.js') === (pass === VOLUME_PASS));
}

/** VS Code calls this: runs the test files of this folder this version runs (versions.ts). */
export function run(): Promise<void> {
  return runTestsIn(__dirname, (files) => {
    const { run: selected, leftOut } = filesForHost(files, process.env.WAT_TEST_HOST_ID, process.env.WAT_TEST_FULL_FLOOR === '1');
    return { files: selected, leftOut };
  });
}

/** Which of the files found run in this version, and which it leaves out (named in the report). */
type Selection = (files: string[]) => { files: string[]; leftOut: string[] };

/** Runs every `*.test.js` under `dir` (or those `select` keeps) in this extension host, reporting as described above (test/installed reuses it). */
export async function runTestsIn(dir: string, select: Selection = (files) => ({ files, leftOut: [] })): Promise<void> {
  const startedAt = Date.now(); // the runner compares it with when it opened the page: the workbench's load and the activation
  const reportFile = process.env.WAT_TEST_REPORT;
  const write = (text: string): void => {
    if (reportFile) fs.appendFileSync(reportFile, text);
  };
  const Base = Mocha.reporters.Base;
  Base.useColors = process.env.WAT_TEST_COLOR === '1';
  // Every reporter line goes through Base.consoleLog: send it to the report file as well.
  const originalConsoleLog = Base.consoleLog;
  Base.consoleLog = (...args: unknown[]): void => {
    write(util.format(...args) + '\n');
    if (!reportFile) originalConsoleLog(...args);
  };

  const pass = process.env.WAT_TEST_PASS ?? 'unknown';
  const header =
    `Extension host: VS Code ${vscode.version} (${vscode.env.appName}, ${vscode.env.appHost}), ` +
    `pass: ${pass}, trusted: ${vscode.workspace.isTrusted}, node ${process.version}`;
  let selection: ReturnType<Selection>;
  try {
    selection = select(findTests(dir));
  } catch (err) {
    write(`\nIntegration run failed: ${err instanceof Error ? err.message : String(err)}\n`);
    throw err;
  }
  const leftOut = testsOfPass(selection.leftOut, pass).map(testFileName);
  write(header + '\n' + (leftOut.length > 0 ? `Left out in VS Code ${vscode.version}, run on the newest (test/integration/versions.ts): ${leftOut.join(', ')}\n` : ''));
  console.log(header);

  // A test that fails is run once more (its hooks too), and reported as flaky when it then passes:
  // a timing flake on a busy machine does not fail the run, and is still named in the summary.
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, reporter: 'spec', color: Base.useColors, retries: 1 });
  if (process.env.WAT_TEST_GREP) mocha.grep(process.env.WAT_TEST_GREP);
  const files = testsOfPass(selection.files, pass);
  for (const f of files) mocha.addFile(f);

  try {
    await mocha.loadFilesAsync();
    // The failed tests' titles and the head of their errors (an assertion's message and the start of
    // the text it was given) go into the summary too: the runner repeats them in its closing lines,
    // which are what a CI log's tail shows.
    const failed: { title: string; error: string }[] = [];
    const retried: { title: string; error: string }[] = [];
    const durations: { title: string; ms: number }[] = [];
    const errorHead = (err: unknown): string =>
      (err instanceof Error ? err.message : String(err))
        .split('\n', 8)
        .map((line) => line.slice(0, 300))
        .join('\n');
    const summary = await new Promise<{ tests: number; passes: number; failures: number; pending: number }>((resolve) => {
      const runner = mocha.run(() => {
        const s = runner.stats ?? { tests: 0, passes: 0, failures: 0, pending: 0 };
        resolve({ tests: s.tests, passes: s.passes, failures: s.failures, pending: s.pending });
      });
      runner.on('fail', (test: Mocha.Runnable, err: unknown) => failed.push({ title: test.fullTitle(), error: errorHead(err) }));
      runner.on('test end', (test: Mocha.Test) => {
        if (!test.isPending()) durations.push({ title: test.fullTitle(), ms: test.duration ?? 0 });
      });
      runner.on('retry', (test: Mocha.Runnable, err: unknown) => {
        retried.push({ title: test.fullTitle(), error: errorHead(err) });
        write(`\n  retrying once: ${test.fullTitle()}\n    first try: ${errorHead(err).replace(/\n/g, '\n    ')}\n`);
      });
    });
    if (reportFile) {
      fs.writeFileSync(
        reportFile + '.json',
        JSON.stringify({ ...summary, failed, flaky: retried.filter((test) => !failed.some((failure) => failure.title === test.title)), durations, startedAt, files: files.length, leftOut, vscodeVersion: vscode.version, appName: vscode.env.appName, pass, isTrusted: vscode.workspace.isTrusted }, null, 2),
      );
    }
    if (summary.failures > 0) throw new Error(`${summary.failures} of ${summary.tests} integration tests failed`);
    if (summary.tests === 0) {
      const notHere = leftOut.length > 0 ? `; left out in this version: ${leftOut.join(', ')} (run-integration --full-floor runs them)` : '';
      throw new Error(`no integration tests ran (${files.length} test files found under ${dir}${notHere})`);
    }
  } catch (err) {
    write(`\nIntegration run failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    throw err;
  } finally {
    Base.consoleLog = originalConsoleLog;
  }
}
