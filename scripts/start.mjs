// @ts-check
// `npm start`: opens a copy of demo/ in code-server (VS Code in the browser) with this extension
// installed. Builds nothing: run `npm run compile` first.
// Stays in the foreground until Ctrl+C; the copy and code-server's data are then deleted.
//
// The extension folder is linked into code-server's fresh extensions folder, so every URL of the
// server loads it (the plain one included); a window reload picks up a new `npm run compile`.
//
// Environment: PORT (default 8080, or a free port if 8080 is taken), WAT_VSCODE (floor, the
// default, or newest), WAT_EXTENSION_DIR (default this repo), WAT_DEMO_DIR (default demo/),
// WAT_VERBOSE=1 (show code-server's output).
// code-server binds to 127.0.0.1 only; from another machine use an SSH tunnel.

import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_DIR, ensureCodeServer, hostLabel, preferredPortOrFree, selectHosts, startCodeServer } from './test-host/code-server.mjs';
import { missingExtensionEntry } from './test-host/preconditions.mjs';

const DEFAULT_PORT = 8080;
const extensionDir = path.resolve(process.env.WAT_EXTENSION_DIR ?? REPO_DIR);
const demoDir = path.resolve(process.env.WAT_DEMO_DIR ?? path.join(REPO_DIR, 'demo'));

const missingEntry = missingExtensionEntry(extensionDir);
if (missingEntry) {
  console.error(`start: ${missingEntry} is missing; run \`npm run compile\` first`);
  process.exit(2);
}

const hosts = selectHosts(process.env.WAT_VSCODE || 'floor');
if (hosts.length !== 1) {
  console.error('start: WAT_VSCODE must name one version (floor, newest or a version number)');
  process.exit(2);
}
const [host] = hosts;
await ensureCodeServer(host);

/** $PORT, else 8080 when it is free, else any free port. */
async function pickPort() {
  if (process.env.PORT) return Number(process.env.PORT);
  const port = await preferredPortOrFree(DEFAULT_PORT);
  if (port !== DEFAULT_PORT) console.log(`port ${DEFAULT_PORT} is taken, using ${port}`);
  return port;
}

const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'wat-demo-'));
const workspace = path.join(tmp, 'demo');
await fsp.cp(demoDir, workspace, { recursive: true });

const codeServer = await startCodeServer({
  host,
  port: await pickPort(),
  installExtensions: [extensionDir],
  trustDisabled: true,
  folder: workspace,
  verbose: process.env.WAT_VERBOSE === '1',
});

let stopping = false;
/** @param {number} exitCode */
async function shutdown(exitCode) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping code-server ...');
  await codeServer.stop();
  await fsp.rm(tmp, { recursive: true, force: true }).catch(() => {});
  process.exit(exitCode);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(0));
codeServer.process.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`code-server exited (${signal ?? code}):\n${codeServer.output().slice(-4000)}`);
  void shutdown(1);
});

const url = `${codeServer.url}/?folder=${encodeURIComponent(workspace)}`;
console.log(`
Workspace Agent Tools demo (${hostLabel(host)})
  extension : ${extensionDir} (installed as a link: reload the window after npm run compile)
  workspace : ${workspace}  (a throwaway copy of ${path.relative(REPO_DIR, demoDir) || demoDir})
  logs      : ${path.join(codeServer.userDataDir, 'logs')}

Open ${codeServer.url}/ (it opens the demo workspace) or:

  ${url}

Press Ctrl+C to stop.`);
