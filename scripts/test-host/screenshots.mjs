// @ts-check
// Suites ask for screenshots of the real UI by writing `<name>.request` into their version's
// screenshot folder (WAT_SCREENSHOT_DIR); the runner answers with `<name>.png` taken by Chromium
// (test/integration/support/tools.ts: screenshot()).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_DIR } from './code-server.mjs';

export const SCREENSHOT_DIR = path.join(REPO_DIR, 'test-output', 'screenshots');

/**
 * Where the screenshots taken in one VS Code version go: test-output/screenshots/vscode-<version>,
 * made if missing.
 * @param {import('./code-server.mjs').HostVersion} host
 */
export function screenshotDir(host) {
  const dir = path.join(SCREENSHOT_DIR, `vscode-${host.vscode}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Takes the screenshots requested in `dir` since the last call.
 * @param {import('playwright-core').Page} page
 * @param {string} dir
 * @param {string} label who asked, for the log
 */
export async function answerScreenshotRequests(page, dir, label) {
  for (const name of fs.readdirSync(dir).filter((file) => file.endsWith('.request'))) {
    const request = path.join(dir, name);
    const png = path.join(dir, `${name.slice(0, -'.request'.length)}.png`);
    try {
      fs.rmSync(request);
      await page.screenshot({ path: png });
      console.log(`[${label}] screenshot ${path.relative(REPO_DIR, png)}`);
    } catch (error) {
      console.log(`[${label}] screenshot ${name} failed: ${error instanceof Error ? error.message : error}`);
    }
  }
}
