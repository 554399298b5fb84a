// The MCP front's security and relay, in plain Node: a real endpoint on a unix socket with a small
// SDK server behind it, the real relay (out/src/mcp/main.js) started by the SDK's stdio client,
// and raw sockets and HTTP requests playing the attacker.
import * as assert from 'node:assert/strict';
import * as childProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as nodeHttp from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpEndpoint } from '../../../src/mcp/endpoint';
import { LoopbackHttpEndpoint } from '../../../src/mcp/httpEndpoint';
import { lockFilePath, readLiveLocks, writeLockFile, type WindowLock } from '../../../src/mcp/lockFiles';
import { ensurePrivateFolder, RUNTIME_DIR_VARIABLE, runtimeFolders, UnsafePathError, verifyEndpointSocket } from '../../../src/mcp/privateFolder';
import { parseHandshakeLine } from '../../../src/mcp/handshake';
import { connectToWindow } from '../../../src/mcp/relay';
import { itOnlyOn, wineLacks } from '../support/platforms';

const RELAY = path.resolve(__dirname, '../../../src/mcp/main.js');
const posix = process.platform !== 'win32';
/** The endpoint's handshake limit here (the extension's is 5 s): long enough for a relay process to connect on a loaded machine. */
const HANDSHAKE_TIMEOUT_MS = 1000;

/** A server with one tool, echo, that counts its calls. */
function echoServer(calls: string[]): Server {
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    calls.push(JSON.stringify(request.params.arguments));
    return { content: [{ type: 'text', text: `echo ${JSON.stringify(request.params.arguments)} from ${server.getClientVersion()?.name}` }] };
  });
  return server;
}

async function relayClient(dir: string, cwd: string, args: string[] = []): Promise<Client> {
  const client = new Client({ name: 'unit-test-agent', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [RELAY, ...args], cwd, env: { ...process.env, [RUNTIME_DIR_VARIABLE]: dir } as Record<string, string>, stderr: 'pipe' }));
  return client;
}

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Sends raw bytes to the socket and collects what comes back until it closes. */
function rawExchange(socketPath: string, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath, () => socket.write(payload));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 8000);
  });
}

const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } })}\n`;
const CALL = `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { pwned: true } } })}\n`;

describe('mcp endpoint and relay', function () {
  this.timeout(20_000);
  let base: string;
  let dir: string;
  let workspace: string;
  let endpoint: McpEndpoint;
  let calls: string[];
  /** The origin each accepted connection's handshake named, in order. */
  let origins: string[];
  /** What the window's transports could not read as JSON-RPC. */
  let windowErrors: string[];

  beforeEach(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-mcp-'));
    dir = path.join(base, 'run');
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-mcp-ws-')));
    fs.mkdirSync(path.join(workspace, 'sub'));
    calls = [];
    origins = [];
    windowErrors = [];
    endpoint = await McpEndpoint.start(
      {
        dir,
        handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
        onSession: (transport, origin) => {
          origins.push(origin);
          const server = echoServer(calls);
          server.onerror = (error) => windowErrors.push(error.message);
          void server.connect(transport);
        },
      },
      { folders: [workspace], trusted: true, app: 'Test Code' },
    );
  });

  afterEach(() => {
    endpoint.close();
    fs.rmSync(base, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  itOnlyOn('win32', 'named pipes (\\\\.\\pipe\\...)')('listens on a named pipe of its own on Windows, which the relay started by an agent reaches', async () => {
    assert.match(endpoint.socketPath, /^\\\\\.\\pipe\\workspace-agent-tools-[^\\]+$/);
    const client = await relayClient(dir, workspace);
    try {
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { over: 'pipe' } })), 'echo {"over":"pipe"} from unit-test-agent');
    } finally {
      await client.close();
    }
  });

  it('relays the agent to the window whose folder holds its working folder', async () => {
    const client = await relayClient(dir, path.join(workspace, 'sub'));
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['echo']);
      // The window sees the agent's own initialize, so it can name the agent.
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { a: 1 } })), 'echo {"a":1} from unit-test-agent');
    } finally {
      await client.close();
    }
  });

  it('passes the agent\'s bytes through unchanged: a line that is not JSON-RPC is skipped by the window, which answers the messages around it', async () => {
    const relay = childProcess.spawn(process.execPath, [RELAY], { cwd: workspace, env: { ...process.env, [RUNTIME_DIR_VARIABLE]: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let received = '';
      const answered = new Promise<string>((resolve, reject) => {
        relay.stdout.on('data', (chunk: Buffer) => {
          received += chunk.toString();
          if (received.includes('"id":2')) {
            resolve(received);
          }
        });
        relay.on('exit', (code) => reject(new Error(`the relay exited (${code}) after: ${received}`)));
      });
      // Split mid-line, as a pipe may deliver it.
      const payload = `${INITIALIZE}this is not json\n{"jsonrpc":"2.0","method":"nonsense"}x\n${CALL}`;
      relay.stdin.write(payload.slice(0, 50));
      relay.stdin.write(payload.slice(50));
      const lines = (await answered).trim().split('\n').map((line) => JSON.parse(line) as { id?: number; result?: CallToolResult });
      assert.deepEqual(lines.map((line) => line.id), [1, 2]);
      assert.equal(textOf(lines[1].result), 'echo {"pwned":true} from attacker');
      assert.deepEqual(calls, ['{"pwned":true}']);
      // The window got the two lines that are not JSON-RPC as the agent sent them: the relay read none of them.
      assert.equal(windowErrors.length, 2, windowErrors.join('\n'));
    } finally {
      relay.kill();
    }
  });

  it('finds the window with --workspace when started elsewhere', async () => {
    const client = await relayClient(dir, os.tmpdir(), ['--workspace', workspace]);
    try {
      assert.match(textOf(await client.callTool({ name: 'echo', arguments: {} })), /^echo \{\}/);
    } finally {
      await client.close();
    }
  });

  it('relays to the window --window names, wherever it is started, and tells that window the connection comes from its server definition', async () => {
    // A second window that has the deeper folder open: by folder it would be chosen.
    const deeper = path.join(workspace, 'sub');
    const other = await McpEndpoint.start({ dir, onSession: (transport) => (origins.push('the other window'), void echoServer(calls).connect(transport)) }, { folders: [deeper], trusted: true, app: 'Other' });
    try {
      assert.equal(path.basename(endpoint.lockFile), `${endpoint.id}.lock.json`);
      const client = await relayClient(dir, deeper, ['--window', endpoint.id, '--vscode-definition']);
      try {
        assert.match(textOf(await client.callTool({ name: 'echo', arguments: {} })), /^echo \{\} from unit-test-agent$/);
      } finally {
        await client.close();
      }
      // A terminal agent's relay names no origin.
      const agent = await relayClient(dir, workspace);
      await agent.close();
      assert.deepEqual(origins, ['vscode-definition', 'agent']);
    } finally {
      other.close();
    }
  });

  it('fails each call saying the window is gone when the window --window names is not serving', async () => {
    const client = await relayClient(dir, workspace, ['--window', '12345-000000000000', '--vscode-definition']);
    try {
      assert.ok((await client.listTools()).tools.length > 0);
      assert.match(textOf(await client.callTool({ name: 'workspace_read_file', arguments: { file_path: 'a' } })), /The VS Code window that started this MCP server \(endpoint 12345-000000000000\) is not serving it any more/);
      assert.deepEqual(origins, []);
    } finally {
      await client.close();
    }
  });

  it('takes only the known origin word after the nonce: any other word is a plain agent, and a wrong nonce is refused either way', async () => {
    assert.deepEqual(parseHandshakeLine('abc vscode-definition'), { nonce: 'abc', origin: 'vscode-definition' });
    assert.deepEqual(parseHandshakeLine('abc'), { nonce: 'abc', origin: 'agent' });
    assert.deepEqual(parseHandshakeLine('abc admin'), { nonce: 'abc', origin: 'agent' });
    const answer = await rawExchange(endpoint.socketPath, `${'0'.repeat(64)} vscode-definition\n${INITIALIZE}${CALL}`);
    assert.match(answer, /^refused/);
    assert.deepEqual(calls, []);
    assert.deepEqual(origins, []);
  });

  it('finds a window announced in another of the user\'s runtime folders, as when an agent starts the relay without XDG_RUNTIME_DIR (Codex CLI)', async () => {
    const elsewhere = path.join(base, 'elsewhere');
    const unsafe = path.join(base, 'unsafe');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.mkdirSync(unsafe, { mode: 0o755 });
    fs.chmodSync(unsafe, 0o755);
    const target = await connectToWindow(path.join(workspace, 'sub'), [elsewhere, unsafe, dir]);
    assert.equal(target.kind, 'window', target.kind === 'none' ? target.reason : '');
    if (target.kind === 'window') {
      target.connection.socket.destroy();
    }
    const none = await connectToWindow(path.join(workspace, 'sub'), [elsewhere, unsafe]);
    assert.equal(none.kind, 'none');
    if (posix) {
      assert.match(none.kind === 'none' ? none.reason : '', /has mode 755, not 700; refusing to use it/);
    }
  });

  itOnlyOn(['linux', 'darwin'], 'XDG_RUNTIME_DIR and runtime folders named by uid')('looks for windows where a window with the full environment announces itself, unless the folder is given', () => {
    const uid = process.getuid?.();
    const withXdg = runtimeFolders({ XDG_RUNTIME_DIR: '/run/user/4242' });
    assert.equal(withXdg[0], '/run/user/4242/workspace-agent-tools');
    const without = runtimeFolders({});
    assert.ok(without.includes(path.join(os.tmpdir(), `workspace-agent-tools-${uid}`)), without.join(' '));
    if (process.platform === 'linux' && uid !== undefined) {
      assert.ok(without.includes(`/run/user/${uid}/workspace-agent-tools`), without.join(' '));
      assert.ok(withXdg.includes(`/run/user/${uid}/workspace-agent-tools`), withXdg.join(' '));
    }
    assert.deepEqual(runtimeFolders({ [RUNTIME_DIR_VARIABLE]: '/given', XDG_RUNTIME_DIR: '/run/user/4242' }), ['/given']);
  });

  it('refuses a wrong nonce before any MCP message is read', async () => {
    const answer = await rawExchange(endpoint.socketPath, `${'0'.repeat(64)}\n${INITIALIZE}${CALL}`);
    assert.match(answer, /^refused/);
    assert.doesNotMatch(answer, /jsonrpc/);
    assert.deepEqual(calls, []);
  });

  it('refuses a connection that starts with MCP instead of the nonce', async () => {
    const answer = await rawExchange(endpoint.socketPath, `${INITIALIZE}${CALL}`);
    assert.equal(answer, 'refused: handshake line too long\n');
    assert.deepEqual(calls, []);
  });

  it('refuses a connection that sends nothing (after the handshake timeout)', async () => {
    const answer = await rawExchange(endpoint.socketPath, '');
    assert.equal(answer, `refused: no handshake line within ${HANDSHAKE_TIMEOUT_MS} ms\n`);
  });

  it('serves MCP on the socket only after the right nonce', async () => {
    const nonce = endpoint.nonce;
    const answer = await new Promise<string>((resolve) => {
      const socket = net.createConnection(endpoint.socketPath, () => socket.write(`${nonce}\n${INITIALIZE}`));
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
        if (received.includes('"id":1')) {
          socket.destroy();
          resolve(received);
        }
      });
    });
    assert.match(answer, /^ok\n\{"/);
    assert.match(answer, /"serverInfo"/);
  });

  itOnlyOn(['linux', 'darwin'], 'POSIX modes and owners of the private folder')('keeps the folder 0700 and the lock file and socket owner-only', () => {
    assert.equal(fs.lstatSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.lstatSync(endpoint.lockFile).mode & 0o777, 0o600);
    assert.equal(fs.lstatSync(endpoint.socketPath).mode & 0o777, 0o600);
    const lock = JSON.parse(fs.readFileSync(endpoint.lockFile, 'utf8')) as WindowLock;
    assert.deepEqual({ pid: lock.pid, endpoint: lock.endpoint, folders: lock.folders, trusted: lock.trusted }, { pid: process.pid, endpoint: endpoint.socketPath, folders: [workspace], trusted: true });
    // Temp files of the atomic write are gone.
    assert.deepEqual(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
  });

  it('removes the lock file and the socket on close', () => {
    endpoint.close();
    assert.equal(fs.existsSync(endpoint.lockFile), false);
    assert.equal(fs.existsSync(endpoint.socketPath), false);
  });

  itOnlyOn(['linux', 'darwin'], 'POSIX modes and owners of the private folder')('refuses a folder that others can read, that is a symlink, or that belongs to someone else', () => {
    const open = path.join(base, 'open');
    fs.mkdirSync(open, { mode: 0o755 });
    fs.chmodSync(open, 0o755);
    assert.throws(() => ensurePrivateFolder(open), UnsafePathError);
    const link = path.join(base, 'link');
    fs.symlinkSync(dir, link);
    assert.throws(() => ensurePrivateFolder(link), /symbolic link/);
    // Someone else's folder: as root, one made here and given away; as a user (CI's case), /usr, which root owns.
    let foreign = '/usr';
    if (process.getuid?.() === 0) {
      foreign = path.join(base, 'foreign');
      fs.mkdirSync(foreign, { mode: 0o700 });
      fs.chownSync(foreign, 4242, 4242);
    }
    assert.throws(() => ensurePrivateFolder(foreign), new RegExp(`belongs to uid ${fs.lstatSync(foreign).uid}, not to this user`));
  });

  itOnlyOn(['linux', 'darwin'], 'POSIX modes and owners of the private folder')('refuses a socket path swapped for a symlink, in the relay', async () => {
    const real = endpoint.socketPath;
    const moved = path.join(base, 'elsewhere.sock');
    fs.renameSync(real, moved);
    fs.symlinkSync(moved, real);
    assert.throws(() => verifyEndpointSocket(dir, real), /symbolic link/);
    const client = await relayClient(dir, workspace);
    try {
      const result = await client.callTool({ name: 'workspace_read_file', arguments: { file_path: 'x' } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /symbolic link; refusing to connect/);
      assert.deepEqual(calls, []);
    } finally {
      await client.close();
    }
  });

  itOnlyOn(['linux', 'darwin'], 'POSIX modes and owners of the private folder')('ignores a lock file that others could read, and one that is a symlink', () => {
    fs.chmodSync(endpoint.lockFile, 0o644);
    assert.deepEqual(readLiveLocks(dir), []);
    fs.chmodSync(endpoint.lockFile, 0o600);
    const moved = path.join(base, 'moved.lock.json');
    fs.renameSync(endpoint.lockFile, moved);
    fs.symlinkSync(moved, endpoint.lockFile);
    assert.deepEqual(readLiveLocks(dir), []);
  });

  it('clears the lock files of dead windows when a window starts', async () => {
    const stale = lockFilePath(dir, 'crashed');
    writeLockFile(stale, { version: 1, pid: 4_194_304 + 2, endpoint: path.join(dir, 'crashed.sock'), nonce: 'b'.repeat(64), folders: [workspace], trusted: true, app: 'Gone' });
    const second = await McpEndpoint.start({ dir, onSession: () => undefined }, { folders: [], trusted: false, app: 'Second' });
    try {
      assert.equal(fs.existsSync(stale), false);
      assert.equal(fs.existsSync(endpoint.lockFile), true);
    } finally {
      second.close();
    }
  });

  it('ignores and removes the lock file of a window whose process is gone', () => {
    const stale = lockFilePath(dir, 'stale');
    // A pid above the kernel's maximum is never alive.
    writeLockFile(stale, { version: 1, pid: 4_194_304 + 1, endpoint: path.join(dir, 'stale.sock'), nonce: 'a'.repeat(64), folders: [workspace], trusted: true, app: 'Gone' });
    assert.deepEqual(readLiveLocks(dir).map((found) => found.file), [endpoint.lockFile]);
    assert.equal(fs.existsSync(stale), false);
  });

  it('answers initialize and tools/list when no window has the folder, and fails each call saying so', async () => {
    const elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-mcp-none-')));
    const client = await relayClient(dir, elsewhere);
    try {
      const tools = (await client.listTools()).tools;
      assert.ok(tools.some((tool) => tool.name === 'workspace_read_file' && tool.annotations?.readOnlyHint === true));
      assert.ok(tools.some((tool) => tool.name === 'workspace_write_file' && tool.annotations?.destructiveHint === true));
      const result = await client.callTool({ name: 'workspace_read_file', arguments: { file_path: 'a.txt' } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), new RegExp(`No VS Code window with Workspace Agent Tools has ${elsewhere.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} open`));
    } finally {
      await client.close();
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('says VS Code is not running when no window ever announced itself', async () => {
    const client = await relayClient(path.join(base, 'never-made'), workspace);
    try {
      const result = await client.callTool({ name: 'workspace_glob', arguments: { pattern: '*' } });
      assert.match(textOf(result), /no window has announced itself .* is VS Code running\?/);
    } finally {
      await client.close();
    }
  });
});

describe('mcp loopback HTTP mode', function () {
  this.timeout(20_000);
  let http: LoopbackHttpEndpoint;
  let calls: string[];
  let refused: string[];

  before(function () {
    wineLacks(this, "undici's fetch to a loopback port (connect UNKNOWN, where node:http connects)");
  });

  beforeEach(async () => {
    calls = [];
    refused = [];
    http = await LoopbackHttpEndpoint.start({ port: 0, createServer: () => echoServer(calls), onRefused: (reason) => refused.push(reason) });
  });
  afterEach(() => http.close());

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'browser', version: '1' } } };
  function post(headers: Record<string, string>): Promise<Response> {
    return fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });
  }

  it('listens on loopback only', () => {
    assert.match(http.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('refuses a request without the token, or with a wrong one', async () => {
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ authorization: `Bearer ${'f'.repeat(64)}` })).status, 401);
    assert.equal(refused.length, 2);
  });

  it('refuses a request with an Origin header, even with the token', async () => {
    const response = await post({ authorization: `Bearer ${http.token}`, origin: `http://127.0.0.1:${http.port}` });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });

  it('refuses a foreign Host (DNS rebinding), even with the token', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = nodeHttp.request(http.url, { method: 'POST', headers: { host: `evil.example:${http.port}`, authorization: `Bearer ${http.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(JSON.stringify(initialize));
    });
    assert.equal(status, 403);
  });

  it('serves MCP to a client with the token', async () => {
    const client = new Client({ name: 'http-agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${http.token}` } } }));
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['echo']);
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { b: 2 } })), 'echo {"b":2} from http-agent');
    } finally {
      await client.close();
    }
  });
});
