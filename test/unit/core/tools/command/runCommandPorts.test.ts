// Ports across the sandbox, through the tools in the real sandbox (bubblewrap, each command in its
// own network namespace): a background command's server is reachable on the machine's loopback at
// its own port while it runs, and not once it stops; a port something else holds is named; an
// approved command reaches the machine's loopback ports, even from a program that ignores proxy
// variables, after a question naming the port (or none for a port the user or the window allows);
// a command that did not ask has no network at all.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import type { ToolSettings } from '../../../../../src/core/settings';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { stopCommandTool } from '../../../../../src/core/tools/command/stopCommand';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import type { Tool } from '../../../../../src/core/tools/toolSpec';
import { backgroundId } from '../../../../support/commandResults';
import { commandWorkspace, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { resultText, type ScriptedApprover } from '../../../support/context';
import { requireProgram } from '../../../support/programs';
import { systemClock } from '../../../../../src/core/time';

/** A port nothing listens on now, on the machine's loopback. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** GET http://127.0.0.1:<port>/ from the machine (the extension host's own namespace): the body, or the error code. */
function getFromMachine(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get({ host, port, path: '/', timeout: 10_000, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
  });
}

/** A node one-liner that serves `body` on the port (bound to `bind`) and says so. */
function server(port: number, body: string, bind = '127.0.0.1'): string {
  return `${process.execPath} -e "require('http').createServer((q, r) => r.end('${body}')).listen(${port}, '${bind}', () => console.log('ready on ${port}'))"`;
}

/** A node one-liner that ignores proxy variables: a plain socket to 127.0.0.1:<port>, printing what came back. */
function rawGet(port: number): string {
  return `${process.execPath} -e "const s = require('net').connect(${port}, '127.0.0.1', () => s.write('GET / HTTP/1.0\\\\r\\\\n\\\\r\\\\n')); let d = ''; s.on('data', (c) => d += c).on('end', () => console.log('got: ' + d.split('\\\\r\\\\n\\\\r\\\\n')[1])).on('error', (e) => console.log('no connection: ' + e.code))"`;
}

describe('tools/runCommand ports across the sandbox', function () {
  const workspace = commandWorkspace();
  let registry: BackgroundCommandRegistry;

  beforeEach(() => {
    registry = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
  });
  afterEach(async () => {
    await registry.stopAll();
  });

  /** Calls a tool; the command's own question is answered yes, and a network question as `network` says (yes by default). */
  const call = async (tool: Tool, input: Record<string, unknown>, options: { settings?: Partial<ToolSettings>; network?: boolean } = {}): Promise<{ text: string; approver: ScriptedApprover }> => {
    const { ctx, approver } = workspace.setup({ approve: true, background: registry, settings: { runCommandAllow: ['node', 'python3', 'curl'], ...options.settings } });
    approver.choose = async (request) => {
      approver.asked.push(request);
      return request.kind !== 'network' || options.network !== false ? 'accept' : 'reject';
    };
    return { text: resultText(await invokeTool(tool, input, ctx)), approver };
  };

  it('makes a background server reachable on the machine at its own port while it runs, and no longer once it stops', async () => {
    const port = await freePort();
    const started = await call(runCommandTool, { command: server(port, 'hello from the sandbox'), background: true, wait_for: 'ready on' });
    assert.match(started.text, /^Started in the background; a line matched wait_for/);
    assert.match(started.text, new RegExp(`^Listening, reachable on this machine while it runs: http://127\\.0\\.0\\.1:${port}\\.$`, 'm'));
    assert.equal(await getFromMachine(port), 'hello from the sandbox');
    const id = backgroundId(started.text);
    const output = await call(commandOutputTool, { id });
    assert.match(output.text, new RegExp(`http://127\\.0\\.0\\.1:${port}`));
    await call(stopCommandTool, { id });
    assert.equal(await getFromMachine(port), 'error ECONNREFUSED');
  });

  it('forwards a server that listens on every address (0.0.0.0 or ::), and one that Python serves', async () => {
    const python = requireProgram('python3');
    const [first, second] = [await freePort(), await freePort()];
    const everywhere = await call(runCommandTool, { command: server(first, 'on every address', '::'), background: true, wait_for: 'ready on' });
    assert.match(everywhere.text, new RegExp(`http://127\\.0\\.0\\.1:${first}`));
    assert.equal(await getFromMachine(first), 'on every address');
    assert.equal(await getFromMachine(first, '::1'), 'on every address');
    const served = await call(runCommandTool, { command: `${python} -u -m http.server ${second} --bind 0.0.0.0`, background: true, wait_for: 'Serving HTTP' });
    assert.match(served.text, new RegExp(`http://127\\.0\\.0\\.1:${second}`));
    assert.match(await getFromMachine(second), /Directory listing for \//);
  });

  it('names a port that another program of the machine holds, and leaves that program alone', async () => {
    const holder = http.createServer((_request, response) => response.end('the machine\'s own'));
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const started = await call(runCommandTool, { command: server(port, 'from the sandbox'), background: true, wait_for: 'ready on' });
      assert.match(started.text, new RegExp(`listening on ${port}, not reachable outside the sandbox: another program already listens on that port on this machine`, 'i'));
      assert.equal(await getFromMachine(port), 'the machine\'s own');
    } finally {
      holder.close();
    }
  });

  it('lets a later approved command reach a server the window serves, without a question, even from a program that ignores proxies', async () => {
    const port = await freePort();
    await call(runCommandTool, { command: server(port, 'served by bg1'), background: true, wait_for: 'ready on' });
    const reached = await call(runCommandTool, { command: rawGet(port), permissions: 'network' });
    assert.match(reached.text, /got: served by bg1/);
    assert.equal(reached.approver.asked.filter((request) => request.kind === 'network').length, 0);
  });

  it('asks before an approved command connects to the machine\'s own loopback port, naming it; a program that ignores proxies reaches it once allowed', async () => {
    const own = http.createServer((_request, response) => response.end('the user\'s dev server'));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const port = (own.address() as net.AddressInfo).port;
    try {
      const declined = await call(runCommandTool, { command: rawGet(port), permissions: 'network' }, { network: false });
      const asked = declined.approver.asked.filter((request) => request.kind === 'network');
      assert.equal(asked.length, 1, declined.text);
      assert.match(asked[0].title, new RegExp(`connect to port ${port} on this machine`));
      assert.deepEqual(asked[0].allowLocalPorts, [port]);
      assert.doesNotMatch(declined.text, /got: the user's dev server/);
      const allowed = await call(runCommandTool, { command: rawGet(port), permissions: 'network' });
      assert.match(allowed.text, /got: the user's dev server/);
      const always = await call(runCommandTool, { command: `curl -sS --max-time 10 http://localhost:${port}/`, permissions: 'network' }, { network: false, settings: { runCommandAllowedLocalPorts: [port] } });
      assert.match(always.text, /the user's dev server/);
      assert.equal(always.approver.asked.filter((request) => request.kind === 'network').length, 0);
    } finally {
      own.close();
    }
  });

  it('gives a command that did not ask no network: the machine\'s loopback ports are not served in its namespace', async () => {
    const own = http.createServer((_request, response) => response.end('must not be reached'));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const port = (own.address() as net.AddressInfo).port;
    try {
      const { text, approver } = await call(runCommandTool, { command: rawGet(port) });
      assert.match(text, /no connection: ECONNREFUSED/);
      assert.match(text, /no network/);
      assert.equal(approver.asked.length, 0);
    } finally {
      own.close();
    }
  });
});
