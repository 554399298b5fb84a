// The relay inside the sandbox (bundled as dist/proxyRelay.js, run by the extension's own Node with
// ELECTRON_RUN_AS_NODE=1): the command's network namespace has nothing but loopback, so this
// listens on 127.0.0.1:<http port> and 127.0.0.1:<socks port> there and forwards each connection to
// the proxy's unix sockets bound into the sandbox; then it runs the command, and exits as it did.
//
//   proxyRelay.js <http socket> <http port> <socks socket> <socks port> -- <program> [args...]
import { spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import * as net from 'node:net';

function fail(message: string): never {
  process.stderr.write(`sandbox network relay: ${message}\n`);
  process.exit(125);
}

function relay(socketPath: string, port: number): Promise<void> {
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

async function main(argv: readonly string[]): Promise<void> {
  const separator = argv.indexOf('--');
  const [httpSocket, httpPort, socksSocket, socksPort] = argv.slice(0, separator);
  const command = argv.slice(separator + 1);
  if (separator !== 4 || command.length === 0 || !/^\d+$/.test(httpPort) || !/^\d+$/.test(socksPort)) {
    fail('usage: proxyRelay <http socket> <http port> <socks socket> <socks port> -- <program> [args...]');
  }
  try {
    await Promise.all([relay(httpSocket, Number(httpPort)), relay(socksSocket, Number(socksPort))]);
  } catch (error) {
    fail(`cannot listen: ${error instanceof Error ? error.message : String(error)}`);
  }
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  // The command's process group gets the runner's signals itself; the relay lives until it ends.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) {
    process.on(signal, () => undefined);
  }
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
  // The command reads its input; the relay never does (the input probe must not count it).
  try {
    closeSync(0);
  } catch {
    // Already closed.
  }
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
