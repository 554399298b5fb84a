// The machine's side of a command's ports (node/portForwards.ts) against a relay played by the test
// over the real unix socket: ports named are listened on at 127.0.0.1, each connection becomes a
// stream the relay opens, and whatever the relay sends is held to the limits.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatMessage, MAX_FORWARDED_PORTS, parseMessage, type PortsMessage } from '../../../../../src/core/sandbox/ports';
import { CommandPorts } from '../../../../../src/core/sandbox/node/portForwards';
import { describeOnlyOn } from '../../../support/platforms';

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<net.Server>((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  })));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function get(port: number): Promise<string> {
  return new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port, path: '/', timeout: 5000, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    }).on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
  });
}

/** The relay's part: the control connection, and a stream to `target` for each open the forwards send. */
class FakeRelay {
  readonly control: net.Socket;
  readonly opens: PortsMessage[] = [];
  constructor(private readonly socketPath: string, private readonly target: number) {
    this.control = net.connect(socketPath);
    let buffered = '';
    this.control.on('data', (chunk) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
        const message = parseMessage(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (message && 'sync' in message) {
          this.control.write(formatMessage({ listening: this.listening, sync: message.sync }));
        } else if (message && 'open' in message) {
          this.opens.push(message);
          const stream = net.connect(this.socketPath, () => stream.write(formatMessage({ stream: message.open })));
          const inside = net.connect(this.target, '127.0.0.1');
          stream.pipe(inside).pipe(stream);
        }
      }
    });
  }
  private listening: { address: string; port: number }[] = [];
  say(listening: { address: string; port: number }[]): void {
    this.listening = listening;
    this.control.write(formatMessage({ listening }));
  }
}

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox port forwards', () => {
  let folder: string;
  let socketPath: string;
  let ports: CommandPorts;
  let inside: http.Server;
  let insidePort: number;

  beforeEach(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'wat-ports-'));
    socketPath = path.join(folder, 'ports.sock');
    ports = new CommandPorts();
    await ports.listen(socketPath);
    // The server "inside": the fake relay dials it whatever port it named.
    inside = http.createServer((_request, response) => response.end('inside'));
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    insidePort = (inside.address() as net.AddressInfo).port;
  });

  afterEach(async () => {
    await ports.close();
    inside.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('listens on each port the relay names, streams each connection through the relay, and stops when the port or the relay goes', async () => {
    const [port] = await freePorts(1);
    const relay = new FakeRelay(socketPath, insidePort);
    relay.say([{ address: '0.0.0.0', port }]);
    await ports.settle();
    assert.deepEqual(ports.forwarded(), [{ port, state: 'forwarded' }]);
    assert.equal(await get(port), 'inside');
    assert.deepEqual(relay.opens.map((open) => ('open' in open ? [open.address, open.port] : [])), [['127.0.0.1', port]], 'a server on every address is dialled on its IPv4 loopback');
    relay.say([]);
    await ports.settle();
    assert.deepEqual(ports.forwarded(), []);
    assert.equal(await get(port), 'error ECONNREFUSED');
    relay.say([{ address: '::', port }]);
    await ports.settle();
    assert.equal(await get(port), 'inside');
    assert.deepEqual(relay.opens.map((open) => ('open' in open ? open.address : '')).at(-1), '::1');
    relay.control.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    await ports.settle();
    assert.equal(await get(port), 'error ECONNREFUSED');
  });

  it('holds the relay to the limits: taken, privileged and past-the-limit ports are named and never listened on; unasked streams and junk are closed', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      const free = await freePorts(MAX_FORWARDED_PORTS + 1);
      const relay = new FakeRelay(socketPath, insidePort);
      relay.say([{ address: '127.0.0.1', port: 80 }, { address: '127.0.0.1', port: taken }]);
      await ports.settle();
      assert.deepEqual(ports.forwarded(), [{ port: 80, state: 'privileged' }, { port: taken, state: 'taken' }].sort((a, b) => a.port - b.port));
      relay.say([{ address: '127.0.0.1', port: 80 }, { address: '127.0.0.1', port: taken }, ...free.map((port) => ({ address: '127.0.0.1', port }))]);
      await ports.settle();
      const states = ports.forwarded();
      assert.equal(states.filter((entry) => entry.state === 'forwarded').length, MAX_FORWARDED_PORTS);
      assert.deepEqual(states.filter((entry) => entry.state === 'over').map((entry) => entry.port), [Math.max(...free)]);
      assert.equal(await get(Math.max(...free)), 'error ECONNREFUSED');
      assert.equal(await get(Math.min(...free)), 'inside');
      // A stream nobody asked for, and a line that is no message, end their connections.
      for (const line of [formatMessage({ stream: 999 }), 'junk\n']) {
        const closed = await new Promise<boolean>((resolve) => {
          const socket = net.connect(socketPath, () => socket.write(line));
          socket.on('close', () => resolve(true));
          socket.on('error', () => undefined);
        });
        assert.ok(closed, line);
      }
      // A second control connection does not take over the first.
      const intruder = new FakeRelay(socketPath, insidePort);
      intruder.say([]);
      await ports.settle();
      assert.equal(ports.forwarded().filter((entry) => entry.state === 'forwarded').length, MAX_FORWARDED_PORTS);
    } finally {
      holder.close();
    }
  });
});
