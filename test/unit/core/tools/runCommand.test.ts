import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BoundedOutput, stripAnsi } from '../../../../src/core/process/boundedOutput';
import { groupAlive, nodeProcessRunner, stopAllCommands } from '../../../../src/core/process/processRunner';
import { chooseCommandShell } from '../../../../src/core/process/shellChoice';
import { nonInteractiveEnvironment } from '../../../../src/core/process/commandEnvironment';
import type { CancellationSignal } from '../../../../src/core/errors';
import type { CommandHost, CommandTerminal } from '../../../../src/core/ports/process';
import type { ToolSettings } from '../../../../src/core/settings';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { manifestEntry } from '../../../../src/core/tools/manifest';
import { commandConfirmation, runCommandTool } from '../../../../src/core/tools/runCommand';
import { resultText, ScriptedApprover, testContext } from '../../support/context';

/** A terminal that records what it was shown and can be interrupted like Ctrl+C. */
class RecordingTerminal implements CommandTerminal {
  text = '';
  summary = '';
  private listeners: Array<() => void> = [];
  write(chunk: string): void {
    this.text += chunk;
  }
  finish(summary: string): void {
    this.summary = summary;
  }
  onInterrupt(listener: () => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((other) => other !== listener)) };
  }
  interrupt(): void {
    this.listeners.forEach((listener) => listener());
  }
}

class ManualCancellation implements CancellationSignal {
  isCancellationRequested = false;
  private listeners: Array<() => void> = [];
  onCancellationRequested(listener: () => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => undefined };
  }
  cancel(): void {
    this.isCancellationRequested = true;
    this.listeners.forEach((listener) => listener());
  }
}

const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-run-'));
const root = path.join(parent, 'ws');
const logs = path.join(parent, 'logs');
fs.mkdirSync(path.join(root, 'sub'), { recursive: true });

interface RunOptions {
  approve?: boolean;
  token?: CancellationSignal;
  settings?: Partial<ToolSettings>;
}

function setup(options: RunOptions = {}) {
  const terminal = new RecordingTerminal();
  const host: CommandHost = { shell: '/bin/sh', logDirectory: logs, environment: () => process.env, openTerminal: () => terminal, processes: nodeProcessRunner };
  const approver = new ScriptedApprover(options.approve ?? false);
  const ctx = testContext({ root, approver, token: options.token, settings: options.settings, commands: host });
  return { ctx, terminal, approver };
}

async function run(input: Record<string, unknown>, options: RunOptions = {}) {
  const { ctx, terminal, approver } = setup(options);
  const result = await invokeTool(runCommandTool, input, ctx);
  return { text: resultText(result), terminal, approver, ctx };
}

/** Polls a file until it has content: the command writes the pids it started. */
async function readWhenWritten(file: string): Promise<string> {
  for (;;) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim().split('\n').length >= 2) {
      return fs.readFileSync(file, 'utf8');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A process that exists and is not a zombie (containers without a reaping init keep zombies). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
  } catch {
    return false;
  }
}

describe('workspace_run_command in core', () => {
  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('returns the exit code and stdout and stderr separately', async () => {
    const { text } = await run({ command: 'echo out; echo err >&2' });
    assert.match(text, /^Exit code: 0/);
    assert.match(text, /--- stdout ---\nout\n/);
    assert.match(text, /--- stderr ---\nerr\n/);
  });

  it('returns a failing exit code as a result, not an error', async () => {
    const { text } = await run({ command: 'ls does-not-exist' });
    assert.match(text, /^Exit code: 2/);
    assert.match(text, /does-not-exist/);
  });

  it('runs in the cwd given, relative to the workspace', async () => {
    const { text } = await run({ command: 'pwd', cwd: 'sub' });
    assert.match(text, new RegExp(`--- stdout ---\\n${fs.realpathSync(path.join(root, 'sub'))}\\n`));
  });

  it('refuses a cwd outside the workspace', async () => {
    await assert.rejects(run({ command: 'ls', cwd: parent }), /outside the workspace/);
  });

  it('refuses extra input fields such as a model-supplied safe flag', async () => {
    await assert.rejects(run({ command: 'rm -rf sub', safe: true }), /unknown field "safe"/);
  });

  it('shows the live output in the terminal and the status at the end', async () => {
    const { terminal } = await run({ command: 'echo visible' });
    assert.equal(terminal.text, 'visible\n');
    assert.match(terminal.summary, /^Exit code: 0/);
  });

  it('gives the command no stdin and a non-interactive environment', async () => {
    const { text } = await run({ command: 'cat; echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT $DEBIAN_FRONTEND $NO_COLOR $TERM"' });
    assert.match(text, /--- stdout ---\ncat cat 0 noninteractive 1 dumb\n/);
  });

  it('keeps head and tail of long output within the budget and saves the full log', async () => {
    const { text, ctx } = await run({ command: 'seq 1 200000' });
    const stdout = /--- stdout ---\n([\s\S]*?)\n\[stdout was/.exec(text)?.[1] ?? '';
    assert.ok(stdout.length < 31_000, `kept ${stdout.length} characters`);
    assert.match(stdout, /^1\n2\n3\n/);
    assert.match(stdout, /\n200000$/);
    const logPath = /Full log: (.*)/.exec(text)?.[1] ?? '';
    const log = fs.readFileSync(logPath, 'utf8');
    assert.match(log, /\n100000\n/);
    const read = resultText(await invokeTool((await import('../../../../src/core/tools/readFile')).readFileTool, { file_path: logPath, offset: 100002, limit: 1 }, ctx));
    assert.match(read, /100000/);
  });

  it('keeps as much of each stream as workspaceAgentTools.output.commandOutputChars says', async () => {
    const { text } = await run({ command: 'seq 1 200000' }, { settings: { commandOutputChars: 5_000 } });
    const stdout = /--- stdout ---\n([\s\S]*?)\n\[stdout was/.exec(text)?.[1] ?? '';
    assert.ok(stdout.length > 4_900 && stdout.length < 5_200, `kept ${stdout.length} characters`);
    assert.match(stdout, /^1\n2\n/);
    assert.match(stdout, /\n200000$/);
  });

  it('strips ANSI escapes for the model but not for the terminal', async () => {
    const { text, terminal } = await run({ command: "printf '\\033[31mred\\033[0m\\n'" });
    assert.match(text, /--- stdout ---\nred\n/);
    assert.ok(terminal.text.includes('\u001b[31m'));
  });

  it('asks before a command the policy does not allow, and runs it when approved', async () => {
    const { text, approver } = await run({ command: 'touch made.txt' }, { approve: true });
    assert.equal(approver.asked.length, 1);
    assert.equal(approver.asked[0].kind, 'command');
    assert.match(text, /^Exit code: 0/);
    assert.ok(fs.existsSync(path.join(root, 'made.txt')));
  });

  it('does not run a command the user declined', async () => {
    await assert.rejects(run({ command: 'touch declined.txt' }, { approve: false }), /declined/);
    assert.equal(fs.existsSync(path.join(root, 'declined.txt')), false);
  });

  it('refuses a denied command without asking', async () => {
    const { ctx, approver } = setup({ approve: true });
    await assert.rejects(invokeTool(runCommandTool, { command: 'rm -rf /' }, ctx), /refused by the command policy/);
    assert.equal(approver.asked.length, 0);
  });

  it('does not ask again when the chat already confirmed the call', async () => {
    const { ctx, approver } = setup({ approve: false });
    const result = await invokeTool(runCommandTool, { command: 'touch chat.txt' }, { ...ctx, call: { ...ctx.call, confirmedInChat: true } });
    assert.match(resultText(result), /^Exit code: 0/);
    assert.equal(approver.asked.length, 0);
  });

  it('prepares a chat confirmation with the command, cwd and reason when the policy asks', async () => {
    const { ctx } = setup();
    const confirmation = await commandConfirmation({ command: 'rm -r sub' }, ctx);
    assert.match(confirmation?.message ?? '', /rm -r sub[\s\S]*in `\.`[\s\S]*rm deletes/);
    assert.equal(await commandConfirmation({ command: 'ls' }, ctx), undefined);
  });

  it('kills a TERM-ignoring child and a background grandchild on timeout, and says so', async () => {
    const pids = path.join(parent, 'timeout-pids');
    const command = `sh -c 'trap "" TERM; sleep 300' & echo $! > ${pids}; (sleep 300 & echo $! >> ${pids}; wait) & echo started; wait`;
    const { text } = await run({ command, timeout: 1 }, { approve: true });
    assert.match(text, /^Timed out after 1 s/);
    assert.match(text, /--- stdout ---\nstarted\n/);
    const started = (await readWhenWritten(pids)).trim().split('\n').map(Number);
    assert.deepEqual(started.filter(alive), []);
  });

  it('stops background processes left behind when the shell exits', async () => {
    const pids = path.join(parent, 'leftover-pids');
    const { text } = await run({ command: `sleep 300 > /dev/null & echo $! > ${pids}; echo $! >> ${pids}` }, { approve: true });
    assert.match(text, /Background processes still running/);
    const started = (await readWhenWritten(pids)).trim().split('\n').map(Number);
    assert.deepEqual(started.filter(alive), []);
  });

  it('kills the process group on cancellation', async () => {
    const token = new ManualCancellation();
    const { ctx, terminal } = setup({ approve: true, token });
    const pending = invokeTool(runCommandTool, { command: 'echo go; sleep 300' }, ctx);
    while (!terminal.text.includes('go')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    token.cancel();
    assert.match(resultText(await pending), /^Cancelled/);
  });

  it('kills the process group when the user presses Ctrl+C in the terminal', async () => {
    const { ctx, terminal } = setup({ approve: true });
    const pending = invokeTool(runCommandTool, { command: 'echo go; sleep 300' }, ctx);
    while (!terminal.text.includes('go')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    terminal.interrupt();
    assert.match(resultText(await pending), /^Stopped by the user/);
  });

  it('stops running commands when the extension shuts down', async () => {
    const { ctx, terminal } = setup({ approve: true });
    const pending = invokeTool(runCommandTool, { command: 'echo go; sleep 300' }, ctx);
    while (!terminal.text.includes('go')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await stopAllCommands(1000);
    assert.match(resultText(await pending), /^Killed by signal SIGTERM/);
  });

  it('is refused on a virtual workspace, where no process can run', async () => {
    const { ctx } = setup();
    const virtual = { ...ctx, workspace: { ...ctx.workspace, folders: [{ name: 'mem', location: { scheme: 'memfs', authority: '', path: '/' } }] } };
    await assert.rejects(invokeTool(runCommandTool, { command: 'ls' }, virtual), /not available here[\s\S]*virtual workspace/);
  });

  it('is hidden from chat on virtual workspaces by its when clause', () => {
    assert.equal(manifestEntry(runCommandTool).when, '!virtualWorkspace');
  });

  it('is refused in plan mode before anything runs', async () => {
    const { ctx, terminal } = setup({ approve: true });
    await assert.rejects(invokeTool(runCommandTool, { command: 'touch plan.txt' }, { ...ctx, settings: { ...ctx.settings, planMode: true } }), /plan mode/);
    assert.equal(terminal.text, '');
  });

  it('reports a group as gone once its processes ended', () => {
    assert.equal(groupAlive(2 ** 22 + 12345), false);
  });
});

describe('bounded output', () => {
  it('keeps the start and the end and counts what was left out', () => {
    const kept = new BoundedOutput(5, 5);
    for (let index = 0; index < 1000; index += 1) {
      kept.append('0123456789');
    }
    const result = kept.result();
    assert.equal(result.totalChars, 10_000);
    assert.equal(result.omittedChars, 9_990);
    assert.equal(result.text, '01234\n[... 9990 characters omitted ...]\n56789');
  });

  it('removes colour and cursor escapes', () => {
    assert.equal(stripAnsi('\u001b[1;32mok\u001b[0m \u001b]0;title\u0007done'), 'ok done');
  });
});

describe('the shell that runs commands', () => {
  const everything = (): boolean => true;
  it('is the user shell when it is bash, sh or dash', () => {
    assert.equal(chooseCommandShell('/usr/local/bin/bash', everything), '/usr/local/bin/bash');
  });
  it('is bash when the user shell parses differently (zsh, fish)', () => {
    assert.equal(chooseCommandShell('/usr/bin/zsh', everything), '/bin/bash');
  });
  it('is /bin/sh when there is no bash', () => {
    assert.equal(chooseCommandShell('/usr/bin/fish', () => false), '/bin/sh');
  });
});

describe('the command environment', () => {
  it('drops empty and relative PATH entries, so a bare name never means a workspace file', () => {
    assert.equal(nonInteractiveEnvironment({ PATH: '.:/usr/bin::node_modules/.bin:/bin' }).PATH, '/usr/bin:/bin');
  });
  it('turns pagers, prompts and colours off', () => {
    const env = nonInteractiveEnvironment({ FORCE_COLOR: '1' });
    assert.deepEqual([env.PAGER, env.GIT_PAGER, env.GIT_TERMINAL_PROMPT, env.DEBIAN_FRONTEND, env.NO_COLOR, env.FORCE_COLOR], ['cat', 'cat', '0', 'noninteractive', '1', undefined]);
  });
});
