// @ts-check
// What must exist before a test host starts, each phrased with the command that makes it exist.
// run-integration.mjs checks all of them; start.mjs only the extension's entry file.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The extension's entry file (package.json "main") when it has not been built yet, else undefined.
 * Throws when package.json cannot be read.
 * @param {string} extensionDir
 * @returns {string | undefined}
 */
export function missingExtensionEntry(extensionDir) {
  /** @type {string | undefined} */
  const main = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8')).main;
  if (!main) return undefined;
  const mainFile = path.resolve(extensionDir, main);
  const candidates = [mainFile, `${mainFile}.js`];
  return candidates.some((candidate) => fs.existsSync(candidate)) ? undefined : mainFile;
}

/**
 * The first precondition of an integration run that is not met, or undefined when all are.
 * @param {Pick<import('./cli.mjs').RunOptions, 'extensionDir' | 'testsPath' | 'fixtureDir' | 'chromiumPath' | 'vsix'>} options
 * @returns {string | undefined}
 */
export function unmetPrecondition({ extensionDir, testsPath, fixtureDir, chromiumPath, vsix }) {
  let missingEntry;
  try {
    missingEntry = missingExtensionEntry(extensionDir);
  } catch (error) {
    return `cannot read ${extensionDir}/package.json: ${error instanceof Error ? error.message : error}`;
  }
  if (missingEntry) return `extension entry ${missingEntry} is missing; build it first (node esbuild.mjs)`;
  if (!fs.existsSync(testsPath)) return `tests module ${testsPath} is missing; compile first (npx tsc -p .)`;
  if (!fs.existsSync(fixtureDir)) return `fixture workspace ${fixtureDir} is missing`;
  if (vsix && !fs.existsSync(vsix)) return `package ${vsix} is missing; build it first (npm run package)`;
  if (!fs.existsSync(chromiumPath)) return `no browser at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`;
  return undefined;
}
