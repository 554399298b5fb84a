// workspace_run_command in the real extension host: the process, its output, its terminal, its
// approval, and that every process it started has ended when the result comes back.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, invokeError, screenshot, until, workspaceRoot } from './support/tools';
import { processesWithCommandLine } from '../support/procfs';
import { CommandId } from '../../src/vscode/commandIds';

const TOOL = 'workspace_run_command';

function section(text: string, name: 'stdout' | 'stderr'): string {
  return new RegExp(`--- ${name} ---\\n([\\s\\S]*?)(?=\\n\\n--- |\\n\\[${name} was|\\n\\nFull log:)`).exec(text)?.[1] ?? '';
}

describe('workspace_run_command (extension host)', function () {
  let root: string;
  let scratch: string;

  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
    root = workspaceRoot();
    scratch = path.join(root, 'run-command-scratch');
    fs.mkdirSync(scratch, { recursive: true });
  });

  it('returns the exit code and stdout and stderr separately', async () => {
    const { text } = await invoke(TOOL, { command: 'echo to-stdout; echo to-stderr >&2' });
    assert.match(text, /^Exit code: 0\n/);
    assert.equal(section(text, 'stdout'), 'to-stdout');
    assert.equal(section(text, 'stderr'), 'to-stderr');
  });

  it('returns a failing command as a result with its exit code and error output', async () => {
    const { text } = await invoke(TOOL, { command: 'ls no-such-file-here' });
    assert.match(text, /^Exit code: 2\n/);
    assert.match(section(text, 'stderr'), /no-such-file-here/);
  });

  it('keeps output larger than the budget bounded, head and tail, with the full log readable', async () => {
    const { text } = await invoke(TOOL, { command: 'seq 1 300000' });
    const stdout = section(text, 'stdout');
    assert.ok(stdout.length < 31_000, `the model got ${stdout.length} characters`);
    assert.match(stdout, /^1\n2\n3\n/);
    assert.match(stdout, /\n300000$/);
    assert.match(text, /\[stdout was 1988895 characters; \d+ in the middle were left out/);
    const logPath = /Full log: (\S+)/.exec(text)?.[1] ?? '';
    const read = await invoke('workspace_read_file', { file_path: logPath, offset: 150_002, limit: 1 });
    assert.match(read.text, /^\s*150002\t150000$/m);
  });

  it('with on_timeout "kill", on timeout kills a child that ignores TERM and a background grandchild, and returns the output so far', async () => {
    // The command runs in the sandbox's own pid namespace, so its processes are found on the host by
    // their command lines: sleeps of a length no other process uses.
    const seconds = 600 + Math.floor(Math.random() * 300);
    const command = `sh -c 'trap "" TERM; echo ignoring; sleep ${seconds}' & (sleep ${seconds + 1} & wait) & wait`;
    const answered = answerNextApproval(true);
    const pending = invoke(TOOL, { command, cwd: 'run-command-scratch', timeout: 2, on_timeout: 'kill' });
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length + processesWithCommandLine(`sleep ${seconds + 1}`).length === 2, 'both sleeps to start');
    const { text } = await pending;
    await answered;
    assert.match(text, /^Timed out after 2 s/);
    assert.match(section(text, 'stdout'), /ignoring/);
    assert.deepEqual([...processesWithCommandLine(`sleep ${seconds}`), ...processesWithCommandLine(`sleep ${seconds + 1}`)], [], 'no process of the command survives');
  });

  it('stops the process group when the call is cancelled', async () => {
    const seconds = 600 + Math.floor(Math.random() * 300);
    const source = new vscode.CancellationTokenSource();
    // sleep and wait: the policy lets it run without asking.
    const pending = invoke(TOOL, { command: `sleep ${seconds} & wait` }, source.token);
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length === 1, 'the command to start');
    source.cancel();
    const outcome = await pending.then((result) => result.text, (error: Error) => error.message);
    assert.match(outcome, /Cancelled|cancel/i);
    await until(() => processesWithCommandLine(`sleep ${seconds}`).length === 0, 'the cancelled process to end', 5000);
  });

  it('refuses a cwd outside the workspace', async () => {
    const message = await invokeError(TOOL, { command: 'ls', cwd: path.dirname(root) });
    assert.match(message, /outside the workspace/);
  });

  it('shows the command and its output in a terminal named after it', async () => {
    await invoke(TOOL, { command: 'echo shown-in-terminal' });
    // The terminal shows output in batches (every 30 ms), so its transcript may trail the result a little.
    const read = () => vscode.commands.executeCommand<{ name: string; text: string }>(CommandId.lastCommandTerminal);
    const tail = async () => ((await read())?.text ?? '').slice(-2000);
    await until(async () => /shown-in-terminal\r\n[\s\S]*Exit code: 0/.test(await tail()), 'the terminal to show the output and the end of the command').catch(async (error: Error) => {
      throw new Error(`${error.message}; the terminal's last characters: ${JSON.stringify(await tail())}`);
    });
    const transcript = await read();
    assert.match(transcript?.text ?? '', /\$ echo shown-in-terminal/);
    assert.match(transcript?.text ?? '', /shown-in-terminal\r\n/);
    assert.match(transcript?.text ?? '', /Exit code: 0/);
    assert.equal(transcript?.name, 'echo shown-in-terminal');
    await until(() => vscode.window.terminals.some((terminal) => terminal.name === 'echo shown-in-terminal'), 'a terminal named after the command');
  });

  it('shows a multi-line output in the terminal panel (screenshot)', async () => {
    await invoke(TOOL, { command: "printf 'first line\\nsecond line\\n'; git --version; ls -1 src" });
    await vscode.commands.executeCommand('workbench.action.terminal.focus');
    const transcript = await vscode.commands.executeCommand<{ name: string; text: string }>(CommandId.lastCommandTerminal);
    assert.match(transcript?.text ?? '', /first line\r\nsecond line\r\n/);
    await screenshot('run-command-terminal');
  });

  it('stops the command when the user presses Ctrl+C in its terminal', async () => {
    const pending = invoke(TOOL, { command: 'echo waiting-for-ctrl-c; sleep 600' });
    await until(async () => {
      const transcript = await vscode.commands.executeCommand<{ name: string; text: string }>(CommandId.lastCommandTerminal);
      return /waiting-for-ctrl-c\r\n/.test(transcript?.text ?? '');
    }, 'the command output in the terminal');
    // A reused terminal is renamed through an event that reaches vscode.window.terminals a moment later.
    const named = (): vscode.Terminal | undefined => vscode.window.terminals.filter((candidate) => candidate.name.startsWith('echo waiting-for-ctrl-c')).pop();
    await until(() => named() !== undefined, 'the terminal to be named after the command');
    named()?.sendText('\u0003', false);
    assert.match((await pending).text, /^Stopped by the user \(Ctrl\+C in the terminal\)/);
  });

  it('waits for approval of a command the policy asks about, then runs it', async () => {
    const made = path.join(scratch, 'approved.txt');
    fs.rmSync(made, { force: true });
    const pending = invoke(TOOL, { command: 'touch approved.txt', cwd: 'run-command-scratch' });
    let asked: Array<{ kind: string; title: string; detail: string }> = [];
    await until(async () => {
      asked = (await vscode.commands.executeCommand<typeof asked>(CommandId.listPendingApprovals)) ?? [];
      return asked.length > 0;
    }, 'the approval question');
    assert.equal(asked[0].kind, 'command');
    assert.match(asked[0].title, /touch approved\.txt/);
    assert.match(asked[0].detail, /run-command-scratch[\s\S]*touch/);
    assert.equal(fs.existsSync(made), false, 'nothing runs before the answer');
    await answerNextApproval(true);
    const { text } = await pending;
    assert.match(text, /^Exit code: 0/);
    assert.ok(fs.existsSync(made));
  });

  it('does not run a command the user rejects', async () => {
    const made = path.join(scratch, 'rejected.txt');
    const pending = invokeError(TOOL, { command: 'touch rejected.txt', cwd: 'run-command-scratch' });
    await answerNextApproval(false);
    assert.match(await pending, /declined/);
    assert.equal(fs.existsSync(made), false);
  });

  it('runs a read-only command without asking', async () => {
    const waiting = await vscode.commands.executeCommand<unknown[]>(CommandId.listPendingApprovals);
    assert.equal(waiting?.length ?? 0, 0);
    const { text } = await invoke(TOOL, { command: 'git --version >/dev/null; ls' });
    assert.match(text, /^Exit code: 0/);
  });

  it('refuses a denied command with the reason', async () => {
    assert.match(await invokeError(TOOL, { command: 'rm -rf ~' }), /refused by the command policy[\s\S]*runCommand\.deny/);
  });
});

describe('workspace_run_command in an untrusted workspace (extension host)', () => {
  it('is refused with a reason', async function () {
    if (vscode.workspace.isTrusted) this.skip();
    assert.match(await invokeError(TOOL, { command: 'echo hi' }), /not trusted/);
  });
});
