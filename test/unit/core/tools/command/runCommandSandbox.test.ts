// workspace_run_command in the real bubblewrap sandbox (installed by .ci/run): what an approved
// command still cannot do, the network rule, and who is asked when the sandbox is left or missing.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import type { ToolSettings } from '../../../../../src/core/settings';
import { commandWorkspace } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { requireProgram } from '../../../support/programs';

/** Some confirmation chat showed for the call, and the user accepted: none answers the extension's own questions. */
const CHAT_SAID_YES = 'Run this command?';

describe('tools/runCommand in the sandbox', () => {
  const workspace = commandWorkspace();
  let home = '';

  before(() => {
    const root = workspace.root;
    // Outside /tmp, which the sandbox replaces anyway: hiding ~/.ssh must be what keeps it unseen.
    home = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'wat-home-'));
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-BYTES\n');
    fs.writeFileSync(path.join(root, '.env'), 'API_TOKEN=dotenv-secret\n');
    fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(root, 'sub', '.env.local'), 'NESTED=nested-secret\n');
    fs.writeFileSync(path.join(root, '.env.example'), 'a template anyone may read\n');
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n\tbare = false\n');
    fs.writeFileSync(path.join(root, 'project.code-workspace'), '{}\n');
  });

  after(() => fs.rmSync(home, { recursive: true, force: true }));

  /** Runs a call with the fake home as the guard's home, approving when asked unless told otherwise. */
  async function run(input: Record<string, unknown>, options: { approve?: boolean; settings?: Partial<ToolSettings>; chatConfirmation?: string; choice?: 'accept' | 'alternative' | 'reject' } = {}) {
    const { ctx, approver } = workspace.setup({ approve: options.approve ?? true, settings: options.settings });
    approver.choice = options.choice;
    const call = { ...ctx, workspace: { ...ctx.workspace, home }, call: { ...ctx.call, ...(options.chatConfirmation !== undefined ? { chatConfirmation: options.chatConfirmation } : {}) } };
    const result = await invokeTool(runCommandTool, input, call).then(resultText, (error: Error) => `ERROR ${error.message}`);
    return { text: result, approver };
  }

  it('names the sandbox in the result of a command that ran without asking', async () => {
    const { text, approver } = await run({ command: 'ls' });
    assert.equal(approver.asked.length, 0);
    assert.match(text, /^Sandbox: bubblewrap: .*no network(; \d+ secret environment variables? withheld \(.*\))?$/m);
  });

  it('keeps an approved command from writing outside the workspace, and says the sandbox may be why it failed', async () => {
    const outside = path.join(os.homedir(), `wat-escape-${process.pid}.txt`);
    try {
      const { text, approver } = await run({ command: `echo escaped > ${outside}` });
      assert.equal(approver.asked.length, 1);
      assert.equal(fs.existsSync(outside), false);
      assert.match(text, /Read-only file system/);
      assert.match(text, /The sandbox may have caused this failure.*permissions: "unsandboxed"/);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it('gives the command a private /tmp: what it writes there never reaches the real one', async () => {
    const besideWorkspace = path.join(workspace.parent, 'in-private-tmp.txt');
    const { text } = await run({ command: `echo private > ${besideWorkspace} && cat ${besideWorkspace}` });
    assert.match(text, /^Exit code: 0/);
    assert.equal(fs.existsSync(besideWorkspace), false);
  });

  it('lets an approved command write in the workspace and in its private /tmp', async () => {
    const { text } = await run({ command: 'echo made > made.txt && echo t > /tmp/t && cat /tmp/t' });
    assert.match(text, /^Exit code: 0/);
    assert.equal(fs.readFileSync(path.join(workspace.root, 'made.txt'), 'utf8'), 'made\n');
  });

  it('hides ~/.ssh and every .env file of the workspace from an approved command, but not the templates', async () => {
    // At risk level high the guard only asks for these reads, so the sandbox is what stops them.
    const { text } = await run({ command: `cat ${home}/.ssh/id_rsa; cat .env sub/.env.local; cat .env.example` }, { settings: { riskLevel: 'high' } });
    assert.doesNotMatch(text, /PRIVATE-KEY-BYTES|dotenv-secret|nested-secret/);
    assert.match(text, /a template anyone may read/);
  });

  it('hides the extension\'s private folders (the MCP endpoint\'s sockets and lock files) from an approved command', async () => {
    const folder = workspace.privateFolder;
    const { text } = await run({ command: `cat ${folder}/endpoint.lock; ls -A ${folder}; echo listed` });
    assert.doesNotMatch(text, /NONCE-BYTES|endpoint\.lock\n/);
    assert.match(text, /listed/);
  });

  it('lets searches the policy allows through hidden and ignored files find what is there but no .env content', async () => {
    requireProgram('rg');
    requireProgram('git');
    fs.writeFileSync(path.join(workspace.root, 'sub', 'notes.txt'), 'the secret handshake is public\n');
    const { text, approver } = await run({ command: 'rg --hidden -uu -n secret; echo "rg: $?"; grep -rn secret .; echo "grep: $?"' });
    assert.equal(approver.asked.length, 0, approver.asked.map((request) => request.detail).join('\n'));
    // Each finds the file anyone may read; the hidden .env files are unreadable (exit 2: an error besides the match).
    assert.match(text, /^sub\/notes\.txt:1:the secret handshake is public\nrg: 2$/m, text);
    assert.match(text, /^\.\/sub\/notes\.txt:1:the secret handshake is public\ngrep: 2$/m, text);
    assert.match(text, /^\.env: Permission denied/m);
    // git grep in a repository (the workspace's .git holds only a config; a nested repository asks, approved here), still in the
    // sandbox: a tracked and an untracked file found, its .env not.
    const repo = path.join(workspace.root, 'sub', 'repo');
    fs.mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    fs.writeFileSync(path.join(repo, 'tracked.txt'), 'a tracked secret word\n');
    fs.writeFileSync(path.join(repo, 'loose.txt'), 'an untracked secret word\n');
    fs.writeFileSync(path.join(repo, '.env'), 'REPO_TOKEN=repo-secret\n');
    execFileSync('git', ['-C', repo, 'add', 'tracked.txt']);
    const grep = await run({ command: 'git grep --untracked -n secret', cwd: 'sub/repo' });
    assert.match(grep.text, /^loose\.txt:1:an untracked secret word$/m, grep.text);
    assert.match(grep.text, /^tracked\.txt:1:a tracked secret word$/m);
    assert.doesNotMatch(grep.text, /repo-secret/);
    assert.doesNotMatch(text, /dotenv-secret|nested-secret/);
  });

  it('keeps .git/config, .git/hooks, .vscode and *.code-workspace read-only, and leaves no trace of a .vscode that did not exist', async () => {
    const config = fs.readFileSync(path.join(workspace.root, '.git', 'config'), 'utf8');
    const { text } = await run({ command: 'echo "[core] fsmonitor = evil" >> .git/config; echo evil > .git/hooks/pre-commit; mkdir -p .vscode; echo {} > .vscode/tasks.json; echo {} > project.code-workspace; echo done' });
    assert.match(text, /done/);
    assert.equal(fs.readFileSync(path.join(workspace.root, '.git', 'config'), 'utf8'), config);
    assert.equal(fs.existsSync(path.join(workspace.root, '.git', 'hooks', 'pre-commit')), false);
    assert.equal(fs.existsSync(path.join(workspace.root, '.vscode')), false);
    assert.equal(fs.readFileSync(path.join(workspace.root, 'project.code-workspace'), 'utf8'), '{}\n');
  });

  describe('the network', () => {
    let server: net.Server;
    let port = 0;
    let connections = 0;
    let web: http.Server;
    let webPort = 0;
    before(async () => {
      server = net.createServer((socket) => {
        connections += 1;
        socket.end('hello from loopback\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as net.AddressInfo).port;
      web = http.createServer((_request, response) => response.end('hello through the proxy\n'));
      await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
      webPort = (web.address() as net.AddressInfo).port;
    });
    after(() => {
      server.close();
      web.close();
    });

    const probe = (): string => `${process.execPath} -e "require('net').connect(${port}, '127.0.0.1').on('data', (d) => process.stdout.write(String(d))).on('error', (e) => { console.log('no connection: ' + e.code); process.exit(3); })"`;
    const viaProxy = (): string => `curl -sS --max-time 20 --noproxy '' http://127.0.0.1:${webPort}/; echo " status=$?"`;

    it('is cut off, loopback included, for a command that ran without asking', async () => {
      const { text, approver } = await run({ command: probe() }, { settings: { runCommandAllow: ['node'] } });
      assert.equal(approver.asked.length, 0);
      assert.match(text, /no connection: E/);
      assert.equal(connections, 0);
      assert.match(text, /no network/);
      assert.match(text, /permissions: "network"/);
    });

    it('is only the proxy for a command the user approved: a connection to the machine\'s loopback, direct or through the proxy, is asked about by port, and needs no question when named', async () => {
      const portQuestions = (asked: readonly { kind: string; allowLocalPorts?: readonly number[] }[]) => asked.filter((request) => request.kind === 'network').map((request) => request.allowLocalPorts);
      const direct = await run({ command: probe() });
      assert.deepEqual(portQuestions(direct.approver.asked), [[port]], 'a program that ignores proxies meets the question too');
      assert.match(direct.text, /hello from loopback/);
      assert.match(direct.text, /network through the proxy: 1 domain reached \(127\.0\.0\.1\), 0 refused/);
      const proxied = await run({ command: viaProxy() });
      assert.deepEqual(portQuestions(proxied.approver.asked), [[webPort]]);
      assert.match(proxied.text, /hello through the proxy/);
      const named = await run({ command: viaProxy() }, { settings: { runCommandAllowedDomains: ['127.0.0.1'] } });
      assert.deepEqual(portQuestions(named.approver.asked), []);
      assert.match(named.text, /hello through the proxy/);
      assert.match(named.text, /network through the proxy: 1 domain reached \(127\.0\.0\.1\), 0 refused/);
    });

    it('is given to a command that did not ask only through the extension\'s own question, never a chat confirmation', async () => {
      const line = `curl -sS --max-time 20 --noproxy '' http://127.0.0.1:${webPort}/`;
      const declined = await run({ command: line, permissions: 'network' }, { approve: false, chatConfirmation: CHAT_SAID_YES, settings: { runCommandAllow: ['curl'], runCommandAllowedDomains: ['127.0.0.1'] } });
      assert.match(declined.text, /^ERROR The user declined/);
      assert.match(declined.approver.asked[0]?.detail ?? '', /in the sandbox WITH network access through the extension's proxy .*, because the call asked for the network/);
      const approved = await run({ command: line, permissions: 'network' }, { settings: { runCommandAllow: ['curl'], runCommandAllowedDomains: ['127.0.0.1'] } });
      assert.match(approved.text, /hello through the proxy/);
    });
  });

  describe('leaving the sandbox', () => {
    it('asks its own question even when chat confirmed the call, and runs outside only when the user says yes', async () => {
      const outside = path.join(workspace.parent, 'unsandboxed.txt');
      const declined = await run({ command: `echo out > ${outside}`, permissions: 'unsandboxed' }, { approve: false, chatConfirmation: CHAT_SAID_YES });
      assert.match(declined.text, /^ERROR The user declined/);
      assert.match(declined.approver.asked[0]?.detail ?? '', /OUTSIDE the sandbox/);
      assert.equal(fs.existsSync(outside), false);
      const approved = await run({ command: `echo out > ${outside}`, permissions: 'unsandboxed' }, { chatConfirmation: CHAT_SAID_YES });
      assert.match(approved.text, /Sandbox: none, it ran outside the sandbox \(the call asked to run outside the sandbox\)/);
      assert.equal(fs.readFileSync(outside, 'utf8'), 'out\n');
    });

    it('runs outside when the user picks Run Outside the Sandbox in the policy\'s question', async () => {
      const outside = path.join(workspace.parent, 'chosen.txt');
      const { text, approver } = await run({ command: `echo out > ${outside}` }, { choice: 'alternative' });
      assert.equal((approver.asked[0] as { alternative?: string }).alternative, 'Run Outside the Sandbox');
      assert.match(text, /Sandbox: none, it ran outside the sandbox \(the user chose to run it outside the sandbox\)/);
      assert.equal(fs.existsSync(outside), true);
    });

    it('refuses in required mode when bubblewrap is missing, and runs nothing', async () => {
      const { text, approver } = await run({ command: 'echo ran > required.txt' }, { settings: { runCommandSandbox: 'required', bubblewrapPath: '/nonexistent/bwrap' } });
      assert.match(text, /^ERROR The command was not run: workspaceAgentTools.runCommand.sandbox is "required" and there is no sandbox: bubblewrap was not found at \/nonexistent\/bwrap/);
      assert.equal(approver.asked.length, 0);
      assert.equal(fs.existsSync(path.join(workspace.root, 'required.txt')), false);
    });

    it('asks for every command, even a read-only one confirmed in chat, in auto mode when bubblewrap is missing', async () => {
      const { text, approver } = await run({ command: 'ls' }, { approve: false, chatConfirmation: CHAT_SAID_YES, settings: { bubblewrapPath: '/nonexistent/bwrap' } });
      assert.match(text, /^ERROR The user declined/);
      assert.match(approver.asked[0]?.detail ?? '', /OUTSIDE the sandbox.*there is no sandbox on this machine: bubblewrap was not found/);
    });

    it('says so in the result when the user turned the sandbox off', async () => {
      const { text } = await run({ command: 'ls' }, { settings: { runCommandSandbox: 'off' } });
      assert.match(text, /Sandbox: none, it ran outside the sandbox \(workspaceAgentTools.runCommand.sandbox is off\)/);
    });
  });
});
