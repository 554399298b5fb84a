// @ts-check
// Installs (once, into the git-ignored cache) and starts code-server 4.100.3 = VS Code 1.100.3 on
// Node 20, the offline extension-test host described in DESIGN.md section 5.
//
// The npm package's postinstall refuses to run as root and downloads ripgrep, so its steps are
// done here by hand. Everything happens in a staging folder that is renamed into place only after
// every step succeeded (with a marker file), so an interrupted or concurrent install never leaves
// a half-built cache behind.
//
// Usage:
//   import { ensureCodeServer, startCodeServer } from './code-server.mjs';
//   const cs = await startCodeServer({ trustDisabled: true, env: { FOO: '1' } });
//   ... cs.url, cs.port, cs.userDataDir ... ; await cs.stop();
//   node scripts/test-host/code-server.mjs            # just install (prints the folder)

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as net from 'node:net';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
export const VSCODE_VERSION = '1.100.3';
export const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = process.env.WAT_CODE_SERVER_CACHE
  ? path.resolve(process.env.WAT_CODE_SERVER_CACHE)
  : path.join(REPO_DIR, '.cache', `code-server-${CODE_SERVER_VERSION}`);
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
function run(cmd, args, { cwd, env } = {}) {
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

/** Finds an rg binary to give VS Code (search in the workbench needs it). */
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

export function codeServerEntry(dir = CACHE_DIR) {
  return path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** True when `dir` holds a complete install built for this Node's native-module ABI. */
export function isInstalled(dir = CACHE_DIR) {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
    return marker.version === CODE_SERVER_VERSION && marker.abi === process.versions.modules && fs.existsSync(codeServerEntry(dir));
  } catch {
    return false;
  }
}

/** Installs code-server into CACHE_DIR if it is not there yet. Returns the cache folder. */
export async function ensureCodeServer() {
  if (isInstalled()) return CACHE_DIR;
  const started = Date.now();
  const parent = path.dirname(CACHE_DIR);
  await fsp.mkdir(parent, { recursive: true });
  const staging = `${CACHE_DIR}.staging-${process.pid}-${Date.now()}`;
  log(`installing code-server ${CODE_SERVER_VERSION} into ${CACHE_DIR} (one time, about a minute)`);
  /** @type {Record<string, string>} */
  const npmEnv = { npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
  // node-gyp needs Node's headers; use the local ones when present (no download offline).
  const nodePrefix = path.dirname(path.dirname(process.execPath));
  if (!process.env.npm_config_nodedir && fs.existsSync(path.join(nodePrefix, 'include', 'node', 'node.h'))) {
    npmEnv.npm_config_nodedir = nodePrefix;
  }
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
  try {
    await fsp.mkdir(staging, { recursive: true });
    // Own package.json so npm does not walk up and treat the repo as the project.
    await fsp.writeFile(
      path.join(staging, 'package.json'),
      JSON.stringify({ name: 'wat-code-server-cache', private: true, version: '0.0.0' }, null, 2) + '\n',
    );
    await step(`npm install code-server@${CODE_SERVER_VERSION}`, 'npm', ['install', '--ignore-scripts', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], staging);
    const cs = path.join(staging, 'node_modules', 'code-server');
    const vsc = path.join(cs, 'lib', 'vscode');
    // argon2 is hoisted next to code-server; rebuild from the staging root so npm finds it.
    await step('rebuild argon2', 'npm', ['rebuild', 'argon2'], staging);
    await step('lib/vscode dependencies', 'npm', ['install', '--ignore-scripts', '--omit=dev', '--no-package-lock'], vsc);
    const rgDir = path.join(vsc, 'node_modules', '@vscode', 'ripgrep', 'bin');
    await fsp.mkdir(rgDir, { recursive: true });
    await fsp.copyFile(findRipgrep(), path.join(rgDir, 'rg'));
    await fsp.chmod(path.join(rgDir, 'rg'), 0o755);
    await fsp.rm(path.join(vsc, 'node_modules.asar'), { force: true, recursive: true });
    await fsp.symlink('node_modules', path.join(vsc, 'node_modules.asar'));
    await step('rebuild native modules (spdlog, native-watchdog, node-pty)', 'npm', ['rebuild', '@vscode/spdlog', 'native-watchdog', 'node-pty'], vsc);
    await step('built-in extensions dependencies', 'npm', ['install', '--ignore-scripts', '--omit=dev', '--no-package-lock'], path.join(vsc, 'extensions'));
    // Sanity checks: the native modules really exist.
    for (const f of [
      'node_modules/@vscode/spdlog/build/Release/spdlog.node',
      'node_modules/node-pty/build/Release/pty.node',
      'node_modules/native-watchdog/build/Release/watchdog.node',
    ]) {
      if (!fs.existsSync(path.join(vsc, f))) throw new Error(`missing after rebuild: lib/vscode/${f}`);
    }
    const argonDir = path.join(staging, 'node_modules', 'argon2', 'lib', 'binding');
    if (!fs.existsSync(argonDir)) throw new Error('argon2 native binding missing after rebuild');
    await run(process.execPath, [codeServerEntry(staging), '--version'], {
      env: { XDG_CONFIG_HOME: path.join(staging, '.xdg-config'), XDG_DATA_HOME: path.join(staging, '.xdg-data') },
    });
    await fsp.writeFile(path.join(staging, MARKER), JSON.stringify({ version: CODE_SERVER_VERSION, node: process.version, abi: process.versions.modules, at: new Date().toISOString() }) + '\n');
    // Publish atomically. If another process won the race, keep theirs.
    if (isInstalled()) {
      log('another process finished the install first; using it');
    } else {
      if (fs.existsSync(CACHE_DIR)) await fsp.rm(CACHE_DIR, { recursive: true, force: true }); // incomplete leftover
      try {
        await fsp.rename(staging, CACHE_DIR);
      } catch (e) {
        if (!isInstalled()) throw e;
      }
    }
    log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return CACHE_DIR;
  } finally {
    await fsp.rm(staging, { recursive: true, force: true }).catch(() => {});
  }
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
 * @property {number} [port] default: a free one
 * @property {boolean} [trustDisabled] adds --disable-workspace-trust
 * @property {string} [folder] opened when the URL has no ?folder=
 * @property {Record<string, string>} [env] extra environment; the remote extension host inherits it
 * @property {string[]} [extraArgs]
 * @property {number} [startTimeoutMs]
 * @property {boolean} [verbose] stream code-server's output
 * @property {boolean} [keepDirs] leave the temp folder (root) in place after stop()
 * @property {boolean} [gallery] true: keep code-server's open-vsx.org extension gallery; default off, no network
 */

/**
 * A running code-server.
 * @typedef {object} CodeServer
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
  const dir = await ensureCodeServer();
  const port = options.port ?? (await freePort());
  if (options.port && !(await portIsFree(options.port))) throw new Error(`port ${LOOPBACK}:${options.port} is in use`);
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'wat-code-server-'));
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  const xdgConfig = path.join(root, 'xdg-config');
  const xdgData = path.join(root, 'xdg-data');
  const xdgCache = path.join(root, 'xdg-cache');
  for (const d of [userDataDir, extensionsDir, xdgConfig, xdgData, xdgCache]) await fsp.mkdir(d, { recursive: true });
  // A quiet workbench: no welcome page or tips over what the tests and screenshots look at.
  await fsp.mkdir(path.join(userDataDir, 'User'), { recursive: true });
  await fsp.writeFile(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'telemetry.telemetryLevel': 'off' }, null, 2),
  );
  // Our own config file: otherwise code-server writes ~/.config/code-server/config.yaml with a password.
  const configFile = path.join(root, 'config.yaml');
  await fsp.writeFile(configFile, `bind-addr: ${LOOPBACK}:${port}\nauth: none\ncert: false\n`);
  const args = [
    codeServerEntry(dir),
    '--config', configFile,
    '--auth', 'none',
    '--bind-addr', `${LOOPBACK}:${port}`,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  if (options.trustDisabled) args.push('--disable-workspace-trust');
  if (options.extraArgs) args.push(...options.extraArgs);
  if (options.folder) args.push(options.folder);

  // code-server writes config.yaml/coder-logs under XDG_CONFIG_HOME/XDG_DATA_HOME and VS Code a
  // device id under XDG_CACHE_HOME: keep all of it in the temp folder, not in the user's home.
  // (The extension host inherits these; HOME itself is left alone.)
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, XDG_CONFIG_HOME: xdgConfig, XDG_DATA_HOME: xdgData, XDG_CACHE_HOME: xdgCache };
  // No extension gallery (open-vsx.org) unless asked for: tests must not touch the network.
  if (options.gallery !== true) env.EXTENSIONS_GALLERY = '{}';
  Object.assign(env, options.env);
  delete env.PASSWORD; // never let an inherited password turn auth back on
  delete env.HASHED_PASSWORD;
  delete env.PORT; // code-server reads $PORT; the port is given by --bind-addr
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
      throw new Error(`code-server exited early (${JSON.stringify(exited)}):\n${output}`);
    }
    try {
      const status = await httpGet(`${url}/healthz`);
      if (status === 200) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${url} in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
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
  ensureCodeServer().then(
    (d) => log(`ready: ${d}`),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
