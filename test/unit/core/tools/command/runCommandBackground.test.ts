// Background commands through the tools, the one way production calls them (invokeTool), in the
// real sandbox: start with wait_for, read incrementally, stop, the limit, cancellation, the hook.
import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import type { ProcessOutcome } from '../../../../../src/core/ports/process';
import type { ToolSettings } from '../../../../../src/core/settings';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { stopCommandTool } from '../../../../../src/core/tools/command/stopCommand';
import type { Tool } from '../../../../../src/core/tools/toolSpec';
import { commandWorkspace, shown, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { processesWithCommandLine } from '../../../../support/procfs';
import { backgroundId, stdoutOf } from '../../../../support/commandResults';
import { until } from '../../../../support/until';
import { ManualCancellation, resultText } from '../../../support/context';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { systemClock } from '../../../../../src/core/time';

describe('tools/runCommand background, commandOutput, stopCommand', () => {
  const workspace = commandWorkspace();
  let registry: BackgroundCommandRegistry;

  beforeEach(() => {
    registry = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
  });
  afterEach(async () => {
    await registry.stopAll();
  });

  const context = (options: { settings?: Partial<ToolSettings>; token?: ManualCancellation } = {}) => workspace.setup({ approve: true, background: registry, ...options }).ctx;
  const call = async (tool: Tool, input: Record<string, unknown>, options: { settings?: Partial<ToolSettings>; token?: ManualCancellation } = {}): Promise<string> => resultText(await invokeTool(tool, input, context(options)));

  it('returns once a line matches wait_for, with the output so far, the status and the id', async () => {
    const text = await call(runCommandTool, { command: 'echo booting; sleep 0.3; echo "ready on port 4321"; exec sleep 300', background: true, wait_for: 'ready on port \\d+' });
    assert.match(text, /^Started in the background; a line matched wait_for/);
    assert.match(text, /^Status: running$/m);
    assert.match(text, /^Sandbox: bubblewrap/m);
    assert.equal(stdoutOf(text), 'booting\nready on port 4321');
    assert.equal(registry.running().map((command) => command.id).join(), backgroundId(text));
  });

  it('returns the output since the last read, no line twice, and waits for a later line', async () => {
    const first = await call(runCommandTool, { command: 'for i in $(seq 1 30); do echo line$i; sleep 0.05; done; exec sleep 300', background: true, wait_for: '^line5$' });
    const id = backgroundId(first);
    const second = await call(commandOutputTool, { id, wait_for: '^line30$', timeout: 20 });
    assert.match(second, /^A line matched wait_for/);
    const third = await call(commandOutputTool, { id });
    assert.match(third, /--- stdout ---\n\(no new output\)/);
    const lines = [first, second, third].flatMap((text) => stdoutOf(text).split('\n')).filter((line) => line.startsWith('line'));
    assert.deepEqual(lines, Array.from({ length: 30 }, (_, i) => `line${i + 1}`));
  });

  it('counts a matching line that arrived before the call and was not read yet', async () => {
    // The start returns at "up", before the command reads its input; the line comes once it is typed, and is in its terminal before the call.
    const { ctx, terminal } = workspace.setup({ approve: true, background: registry });
    const id = backgroundId(resultText(await invokeTool(runCommandTool, { command: 'echo up; read go; echo compiled; exec sleep 300', background: true, wait_for: '^up$', interactive: true }, ctx)));
    registry.get(id)?.sendInput('\n');
    await shown(terminal, 'compiled');
    const text = await call(commandOutputTool, { id, wait_for: 'compiled', timeout: 5 });
    assert.match(text, /^A line matched wait_for/);
    assert.equal(stdoutOf(text), 'compiled');
  });

  it('waits for the end with a timeout, and reports the exit code', async () => {
    const id = backgroundId(await call(runCommandTool, { command: 'sleep 0.5; echo finishing; exit 3', background: true, timeout: 1 }));
    const text = await call(commandOutputTool, { id, timeout: 10 });
    assert.match(text, /^Status: exited 3$/m);
    assert.match(text, /It has ended/);
  });

  it('reports a command that exits before wait_for matched', async () => {
    const text = await call(runCommandTool, { command: 'echo nope; exit 1', background: true, wait_for: 'never printed' });
    assert.match(text, /^The background command ended \(exited 1\)/);
    assert.match(text, /before any line matched wait_for/);
  });

  it('says when the sandbox may have made a background command fail', async () => {
    const text = await call(runCommandTool, { command: 'touch /usr/background-probe', background: true, wait_for: 'never printed' });
    assert.match(text, /^The background command ended \(exited 1\)/);
    assert.match(text, /The sandbox may have caused this failure/);
  });

  it('stops the whole group, a TERM-ignoring grandchild included, and returns the final status', async () => {
    // The sandbox's pid namespace hides the pids: the sleep is found on the host by its unique length.
    const seconds = 700 + Math.floor(Math.random() * 200);
    const id = backgroundId(await call(runCommandTool, { command: `sh -c 'trap "" TERM; echo stubborn; sleep ${seconds}' & wait`, background: true, wait_for: 'stubborn' }));
    for (let tries = 0; processesWithCommandLine(`sleep ${seconds}`).length === 0; tries += 1) {
      assert.ok(tries < 100, 'the sleep started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const text = await call(stopCommandTool, { id });
    assert.match(text, /^Stopped background command bg\d+/);
    assert.match(text, /^Status: killed \(stopped on request\)$/m);
    assert.deepEqual(processesWithCommandLine(`sleep ${seconds}`), []);
    assert.deepEqual(registry.running(), []);
  });

  it('refuses one more than maxBackground, naming the running ids, before asking the user', async () => {
    const settings = { runCommandMaxBackground: 2 };
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) ids.push(backgroundId(await call(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: '^up$' }, { settings })));
    const { ctx, approver } = workspace.setup({ approve: true, background: registry, settings });
    await assert.rejects(invokeTool(runCommandTool, { command: 'exec sleep 300', background: true, timeout: 1 }, ctx), (error: Error) => {
      assert.match(error.message, /2 background commands are already running/);
      for (const id of ids) assert.match(error.message, new RegExp(`${id} \\(echo up; exec sleep 300\\)`));
      assert.match(error.message, /workspace_stop_command/);
      return true;
    });
    assert.equal(approver.asked.length, 0);
  });

  it('stops the command when the call is cancelled while it waits for wait_for', async () => {
    const token = new ManualCancellation();
    const { ctx, terminal } = workspace.setup({ approve: true, background: registry, token });
    const waiting = invokeTool(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: 'never' }, ctx);
    await shown(terminal, 'up');
    token.cancel();
    await assert.rejects(waiting, /was cancelled/);
    assert.deepEqual(registry.running(), []);
  });

  it('settles the command\'s ended with the outcome of a stopped command', async () => {
    const id = backgroundId(await call(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: '^up$' }));
    const command = registry.get(id);
    assert.ok(command);
    await call(stopCommandTool, { id });
    const outcome: ProcessOutcome = await command.ended;
    assert.equal(outcome.stopped, 'stopped');
    assert.deepEqual(command.status(), { state: 'killed', how: 'stopped on request' });
  });

  it('sends the lines the person types in its terminal to its input (interactive: true), and stops taking them when it ends', async () => {
    const plain = workspace.setup({ approve: true, background: registry });
    await invokeTool(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: '^up$' }, plain.ctx);
    assert.equal(plain.terminal.inputTarget, undefined, 'a command whose input is end of file takes no typing');
    const { ctx, terminal } = workspace.setup({ approve: true, background: registry });
    const text = resultText(await invokeTool(runCommandTool, { command: 'echo up; read a; echo "got:$a"; read b; echo "then:$b"', background: true, wait_for: '^up$', interactive: true }, ctx));
    const id = backgroundId(text);
    assert.ok(terminal.inputTarget, 'the terminal takes input once the command runs in the background');
    terminal.inputTarget.send('first\n');
    const first = await call(commandOutputTool, { id, wait_for: '^got:', timeout: 10 });
    assert.match(stdoutOf(first), /^got:first$/m);
    terminal.inputTarget.send('', 'ctrl-d');
    const end = await call(commandOutputTool, { id, timeout: 10 });
    assert.match(end, /^Status: exited 0$/m);
    assert.match(stdoutOf(end), /^then:$/m, 'the end of its input read as an empty line');
    assert.equal(terminal.inputTarget, undefined, 'an ended command takes no more input');
  });

  it('answers an unknown id with the running ids', async () => {
    const id = backgroundId(await call(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: '^up$' }));
    await assert.rejects(call(commandOutputTool, { id: 'bg999\n\u001b[31mevil' }), (error: Error) => {
      assert.match(error.message, /There is no background command with id "bg999/);
      assert.match(error.message, new RegExp(`Running: ${id} \\(echo up; exec sleep 300\\)`));
      return true;
    });
    await assert.rejects(call(stopCommandTool, { id: 'bg999' }), /There is no background command/);
  });

  it('refuses wait_for without background, and an invalid pattern, with what to do', async () => {
    await assert.rejects(call(runCommandTool, { command: 'echo hi', wait_for: 'hi' }), /wait_for only applies with background: true/);
    await assert.rejects(call(runCommandTool, { command: 'echo hi', background: true, wait_for: '(unclosed' }), /wait_for is not a valid regular expression[\s\S]*RE2 syntax/);
    await assert.rejects(call(runCommandTool, { command: 'echo hi', background: true, wait_for: '(?<=x)y' }), /RE2 syntax/);
    assert.deepEqual(registry.running(), [], 'nothing was started');
  });

  it('matches wait_for in linear time: a pattern that backtracks exponentially elsewhere returns at once', async () => {
    // A backtracking engine would spend about 2^40 steps on the first line, blocking the event loop
    // far past this test's time limit; a linear-time one goes on to the next line, which matches.
    const text = await call(runCommandTool, { command: 'printf "%040d!\\n" 0; echo end; exec sleep 300', background: true, wait_for: '^(0+)+$|end' });
    assert.match(text, /a line matched wait_for/);
  });

  it('refuses a wait_for whose compiled program is large (counted repetitions), before anything starts', async () => {
    await assert.rejects(call(runCommandTool, { command: 'echo never', background: true, wait_for: 'a{0,990}[b-z]' }), /wait_for is not a valid regular expression[\s\S]*compiles to \d+ steps, more than the 500 allowed/);
    assert.equal(registry.running().length, 0);
  });

  it('matches wait_for against the first 4 KiB of a line only', async () => {
    const late = await call(runCommandTool, { command: 'printf "%5000s READY\\n" x; exec sleep 300', background: true, wait_for: 'READY', timeout: 1 });
    assert.match(late, /still running after 1 s, and no line matched wait_for yet/);
    const early = await call(runCommandTool, { command: 'printf "%4000s READY\\n" x; exec sleep 300', background: true, wait_for: 'READY', timeout: 10 });
    assert.match(early, /a line matched wait_for/);
  });

  it('lets plan mode read and stop a command, but not start one', async () => {
    const id = backgroundId(await call(runCommandTool, { command: 'echo up; exec sleep 300', background: true, wait_for: '^up$' }));
    const planMode = { planMode: true };
    await assert.rejects(call(runCommandTool, { command: 'exec sleep 300', background: true }, { settings: planMode }), /plan mode/);
    assert.match(await call(commandOutputTool, { id }, { settings: planMode }), /^Status: running$/m);
    assert.match(await call(stopCommandTool, { id }, { settings: planMode }), /^Status: killed/m);
  });

  it('takes the call\'s "after" checkpoint when the background command ends, not when the call returns', async () => {
    const events: string[] = [];
    const checkpoint = {
      beforeChange: async () => void events.push('before'),
      deferAfter: () => {
        events.push('deferred');
        return { finish: async () => void events.push('after') };
      },
    };
    const ctx = context();
    const text = resultText(await invokeTool(runCommandTool, { command: 'touch made-in-background.txt; echo ready; exec sleep 300', background: true, wait_for: 'ready' }, { ...ctx, call: { ...ctx.call, checkpoint } }));
    assert.deepEqual(events, ['before', 'deferred']);
    await call(stopCommandTool, { id: backgroundId(text) });
    await until(() => events.includes('after'), 'the deferred "after" checkpoint', 5000);
    assert.deepEqual(events, ['before', 'deferred', 'after']);
  });

  it('refuses a timeout out of range, naming the field', async () => {
    await assert.rejects(call(commandOutputTool, { id: 'bg1', timeout: 601 }), /timeout must be from 0 to 600/);
  });
});
