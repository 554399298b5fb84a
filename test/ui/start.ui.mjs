// @ts-check
// `npm start` as a newcomer uses it: scripts/start.mjs serves the demo workspace, and whichever of
// its URLs is opened (the plain one included) the window has the extension loaded. Once in each
// VS Code version the test host knows; WAT_VSCODE=floor|newest|<version> runs only one.
/// <reference lib="dom" />
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumSandboxArgs } from '../../scripts/test-host/browser.mjs';
import { REPO_DIR, freePort, hostLabel, selectHosts } from '../../scripts/test-host/code-server.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

for (const host of selectHosts()) {
  describe(`npm start in ${hostLabel(host)}`, function () {
    this.timeout(180_000);
    /** @type {import('node:child_process').ChildProcess | undefined} */
    let start;
    let output = '';
    /** @type {import('playwright-core').Browser | undefined} */
    let browser;

    /** Resolves with the first match of `pattern` in start.mjs's output. @param {RegExp} pattern */
    const printed = (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) resolve(match);
        };
        start?.stdout?.on('data', check);
        start?.once('exit', (code) => reject(new Error(`start.mjs exited (${code}) before printing ${pattern}:\n${output}`)));
        check();
      });

    before(async () => {
      const port = await freePort();
      start = spawn(process.execPath, [path.join(REPO_DIR, 'scripts', 'start.mjs')], {
        env: { ...process.env, PORT: String(port), WAT_VSCODE: host.vscode },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      start.stdout?.on('data', (chunk) => (output += chunk));
      start.stderr?.on('data', (chunk) => (output += chunk));
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...chromiumSandboxArgs(), '--disable-gpu', '--no-first-run'] });
    });

    after(async () => {
      await browser?.close();
      if (start && start.exitCode === null) start.kill('SIGKILL');
    });

    it('prints the plain URL, and that URL opens the demo workspace with the extension loaded', async () => {
      const [, url] = /** @type {RegExpExecArray} */ (await printed(/Open (http:\/\/127\.0\.0\.1:\d+)\//));
      const page = await /** @type {import('playwright-core').Browser} */ (browser).newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${url}/`, { waitUntil: 'domcontentloaded' });
      // The extension's status bar item exists only when the extension is active in this window.
      await page.locator('.statusbar-item', { hasText: 'Agent:' }).first().waitFor({ state: 'visible', timeout: 90_000 });
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).first().waitFor({ timeout: 30_000 });
      await page.close();
    });

    it('stops on Ctrl+C and deletes the demo copy', async () => {
      const [, workspace] = /** @type {RegExpExecArray} */ (await printed(/workspace : (\S+)/));
      assert.ok(fs.existsSync(workspace), workspace);
      const exited = new Promise((resolve) => start?.once('exit', resolve));
      start?.kill('SIGINT');
      assert.equal(await exited, 0);
      assert.ok(!fs.existsSync(workspace), `${workspace} is left behind`);
    });
  });
}
