// @ts-check
// Suites ask for screenshots of the real UI by writing `<name>.request` into SCREENSHOT_DIR; the
// runner answers with `<name>.png` taken by Chromium (test/integration/support/tools.ts: screenshot()).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_DIR } from './code-server.mjs';

export const SCREENSHOT_DIR = path.join(REPO_DIR, 'test-output', 'screenshots');

/**
 * Takes the screenshots requested since the last call.
 * @param {import('playwright-core').Page} page
 * @param {string} pass
 */
export async function answerScreenshotRequests(page, pass) {
  for (const name of fs.readdirSync(SCREENSHOT_DIR).filter((file) => file.endsWith('.request'))) {
    const request = path.join(SCREENSHOT_DIR, name);
    const png = path.join(SCREENSHOT_DIR, `${name.slice(0, -'.request'.length)}.png`);
    try {
      fs.rmSync(request);
      await page.screenshot({ path: png });
      console.log(`[${pass}] screenshot ${path.relative(REPO_DIR, png)}`);
    } catch (error) {
      console.log(`[${pass}] screenshot ${name} failed: ${error instanceof Error ? error.message : error}`);
    }
  }
}
