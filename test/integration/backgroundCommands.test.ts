// Background commands in the real extension host, through vscode.lm.invokeTool: a small HTTP
// server started with wait_for, talked to by a foreground command, read incrementally, stopped (its
// port freed, a TERM-ignoring grandchild gone), the limit, shutdown, and what is left when the host exits.
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import * as vscode from 'vscode';
import { CommandId, ViewId } from '../../src/vscode/commandIds';
import { answerNextApproval, invoke, invokeError, screenshot, until, withSettings, workspaceRoot } from './support/tools';
import { processesWithCommandLine } from '../support/procfs';
import { backgroundId, stdoutOf } from '../support/commandResults';

const RUN = 'workspace_run_command';
const OUTPUT = 'workspace_command_output';
const STOP = 'workspace_stop_command';

/** The server the tests start: it prints its port when ready and one line per request. */
const SERVER_SCRIPT = `
const http = require('http');
let count = 0;
const server = http.createServer((request, response) => {
  count += 1;
  console.log('request ' + count + ' ' + request.url);
  response.end('hello from the background server ' + count + '\\n');
});
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/** A Node for the server outside /tmp (the sandbox hides the host's /tmp): the system's if there is one. */
function nodeBinary(): string {
  return fs.existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
}

/** Whether something accepts connections on the loopback port, tried from the extension host. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface Listed {
  running: { id: string; commandLine: string; waitingFor?: string }[];
  statusBarText: string;
  statusBarTooltip: string;
  statusBarWarning: boolean;
}

interface Row {
  label: string;
  description: string;
  contextValue: string;
  icon?: string;
}

const viewRows = async (): Promise<Row[]> => (await vscode.commands.executeCommand<Row[]>(CommandId.activityViewRows)) ?? [];

const listed = async (): Promise<Listed> => (await vscode.commands.executeCommand<Listed>(CommandId.listBackgroundCommands)) ?? { running: [], statusBarText: '', statusBarTooltip: '', statusBarWarning: false };

/** A sleep of a length no other process uses, so it can be found in /proc: this host's pid in it keeps
 * it apart from another version's host running at the same time (run-integration --side-by-side). */
const uniqueSleep = (): number => 10_000 * process.pid + 1000 + Math.floor(Math.random() * 8000);

describe('background commands (extension host)', function () {
  this.timeout(60_000);
  let scratch: string;

  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
    scratch = path.join(workspaceRoot(), 'background-scratch');
    fs.mkdirSync(scratch, { recursive: true });
    fs.writeFileSync(path.join(scratch, 'server.js'), SERVER_SCRIPT);
  });

  afterEach(async function () {
    // Nothing a test started may leak into the next one (shutdown.last.test.ts leaves some on purpose).
    await vscode.commands.executeCommand(CommandId.stopCommandsAsOnShutdown);
  });

  it('serves a foreground command from a server started with wait_for, reads its output once, and frees the port on stop', async () => {
    // A server run outside the sandbox, reached by sandboxed clients through the proxy, where
    // 127.0.0.1 is named in allowedDomains. (A sandboxed background server is reached through the
    // port forwards: network.test.ts.)
    const approvedServer = answerNextApproval(true);
    const started = await invoke(RUN, { command: `${nodeBinary()} server.js`, cwd: 'background-scratch', background: true, wait_for: '^listening on \\d+$', permissions: 'unsandboxed' });
    await approvedServer;
    assert.match(started.text, /^Started in the background; a line matched wait_for/);
    assert.match(started.text, /^Status: running$/m);
    const port = Number(/listening on (\d+)/.exec(started.text)?.[1]);
    assert.ok(port > 0, started.text);
    const id = backgroundId(started.text);

    const seen: string[] = [stdoutOf(started.text)];
    for (let request = 1; request <= 3; request += 1) {
      const approvedClient = answerNextApproval(true);
      const client = await withSettings({ 'runCommand.allowedDomains': ['127.0.0.1'] }, () => invoke(RUN, { command: `curl -s --noproxy '' http://127.0.0.1:${port}/r${request}` }));
      await approvedClient;
      assert.match(client.text, /^Exit code: 0/);
      assert.match(stdoutOf(client.text), new RegExp(`^hello from the background server ${request}$`));
      const output = await invoke(OUTPUT, { id, wait_for: `^request ${request} `, timeout: 10 });
      assert.match(output.text, /^A line matched wait_for/);
      seen.push(stdoutOf(output.text));
    }
    const lines = seen.join('\n').split('\n').filter((line) => line !== '(no new output)');
    assert.deepStrictEqual(lines, [`listening on ${port}`, 'request 1 /r1', 'request 2 /r2', 'request 3 /r3'], 'every line once, in order');

    assert.strictEqual(await portOpen(port), true);
    const stopped = await invoke(STOP, { id });
    assert.match(stopped.text, /^Status: killed \(stopped on request\)$/m);
    assert.strictEqual(await portOpen(port), false, 'the port is free after stop');
    assert.match(await invokeError(OUTPUT, { id: 'bg99999' }), /There is no background command with id "bg99999"\. No background command is running\./);
  });

  for (const sandbox of ['auto', 'off'] as const) {
    it(`ends a grandchild that ignores TERM when the command is stopped (sandbox ${sandbox})`, async () => {
      const seconds = uniqueSleep();
      const approved = answerNextApproval(true);
      const { text } = await withSettings({ 'runCommand.sandbox': sandbox }, () =>
        invoke(RUN, { command: `sh -c 'trap "" TERM; echo ignoring TERM; sleep ${seconds}' & wait`, background: true, wait_for: 'ignoring TERM' }),
      );
      await approved;
      assert.match(text, sandbox === 'off' ? /^Sandbox: none/m : /^Sandbox: bubblewrap/m);
      await until(() => processesWithCommandLine(`sleep ${seconds}`).length === 1, 'the grandchild to start');
      const started = Date.now();
      await invoke(STOP, { id: backgroundId(text) });
      assert.deepStrictEqual(processesWithCommandLine(`sleep ${seconds}`), []);
      // Outside the sandbox nothing but the KILL after the grace can end it (in it, the pid namespace does).
      if (sandbox === 'off') assert.ok(Date.now() - started >= 1900, `stopped after ${Date.now() - started} ms`);
    });
  }

  it('moves a foreground command still running at its timeout to the background, in the same terminal, and reads on', async () => {
    const seconds = uniqueSleep();
    const { text } = await invoke(RUN, { command: `echo before-the-move; sleep ${seconds}`, timeout: 2 });
    assert.match(text, /^Still running after 2 s: moved to the background at the timeout instead of being stopped/);
    const id = backgroundId(text);
    assert.match(text, /^Status: running$/m);
    assert.equal(stdoutOf(text), 'before-the-move');
    assert.equal(processesWithCommandLine(`sleep ${seconds}`).length, 1, 'the command was not stopped');
    assert.ok((await listed()).running.some((command) => command.id === id), 'the Activity view lists it');
    const transcript = async (): Promise<string> => (await vscode.commands.executeCommand<{ name: string; text: string }>(CommandId.lastCommandTerminal))?.text ?? '';
    await until(async () => new RegExp(`before-the-move\\r\\n[\\s\\S]*moved to the background as ${id} at its timeout`).test(await transcript()), 'the terminal to say the command moved to the background');
    const output = await invoke(OUTPUT, { id });
    assert.match(output.text, /^Status: running$/m);
    assert.match(output.text, /--- stdout ---\n\(no new output\)/);
    const stopped = await invoke(STOP, { id });
    assert.match(stopped.text, /^Status: killed \(stopped on request\)$/m);
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length === 0, 'the moved command to end', 5000);
    await until(async () => new RegExp(`killed \\(stopped on request\\) \\([\\d.]+ s, background command ${id}\\)`).test(await transcript()), 'the same terminal to show its end');
  });

  it('refuses the sixth background command with the ids of the five running, and shows them in the status bar', async () => {
    const ids: string[] = [];
    const seconds = uniqueSleep();
    for (let i = 0; i < 5; i += 1) ids.push(backgroundId((await invoke(RUN, { command: `sleep ${seconds + i}`, background: true, timeout: 1 })).text));
    const message = await invokeError(RUN, { command: `sleep ${seconds + 5}`, background: true, timeout: 1 });
    assert.match(message, /^5 background commands are already running/);
    for (const [i, id] of ids.entries()) assert.ok(message.includes(`${id} (sleep ${seconds + i})`), message);
    const { running: listedRunning, statusBarText } = await listed();
    assert.deepStrictEqual(listedRunning.map((command) => command.id), ids);
    assert.strictEqual(statusBarText, '$(terminal) 5 running');
    const rows = await viewRows();
    assert.deepStrictEqual(rows.slice(0, 5).map((row) => [row.label, row.contextValue]), ids.map((id, i) => [`${id} sleep ${seconds + i}`, 'backgroundCommand']));
    for (const row of rows.slice(0, 5)) assert.match(row.description, /^running · \d+ s$/);
    assert.notStrictEqual(rows[5]?.contextValue, 'backgroundCommand', 'the calls follow the running commands');
    await vscode.commands.executeCommand(`${ViewId.activity}.focus`);
    await screenshot('background-commands-activity-view');
  });

  it('stops a command from the Stop command, as the Activity view and the palette do', async () => {
    const seconds = uniqueSleep();
    const id = backgroundId((await invoke(RUN, { command: `sleep ${seconds}`, background: true, timeout: 1 })).text);
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length === 1, 'the sleep to start');
    assert.strictEqual(await vscode.commands.executeCommand(CommandId.stopBackgroundCommand, { kind: 'backgroundCommand', id }), 'killed (stopped on request)');
    assert.deepStrictEqual(processesWithCommandLine(`sleep ${seconds}`), []);
    assert.match((await invoke(OUTPUT, { id })).text, /^Status: killed \(stopped on request\)$/m);
  });

  it('shows a command waiting for input in the Activity view and the status bar, and answers it with Send Input (screenshot)', async () => {
    const commandLine = 'printf "Continue? [y/N] "; read a; echo "got:$a"';
    const { text } = await withSettings({ 'runCommand.allow': ['printf', 'read', 'echo'] }, () => invoke(RUN, { command: commandLine, timeout: 20, interactive: true }));
    assert.match(text, /waiting for input: Continue\? \[y\/N\]/);
    const id = backgroundId(text);

    const before = await listed();
    assert.deepStrictEqual(before.running.map((command) => [command.id, command.waitingFor]), [[id, 'Continue? [y/N]']]);
    assert.strictEqual(before.statusBarText, '$(terminal) 1 running, 1 waiting for input');
    assert.ok(before.statusBarTooltip.includes(`${id}: ${commandLine} (waiting for input: Continue? [y/N])`), before.statusBarTooltip);
    assert.strictEqual(before.statusBarWarning, true, 'the status bar item warns while a command waits');
    const row = (await viewRows())[0];
    assert.deepStrictEqual(row, { label: `${id} ${commandLine}`, description: 'waiting for input · Continue? [y/N]', contextValue: 'backgroundCommand.waiting', icon: 'question' });

    // The side bar widened so the row shows the prompt: the editor group has the focus and gives up room.
    await vscode.commands.executeCommand(`${ViewId.activity}.focus`);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    const steps = 5;
    for (let i = 0; i < steps; i += 1) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    try {
      await screenshot('background-command-waiting-for-input');
    } finally {
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      for (let i = 0; i < steps; i += 1) await vscode.commands.executeCommand('workbench.action.increaseViewWidth');
    }

    // Input that is not input changes nothing: the command still waits.
    assert.strictEqual(await vscode.commands.executeCommand(CommandId.sendInputToBackgroundCommand, id, 'y', 'ctrl-z'), undefined);
    assert.strictEqual((await listed()).running[0]?.waitingFor, 'Continue? [y/N]');

    assert.strictEqual(await vscode.commands.executeCommand(CommandId.sendInputToBackgroundCommand, id, 'y'), `Sent "y" and Enter to ${id}.`);
    const output = await invoke(OUTPUT, { id, timeout: 10 });
    assert.match(output.text, /^Status: exited 0$/m);
    assert.match(stdoutOf(output.text), /got:y$/);
    const after = await listed();
    assert.deepStrictEqual(after.running, []);
    assert.strictEqual(after.statusBarWarning, false);
    assert.strictEqual(await vscode.commands.executeCommand(CommandId.sendInputToBackgroundCommand, id, 'y'), undefined, 'an ended command takes no input');
  });

  it('sends a line the person types in the command\'s own terminal to its input, echoed and edited with Backspace', async () => {
    const commandLine = `read a; echo "typed:$a" # ${uniqueSleep()}`;
    const { text } = await withSettings({ 'runCommand.allow': ['read', 'echo'] }, () => invoke(RUN, { command: commandLine, background: true, timeout: 1, interactive: true }));
    const id = backgroundId(text);
    const terminal = vscode.window.terminals.filter((candidate) => candidate.name.startsWith('read a; echo "typed:')).pop();
    assert.ok(terminal, `a terminal named for ${commandLine} among ${vscode.window.terminals.map((each) => each.name).join(', ')}`);
    terminal.sendText('bobx\u007f', false);
    terminal.sendText('', true);
    const output = await invoke(OUTPUT, { id, wait_for: '^typed:', timeout: 10 });
    assert.match(stdoutOf(output.text), /^typed:bob$/m);
    const transcript = (await vscode.commands.executeCommand<{ name: string; text: string }>(CommandId.lastCommandTerminal))?.text ?? '';
    assert.ok(transcript.includes('bobx\b \b\r\n'), JSON.stringify(transcript.slice(-300)));
  });

  it('ends every group, sandboxed or not, when the extension deactivates', async () => {
    const seconds = uniqueSleep();
    await invoke(RUN, { command: `sleep ${seconds}`, background: true, timeout: 1 });
    const outside = await withSettings({ 'runCommand.sandbox': 'off' }, () => invoke(RUN, { command: `sleep ${seconds + 1}`, background: true, timeout: 1 }));
    assert.match(outside.text, /^Sandbox: none/m);
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length + processesWithCommandLine(`sleep ${seconds + 1}`).length === 2, 'both sleeps to start');
    await vscode.commands.executeCommand(CommandId.stopCommandsAsOnShutdown);
    assert.deepStrictEqual([...processesWithCommandLine(`sleep ${seconds}`), ...processesWithCommandLine(`sleep ${seconds + 1}`)], []);
    assert.deepStrictEqual((await listed()).running, []);
  });

  it('stops a background command whose call was cancelled while it waited for wait_for', async () => {
    const seconds = uniqueSleep();
    const source = new vscode.CancellationTokenSource();
    const pending = invoke(RUN, { command: `sleep ${seconds}`, background: true, wait_for: 'never printed' }, source.token);
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length === 1, 'the command to start');
    source.cancel();
    assert.match(await pending.then((result) => result.text, (error: Error) => error.message), /cancel/i);
    // VS Code 1.139 rejects the call as soon as it is cancelled, before the tool has stopped the command.
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length === 0, 'the cancelled command to end', 5000);
    await until(async () => (await listed()).running.length === 0, 'the registry to see it ended', 5000);
  });
});

describe('background commands in Restricted Mode (extension host)', () => {
  it('refuses to start one, and answers output and stop with the (empty) list of running ids', async function () {
    if (vscode.workspace.isTrusted) this.skip();
    assert.match(await invokeError(RUN, { command: 'sleep 5', background: true }), /^workspace_run_command is not available because this workspace is not trusted/);
    assert.match(await invokeError(OUTPUT, { id: 'bg1' }), /No background command is running/);
    assert.match(await invokeError(STOP, { id: 'bg1' }), /No background command is running/);
  });
});
