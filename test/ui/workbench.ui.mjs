// @ts-check
// Drives the extension's UI through the page itself, as a person would: the status bar item, the
// Activity view, and a palette command, with headless Chromium, once in each VS Code version the
// test host knows (scripts/test-host/code-server.mjs): VS Code 1.100.3 (code-server 4.100.3) and
// VS Code 1.139.1 (code-server 4.139.1). WAT_VSCODE=floor|newest|<version> runs only one.
// Screenshots land in test-output/screenshots/vscode-<version>/ui-*.png.

// The callbacks given to page.waitForFunction run in the page: the DOM's types (in scope for all
// of tsconfig.scripts.json's files, as a lib reference always is).
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumSandboxArgs } from '../../scripts/test-host/browser.mjs';
import { REPO_DIR, hostLabel, selectHosts, startCodeServer, workbenchUrl } from '../../scripts/test-host/code-server.mjs';
import { screenshotDir } from '../../scripts/test-host/screenshots.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

for (const host of selectHosts()) describeWorkbench(host);

/**
 * The suite in one VS Code version; its title names the version, so mocha's report and its failures do.
 * @param {import('../../scripts/test-host/code-server.mjs').HostVersion} host
 */
function describeWorkbench(host) {
  describe(`workbench UI in ${hostLabel(host)} + Chromium`, function () {
    this.timeout(180_000);
    /** @type {import('../../scripts/test-host/code-server.mjs').CodeServer | undefined} */
    let server;
    /** @type {import('playwright-core').Browser | undefined} */
    let browser;
    /** @type {import('playwright-core').Page} */
    let page;
    /** @type {string | undefined} */
    let tmp;

    /** @param {string} name */
    const shot = (name) => page.screenshot({ path: path.join(screenshotDir(host), `ui-${name}.png`) });
    const statusItem = () => page.locator('.statusbar-item', { hasText: 'Agent:' }).first();

    /**
     * Runs a command through the command palette by its title, as typed by a person.
     * @param {string} title
     */
    async function runFromPalette(title) {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill(`>${title}`);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
      await page.keyboard.press('Enter');
    }

    /** Opens the Activity view from the activity bar, unless it is already showing (a second click would hide it). */
    async function showActivityView() {
      const title = page.locator('.part.sidebar .title-label', { hasText: /Workspace Agent Tools/i }).first();
      if (!(await title.isVisible())) {
        await page.locator('.activitybar .action-item a[aria-label^="Workspace Agent Tools"]').first().click();
      }
      await title.waitFor({ timeout: 20_000 });
    }

    /**
     * Waits until the quick input asks for `field`: the palette titles each question with its
     * field. The previous question (or the command palette) stays on screen until the next one
     * replaces it, and what is typed before that lands in the wrong one.
     * @param {string} field
     */
    async function waitForQuestion(field) {
      await page.locator('.quick-input-widget .quick-input-title', { hasText: new RegExp(`^${field}$`) }).waitFor();
    }

    /**
     * Types the answer to the question for `field` and accepts.
     * @param {string} field
     * @param {string} text
     */
    async function answerQuickInput(field, text) {
      await waitForQuestion(field);
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill(text);
      await page.waitForTimeout(150);
      await page.keyboard.press('Enter');
    }

    /** @type {string} */
    let workspace;

    before(async () => {
      tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'wat-ui-'));
      workspace = path.join(tmp, 'ws');
      await fsp.cp(path.join(REPO_DIR, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
      server = await startCodeServer({ host, trustDisabled: true }); // installs the version first if it is not in .cache/ yet
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        env: { ...process.env, HOME: tmp },
        args: [...chromiumSandboxArgs(), '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
      await page.goto(workbenchUrl({ port: server.port, folder: workspace, extensionDir: REPO_DIR }), { waitUntil: 'domcontentloaded' });
      await statusItem().waitFor({ state: 'visible', timeout: 90_000 });
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
      if (tmp) await fsp.rm(tmp, { recursive: true, force: true });
    });

    it('shows the risk level in the status bar', async () => {
      assert.match(await statusItem().innerText(), /Agent: medium/);
      await shot('status-bar');
    });

    it('turns plan mode on from the status bar quick pick, and shows it', async () => {
      await statusItem().click();
      const option = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Turn plan mode on' });
      await option.waitFor();
      await shot('guard-menu');
      await option.click();
      await page.locator('.statusbar-item', { hasText: 'plan mode' }).first().waitFor();
      assert.match(await statusItem().innerText(), /Agent: medium.*plan mode/s);
      await shot('plan-mode-on');
      await runFromPalette('Workspace Agent Tools: Toggle Plan Mode');
      await page.waitForFunction(() => ![...document.querySelectorAll('.statusbar-item')].some((item) => item.textContent?.includes('plan mode')));
    });

    it('runs List Directory from the palette with a path picker and shows the result', async () => {
      await runFromPalette('Workspace Agent Tools: List Directory...');
      await answerQuickInput('path', 'src');
      await answerQuickInput('ignore', ''); // default
      await waitForQuestion('respect_git_ignore');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: '(default)' }).first().waitFor();
      await page.keyboard.press('Enter'); // respect_git_ignore: default
      const editor = page.locator('.editor-instance .view-lines');
      await page.locator('.tab', { hasText: 'workspace_list_directory.txt' }).waitFor();
      await editor.first().waitFor();
      const text = (await editor.first().innerText()).replace(/\u00a0/g, ' '); // Monaco renders spaces as NBSP
      assert.match(text, /src\/ \(0 directories, 1 files\)/);
      assert.match(text, /greet\.ts/);
      await shot('palette-result');
    });

    it('lists the call in the Activity view with its outcome', async () => {
      await showActivityView();
      const row = page.locator('.monaco-list-row', { hasText: 'list_directory src' }).first();
      await row.waitFor();
      assert.match(await row.innerText(), /ok/);
      await shot('activity-view');
    });

    it('shows a proposed write in the diff editor and writes it only after Accept in its title bar', async () => {
      await runFromPalette('Workspace Agent Tools: Write File...');
      await answerQuickInput('file_path', 'hello-from-ui.txt'); // typed
      await waitForQuestion('content');
      const typeOneLine = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Type one line' }).first();
      await typeOneLine.waitFor();
      await page.keyboard.press('Enter'); // content: type one line
      await typeOneLine.waitFor({ state: 'hidden' }); // the input box that follows has the same title
      await answerQuickInput('content', 'Hello from the diff review');
      const accept = page.locator('.editor-actions [aria-label*="Approve Pending Change"]').first();
      await accept.waitFor({ timeout: 30_000 });
      await page.locator('.tab', { hasText: 'hello-from-ui.txt' }).first().waitFor();
      assert.ok(!fs.existsSync(path.join(workspace, 'hello-from-ui.txt')), 'nothing may be written before Accept');
      await page.waitForTimeout(500); // let the diff render
      await shot('diff-approval');
      await accept.click();
      await page.locator('.tab', { hasText: 'workspace_write_file.txt' }).first().waitFor();
      const result = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
      assert.match(result, /^Created hello-from-ui\.txt \(1 lines?\)/);
      const written = path.join(workspace, 'hello-from-ui.txt');
      for (let i = 0; i < 50 && !fs.existsSync(written); i += 1) await page.waitForTimeout(100);
      assert.equal(fs.readFileSync(written, 'utf8'), 'Hello from the diff review');
    });

    it('reopens the diff of that write from the Activity view', async () => {
      await showActivityView();
      const row = page.locator('.monaco-list-row', { hasText: 'write_file hello-from-ui.txt' }).first();
      await row.waitFor();
      await row.click();
      await page.locator('.tab', { hasText: 'as proposed' }).first().waitFor();
      await page.waitForTimeout(500);
      await shot('activity-diff');
    });

    it('lists the files that write changed under it, with Show Changes and Restore to Before This Call', async () => {
      await showActivityView();
      const row = page.locator('.monaco-list-row', { hasText: 'write_file hello-from-ui.txt' }).first();
      await row.waitFor();
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
      const file = page.locator('.monaco-list-row', { hasText: 'created +1 -0' }).first();
      await file.waitFor();
      assert.match(await file.innerText(), /hello-from-ui\.txt/);
      await row.hover();
      await row.locator('[aria-label="Restore to Before This Call"]').waitFor();
      await row.locator('[aria-label="Show Changes"]').waitFor();
      await shot('activity-checkpoint');
    });

    it('offers every agent in Connect an Agent..., and writes the chosen config only after Accept in the diff', async () => {
      await runFromPalette('Workspace Agent Tools: Connect an Agent...');
      const rows = page.locator('.quick-input-list .monaco-list-row');
      await rows.filter({ hasText: 'This project: .mcp.json' }).first().waitFor();
      const labels = await rows.allInnerTexts();
      for (const agent of ['Claude Code', 'Codex CLI', 'Gemini CLI', 'Copilot CLI / Agent Host', 'This project: .mcp.json']) {
        assert.ok(labels.some((label) => label.includes(agent)), `${agent} in ${labels.join(' | ')}`);
      }
      await page.waitForTimeout(500); // the command palette's fade-out, which overlaps the picker
      await shot('connect-agent');
      // The project's .mcp.json: the only target inside the test's own folder (the others are in the home folder).
      await rows.filter({ hasText: 'This project: .mcp.json' }).first().click();
      const accept = page.locator('.editor-actions [aria-label*="Approve Pending Change"]').first();
      await accept.waitFor({ timeout: 30_000 });
      await page.locator('.tab', { hasText: '.mcp.json' }).first().waitFor();
      const config = path.join(workspace, '.mcp.json');
      assert.ok(!fs.existsSync(config), 'nothing may be written before Accept');
      await page.waitForTimeout(500); // let the diff render
      await shot('connect-agent-diff');
      await accept.click();
      // The file appears before its text is saved into it: wait until it holds JSON.
      const written = () => {
        try {
          return JSON.parse(fs.readFileSync(config, 'utf8'));
        } catch {
          return undefined;
        }
      };
      for (let i = 0; i < 50 && written() === undefined; i += 1) await page.waitForTimeout(100);
      const entry = written()?.mcpServers['workspace-agent-tools'];
      assert.ok(entry, `.mcp.json holds the server's entry: ${fs.existsSync(config) ? fs.readFileSync(config, 'utf8') : '(missing)'}`);
      assert.equal(entry.command, 'node');
      assert.match(entry.args[0], /dist[/\\]mcp\.js$/);
    });
  });
}
