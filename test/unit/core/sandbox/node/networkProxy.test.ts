// The proxy in plain Node against servers on 127.0.0.1: HTTP CONNECT, a plain http:// request and
// SOCKS5 over the endpoint's unix sockets, and the relay that serves them on loopback ports.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../../../../src/core/errors';
import { NetworkSession } from '../../../../../src/core/sandbox/networkGate';
import type { ProxyEndpoint } from '../../../../../src/core/ports/process';
import { NetworkProxy, parseAuthority } from '../../../../../src/core/sandbox/node/networkProxy';
import { ScriptedApprover } from '../../../support/context';
import { describeOnlyOn } from '../../../support/platforms';

const RELAY = path.resolve(__dirname, '../../../../../src/core/sandbox/node/proxyRelay.js');

function listen(server: net.Server, port = 0): Promise<number> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

/** CONNECT through the endpoint's HTTP socket, then one line echoed: the status and what came back. */
function connectThrough(socketPath: string, authority: string): Promise<{ status: number; echoed?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, method: 'CONNECT', path: authority });
    request.on('connect', (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        resolve({ status: response.statusCode ?? 0 });
        return;
      }
      socket.once('data', (data) => {
        socket.destroy();
        resolve({ status: 200, echoed: data.toString() });
      });
      socket.write('ping');
    });
    request.on('error', reject);
    request.end();
  });
}

/** A SOCKS5 CONNECT by domain name over a socket; resolves with the reply code (0: granted) and the echo. */
function socksThrough(connect: () => net.Socket, host: string, port: number): Promise<{ reply: number; echoed?: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect();
    let stage = 0;
    let buffer = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('close', () => resolve({ reply: -1 }));
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      if (stage === 0 && buffer.length >= 2) {
        assert.deepEqual([...buffer.subarray(0, 2)], [5, 0]);
        buffer = buffer.subarray(2);
        stage = 1;
        const name = Buffer.from(host);
        const portBytes = Buffer.alloc(2);
        portBytes.writeUInt16BE(port);
        socket.write(Buffer.concat([Buffer.from([5, 1, 0, 3, name.length]), name, portBytes]));
      } else if (stage === 1 && buffer.length >= 10) {
        const reply = buffer[1];
        buffer = buffer.subarray(10);
        if (reply !== 0) {
          socket.removeAllListeners('close');
          socket.destroy();
          resolve({ reply });
          return;
        }
        stage = 2;
        socket.write('ping');
      } else if (stage === 2 && buffer.length > 0) {
        socket.removeAllListeners('close');
        socket.destroy();
        resolve({ reply: 0, echoed: buffer.toString() });
      }
    });
    socket.write(Buffer.from([5, 1, 0]));
  });
}

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox network proxy', function () {
  let folder: string;
  let echo: net.Server;
  let echoPort: number;
  let web: http.Server;
  let webPort: number;
  let proxy: NetworkProxy;
  let approver: ScriptedApprover;
  let allowed: string[];
  let denied: string[];
  let endpoint: ProxyEndpoint & { transport: 'unix'; http: string; socks: string };
  let localPorts: number[];
  let session: NetworkSession;

  beforeEach(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'wat-proxy-test-'));
    echo = net.createServer((socket) => socket.on('data', (data) => socket.write(`echo:${data.toString()}`)));
    echoPort = await listen(echo);
    web = http.createServer((request, response) => response.end(`host=${request.headers.host} path=${request.url}`));
    webPort = await listen(web);
    proxy = new NetworkProxy(() => path.join(folder, 'proxy'), { program: process.execPath, script: RELAY });
    proxy.mapNames({ 'allowed.test': '127.0.0.1', 'asked.test': '127.0.0.1', 'denied.test': '127.0.0.1', 'inward.test': '10.0.0.1' });
    approver = new ScriptedApprover(false);
    allowed = ['allowed.test'];
    denied = ['denied.test'];
    localPorts = [];
    session = new NetworkSession(() => ({ allowed, denied, defaults: [], localPorts }));
    const opened = await proxy.openEndpoint({ gate: session.forCommand('npm install', approver, NEVER_CANCELLED), transport: 'unix', forwardPorts: false });
    assert.ok(opened.transport === 'unix' && opened.http !== undefined && opened.socks !== undefined);
    endpoint = opened as ProxyEndpoint & { transport: 'unix'; http: string; socks: string };
  });

  afterEach(async () => {
    await proxy.dispose();
    echo.close();
    web.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('listens on unix sockets in private folders', () => {
    assert.equal(statSync(path.join(folder, 'proxy')).mode & 0o777, 0o700);
    assert.equal(statSync(endpoint.directory).mode & 0o777, 0o700);
  });

  it('tunnels CONNECT to an allowed domain, refuses a denied one and a metadata address without asking', async () => {
    assert.deepEqual(await connectThrough(endpoint.http, `allowed.test:${echoPort}`), { status: 200, echoed: 'echo:ping' });
    assert.equal((await connectThrough(endpoint.http, `denied.test:${echoPort}`)).status, 403);
    assert.equal((await connectThrough(endpoint.http, '169.254.169.254:80')).status, 403);
    assert.equal((await connectThrough(endpoint.http, 'metadata.google.internal:80')).status, 403);
    assert.equal(approver.asked.length, 0);
  });

  it('asks about another domain, and tunnels only when the user allows it', async () => {
    assert.equal((await connectThrough(endpoint.http, `asked.test:${echoPort}`)).status, 403);
    assert.equal(approver.asked.length, 1);
    assert.deepEqual(approver.asked[0].allowDomains, ['asked.test']);
    const second = await proxy.openEndpoint({ gate: session.forCommand('npm ci', approver, NEVER_CANCELLED), transport: 'unix', forwardPorts: false });
    approver.answer = true;
    assert.deepEqual(await connectThrough((second as { http: string }).http, `asked.test:${echoPort}`), { status: 200, echoed: 'echo:ping' });
  });

  it('asks about a loopback port by its number, once per command, and tunnels only when the user allows it', async () => {
    assert.equal((await connectThrough(endpoint.http, `127.0.0.1:${echoPort}`)).status, 403);
    assert.equal(approver.asked.length, 1);
    assert.match(approver.asked[0].title, new RegExp(`connect to port ${echoPort} on this machine`));
    assert.match(approver.asked[0].detail, /runs outside the sandbox, with your rights/);
    assert.deepEqual(approver.asked[0].allowLocalPorts, [echoPort]);
    assert.equal(approver.asked[0].allowDomains, undefined, 'a port, not a domain, is what Always saves');
    // Declined once: not asked again for this command, whichever loopback name it uses.
    assert.equal((await connectThrough(endpoint.http, `localhost:${echoPort}`)).status, 403);
    assert.equal(approver.asked.length, 1);
    approver.answer = true;
    const second = (await proxy.openEndpoint({ gate: session.forCommand('npm test', approver, NEVER_CANCELLED), transport: 'unix', forwardPorts: false })) as { http: string };
    assert.deepEqual(await connectThrough(second.http, `localhost:${echoPort}`), { status: 200, echoed: 'echo:ping' });
    assert.deepEqual(await connectThrough(second.http, `127.0.0.1:${echoPort}`), { status: 200, echoed: 'echo:ping' });
    assert.equal(approver.asked.length, 2, 'one question for the port, whichever loopback name reached it');
  });

  it('reaches a loopback port in allowedLocalPorts (or one the window serves) without a question; a name that resolves inward is still refused', async () => {
    localPorts = [echoPort];
    assert.deepEqual(await connectThrough(endpoint.http, `127.0.0.1:${echoPort}`), { status: 200, echoed: 'echo:ping' });
    assert.deepEqual(await connectThrough(endpoint.http, `[::ffff:127.0.0.1]:${echoPort}`), { status: 200, echoed: 'echo:ping' });
    assert.equal(approver.asked.length, 0);
    // Another port of the machine is asked about, and refused when the user says no.
    assert.equal((await connectThrough(endpoint.http, `127.0.0.1:${webPort}`)).status, 403);
    assert.deepEqual(approver.asked.map((request) => request.allowLocalPorts), [[webPort]]);
    // DNS rebinding: a domain that resolves to a private address is refused whatever the ports.
    approver.answer = true;
    assert.equal((await connectThrough(endpoint.http, `inward.test:${echoPort}`)).status, 403);
    // A denied entry wins over everything.
    denied = ['denied.test', '127.0.0.1'];
    assert.equal((await connectThrough(endpoint.http, `127.0.0.1:${echoPort}`)).status, 403);
  });

  it('asks about a private address by address and port, and Always names the address for allowedDomains', async () => {
    approver.answer = false;
    assert.equal((await connectThrough(endpoint.http, '10.0.0.1:5432')).status, 403);
    assert.equal(approver.asked.length, 1);
    assert.match(approver.asked[0].title, /connect to 10\.0\.0\.1:5432/);
    assert.deepEqual(approver.asked[0].allowDomains, ['10.0.0.1']);
    assert.equal(approver.asked[0].allowLocalPorts, undefined);
    // Named in allowedDomains: no question.
    allowed = ['allowed.test', '127.0.0.1'];
    assert.deepEqual(await connectThrough(endpoint.http, `127.0.0.1:${echoPort}`), { status: 200, echoed: 'echo:ping' });
    assert.equal(approver.asked.length, 1);
  });

  it('forwards a plain http:// request to the checked address with its Host header', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const request = http.request({ socketPath: endpoint.http, method: 'GET', path: `http://allowed.test:${webPort}/simple/?q=1`, headers: { host: `allowed.test:${webPort}` } }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve(text));
      });
      request.on('error', reject);
      request.end();
    });
    assert.equal(body, `host=allowed.test:${webPort} path=/simple/?q=1`);
  });

  it('serves SOCKS5 by domain name with the same rules', async () => {
    const viaSocket = (): net.Socket => net.connect(endpoint.socks);
    assert.deepEqual(await socksThrough(viaSocket, 'allowed.test', echoPort), { reply: 0, echoed: 'echo:ping' });
    assert.equal((await socksThrough(viaSocket, 'denied.test', echoPort)).reply, 2);
    assert.equal((await socksThrough(viaSocket, '169.254.169.254', 80)).reply, 2);
  });

  it('parses CONNECT authorities strictly', () => {
    assert.deepEqual(parseAuthority('example.com:443'), { host: 'example.com', port: 443 });
    assert.deepEqual(parseAuthority('[::1]:8080'), { host: '[::1]', port: 8080 });
    assert.equal(parseAuthority('example.com'), undefined);
    assert.equal(parseAuthority('http://example.com:80/'), undefined);
  });

  it('the relay serves the sockets on loopback ports, runs the command and exits with its code', async () => {
    const free = async (): Promise<number> => {
      const probe = net.createServer();
      const port = await listen(probe);
      await new Promise((resolve) => probe.close(resolve));
      return port;
    };
    const [httpPort, socksPort] = [await free(), await free()];
    const script = [
      `curl -sS --max-time 10 -x http://127.0.0.1:${httpPort} http://allowed.test:${webPort}/via-http`,
      `curl -sS --max-time 10 --socks5-hostname 127.0.0.1:${socksPort} http://allowed.test:${webPort}/via-socks`,
      `curl -sS --max-time 10 -x http://127.0.0.1:${httpPort} http://denied.test:${webPort}/ -o /dev/null -w ' denied=%{http_code}'`,
      'exit 7',
    ].join('; echo; ');
    const config = { http: { socket: endpoint.http, port: httpPort }, socks: { socket: endpoint.socks, port: socksPort } };
    const child = spawn(process.execPath, [RELAY, JSON.stringify(config), '--', '/bin/sh', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    assert.equal(code, 7, out);
    assert.match(out, new RegExp(`host=allowed.test:${webPort} path=/via-http`));
    assert.match(out, new RegExp(`host=allowed.test:${webPort} path=/via-socks`));
    assert.match(out, / denied=403/);
  });
});
