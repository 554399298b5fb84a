// Network by domain in the real extension host, through vscode.lm.invokeTool: local HTTP servers on
// 127.0.0.x stand in for hosts (the proxy's resolver maps their names, in test mode only), and
// every question is answered by the extension's commands.
import * as assert from 'assert';
import * as http from 'http';
import * as net from 'net';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../src/core/ports/approval';
import { SETTINGS_SECTION } from '../../src/core/settings';
import { CommandId } from '../../src/vscode/commandIds';
import { answerNextApproval, invoke, until, withSettings } from './support/tools';

const TOOL = 'workspace_run_command';

interface StandIn {
  readonly name: string;
  readonly address: string;
  server: http.Server;
  port: number;
  hits: number;
}

async function pending(): Promise<readonly ApprovalRequest[]> {
  return (await vscode.commands.executeCommand<readonly ApprovalRequest[]>(CommandId.listPendingApprovals)) ?? [];
}

/** Waits for the domain question about `host`, and returns it. */
async function domainQuestion(host: string): Promise<ApprovalRequest> {
  let found: ApprovalRequest | undefined;
  await until(async () => {
    found = (await pending()).find((request) => request.kind === 'network' && request.allowDomains?.includes(host));
    return found !== undefined;
  }, `the question about ${host}`);
  return found as ApprovalRequest;
}

describe('network by domain (extension host)', function () {
  const hosts: StandIn[] = [
    { name: 'allowed.test', address: '127.0.0.2', server: undefined as unknown as http.Server, port: 0, hits: 0 },
    { name: 'asked.test', address: '127.0.0.3', server: undefined as unknown as http.Server, port: 0, hits: 0 },
    { name: 'denied.test', address: '127.0.0.4', server: undefined as unknown as http.Server, port: 0, hits: 0 },
    { name: 'session.test', address: '127.0.0.5', server: undefined as unknown as http.Server, port: 0, hits: 0 },
    { name: 'always.test', address: '127.0.0.6', server: undefined as unknown as http.Server, port: 0, hits: 0 },
  ];
  const host = (name: string): StandIn => hosts.find((each) => each.name === name) as StandIn;
  const url = (name: string, path = '/'): string => `http://${name}:${host(name).port}${path}`;

  before(async function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    for (const each of hosts) {
      each.server = http.createServer((request, response) => {
        each.hits += 1;
        response.end(`hello from ${each.name} ${request.url}\n`);
      });
      await new Promise<void>((resolve) => each.server.listen(0, each.address, resolve));
      each.port = (each.server.address() as net.AddressInfo).port;
    }
    const mapped = await vscode.commands.executeCommand<boolean>(CommandId.mapNetworkNamesForTests, Object.fromEntries(hosts.map((each) => [each.name, each.address])));
    assert.equal(mapped, true, 'the extension has a proxy');
  });

  after(async () => {
    await vscode.commands.executeCommand(CommandId.mapNetworkNamesForTests, {});
    for (const each of hosts) each.server?.close();
  });

  it('reaches an allowed domain (plain, CONNECT and SOCKS5) and refuses a denied domain and the metadata address without a question', async () => {
    await withSettings({ 'runCommand.allowedDomains': ['allowed.test'], 'runCommand.deniedDomains': ['denied.test'] }, async () => {
      const before = host('denied.test').hits;
      const answered = answerNextApproval(true);
      const { text } = await invoke(TOOL, {
        command: [
          `curl -sS --max-time 20 ${url('allowed.test', '/plain')}`,
          `curl -sS --max-time 20 --proxytunnel ${url('allowed.test', '/tunnel')}`,
          `curl -sS --max-time 20 --proxy "$ALL_PROXY" ${url('allowed.test', '/socks')}`,
          `curl -sS --max-time 20 ${url('denied.test')}`,
          'curl -sS --max-time 20 http://169.254.169.254/latest/meta-data/',
        ].join('; '),
      });
      await answered;
      assert.match(text, /hello from allowed\.test \/plain/);
      assert.match(text, /hello from allowed\.test \/tunnel/);
      assert.match(text, /hello from allowed\.test \/socks/);
      assert.match(text, /denied\.test is in workspaceAgentTools\.runCommand\.deniedDomains/);
      assert.match(text, /169\.254\.169\.254 is a cloud metadata address/);
      assert.equal(host('denied.test').hits, before);
      assert.match(text, /^Sandbox: bubblewrap: .*network through the proxy: 1 domain reached \(allowed\.test\), 2 refused \(169\.254\.169\.254, denied\.test\)/m);
      assert.deepEqual(await pending(), []);
    });
  });

  it('asks once about another domain, naming the command; Allow for This Command reaches it, Deny refuses it', async () => {
    const before = host('asked.test').hits;
    const answered = answerNextApproval(true);
    const call = invoke(TOOL, { command: `curl -sS --max-time 60 ${url('asked.test', '/first')}; curl -sS --max-time 60 ${url('asked.test', '/second')}` });
    await answered;
    const question = await domainQuestion('asked.test');
    assert.match(question.title, /reach asked\.test/);
    assert.match(question.detail, /curl -sS --max-time 60 http:\/\/asked\.test/);
    assert.equal(host('asked.test').hits, before, 'nothing reached it before the answer');
    assert.equal(await vscode.commands.executeCommand<boolean>(CommandId.approve), true);
    const { text } = await call;
    assert.match(text, /hello from asked\.test \/first/);
    assert.match(text, /hello from asked\.test \/second/);
    assert.match(text, /1 domain reached \(asked\.test\), 0 refused/);

    // "This command" only: the next command asks again, and Deny refuses.
    const answeredAgain = answerNextApproval(true);
    const refused = invoke(TOOL, { command: `curl -sS --max-time 60 ${url('asked.test', '/third')}` });
    await answeredAgain;
    await domainQuestion('asked.test');
    assert.equal(await vscode.commands.executeCommand<boolean>(CommandId.reject), true);
    const denied = await refused;
    assert.doesNotMatch(denied.text, /hello from asked\.test \/third/);
    assert.match(denied.text, /the user did not allow asked\.test/);
    assert.equal(host('asked.test').hits, before + 2);
  });

  it('Allow for This Session reaches the domain from later commands without asking; Always Allow saves it to allowedDomains', async () => {
    await withSettings({ 'runCommand.allowedDomains': [] }, async () => {
      let answered = answerNextApproval(true);
      let call = invoke(TOOL, { command: `curl -sS --max-time 60 ${url('session.test', '/one')}` });
      await answered;
      await domainQuestion('session.test');
      assert.equal(await vscode.commands.executeCommand<boolean>(CommandId.approveAlternative), true);
      assert.match((await call).text, /hello from session\.test \/one/);
      answered = answerNextApproval(true);
      const later = await invoke(TOOL, { command: `curl -sS --max-time 60 ${url('session.test', '/two')}` });
      await answered;
      assert.match(later.text, /hello from session\.test \/two/);

      answered = answerNextApproval(true);
      call = invoke(TOOL, { command: `curl -sS --max-time 60 ${url('always.test', '/one')}` });
      await answered;
      await domainQuestion('always.test');
      // The domains named exactly as the question offers them: saved without the dialog (modal dialogs are refused in tests).
      assert.equal(await vscode.commands.executeCommand<boolean>(CommandId.approveAlways, ['always.test']), true);
      assert.match((await call).text, /hello from always\.test \/one/);
      const saved = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<string[]>('runCommand.allowedDomains')?.globalValue;
      assert.deepEqual(saved, ['always.test']);
    });
  });

  it('makes a background server reachable from the machine at its own port while it runs, and names it in the result', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const get = (): Promise<string> =>
      new Promise((resolve) => {
        http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 10_000 }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve(body));
        }).on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
      });
    const server = `${process.execPath} -e "require('http').createServer((q, r) => r.end('served in the sandbox')).listen(${port}, () => console.log('ready'))"`;
    const answered = answerNextApproval(true);
    const { text } = await invoke(TOOL, { command: server, background: true, wait_for: 'ready' });
    await answered.catch(() => undefined);
    assert.match(text, new RegExp(`^Listening, reachable on this machine while it runs: http://127\\.0\\.0\\.1:${port}\\.$`, 'm'));
    assert.match(text, /^Sandbox: bubblewrap/m);
    assert.equal(await get(), 'served in the sandbox');
    const id = /^id: (\S+)$/m.exec(text)?.[1];
    assert.ok(id, text);
    await invoke('workspace_stop_command', { id });
    assert.equal(await get(), 'error ECONNREFUSED');
  });

  it('asks before an approved command connects to a port of the machine, naming it; Always Allow saves the port to allowedLocalPorts', async () => {
    const own = http.createServer((_request, response) => response.end('the user\'s dev server\n'));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const port = (own.address() as net.AddressInfo).port;
    try {
      await withSettings({ 'runCommand.allowedLocalPorts': [] }, async () => {
        const answered = answerNextApproval(true);
        const call = invoke(TOOL, { command: `curl -sS --max-time 60 http://localhost:${port}/` });
        await answered;
        let question: ApprovalRequest | undefined;
        await until(async () => {
          question = (await pending()).find((request) => request.kind === 'network' && request.allowLocalPorts?.includes(port));
          return question !== undefined;
        }, `the question about port ${port}`);
        assert.match(question?.title ?? '', new RegExp(`connect to port ${port} on this machine`));
        assert.match(question?.detail ?? '', /runs outside the sandbox, with your rights/);
        assert.equal(await vscode.commands.executeCommand<boolean>(CommandId.approveAlways, [String(port)]), true);
        assert.match((await call).text, /the user's dev server/);
        assert.deepEqual(vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<number[]>('runCommand.allowedLocalPorts')?.globalValue, [port]);
      });
    } finally {
      own.close();
    }
  });

  it('gives a command that ran without asking no network at all, allowed domains included', async () => {
    // bash's /dev/tcp: VS Code 1.139's chat.tools.terminal.autoApprove defaults make curl ask whatever runCommand.allow says.
    await withSettings({ 'runCommand.allow': ['bash'], 'runCommand.allowedDomains': ['allowed.test'] }, async () => {
      const before = host('allowed.test').hits;
      const target = host('allowed.test');
      let settled = false;
      const call = invoke(TOOL, { command: `bash -c 'echo "proxy=\${HTTP_PROXY:-none}"; exec 3<>/dev/tcp/${target.address}/${target.port} && echo reached || echo "no connection: E"'` }).finally(() => (settled = true));
      await until(async () => settled || (await pending()).length > 0, 'the command to end or ask');
      if (!settled) {
        await vscode.commands.executeCommand(CommandId.reject);
        await call.catch(() => undefined);
        assert.fail('the command asked, so this test proves nothing: it must run without asking');
      }
      const { text } = await call;
      assert.match(text, /^Sandbox: bubblewrap: .*no network/m);
      assert.match(text, /^proxy=none$/m);
      assert.match(text, /no connection: E/);
      assert.doesNotMatch(text, /^reached$/m);
      assert.equal(host('allowed.test').hits, before);
    });
  });
});
