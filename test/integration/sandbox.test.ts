// The command sandbox in the real extension host, through vscode.lm.invokeTool: what an approved
// command still cannot touch, the network rule, and what happens when the sandbox is missing.
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, invokeError, until, withSettings, workspaceRoot } from './support/tools';
import type { ApprovalRequest } from '../../src/core/ports/approval';
import { CommandId } from '../../src/vscode/commandIds';

const TOOL = 'workspace_run_command';

describe('the command sandbox (extension host)', function () {
  let root: string;
  let scratch: string;
  const canary = path.join(os.homedir(), '.ssh', `wat-sandbox-canary-${process.pid}`);
  let madeSshFolder = false;

  before(function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    root = workspaceRoot();
    scratch = path.join(root, 'sandbox-scratch');
    fs.mkdirSync(scratch, { recursive: true });
    fs.writeFileSync(path.join(scratch, '.env'), 'SANDBOX_CANARY=workspace-dotenv-canary\n');
    madeSshFolder = !fs.existsSync(path.dirname(canary));
    fs.mkdirSync(path.dirname(canary), { recursive: true, mode: 0o700 });
    fs.writeFileSync(canary, 'home-ssh-canary\n', { mode: 0o600 });
  });

  after(() => {
    fs.rmSync(canary, { force: true });
    if (madeSshFolder) fs.rmSync(path.dirname(canary), { recursive: true, force: true });
  });

  it('names the sandbox in the result of a command that ran without asking', async () => {
    const { text } = await invoke(TOOL, { command: 'pwd' });
    assert.match(text, /^Sandbox: bubblewrap: .*no network(; \d+ secret environment variables? withheld \(.*\))?$/m);
  });

  it('keeps an approved command from writing outside the workspace', async () => {
    const outside = path.join(os.homedir(), `wat-sandbox-escape-${process.pid}`);
    try {
      const answered = answerNextApproval(true);
      const { text } = await invoke(TOOL, { command: `echo approved-ran; touch ${outside}` });
      await answered;
      // bubblewrap's own start-up errors also say "Read-only file system": the shell must have run.
      assert.match(text, /^approved-ran$/m);
      assert.equal(fs.existsSync(outside), false);
      assert.match(text, /Read-only file system/);
      assert.match(text, /The sandbox may have caused this failure/);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it('keeps ~/.ssh and the workspace\'s .env unreadable to an approved command', async () => {
    await withSettings({ riskLevel: 'high' }, async () => {
      const answered = answerNextApproval(true);
      const { text } = await invoke(TOOL, { command: `echo approved-ran; cat ${canary} sandbox-scratch/.env; ls -A ~/.ssh` });
      await answered;
      assert.match(text, /^approved-ran$/m);
      assert.doesNotMatch(text, /home-ssh-canary|workspace-dotenv-canary/);
      assert.doesNotMatch(text, /--- stdout ---\n[^\n]*wat-sandbox-canary/);
    });
  });

  it('keeps an approved command from changing .git/config, .git/hooks or .vscode', async () => {
    // At risk level high the guard only asks before these writes, so the sandbox is what stops them.
    await withSettings({ riskLevel: 'high' }, () => protectedWrites());
  });

  async function protectedWrites(): Promise<void> {
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n\tbare = false\n');
    fs.mkdirSync(path.join(root, '.vscode'), { recursive: true });
    const before = fs.readdirSync(path.join(root, '.vscode')).sort();
    const answered = answerNextApproval(true);
    const { text } = await invoke(TOOL, { command: 'echo approved-ran; echo "[core] fsmonitor = touch pwned" >> .git/config; echo evil > .git/hooks/post-checkout; echo {} > .vscode/tasks.json' });
    await answered;
    assert.match(text, /^approved-ran$/m);
    assert.equal(fs.readFileSync(path.join(root, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
    assert.equal(fs.existsSync(path.join(root, '.git', 'hooks', 'post-checkout')), false);
    assert.deepEqual(fs.readdirSync(path.join(root, '.vscode')).sort(), before);
  }

  it('keeps a nested repository\'s config and the extension storage of every window from an approved command', async () => {
    const { text: first } = await invoke(TOOL, { command: 'pwd' });
    const log = /^Full log: (\S+)/m.exec(first)?.[1] ?? assert.fail(first);
    // <user data>/User/workspaceStorage/<window>/<extension>/command-logs/<log>
    const storageRoot = path.dirname(path.dirname(path.dirname(path.dirname(log))));
    const otherWindow = path.join(storageRoot, `wat-other-window-${process.pid}`);
    const nested = path.join(scratch, 'nested', '.git');
    fs.mkdirSync(otherWindow, { recursive: true });
    fs.writeFileSync(path.join(otherWindow, 'checkpoint-canary'), 'other-window-canary\n');
    fs.mkdirSync(nested, { recursive: true });
    fs.writeFileSync(path.join(nested, 'config'), '[core]\n');
    try {
      await withSettings({ riskLevel: 'high' }, async () => {
        const answered = answerNextApproval(true);
        const { text } = await invoke(TOOL, { command: `sh -c 'cat ${otherWindow}/checkpoint-canary; echo evil >> sandbox-scratch/nested/.git/config'` });
        await answered;
        assert.doesNotMatch(text, /other-window-canary/);
        assert.match(text, /checkpoint-canary: No such file or directory/);
        assert.match(text, /config: Read-only file system/);
        assert.equal(fs.readFileSync(path.join(nested, 'config'), 'utf8'), '[core]\n');
      });
    } finally {
      fs.rmSync(otherWindow, { recursive: true, force: true });
      fs.rmSync(path.dirname(nested), { recursive: true, force: true });
    }
  });

  describe('the network', () => {
    let server: net.Server;
    let port = 0;
    before(async () => {
      server = net.createServer((socket) => socket.end('hello over loopback\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as net.AddressInfo).port;
    });
    after(() => server.close());

    // bash's /dev/tcp, not this host's node: a node kept under /tmp (VS Code 1.139's Node 24 in a
    // repository cloned there) is hidden by the sandbox's private /tmp.
    const probe = (): string => `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && head -n 1 <&3 || echo "no connection: E"'`;

    it('cannot be reached on loopback by a command that ran without asking', async () => {
      await withSettings({ 'runCommand.allow': ['bash'] }, async () => {
        const { text } = await invoke(TOOL, { command: probe() });
        assert.match(text, /no connection: E/);
        assert.match(text, /no network/);
      });
    });

    it('is reached by a command the user approved only after a question naming the port; refused, the connection is reset (network.test.ts)', async () => {
      const answered = answerNextApproval(true);
      const call = invoke(TOOL, { command: probe() });
      await answered;
      let question: ApprovalRequest | undefined;
      await until(async () => {
        question = ((await vscode.commands.executeCommand<readonly ApprovalRequest[]>(CommandId.listPendingApprovals)) ?? []).find((request) => request.kind === 'network' && request.allowLocalPorts?.includes(port));
        return question !== undefined;
      }, `the question about port ${port}`);
      assert.match(question?.title ?? '', new RegExp(`connect to port ${port} on this machine`));
      assert.equal(await vscode.commands.executeCommand<boolean>(CommandId.reject), true);
      const { text } = await call;
      assert.match(text, /no connection: E/);
      assert.doesNotMatch(text, /hello over loopback/);
      assert.match(text, /network through the proxy: 0 domains reached, 1 refused \(127\.0\.0\.1\)/);
    });
  });

  it('runs outside the sandbox only when the user picks that answer', async () => {
    const outside = path.join(os.homedir(), `wat-sandbox-outside-${process.pid}`);
    try {
      const answered = (async () => {
        for (let tries = 0; tries < 200; tries += 1) {
          if (await vscode.commands.executeCommand<boolean>(CommandId.approveAlternative)) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const waiting = await vscode.commands.executeCommand<unknown[]>(CommandId.listPendingApprovals);
        throw new Error(`no question with a third answer was asked; waiting: ${JSON.stringify(waiting)}`);
      })();
      const { text } = await invoke(TOOL, { command: `touch ${outside}` });
      await answered;
      assert.match(text, /Sandbox: none, it ran outside the sandbox \(the user chose to run it outside the sandbox\)/);
      assert.equal(fs.existsSync(outside), true);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it('refuses to run anything in required mode when bubblewrap is missing', async () => {
    await withSettings({ 'runCommand.sandbox': 'required', 'runCommand.bubblewrapPath': '/nonexistent/bwrap' }, async () => {
      const message = await invokeError(TOOL, { command: 'touch sandbox-scratch/required-ran' });
      assert.match(message, /runCommand.sandbox is "required" and there is no sandbox: bubblewrap was not found at \/nonexistent\/bwrap/);
      assert.equal(fs.existsSync(path.join(scratch, 'required-ran')), false);
    });
  });

  it('asks before every command in auto mode when bubblewrap is missing, and says why', async () => {
    await withSettings({ 'runCommand.bubblewrapPath': '/nonexistent/bwrap' }, async () => {
      const pending = invokeError(TOOL, { command: 'pwd' });
      let question = '';
      for (let tries = 0; tries < 200 && !question; tries += 1) {
        const waiting = await vscode.commands.executeCommand<{ detail: string }[]>(CommandId.listPendingApprovals);
        question = waiting[0]?.detail ?? '';
        if (!question) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.match(question, /OUTSIDE the sandbox.*there is no sandbox on this machine: bubblewrap was not found/);
      await vscode.commands.executeCommand(CommandId.reject);
      assert.match(await pending, /The user declined/);
    });
  });
});
