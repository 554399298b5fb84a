// @ts-check
// Runs the same integration suites in desktop VS Code through @vscode/test-electron (downloads
// VS Code into .vscode-test/, so it needs internet; on Linux without a display run it under
// xvfb-run). Selected by VSCODE_TEST_HOST=electron in run-integration.mjs, or run directly:
//
//   node scripts/test-host/run-electron.mjs [--pass trusted|untrusted] [--grep <text>]
//
// Environment: VSCODE_TEST_VERSION (default 1.100.3, the floor the code-server host runs; an exact
// version is passed on as WAT_TEST_VSCODE, which host.test.ts checks), WAT_EXTENSION_DIR,
// WAT_TESTS_PATH, WAT_FIXTURE_DIR, WAT_KEEP_TMP=1.
// The in-host runner gets the same WAT_TEST_* variables as with code-server; without
// WAT_TEST_REPORT it prints the spec report to the extension host's stdout, which test-electron
// forwards to this terminal.

import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PASSES = ['trusted', 'untrusted'];

/** Returns the process exit code (0 when every pass succeeded). */
export async function runElectron({ grep = process.env.WAT_TEST_GREP ?? '', passes = PASSES } = {}) {
  const { runTests } = await import('@vscode/test-electron');
  const version = process.env.VSCODE_TEST_VERSION ?? '1.100.3';
  const extensionDevelopmentPath = path.resolve(process.env.WAT_EXTENSION_DIR ?? REPO_DIR);
  const extensionTestsPath = path.resolve(process.env.WAT_TESTS_PATH ?? path.join(REPO_DIR, 'out', 'test', 'integration', 'index.js'));
  const fixtureDir = path.resolve(process.env.WAT_FIXTURE_DIR ?? path.join(REPO_DIR, 'test', 'fixtures', 'workspace'));
  if (!fs.existsSync(extensionTestsPath)) {
    console.error(`run-electron: ${extensionTestsPath} is missing; compile first (npx tsc -p .)`);
    return 2;
  }
  const results = [];
  for (const pass of passes) {
    console.log(`\n=== Integration tests (VS Code ${version}, Electron via @vscode/test-electron), pass: ${pass} ===`);
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), `wat-it-electron-${pass}-`));
    const ws = path.join(tmp, 'ws');
    await fsp.cp(fixtureDir, ws, { recursive: true });
    const userDataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wat-vscode-user-'));
    const launchArgs = [
      ws,
      '--disable-extensions', // other installed extensions stay out; the development extension still loads
      '--skip-welcome',
      '--skip-release-notes',
      '--disable-telemetry',
      '--disable-updates',
      `--user-data-dir=${userDataDir}`,
    ];
    if (pass === 'trusted') launchArgs.push('--disable-workspace-trust');
    if (process.getuid?.() === 0) launchArgs.push('--no-sandbox'); // Electron refuses to run as root otherwise
    const t0 = Date.now();
    let code;
    try {
      code = await runTests({
        version,
        extensionDevelopmentPath,
        extensionTestsPath,
        launchArgs,
        extensionTestsEnv: {
          WAT_TEST_PASS: pass,
          ...(/^\d+\.\d+\.\d+$/.test(version) ? { WAT_TEST_VSCODE: version } : {}),
          WAT_TEST_WORKSPACE: ws,
          WAT_TEST_GREP: grep,
          WAT_TEST_COLOR: process.stdout.isTTY ? '1' : '0',
        },
      });
    } catch (e) {
      // runTests rejects when the host exits non-zero ("Test run failed with code 1").
      console.error(`run-electron: ${e instanceof Error ? e.message : e}`);
      code = 1;
    }
    results.push({ pass, ok: code === 0, seconds: (Date.now() - t0) / 1000 });
    if (process.env.WAT_KEEP_TMP !== '1') {
      await fsp.rm(tmp, { recursive: true, force: true }).catch(() => {});
      await fsp.rm(userDataDir, { recursive: true, force: true }).catch(() => {});
    }
  }
  console.log('\n=== Integration summary (electron) ===');
  for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.pass.padEnd(9)} VS Code ${version} (${r.seconds.toFixed(1)} s)`);
  return results.every((r) => r.ok) && results.length === passes.length ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { pass: { type: 'string', multiple: true }, grep: { type: 'string' } } });
  const passes = (values.pass ?? PASSES).flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
  for (const p of passes) {
    if (!PASSES.includes(p)) {
      console.error(`run-electron: unknown pass "${p}"`);
      process.exit(2);
    }
  }
  process.exit(await runElectron({ grep: values.grep, passes }));
}
