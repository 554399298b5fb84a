// @ts-check
// Installs (once, into the git-ignored cache) the terminal agents the end-to-end tests drive, at
// pinned versions, from the npm registry only (docs/design.md section 7, issue 26 item 5):
//
//   claude  @anthropic-ai/claude-code  a wrapper whose postinstall copies the native binary of the
//                                      platform package (@anthropic-ai/claude-code-linux-x64, an
//                                      optional dependency) over bin/claude.exe
//   codex   @openai/codex              a Node launcher (bin/codex.js) and the native binary in the
//                                      optional dependency @openai/codex-linux-x64, an npm alias of
//                                      @openai/codex@<version>-linux-x64
//   gemini  @google/gemini-cli         one JavaScript bundle (bundle/gemini.js); its optional native
//                                      modules (node-pty, keytar) are not needed headless
//
// Each goes into its own folder, <cache>/agents/<name>@<version>, with `npm install --prefix`
// and --ignore-scripts (install scripts download or build things; the one step that matters,
// Claude Code's postinstall, is run by hand, it only copies a file). The folder is built in a
// staging folder and renamed into place with a marker, like code-server's (see code-server.mjs).
//
// Usage:
//   import { AGENTS, ensureAgent } from './agents.mjs';
//   const claude = await ensureAgent(AGENTS.claude);  // { agent, dir, bin, version }
//   node scripts/test-host/agents.mjs [claude|codex|gemini|all]   # install and print the versions
//
// Environment: WAT_CACHE_DIR (the cache's parent folder, default <repo>/.cache).

import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_ROOT, NPM_QUIET, installOnce, readMarker, run } from './code-server.mjs';

/**
 * One pinned agent.
 * @typedef {object} Agent
 * @property {'claude' | 'codex' | 'gemini'} id
 * @property {string} pkg the npm package
 * @property {string} version the exact version
 * @property {string} bin the executable, relative to the package's folder
 * @property {boolean} node the executable is a Node script (run with the Node running the tests)
 * @property {(pkgDir: string) => Promise<void>} [postInstall] what the skipped install scripts would have done that matters
 */

/** @type {Record<'claude' | 'codex' | 'gemini', Agent>} */
export const AGENTS = {
  // The newest release when this was pinned (2026-11-23). Its package.json asks for Node >= 22, but
  // that only concerns install.cjs (which runs fine on 20): the CLI is a native binary.
  claude: {
    id: 'claude',
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.331',
    bin: 'bin/claude.exe',
    node: false,
    postInstall: async (pkgDir) => {
      await run(process.execPath, ['install.cjs'], { cwd: pkgDir });
    },
  },
  codex: { id: 'codex', pkg: '@openai/codex', version: '0.169.0', bin: 'bin/codex.js', node: true },
  gemini: { id: 'gemini', pkg: '@google/gemini-cli', version: '0.61.0', bin: 'bundle/gemini.js', node: true },
};

/** @param {Agent} agent */
export function agentDir(agent) {
  return path.join(CACHE_ROOT, 'agents', `${agent.id}@${agent.version}`);
}

/** @param {string} dir @param {Agent} agent */
function packageDir(dir, agent) {
  return path.join(dir, 'node_modules', ...agent.pkg.split('/'));
}

/**
 * An installed agent.
 * @typedef {object} InstalledAgent
 * @property {Agent} agent
 * @property {string} dir its cache folder
 * @property {string} command what to spawn (the Node running this script for a Node CLI)
 * @property {string[]} args the arguments before the agent's own
 * @property {string} version what the agent's --version prints (first line)
 */

/**
 * @param {Agent} agent
 * @param {string} dir
 * @returns {{ command: string, args: string[] }}
 */
function launcher(agent, dir) {
  const bin = path.join(packageDir(dir, agent), agent.bin);
  return agent.node ? { command: process.execPath, args: [bin] } : { command: bin, args: [] };
}

/** @param {Agent} agent @param {string} dir */
function isComplete(agent, dir) {
  const marker = readMarker(dir);
  return marker?.version === agent.version && marker?.pkg === agent.pkg && fs.existsSync(path.join(packageDir(dir, agent), agent.bin));
}

/**
 * Installs `agent` into the cache if it is not there yet.
 * @param {Agent} agent
 * @returns {Promise<InstalledAgent>}
 */
export async function ensureAgent(agent) {
  const dir = agentDir(agent);
  if (!isComplete(agent, dir)) await installOnce(dir, `${agent.pkg}@${agent.version}`, (d) => isComplete(agent, d), async (staging) => {
    await run('npm', ['install', '--prefix', staging, '--ignore-scripts', '--no-package-lock', '--no-save', `${agent.pkg}@${agent.version}`], {
      cwd: staging,
      env: { ...NPM_QUIET, npm_config_engine_strict: 'false' },
    });
    await agent.postInstall?.(packageDir(staging, agent));
    const { command, args } = launcher(agent, staging);
    const printed = (await run(command, [...args, '--version'], { cwd: staging, env: agentQuietEnv() })).trim();
    if (!printed.includes(agent.version)) throw new Error(`${agent.pkg}@${agent.version} --version printed ${JSON.stringify(printed)}`);
    return { pkg: agent.pkg, version: agent.version, printed };
  }, (msg) => console.log(`[agents] ${msg}`));
  const { command, args } = launcher(agent, dir);
  return { agent, dir, command, args, version: String(readMarker(dir)?.printed ?? agent.version) };
}

/** Environment that keeps the agents from phoning home while they only print a version. */
export function agentQuietEnv() {
  return {
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CODEX_DISABLE_UPDATE_CHECK: '1',
    GEMINI_CLI_DISABLE_AUTO_UPDATE: 'true',
    NO_UPDATE_NOTIFIER: '1',
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const words = process.argv.slice(2);
  const wanted = words.length === 0 || words.includes('all') ? Object.values(AGENTS) : words.map((w) => {
    const agent = AGENTS[/** @type {'claude'} */ (w)];
    if (!agent) throw new Error(`unknown agent "${w}" (expected all, ${Object.keys(AGENTS).join(', ')})`);
    return agent;
  });
  for (const agent of wanted) {
    const installed = await ensureAgent(agent);
    console.log(`${agent.pkg}@${agent.version}: ${installed.version} (${installed.dir})`);
  }
  await fsp.access(CACHE_ROOT);
}
