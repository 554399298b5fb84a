// The relay inside the sandbox (bundled as dist/proxyRelay.js, run by the extension's own Node with
// ELECTRON_RUN_AS_NODE=1): the command's network namespace has nothing but loopback, so this carries
// what crosses it over the unix sockets bound into the sandbox (ports.ts says which way what goes):
// the proxy on 127.0.0.1:<http port> and <socks port>; the machine's loopback ports, each connection
// sent through the proxy as CONNECT, where the gate asks; and the namespace's listening ports, named
// to the port forwards outside, which ask for a stream per connection. Then it runs the command, and
// exits as it did.
//
//   proxyRelay.js <RelayConfig as JSON> -- <program> [args...]
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import * as net from 'node:net';
import { formatMessage, loopbackPorts, MAX_MESSAGE_BYTES, parseMessage, type Listener, type PortsMessage, type RelayConfig } from '../ports';
import { namespaceListeners } from './portForwards';

/** How often the namespace's listening sockets are read (a server is reachable outside within this). */
const POLL_MS = 250;

function fail(message: string): never {
  process.stderr.write(`sandbox network relay: ${message}\n`);
  process.exit(125);
}

function listen(server: net.Server, port: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The proxy on a loopback port: each connection piped to its unix socket. */
function relay(socketPath: string, port: number): Promise<void> {
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  return listen(server, port, '127.0.0.1');
}

/**
 * One of the machine's loopback ports, served here on 127.0.0.1 and ::1: each connection is a
 * CONNECT through the proxy, which asks before it dials; refused, the connection is reset.
 */
async function serveLocal(proxySocket: string, port: number): Promise<void> {
  const handle = (client: net.Socket): void => {
    client.pause();
    client.on('error', () => undefined);
    const upstream = net.connect(proxySocket);
    upstream.on('error', () => client.destroy());
    upstream.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_MESSAGE_BYTES) {
          upstream.destroy();
          client.destroy();
        }
        return;
      }
      upstream.off('data', onData);
      if (!/^HTTP\/1\.[01] 200 /.test(head.subarray(0, end).toString('latin1'))) {
        upstream.destroy();
        client.resetAndDestroy();
        return;
      }
      const rest = head.subarray(end + 4);
      if (rest.length) {
        client.write(rest);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      upstream.pipe(client);
      client.pipe(upstream);
      client.resume();
    };
    upstream.on('data', onData);
  };
  const servers = [net.createServer(handle), net.createServer(handle)];
  // ::1 as well: Node and others try it first for `localhost`. A namespace without IPv6 has none.
  await Promise.all([listen(servers[0], port, '127.0.0.1'), listen(servers[1], port, '::1').catch(() => undefined)]);
}

/** Reads lines of at most MAX_MESSAGE_BYTES from a socket; a longer one ends it. */
function onLines(socket: net.Socket, each: (message: PortsMessage) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const message = parseMessage(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (message) {
        each(message);
      }
      newline = buffered.indexOf('\n');
    }
    if (buffered.length > MAX_MESSAGE_BYTES) {
      socket.destroy();
    }
  });
}

/** The namespace's listening sockets now, but the relay's own ports. */
function listeners(own: ReadonlySet<number>): Listener[] {
  const all = namespaceListeners();
  const ports = new Set(loopbackPorts(all, own, 1));
  return all.filter((listener) => ports.has(listener.port)).sort((a, b) => a.port - b.port || a.address.localeCompare(b.address));
}

/**
 * Names the namespace's listening ports on the forwards' socket as they change, and opens a stream
 * to one of them for each `open` the forwards send back: a new connection to the socket, named by
 * the id, piped to the listener's loopback address here.
 */
function forwardPorts(socketPath: string, own: ReadonlySet<number>): void {
  const control = net.connect(socketPath);
  let last = '';
  const timer = setInterval(() => {
    const now = listeners(own);
    const text = JSON.stringify(now);
    if (text !== last) {
      last = text;
      control.write(formatMessage({ listening: now }));
    }
  }, POLL_MS);
  timer.unref();
  control.on('error', () => clearInterval(timer));
  control.on('close', () => clearInterval(timer));
  control.unref();
  onLines(control, (message) => {
    if ('sync' in message && !('listening' in message)) {
      const now = listeners(own);
      last = JSON.stringify(now);
      control.write(formatMessage({ listening: now, sync: message.sync }));
      return;
    }
    if (!('open' in message) || !(message.address.startsWith('127.') || message.address === '::1') || message.port < 1 || message.port > 65535) {
      return;
    }
    const stream = net.connect(socketPath);
    const target = net.connect({ host: message.address, port: message.port });
    stream.on('error', () => target.destroy());
    target.on('error', () => stream.destroy());
    stream.write(formatMessage({ stream: message.open }));
    target.once('connect', () => {
      stream.pipe(target).pipe(stream);
    });
  });
}

async function main(argv: readonly string[]): Promise<void> {
  const separator = argv.indexOf('--');
  const command = argv.slice(separator + 1);
  if (separator !== 1 || command.length === 0) {
    fail('usage: proxyRelay <config as JSON> -- <program> [args...]');
  }
  let config: RelayConfig;
  try {
    config = JSON.parse(argv[0]) as RelayConfig;
  } catch {
    fail('the configuration is not JSON');
  }
  const own = new Set<number>([config.http?.port, config.socks?.port, ...(config.local ?? [])].filter((port): port is number => port !== undefined));
  try {
    await Promise.all([
      ...(config.http ? [relay(config.http.socket, config.http.port)] : []),
      ...(config.socks ? [relay(config.socks.socket, config.socks.port)] : []),
    ]);
    const proxySocket = config.http?.socket;
    if (proxySocket) {
      await Promise.all((config.local ?? []).map((port) => serveLocal(proxySocket, port).catch(() => own.delete(port))));
    }
  } catch (error) {
    fail(`cannot listen: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (config.ports) {
    forwardPorts(config.ports, own);
  }
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  // The command's process group gets the runner's signals itself; the relay lives until it ends.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) {
    process.on(signal, () => undefined);
  }
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
  // The command reads its input; the relay never does (the input probe must not count it). /dev/null
  // takes descriptor 0 at once: a socket accepted there later would never be closed (libuv leaves
  // descriptors 0 to 2 open), and its peer would wait for ever.
  try {
    closeSync(0);
  } catch {
    // Already closed.
  }
  openSync('/dev/null', 'r');
  child.once('error', (error) => fail(`cannot start ${command[0]}: ${error.message}`));
  child.once('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

void main(process.argv.slice(2));
