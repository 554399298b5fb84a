// The background stage and the tools that read, stop and type into background commands, through
// invokeTool as production calls them, on scripted processes (test/unit/support/scriptedProcess.ts),
// the real registry and a ManualClock: the test prints each line, ends each process and moves the
// time, so each wait is proven at its moment and nothing sleeps. The commands run outside the
// sandbox (runCommandSandbox: "off") because none really runs; what needs a real process (the
// sandbox, a real group stopped, a real terminal's input, /proc's readers) is proven in
// runCommandBackground.test.ts, runCommandYield.test.ts and sendInput.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolContext } from '../../../../../src/core/context';
import type { CallCheckpoint } from '../../../../../src/core/ports/checkpoints';
import type { CommandHost } from '../../../../../src/core/ports/process';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import { QUIET_MS } from '../../../../../src/core/process/inputWatch';
import type { ToolSettings } from '../../../../../src/core/settings';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { sendInputTool } from '../../../../../src/core/tools/command/sendInput';
import { stopCommandTool } from '../../../../../src/core/tools/command/stopCommand';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import type { Tool } from '../../../../../src/core/tools/toolSpec';
import { backgroundId, stdoutOf } from '../../../../support/commandResults';
import { until } from '../../../../support/until';
import { RecordingTerminal } from '../../../support/commandWorkspace';
import { ManualCancellation, resultText, ScriptedApprover, testContext } from '../../../support/context';
import { ManualClock, settle } from '../../../support/fakeTime';
import { ScriptedRunner, type ScriptedProcess } from '../../../support/scriptedProcess';

describe('tools/command/background: the background tools on scripted processes and a fake clock', () => {
  let root: string;
  let clock: ManualClock;
  let runner: ScriptedRunner;
  let registry: BackgroundCommandRegistry;
  let terminal: RecordingTerminal;
  let approver: ScriptedApprover;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-background-'));
    clock = new ManualClock();
    runner = new ScriptedRunner();
    registry = new BackgroundCommandRegistry({ clock });
    terminal = new RecordingTerminal();
    approver = new ScriptedApprover(true);
  });
  afterEach(async () => {
    for (const { process } of runner.started) {
      process.end({});
    }
    await registry.stopAll();
    fs.rmSync(root, { recursive: true, force: true });
  });

  interface CallOptions {
    readonly settings?: Partial<ToolSettings>;
    readonly token?: ManualCancellation;
    readonly returnBy?: () => number | undefined;
    readonly checkpoint?: CallCheckpoint;
  }

  function context(options: CallOptions = {}): ToolContext {
    const host: CommandHost = {
      shell: '/bin/sh', logDirectory: path.join(root, 'logs'), pid: 1, environment: () => ({ PATH: '/usr/bin:/bin' }), openTerminal: () => terminal,
      processes: runner, sandbox: { privateFolders: [], tempDirectory: os.tmpdir() } as never, background: registry,
    };
    const base = testContext({ root, approver, token: options.token, settings: { runCommandSandbox: 'off', ...options.settings }, commands: host });
    return { ...base, host: { ...base.host, clock }, call: { ...base.call, returnBy: options.returnBy, checkpoint: options.checkpoint } };
  }

  /** Calls the tool; the result's text once it returns. */
  const call = async (tool: Tool, input: Record<string, unknown>, options: CallOptions = {}): Promise<string> => resultText(await invokeTool(tool, input, context(options)));

  /** The process the next start makes, once the call got that far (through real I/O: prepare reads the workspace). */
  function nextProcess(): Promise<ScriptedProcess> {
    return runner.startedAt(runner.started.length);
  }

  /** Starts `command` in the background with `input` and, once its process runs, lets `play` drive it; the result's text. */
  async function startPlayed(input: Record<string, unknown>, play: (process: ScriptedProcess, pending: Promise<string>) => void | Promise<void>, options: CallOptions = {}): Promise<{ text: string; process: ScriptedProcess }> {
    const pending = call(runCommandTool, { background: true, ...input }, options);
    const process = await nextProcess();
    await play(process, pending);
    return { text: await pending, process };
  }

  /** Whether `pending` has settled after the callbacks that are ready ran. */
  async function settled(pending: Promise<unknown>): Promise<boolean> {
    let done = false;
    void pending.then(() => (done = true), () => (done = true));
    await settle();
    await settle();
    return done;
  }

  /** Waits until the process was typed into `count` times (the call judges the input first, through real I/O). */
  async function typed(process: ScriptedProcess, count: number): Promise<void> {
    await until(() => process.input.length >= count, `input number ${count} (typed so far: ${JSON.stringify(process.input)})`);
  }

  describe('workspace_run_command with background: true (startInBackground)', () => {
    it('returns when a line matches wait_for, not before, with the output so far, the status and the id', async () => {
      const { text } = await startPlayed({ command: 'serve', wait_for: 'ready on port \\d+' }, async (process, pending) => {
        process.print('booting\n', 'stdout');
        process.print('ready on port ', 'stdout');
        assert.equal(await settled(pending), false, 'not before the line is whole');
        process.print('4321\n', 'stdout');
      });
      assert.match(text, /^Started in the background; a line matched wait_for \(0\.0 s\)\.$/m);
      assert.match(text, /^Status: running$/m);
      assert.equal(stdoutOf(text), 'booting\nready on port 4321');
      assert.deepEqual(registry.running().map((command) => command.id), [backgroundId(text)]);
    });

    it('waits out its timeout without wait_for, then reports it still running; a later read waits for the end and its exit code', async () => {
      const { text, process } = await startPlayed({ command: 'build', timeout: 1 }, () => clock.advance(1000));
      assert.match(text, /^Started in the background; still running after 1 s\.$/m);
      const reading = call(commandOutputTool, { id: backgroundId(text), timeout: 10 });
      assert.equal(await settled(reading), false, 'it waits for the end');
      process.print('finishing\n', 'stdout');
      process.end({ exitCode: 3 });
      const end = await reading;
      assert.match(end, /^Status: exited 3$/m);
      assert.equal(stdoutOf(end), 'finishing');
      assert.match(end, /It has ended/);
    });

    it('reports a command that ends before any line matched wait_for', async () => {
      const { text } = await startPlayed({ command: 'check', wait_for: 'never printed' }, (process) => {
        process.print('nope\n', 'stdout');
        process.end({ exitCode: 1 });
      });
      assert.match(text, /^The background command ended \(exited 1\) within 0\.0 s before any line matched wait_for\.$/m);
    });

    it('matches wait_for in linear time: a pattern that backtracks exponentially elsewhere goes on to the next line', async () => {
      const { text } = await startPlayed({ command: 'serve', wait_for: '^(0+)+$|end' }, (process) => {
        process.print(`${'0'.repeat(40)}!\nend\n`, 'stdout');
      });
      assert.match(text, /a line matched wait_for/);
    });

    it('matches wait_for against the first 4 KiB of a line only', async () => {
      const late = await startPlayed({ command: 'serve', wait_for: 'READY', timeout: 1 }, async (process) => {
        process.print(`${' '.repeat(4999)}x READY\n`, 'stdout');
        await clock.advance(1000);
      });
      assert.match(late.text, /still running after 1 s, and no line matched wait_for yet/);
      const early = await startPlayed({ command: 'serve', wait_for: 'READY', timeout: 10 }, (process) => process.print(`${' '.repeat(3999)}x READY\n`, 'stdout'));
      assert.match(early.text, /a line matched wait_for/);
    });

    it('refuses one more than maxBackground, naming the running ids, before asking the user or starting anything', async () => {
      const settings = { runCommandMaxBackground: 2 };
      const ids: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        ids.push(backgroundId((await startPlayed({ command: 'serve', wait_for: '^up$' }, (process) => process.print('up\n', 'stdout'), { settings })).text));
      }
      const asked = approver.asked.length;
      await assert.rejects(call(runCommandTool, { command: 'other', background: true, timeout: 1 }, { settings }), (error: Error) => {
        assert.match(error.message, /2 background commands are already running/);
        for (const id of ids) assert.match(error.message, new RegExp(`${id} \\(serve\\)`));
        assert.match(error.message, /workspace_stop_command/);
        return true;
      });
      assert.equal(approver.asked.length, asked, 'nobody was asked');
      assert.equal(runner.started.length, 2, 'nothing was started');
    });

    it('stops the command when the call is cancelled while it waits for wait_for', async () => {
      const token = new ManualCancellation();
      const pending = call(runCommandTool, { command: 'serve', background: true, wait_for: 'never' }, { token });
      const process = await nextProcess();
      process.print('up\n', 'stdout');
      token.cancel();
      await assert.rejects(pending, /was cancelled/);
      assert.deepEqual(process.stops, ['stopped']);
      assert.deepEqual(registry.running(), []);
    });

    it('takes the call\'s "after" checkpoint when the command ends, not when the call returns', async () => {
      const events: string[] = [];
      const checkpoint: CallCheckpoint = {
        beforeChange: async () => void events.push('before'),
        deferAfter: () => {
          events.push('deferred');
          return { finish: async () => void events.push('after') };
        },
      };
      const { process } = await startPlayed({ command: 'touch made.txt; serve', wait_for: 'ready' }, (process) => process.print('ready\n', 'stdout'), { checkpoint });
      await settle();
      assert.deepEqual(events, ['before', 'deferred']);
      process.end({});
      await registry.get('bg1')?.ended;
      await settle();
      assert.deepEqual(events, ['before', 'deferred', 'after']);
    });

    it('ends its wait for wait_for when the client needs an answer, with what it has, and the command keeps running', async () => {
      const due = clock.now() + 2000;
      const { text } = await startPlayed({ command: 'serve', wait_for: 'never printed', timeout: 60 }, async (process) => {
        process.print('booting\n', 'stdout');
        await clock.advance(1999);
        assert.equal(registry.running().length, 1);
        await clock.advance(1);
      }, { returnBy: () => due });
      assert.match(text, /^Started in the background; still running after 2\.0 s, and no line matched wait_for yet; the call returns because the client needs an answer now\.$/m);
      assert.equal(stdoutOf(text), 'booting');
      assert.equal(registry.get(backgroundId(text))?.status().state, 'running', 'an answer due is no cancellation');
    });

    it('sends the lines the person types in its terminal to its input (interactive: true) and stops taking them when it ends; a command without input takes none', async () => {
      await startPlayed({ command: 'serve', wait_for: '^up$' }, (process) => process.print('up\n', 'stdout'));
      assert.equal(terminal.inputTarget, undefined, 'a command whose input is end of file takes no typing');
      terminal = new RecordingTerminal();
      const { process } = await startPlayed({ command: 'ask', wait_for: '^up$', interactive: true }, (process) => process.print('up\n', 'stdout'));
      assert.ok(terminal.inputTarget, 'the terminal takes input once the command runs in the background');
      terminal.inputTarget.send('first\n');
      terminal.inputTarget.send('', 'ctrl-d');
      assert.deepEqual(process.input, ['first\n', '<EOF>']);
      process.end({});
      await registry.get('bg2')?.ended;
      assert.equal(terminal.inputTarget, undefined, 'an ended command takes no more input');
    });
  });

  describe('workspace_command_output and workspace_stop_command', () => {
    it('reads on from the last read, no line twice, and waits for a later line', async () => {
      const { text: first, process } = await startPlayed({ command: 'count', wait_for: '^line5$' }, (process) => {
        for (let i = 1; i <= 5; i += 1) process.print(`line${i}\n`, 'stdout');
      });
      const id = backgroundId(first);
      for (let i = 6; i <= 29; i += 1) process.print(`line${i}\n`, 'stdout');
      const reading = call(commandOutputTool, { id, wait_for: '^line30$', timeout: 20 });
      assert.equal(await settled(reading), false, 'line30 has not come yet');
      process.print('line30\n', 'stdout');
      const second = await reading;
      assert.match(second, /^A line matched wait_for/);
      const third = await call(commandOutputTool, { id });
      assert.match(third, /--- stdout ---\n\(no new output\)/);
      const lines = [first, second, third].flatMap((text) => stdoutOf(text).split('\n')).filter((line) => line.startsWith('line'));
      assert.deepEqual(lines, Array.from({ length: 30 }, (_, i) => `line${i + 1}`));
    });

    it('counts a matching line that arrived before the call and was not read yet, at once', async () => {
      const { text, process } = await startPlayed({ command: 'build', wait_for: '^up$' }, (process) => process.print('up\n', 'stdout'));
      process.print('compiled\n', 'stdout');
      const at = clock.now();
      const read = await call(commandOutputTool, { id: backgroundId(text), wait_for: 'compiled', timeout: 5 });
      assert.match(read, /^A line matched wait_for/);
      assert.equal(stdoutOf(read), 'compiled');
      assert.equal(clock.now(), at, 'no time passed: it did not wait');
    });

    it('ends its wait when the client needs an answer, with what it has', async () => {
      const { text } = await startPlayed({ command: 'serve', wait_for: '^booting$' }, (process) => process.print('booting\n', 'stdout'));
      const due = clock.now() + 400;
      const reading = call(commandOutputTool, { id: backgroundId(text), wait_for: 'never printed', timeout: 600 }, { returnBy: () => due });
      await clock.advance(399);
      assert.equal(await settled(reading), false);
      await clock.advance(1);
      const read = await reading;
      assert.match(read, /^Waited 0\.4 s: no line matched wait_for yet and the command is still running; the call returns because the client needs an answer now\. Its output since the last read\.$/m);
      assert.match(read, /^Status: running$/m);
    });

    it('stops a command and returns its final status; its ended settles with the stopped outcome', async () => {
      const { text, process } = await startPlayed({ command: 'serve', wait_for: '^up$' }, (process) => process.print('up\n', 'stdout'));
      const id = backgroundId(text);
      const stopped = await call(stopCommandTool, { id });
      assert.match(stopped, /^Stopped background command bg1/);
      assert.match(stopped, /^Status: killed \(stopped on request\)$/m);
      assert.deepEqual(process.stops, ['stopped']);
      assert.equal((await registry.get(id)?.ended)?.stopped, 'stopped');
      assert.deepEqual(registry.running(), []);
    });

    it('answers an unknown id with the running ids, the id shown on one line', async () => {
      const id = backgroundId((await startPlayed({ command: 'serve', wait_for: '^up$' }, (process) => process.print('up\n', 'stdout'))).text);
      await assert.rejects(call(commandOutputTool, { id: 'bg999\n\u001b[31mevil' }), (error: Error) => {
        assert.match(error.message, /There is no background command with id "bg999/);
        assert.match(error.message, new RegExp(`Running: ${id} \\(serve\\)`));
        return true;
      });
      await assert.rejects(call(stopCommandTool, { id: 'bg999' }), /There is no background command/);
    });

    it('lets plan mode read and stop a command, but not start one', async () => {
      const id = backgroundId((await startPlayed({ command: 'serve', wait_for: '^up$' }, (process) => process.print('up\n', 'stdout'))).text);
      const planMode = { planMode: true };
      await assert.rejects(call(runCommandTool, { command: 'serve', background: true }, { settings: planMode }), /plan mode/);
      assert.match(await call(commandOutputTool, { id }, { settings: planMode }), /^Status: running$/m);
      assert.match(await call(stopCommandTool, { id }, { settings: planMode }), /^Status: killed/m);
    });
  });

  describe('workspace_send_input', () => {
    /** Runs `command` in the foreground with interactive: true; it prints `prompt` and `program` reads, so it moves to the background QUIET_MS later. */
    async function waitingAt(command: string, prompt: string, program: string, background = false): Promise<{ id: string; process: ScriptedProcess; text: string }> {
      const pending = call(runCommandTool, { command, interactive: true, timeout: 60, ...(background ? { background: true, timeout: 10 } : {}) });
      const process = await nextProcess();
      process.readers = { state: 'reading', program };
      process.print(prompt, 'stdout');
      await clock.advance(QUIET_MS);
      const text = await pending;
      return { id: backgroundId(text), process, text };
    }

    /** Sends input and plays the process's answer once it was typed into (its `answer`, then its end or a new prompt); the result's text. */
    async function send(process: ScriptedProcess, input: Record<string, unknown>, answer: (process: ScriptedProcess) => void | Promise<void>): Promise<string> {
      const count = process.input.length;
      const pending = call(sendInputTool, input);
      await typed(process, count + 1);
      await answer(process);
      return pending;
    }

    it('refuses input to a command started without input, naming interactive: true', async () => {
      const id = backgroundId((await startPlayed({ command: 'serve', wait_for: '^up$' }, (process) => process.print('up\n', 'stdout'))).text);
      await assert.rejects(call(sendInputTool, { id, text: 'y' }), /was started without input: its standard input is end of file.*interactive: true/);
      assert.deepEqual(runner.started[0].process.input, []);
    });

    it('asks before typing text that is no plain answer, and types nothing when the user declines', async () => {
      const { id, process, text } = await waitingAt('python3 ask.py', 'Project name: ', 'python3');
      assert.match(text, /waiting for input: Project name: \(python3 reads its input\)/);
      approver.answer = false;
      await assert.rejects(call(sendInputTool, { id, text: 'demo' }), /declined to type "demo" and Enter into bg1\. Nothing was typed/);
      assert.deepEqual(process.input, []);
      assert.equal(registry.get(id)?.status().state, 'running');
      approver.answer = true;
      const asked = approver.asked.length;
      const typedText = await send(process, { id, text: 'demo' }, (process) => {
        process.print('name=demo\n', 'stdout');
        process.end({});
      });
      assert.equal(approver.asked.length, asked + 1);
      assert.match(approver.asked[asked].detail ?? '', /demo/);
      assert.deepEqual(process.input, ['demo\n']);
      assert.match(typedText, /The command has ended \(exited 0\)/);
      assert.equal(stdoutOf(typedText), 'name=demo');
    });

    it('judges a shell\'s input as command lines: read-only lines go without asking, others ask, and every line asks once the shell\'s state is unknown', async () => {
      const { id, process } = await waitingAt('bash', '$ ', 'bash', true);
      const prompt = async (shell: ScriptedProcess): Promise<void> => {
        shell.print('$ ', 'stdout');
        await clock.advance(QUIET_MS);
      };
      const asked = approver.asked.length;
      assert.match(await send(process, { id, text: 'echo hello' }, prompt), /^Sent "echo hello" and Enter\. After 3\.0 s it is waiting for input/m);
      // git runs with the options the policy placed on it, as it would through workspace_run_command.
      assert.match(await send(process, { id, text: 'git status' }, prompt), /^Sent "git -c core\.fsmonitor=false -c core\.hooksPath=\/dev\/null /m);
      assert.equal(approver.asked.length, asked, 'read-only lines: nobody was asked');
      approver.answer = false;
      await assert.rejects(call(sendInputTool, { id, text: 'rm -f nothing-here' }), /declined to type "rm -f nothing-here" and Enter/);
      // A line that may change the folder leaves the policy unable to judge where later lines run: they ask.
      approver.answer = true;
      await send(process, { id, text: 'cd .' }, prompt);
      approver.answer = false;
      await assert.rejects(call(sendInputTool, { id, text: 'echo after-cd' }), /declined to type "echo after-cd" and Enter/);
      assert.deepEqual([process.input.length, process.input[0], process.input[2]], [3, 'echo hello\n', 'cd .\n'], 'what was declined was not typed');
      // Input the person typed (Send Input..., the terminal) leaves the shell in a state the policy does not know.
      approver.answer = true;
      terminal = new RecordingTerminal();
      const other = await waitingAt('bash', '$ ', 'bash', true);
      registry.get(other.id)?.sendInput('echo typed-by-the-person\n');
      approver.answer = false;
      await assert.rejects(call(sendInputTool, { id: other.id, text: 'echo from-the-model' }), /declined to type "echo from-the-model" and Enter/);
    });

    it('is refused in plan mode and in Restricted Mode before anything is typed', async () => {
      const { id, process } = await waitingAt('ask', 'Go? ', 'sh');
      const ctx = context();
      await assert.rejects(invokeTool(sendInputTool, { id, text: 'y' }, { ...ctx, settings: { ...ctx.settings, planMode: true } }), /plan mode/);
      await assert.rejects(invokeTool(sendInputTool, { id, text: 'y' }, { ...ctx, workspace: { ...ctx.workspace, trusted: false } }), /not trusted \(Restricted Mode\)/);
      assert.deepEqual(process.input, [], 'nothing was typed');
    });
  });
});
