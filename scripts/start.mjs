// `npm start`: opens a copy of demo/ in code-server (VS Code 1.100.3 in the browser) with this
// extension loaded as a development extension. Builds nothing: run `npm run compile` first.
// Stays in the foreground until Ctrl+C; the copy and code-server's data are then deleted.
//
// Environment: PORT (default 8080, or a free port if 8080 is taken), WAT_EXTENSION_DIR (default
// this repo), WAT_DEMO_DIR (default demo/), WAT_VERBOSE=1 (show code-server's output).
// code-server binds to 127.0.0.1 only; from another machine use an SSH tunnel.

import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_DIR, ensureCodeServer, freePort, startCodeServer, workbenchUrl } from './test-host/code-server.mjs';

const extensionDir = path.resolve(process.env.WAT_EXTENSION_DIR ?? REPO_DIR);
const demoDir = path.resolve(process.env.WAT_DEMO_DIR ?? path.join(REPO_DIR, 'demo'));

const main = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8')).main;
if (main && !fs.existsSync(path.resolve(extensionDir, main)) && !fs.existsSync(path.resolve(extensionDir, `${main}.js`))) {
  console.error(`start: ${path.resolve(extensionDir, main)} is missing; run \`npm run compile\` first`);
  process.exit(2);
}

await ensureCodeServer();

async function pickPort() {
  if (process.env.PORT) return Number(process.env.PORT);
  const net = await import('node:net');
  const free = await new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(8080, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
  if (free) return 8080;
  const p = await freePort();
  console.log(`port 8080 is taken, using ${p}`);
  return p;
}

const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'wat-demo-'));
const ws = path.join(tmp, 'demo');
await fsp.cp(demoDir, ws, { recursive: true });

const cs = await startCodeServer({
  port: await pickPort(),
  trustDisabled: true,
  folder: ws,
  verbose: process.env.WAT_VERBOSE === '1',
});

let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping code-server ...');
  await cs.stop();
  await fsp.rm(tmp, { recursive: true, force: true }).catch(() => {});
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => shutdown(0));
cs.process.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`code-server exited (${signal ?? code}):\n${cs.output().slice(-4000)}`);
  shutdown(1);
});

const url = workbenchUrl({ port: cs.port, folder: ws, extensionDir });
console.log(`
Workspace Agent Tools demo (code-server, VS Code 1.100.3)
  extension : ${extensionDir} (development extension)
  workspace : ${ws}  (a throwaway copy of ${path.relative(REPO_DIR, demoDir) || demoDir})
  logs      : ${path.join(cs.userDataDir, 'logs')}

Open this URL (it loads the extension; a plain ${cs.url}/ opens VS Code without it):

  ${url}

Press Ctrl+C to stop.`);
