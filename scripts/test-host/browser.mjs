// @ts-check
// The headless Chromium that drives the workbench: one per run, a fresh context per pass.
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Chromium's own sandbox stays on, as for every user, except as root, where Chromium refuses to
 * start with it (CI drops root before the tests: .ci/run).
 * @returns {string[]}
 */
export function chromiumSandboxArgs() {
  return process.getuid?.() === 0 ? ['--no-sandbox'] : [];
}

/**
 * Launches Chromium. Its close and the removal of its throwaway home are registered as cleanups;
 * `closeBrowser` is the registered close, to run with cleanups.runNow at the normal end.
 * @param {import('playwright-core').BrowserType} chromium
 * @param {string} chromiumPath
 * @param {import('./cleanup.mjs').CleanupRegistry} cleanups
 */
export async function launchBrowser(chromium, chromiumPath, cleanups) {
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
      ...chromiumSandboxArgs(),
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
  return { browser, closeBrowser };
}
