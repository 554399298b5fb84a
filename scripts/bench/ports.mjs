// @ts-check
// Ports across the sandbox (src/core/sandbox/ports.ts): a server inside a command's own network
// namespace, reached from the machine's loopback through the relay and the port forwards, side by
// side with the same server on the machine's loopback directly and, where it is installed, behind
// pasta (passt's port forwarding into a namespace, the candidate the design weighed). Measured: how
// soon a server that starts listening is reachable, a request on a new connection each time, a
// 64 MiB download, and what the relay adds to starting a command in bubblewrap.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { medianCommandMs, medianMs, printTable, ratio } from './measure.mjs';
import { compiled } from './ourContext.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RELAY = path.join(repo, 'out/src/core/sandbox/node/proxyRelay.js');
const MIB_64 = 64 * 1024 * 1024;

/** A port nothing listens on now. */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', () => resolve(undefined)));
  const port = /** @type {net.AddressInfo} */ (probe.address()).port;
  await new Promise((resolve) => probe.close(() => resolve(undefined)));
  return port;
}

/**
 * GET / on a new connection; resolves with the body's length, or rejects.
 * @param {number} port
 * @returns {Promise<number>}
 */
function get(port, pathName = '/') {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: pathName, agent: false }, (response) => {
      let length = 0;
      response.on('data', (/** @type {Buffer} */ chunk) => (length += chunk.length));
      response.on('end', () => resolve(length));
    }).on('error', reject);
  });
}

/**
 * Polls until GET / answers; the milliseconds it took from `since`.
 * @param {number} port
 * @param {number} since
 */
async function reachableAfter(port, since) {
  while (performance.now() - since < 10_000) {
    try {
      await get(port);
      return performance.now() - since;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  throw new Error(`nothing answered on port ${port} within 10 s`);
}

/**
 * The server each setup runs: `/` answers "ok", `/big` 64 MiB.
 * @param {string} folder
 */
function serverScript(folder) {
  const file = path.join(folder, 'server.js');
  writeFileSync(file, `const big = Buffer.alloc(${MIB_64}, 97);
require('http').createServer((q, r) => r.end(q.url === '/big' ? big : 'ok')).listen(Number(process.argv[2]), '127.0.0.1');
`);
  return file;
}

/**
 * Measures one setup: `start(port)` starts the server and returns its process; `port` is where the
 * machine reaches it.
 * @param {(port: number) => Promise<import('node:child_process').ChildProcess>} start
 */
async function measure(start) {
  const port = await freePort();
  const since = performance.now();
  const child = await start(port);
  try {
    const ready = await reachableAfter(port, since);
    const request = await medianMs(() => get(port), 101);
    const download = await medianMs(() => get(port, '/big'), 5);
    return { ready, request, throughput: MIB_64 / 1024 / 1024 / (download / 1000) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', () => resolve(undefined)));
  }
}

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchPorts({ log }) {
  const bwrap = spawnSync('bwrap', ['--version']).status === 0 ? 'bwrap' : undefined;
  if (!bwrap) {
    log('bubblewrap is not installed: nothing to measure (apt-get install bubblewrap).');
    return;
  }
  /** @type {typeof import('../../src/core/sandbox/node/portForwards.js')} */
  const { CommandPorts } = compiled('core/sandbox/node/portForwards');
  const folder = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-ports-'));
  const script = serverScript(folder);
  const sandbox = (/** @type {string} */ mount) => ['--die-with-parent', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--ro-bind', mount, '/dev/wat-proxy'];
  /** @type {(string | number)[][]} */
  const rows = [];
  try {
    const direct = await measure(async (port) => spawn(process.execPath, [script, String(port)], { stdio: 'ignore' }));
    let endpoint = 0;
    const relayed = await measure(async (port) => {
      const mount = mkdtempSync(path.join(folder, 'c-'));
      const ports = new CommandPorts();
      await ports.listen(path.join(mount, 'ports.sock'));
      const child = spawn(bwrap, [...sandbox(mount), '--setenv', 'ELECTRON_RUN_AS_NODE', '1', '--', process.execPath, RELAY, JSON.stringify({ ports: `/dev/wat-proxy/ports.sock` }), '--', process.execPath, script, String(port)], { stdio: 'ignore' });
      child.once('exit', () => void ports.close());
      endpoint += 1;
      return child;
    });
    const pasta = spawnSync('pasta', ['--version']).status === 0;
    // As root pasta switches to nobody unless told to stay (--runas).
    const uid = String(process.getuid?.() ?? 0);
    const viaPasta = pasta
      ? await measure(async (port) => spawn('pasta', ['-q', '-f', '--runas', uid, '--config-net', '-t', String(port), '-u', 'none', '-T', 'none', '-U', 'none', '--', process.execPath, script, String(port)], { stdio: 'ignore' })).catch((error) => {
          log(`pasta: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        })
      : undefined;
    const row = (/** @type {string} */ name, /** @type {(m: typeof direct) => number} */ pick, digits = 2) => [
      name,
      pick(direct).toFixed(digits),
      pick(relayed).toFixed(digits),
      viaPasta ? pick(viaPasta).toFixed(digits) : 'not installed',
      ratio(pick(relayed), pick(direct)),
    ];
    rows.push(row('server start to first answer (ms)', (m) => m.ready, 0));
    rows.push(row('GET / on a new connection, median of 101 (ms)', (m) => m.request));
    rows.push(row('64 MiB download (MiB/s)', (m) => m.throughput, 0));
    // What starting a command costs with the relay in front of it, and without.
    const mount = mkdtempSync(path.join(folder, 'start-'));
    const ports = new CommandPorts();
    await ports.listen(path.join(mount, 'ports.sock'));
    const bare = await medianCommandMs(bwrap, [...sandbox(mount), '--', '/bin/true'], 21);
    const withRelay = await medianCommandMs(bwrap, [...sandbox(mount), '--setenv', 'ELECTRON_RUN_AS_NODE', '1', '--', process.execPath, RELAY, JSON.stringify({ ports: '/dev/wat-proxy/ports.sock' }), '--', '/bin/true'], 21);
    await ports.close();
    rows.push(['start of `true` in bubblewrap, background (ms)', bare.toFixed(1), withRelay.toFixed(1), '', ratio(withRelay, bare)]);
    log(`(${endpoint} forwarded servers; pasta ${pasta ? 'measured with -t <port>' : 'not installed: apt-get install passt'})`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  printTable(log, ['case', 'direct loopback', 'ours (relay)', 'pasta', 'ours / direct'], rows);
}
