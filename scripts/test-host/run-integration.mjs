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

import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_DIR, ensureCodeServer, startCodeServer, workbenchUrl, CODE_SERVER_VERSION } from './code-server.mjs';

const PASSES = ['trusted', 'untrusted'];

function fail(msg) {
  console.error(`run-integration: ${msg}`);
  process.exit(2);
}

const { values: opts } = parseArgs({
  options: {
    pass: { type: 'string', multiple: true },
    grep: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  allowPositionals: false,
});
if (opts.help) {
  console.log('usage: run-integration.mjs [--pass trusted|untrusted]... [--grep <text>] [--verbose]');
  process.exit(0);
}
const passes = (opts.pass ?? PASSES).flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
for (const p of passes) if (!PASSES.includes(p)) fail(`unknown pass "${p}" (expected ${PASSES.join(' or ')})`);
const grep = opts.grep ?? process.env.WAT_TEST_GREP ?? '';
const verbose = opts.verbose || process.env.WAT_VERBOSE === '1';

if ((process.env.VSCODE_TEST_HOST ?? '').toLowerCase() === 'electron') {
  const { runElectron } = await import('./run-electron.mjs');
  process.exit(await runElectron({ grep, passes }));
}

const extensionDir = path.resolve(process.env.WAT_EXTENSION_DIR ?? REPO_DIR);
const testsPath = path.resolve(process.env.WAT_TESTS_PATH ?? path.join(REPO_DIR, 'out', 'test', 'integration', 'index.js'));
const fixtureDir = path.resolve(process.env.WAT_FIXTURE_DIR ?? path.join(REPO_DIR, 'test', 'fixtures', 'workspace'));
// Suites ask for screenshots of the real UI by writing `<name>.request` here; the runner answers
// with `<name>.png` taken by Chromium (test/integration/support/tools.ts: screenshot()).
const screenshotDir = path.join(REPO_DIR, 'test-output', 'screenshots');
fs.mkdirSync(screenshotDir, { recursive: true });
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const passTimeoutMs = Number(process.env.WAT_PASS_TIMEOUT_MS ?? 10 * 60_000);
const keepTmp = process.env.WAT_KEEP_TMP === '1';

// Preconditions, with the command that fixes them.
{
  let main;
  try {
    main = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8')).main;
  } catch (e) {
    fail(`cannot read ${extensionDir}/package.json: ${e.message}`);
  }
  if (main) {
    const mainFile = path.resolve(extensionDir, main);
    const candidates = [mainFile, `${mainFile}.js`];
    if (!candidates.some((c) => fs.existsSync(c))) fail(`extension entry ${mainFile} is missing; build it first (node esbuild.mjs)`);
  }
  if (!fs.existsSync(testsPath)) fail(`tests module ${testsPath} is missing; compile first (npx tsc -p .)`);
  if (!fs.existsSync(fixtureDir)) fail(`fixture workspace ${fixtureDir} is missing`);
  if (!fs.existsSync(chromiumPath)) fail(`no browser at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

const { chromium } = await import('playwright-core');

// ---- cleanup on every exit route ----------------------------------------------------------------
const cleanups = new Set();
let interrupted = false;
let interruptDone = null; // the signal handler's cleanup; main waits for it instead of exiting early
async function cleanupAll() {
  const list = [...cleanups].reverse();
  cleanups.clear();
  for (const c of list) {
    const t = Date.now();
    await c().catch(() => {});
    if (process.env.WAT_DEBUG_CLEANUP) console.error(`cleanup ${c.name || '?'} ${Date.now() - t} ms`);
  }
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (interrupted) process.exit(130); // second Ctrl+C: the 'exit' hooks kill what is left
    interrupted = true;
    console.error(`\nrun-integration: ${sig}, stopping code-server and chromium ...`);
    const t = setTimeout(() => process.exit(130), 8000);
    interruptDone = cleanupAll().finally(() => {
      clearTimeout(t);
      process.exit(130);
    });
  });
}

// ---- helpers ------------------------------------------------------------------------------------
function banner(text) {
  const line = '='.repeat(Math.max(20, Math.min(100, text.length + 4)));
  console.log(`\n${line}\n  ${text}\n${line}`);
}

/** Streams new bytes of `file` to stdout until stopped. */
function tailFile(file) {
  let pos = 0;
  let partial = '';
  const pump = () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= pos) return;
      const buf = Buffer.alloc(size - pos);
      fs.readSync(fd, buf, 0, buf.length, pos);
      pos = size;
      const text = partial + buf.toString('utf8');
      const cut = text.lastIndexOf('\n') + 1;
      process.stdout.write(text.slice(0, cut));
      partial = text.slice(cut);
    } finally {
      fs.closeSync(fd);
    }
  };
  const timer = setInterval(pump, 200);
  return {
    stop() {
      clearInterval(timer);
      pump();
      if (partial) process.stdout.write(partial + '\n');
      partial = '';
    },
  };
}

async function listFiles(dir) {
  const out = [];
  async function walk(d) {
    let entries;
    try {
      entries = await fsp.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) out.push(full);
    }
  }
  await walk(dir);
  return out.sort();
}

function clip(text, max = 20_000) {
  return text.length > max ? `... (${text.length - max} earlier characters cut)\n${text.slice(-max)}` : text;
}

/** Prints the extension host's logs (and other server logs) of a failed pass. */
async function printLogs(cs, browserLogs, consoleLines) {
  const logsDir = path.join(cs.userDataDir, 'logs');
  const files = await listFiles(logsDir);
  const interesting = files.filter((f) => /exthost|remoteagent|extension|output_/i.test(path.relative(logsDir, f)));
  banner(`extension host logs (${logsDir})`);
  if (interesting.length === 0) console.log(`(no log files; all files: ${files.map((f) => path.relative(logsDir, f)).join(', ') || 'none'})`);
  for (const f of interesting) {
    const text = await fsp.readFile(f, 'utf8').catch((e) => `<${e.message}>`);
    if (!text.trim()) continue;
    console.log(`\n--- ${path.relative(logsDir, f)} ---\n${clip(text)}`);
  }
  for (const l of browserLogs ?? []) {
    if (!/exthost|extension|window|renderer/i.test(l.relativePath ?? '') || !l.contents?.trim()) continue;
    console.log(`\n--- browser: ${l.relativePath} ---\n${clip(l.contents)}`);
  }
  banner('code-server output (tail)');
  console.log(clip(cs.output(), 8000) || '(empty)');
  if (consoleLines.length) {
    banner('browser console (tail)');
    console.log(clip(consoleLines.join('\n'), 8000));
  }
}

// ---- one pass -----------------------------------------------------------------------------------
async function runPass(browser, pass) {
  const t0 = Date.now();
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), `wat-it-${pass}-`));
  const ws = path.join(tmp, 'ws');
  await fsp.cp(fixtureDir, ws, { recursive: true });
  const reportDir = await fsp.mkdtemp(path.join(os.tmpdir(), `wat-report-${pass}-`));
  const reportFile = path.join(reportDir, 'report.txt');
  await fsp.writeFile(reportFile, '');
  const result = { pass, ok: false, tests: 0, failures: 0, passes: 0, pending: 0, seconds: 0, reason: '' };

  const cs = await startCodeServer({
    trustDisabled: pass === 'trusted',
    verbose,
    keepDirs: true, // removed below, after the logs had a chance to be printed
    env: {
      WAT_TEST_PASS: pass,
      WAT_TEST_WORKSPACE: ws,
      WAT_TEST_REPORT: reportFile,
      WAT_SCREENSHOT_DIR: screenshotDir,
      WAT_TEST_GREP: grep,
      WAT_TEST_COLOR: process.stdout.isTTY ? '1' : '0',
    },
  });
  const removeTmp = async () => {
    if (keepTmp) return;
    for (const d of [tmp, reportDir, cs.root]) await fsp.rm(d, { recursive: true, force: true }).catch(() => {});
  };
  cleanups.add(removeTmp); // runs after stopCs (cleanups run in reverse order)
  const stopCs = () => cs.stop();
  cleanups.add(stopCs);
  const tStarted = Date.now();
  console.log(`[${pass}] code-server up at ${cs.url} in ${((tStarted - t0) / 1000).toFixed(1)} s; workspace ${ws}`);

  const context = await browser.newContext();
  const closeContext = () => context.close();
  cleanups.add(closeContext);
  const consoleLines = [];
  let settle;
  const outcome = new Promise((resolve) => (settle = resolve));
  await context.exposeFunction('codeAutomationExit', (code, logs) => {
    settle({ kind: 'exit', code, logs });
  });
  await context.exposeFunction('codeAutomationLog', (level, args) => {
    const line = `[workbench ${level}] ${Array.isArray(args) ? args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') : String(args)}`;
    consoleLines.push(line);
    if (consoleLines.length > 2000) consoleLines.splice(0, 1000);
    if (verbose) console.log(line);
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    // '%c'-styled messages are the workbench logger, already received through codeAutomationLog.
    if (msg.text().startsWith('%c')) return;
    const line = `[browser ${msg.type()}] ${msg.text()}`;
    consoleLines.push(line);
    if (consoleLines.length > 2000) consoleLines.splice(0, 1000);
    if (verbose) console.log(line);
  });
  page.on('pageerror', (err) => consoleLines.push(`[pageerror] ${err.stack ?? err.message}`));
  page.on('crash', () => settle({ kind: 'crash' }));
  cs.process.once('exit', (code, signal) => settle({ kind: 'server-exit', code, signal }));
  const timer = setTimeout(() => settle({ kind: 'timeout' }), passTimeoutMs);
  const screenshots = setInterval(() => void answerScreenshotRequests(page, pass), 200);
  cleanups.add(async () => clearInterval(screenshots));

  const tail = tailFile(reportFile);
  let res;
  try {
    const url = workbenchUrl({ port: cs.port, folder: ws, extensionDir, testsPath });
    if (verbose) console.log(`[${pass}] opening ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    res = await outcome;
  } catch (e) {
    res = { kind: 'error', error: e };
  } finally {
    clearTimeout(timer);
    tail.stop();
  }

  let summary;
  try {
    summary = JSON.parse(await fsp.readFile(reportFile + '.json', 'utf8'));
  } catch {
    /* the runner never finished */
  }
  if (summary) Object.assign(result, { tests: summary.tests, failures: summary.failures, passes: summary.passes, pending: summary.pending });
  if (res.kind === 'exit' && res.code === 0 && summary && summary.tests > 0 && summary.failures === 0) {
    result.ok = true;
  } else if (res.kind === 'exit') {
    result.reason = !summary
      ? `extension host exited with code ${res.code} before the test runner wrote its summary`
      : summary.tests === 0
        ? 'zero tests ran'
        : `exit code ${res.code}, ${summary.failures} failing`;
  } else if (res.kind === 'timeout') {
    result.reason = `timed out after ${passTimeoutMs / 1000} s`;
  } else if (res.kind === 'crash') {
    result.reason = 'the browser page crashed';
  } else if (res.kind === 'server-exit') {
    result.reason = `code-server exited (${res.signal ?? res.code})`;
  } else {
    result.reason = `error: ${res.error?.stack ?? res.error}`;
  }
  result.seconds = (Date.now() - t0) / 1000;
  result.testSeconds = (Date.now() - tStarted) / 1000;
  if (summary) result.host = `VS Code ${summary.vscodeVersion} (${summary.appName})`;

  if (!result.ok && !interrupted) await printLogs(cs, res.logs, consoleLines);
  cleanups.delete(closeContext);
  await context.close().catch(() => {});
  cleanups.delete(stopCs);
  await cs.stop();
  if (!result.ok && keepTmp) console.log(`[${pass}] kept: workspace ${tmp}, report ${reportDir}, code-server data ${cs.root}`);
  cleanups.delete(removeTmp);
  await removeTmp();
  return result;
}

// ---- main ---------------------------------------------------------------------------------------
const tAll = Date.now();
let exitCode = 0;
const results = [];
try {
  await ensureCodeServer();
  // Chromium writes crash-report settings and dconf/nss files into $HOME/.config and .cache even
  // with its own profile dir; give it a throwaway home.
  const browserHome = await fsp.mkdtemp(path.join(os.tmpdir(), 'wat-chromium-home-'));
  cleanups.add(() => fsp.rm(browserHome, { recursive: true, force: true }));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    env: { ...process.env, HOME: browserHome, XDG_CONFIG_HOME: path.join(browserHome, '.config'), XDG_CACHE_HOME: path.join(browserHome, '.cache') },
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const closeBrowser = () => browser.close();
  cleanups.add(closeBrowser);
  console.log(`Host: code-server ${CODE_SERVER_VERSION} + Chromium ${browser.version()} (headless); extension ${extensionDir}${grep ? `; grep "${grep}"` : ''}`);
  for (const pass of passes) {
    banner(`Integration tests, pass: ${pass}`);
    const r = await runPass(browser, pass);
    results.push(r);
    if (interrupted) break;
    console.log(
      `\n[${pass}] ${r.ok ? 'PASSED' : 'FAILED'}${r.host ? ` — Extension host: ${r.host}, pass: ${pass}` : ''}; ` +
        `${r.passes} passing, ${r.failures} failing, ${r.pending} pending; ${r.seconds.toFixed(1)} s` +
        `${r.ok ? '' : ` — ${r.reason}`}`,
    );
  }
  cleanups.delete(closeBrowser);
  await browser.close();
} catch (e) {
  console.error(`run-integration: ${e?.stack ?? e}`);
  exitCode = 1;
} finally {
  if (interrupted) await interruptDone; // exits the process when done
  await cleanupAll();
}

if (!interrupted) {
  banner('Integration summary');
  for (const r of results) {
    console.log(
      `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.pass.padEnd(9)} ${r.host ?? 'host unknown'}: ${r.passes} passing, ${r.failures} failing, ${r.pending} pending (${r.seconds.toFixed(1)} s)${r.ok ? '' : ` — ${r.reason}`}`,
    );
  }
  console.log(`  total ${((Date.now() - tAll) / 1000).toFixed(1)} s`);
  // The plain closing line CI reads: counts over every pass.
  const sum = (key) => results.reduce((total, r) => total + (r[key] ?? 0), 0);
  console.log(`integration: ${sum('passes')} passed, ${sum('failures')} failed, ${sum('pending')} skipped`);
}
async function answerScreenshotRequests(page, pass) {
  for (const name of fs.readdirSync(screenshotDir).filter((file) => file.endsWith('.request'))) {
    const request = path.join(screenshotDir, name);
    const png = path.join(screenshotDir, `${name.slice(0, -'.request'.length)}.png`);
    try {
      fs.rmSync(request);
      await page.screenshot({ path: png });
      console.log(`[${pass}] screenshot ${path.relative(REPO_DIR, png)}`);
    } catch (error) {
      console.log(`[${pass}] screenshot ${name} failed: ${error.message}`);
    }
  }
}

if (results.length < passes.length || results.some((r) => !r.ok)) exitCode = 1;
process.exit(interrupted ? 130 : exitCode);
