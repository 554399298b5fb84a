// @ts-check
// The integration runner's command line and environment, read once into RunOptions. The flags and
// variables themselves are listed at the top of run-integration.mjs.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_DIR, selectHosts } from './code-server.mjs';

/** `case-insensitive`: trusted, with the workspace on the volume WAT_CASE_INSENSITIVE_VOLUME names; it runs the `*.volume.test.js` files only. */
export const PASSES = ['trusted', 'untrusted', 'case-insensitive'];
/** The one pass of a `--vsix` run: the package installed as users install it, in a trusted workspace. */
export const INSTALLED_PASS = 'installed';
export const USAGE =
  'usage: run-integration.mjs [--vscode floor|newest|all|<version>]... [--pass trusted|untrusted|case-insensitive]... [--grep <text>] [--full-floor] [--side-by-side] [--verbose]\n' +
  '       run-integration.mjs --vsix <file.vsix> [--vscode ...] [--verbose]';
/** The extension that carries the installed-package tests into the host (it contributes nothing). */
const INSTALLED_CARRIER_DIR = path.join(REPO_DIR, 'test', 'installed', 'carrier');

/**
 * @typedef {object} RunOptions
 * @property {import('./code-server.mjs').HostVersion[]} hosts --vscode, repeated or comma-separated, else WAT_VSCODE; default all, oldest first
 * @property {string[]} passes --pass, repeated or comma-separated; default all three, in PASSES order
 * @property {string} grep --grep, else WAT_TEST_GREP: only the tests whose title contains it
 * @property {boolean} verbose --verbose or WAT_VERBOSE=1: stream code-server output and browser console
 * @property {boolean} fullFloor --full-floor or WAT_FULL_FLOOR=1: the floor runs every test file too, those test/integration/versions.ts leaves to the newest included
 * @property {boolean} sideBySide --side-by-side or WAT_SIDE_BY_SIDE=1: the versions run at the same time, each its passes in order
 * @property {boolean} electron VSCODE_TEST_HOST=electron: run in desktop VS Code (run-electron.mjs) instead
 * @property {string} extensionDir WAT_EXTENSION_DIR: the extension to load
 * @property {string} testsPath WAT_TESTS_PATH: the tests module the extension host runs
 * @property {string} fixtureDir WAT_FIXTURE_DIR: the workspace each pass gets a copy of
 * @property {string} chromiumPath CHROMIUM_PATH
 * @property {number} passTimeoutMs WAT_PASS_TIMEOUT_MS: the limit of one pass
 * @property {boolean} keepTmp WAT_KEEP_TMP=1: keep the temp folders (workspace, report, code-server data)
 * @property {boolean} debugCleanup WAT_DEBUG_CLEANUP: print how long each cleanup step took
 * @property {string} [vsix] --vsix: install this package into code-server and run test/installed against it
 *   (extensionDir is then the carrier of those tests, testsPath out/test/installed/index.js, the one pass `installed`)
 */

/**
 * Prints what is wrong and exits with status 2.
 * @param {string} message
 * @returns {never}
 */
export function fail(message) {
  console.error(`run-integration: ${message}`);
  process.exit(2);
}

/**
 * Reads the command line and the environment. Exits after printing the usage for --help, and with
 * status 2 on an unknown pass or VS Code version; an unknown flag or an argument throws (parseArgs).
 * @returns {RunOptions}
 */
export function readOptions() {
  const { values: flags } = parseArgs({
    options: {
      vscode: { type: 'string', multiple: true },
      pass: { type: 'string', multiple: true },
      grep: { type: 'string' },
      vsix: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      'full-floor': { type: 'boolean', default: false },
      'side-by-side': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
  if (flags.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (flags.vsix && flags.pass) fail('--vsix runs its own pass (installed); leave out --pass');
  const passes = flags.vsix ? [INSTALLED_PASS] : (flags.pass ?? PASSES).flatMap((pass) => pass.split(',')).map((pass) => pass.trim()).filter(Boolean);
  for (const pass of passes) if (!PASSES.includes(pass) && !flags.vsix) fail(`unknown pass "${pass}" (expected ${PASSES.join(' or ')})`);
  const env = process.env;
  const vsix = flags.vsix ? path.resolve(flags.vsix) : undefined;
  let hosts;
  try {
    hosts = selectHosts(flags.vscode?.join(',') || env.WAT_VSCODE || 'all');
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  return {
    hosts,
    passes,
    grep: flags.grep ?? env.WAT_TEST_GREP ?? '',
    verbose: flags.verbose || env.WAT_VERBOSE === '1',
    fullFloor: flags['full-floor'] || env.WAT_FULL_FLOOR === '1',
    sideBySide: flags['side-by-side'] || env.WAT_SIDE_BY_SIDE === '1',
    electron: (env.VSCODE_TEST_HOST ?? '').toLowerCase() === 'electron',
    extensionDir: vsix ? INSTALLED_CARRIER_DIR : path.resolve(env.WAT_EXTENSION_DIR ?? REPO_DIR),
    testsPath: vsix
      ? path.join(REPO_DIR, 'out', 'test', 'installed', 'index.js')
      : path.resolve(env.WAT_TESTS_PATH ?? path.join(REPO_DIR, 'out', 'test', 'integration', 'index.js')),
    fixtureDir: path.resolve(env.WAT_FIXTURE_DIR ?? path.join(REPO_DIR, 'test', 'fixtures', 'workspace')),
    chromiumPath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    passTimeoutMs: Number(env.WAT_PASS_TIMEOUT_MS ?? 15 * 60_000),
    keepTmp: env.WAT_KEEP_TMP === '1',
    debugCleanup: Boolean(env.WAT_DEBUG_CLEANUP),
    ...(vsix ? { vsix } : {}),
  };
}
