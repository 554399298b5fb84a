// A foreground command still running at its timeout, or when the client needs an answer
// (ctx.call.returnBy), moves to the background instead of being killed: through the tools, in the
// real sandbox, with the real process runner. Each way the foreground wait ends, with room in the
// background or none, is decided by runInForeground and proved on a fake clock in foreground.test.ts;
// the tests here prove what only real processes show, each named in a comment.
import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import type { ToolSettings } from '../../../../../src/core/settings';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { stopCommandTool } from '../../../../../src/core/tools/command/stopCommand';
import type { Tool } from '../../../../../src/core/tools/toolSpec';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { commandWorkspace, shown, type RecordingTerminal, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { ManualCancellation, resultText } from '../../../support/context';
import { backgroundId, stdoutOf } from '../../../../support/commandResults';
import { processesWithCommandLine } from '../../../../support/procfs';
import { until } from '../../../../support/until';
import { systemClock } from '../../../../../src/core/time';

describe('tools/runCommand: a foreground command moves to the background instead of being killed', () => {
  const workspace = commandWorkspace();
  let registry: BackgroundCommandRegistry;

  beforeEach(() => {
    registry = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
  });
  afterEach(async () => {
    await registry.stopAll();
  });

  interface CallOptions {
    settings?: Partial<ToolSettings>;
    token?: ManualCancellation;
    returnBy?: () => number | undefined;
  }

  function setup(options: CallOptions = {}) {
    const { ctx, terminal } = workspace.setup({ approve: true, background: registry, settings: options.settings, token: options.token });
    return { ctx: { ...ctx, call: { ...ctx.call, returnBy: options.returnBy } }, terminal };
  }

  async function call(tool: Tool, input: Record<string, unknown>, options: CallOptions = {}): Promise<{ text: string; terminal: RecordingTerminal }> {
    const { ctx, terminal } = setup(options);
    return { text: resultText(await invokeTool(tool, input, ctx)), terminal };
  }

  /** A sleep no other process runs, so the test can find it on the host (the sandbox hides pids). */
  const uniqueSleep = (): number => 700 + Math.floor(Math.random() * 200);

  it('at the timeout returns the output so far, "still running" and the id, and the command keeps running in the same terminal', async () => {
    // Only here: the real output and terminal carry over at the move, and workspace_stop_command ends the real group.
    const { text, terminal } = await call(runCommandTool, { command: 'echo first; echo second; exec sleep 300', timeout: 1 });
    assert.match(text, /^Still running after 1 s: moved to the background at the timeout instead of being stopped \(on_timeout: "kill" stops it instead\)\.$/m);
    const id = backgroundId(text);
    assert.match(text, /^Status: running$/m);
    assert.match(text, /^Sandbox: bubblewrap/m);
    assert.equal(stdoutOf(text), 'first\nsecond');
    assert.match(text, /Read new output with workspace_command_output/);
    assert.deepEqual(registry.running().map((command) => command.id), [id]);
    assert.equal(registry.get(id)?.commandLine, 'echo first; echo second; exec sleep 300');
    // The terminal the user watched says where the command went, and is not finished.
    assert.deepEqual(terminal.notes, [`Still running after 1 s: moved to the background as ${id} at its timeout. It keeps running here; Ctrl+C stops it.`]);
    assert.equal(terminal.summary, '');
    await call(stopCommandTool, { id });
    await until(() => terminal.summary !== '', 'the terminal to show the end', 5000);
    assert.equal(terminal.summary.startsWith('killed (stopped on request)'), true, terminal.summary);
    assert.match(terminal.summary, new RegExp(`background command ${id}\\)$`));
  });

  it('keeps the text of a command that ends before its timeout as it was', async () => {
    // Only here: the whole tool's text for a real command that ends in time.
    const { text } = await call(runCommandTool, { command: 'echo done', timeout: 5 });
    assert.match(text, /^Exit code: 0\nDuration: /);
    assert.doesNotMatch(text, /^id:/m);
    assert.deepEqual(registry.running(), []);
  });

  it('lets workspace_command_output read on after the move, no line twice, and report the end', async () => {
    // Only here: the real process's later output reaches the registry's cursor after the move, with no line twice.
    const first = await call(runCommandTool, { command: 'echo one; sleep 1.5; echo two; sleep 0.3; exit 4', timeout: 1 });
    const id = backgroundId(first.text);
    assert.equal(stdoutOf(first.text), 'one');
    const second = await call(commandOutputTool, { id, wait_for: '^two$', timeout: 20 });
    assert.match(second.text, /^A line matched wait_for/);
    assert.equal(stdoutOf(second.text), 'two');
    const third = await call(commandOutputTool, { id, timeout: 20 });
    assert.match(third.text, /^Status: exited 4$/m);
    assert.match(third.text, /--- stdout ---\n\(no new output\)/);
  });

  it('stops the command at the timeout with on_timeout "kill", as before', async () => {
    // Only here: the real group is gone after a kill at the timeout.
    const seconds = uniqueSleep();
    const { text } = await call(runCommandTool, { command: `echo started; exec sleep ${seconds}`, timeout: 1, on_timeout: 'kill' });
    assert.match(text, /^Timed out after 1 s: the command and every process it started were stopped \(TERM, then KILL\)$/m);
    assert.match(text, /--- stdout ---\nstarted\n/);
    assert.doesNotMatch(text, /^id:/m);
    assert.deepEqual(registry.running(), []);
    assert.deepEqual(processesWithCommandLine(`sleep ${seconds}`), []);
  });

  it('refuses on_timeout "kill" with background: true, and an unknown on_timeout, before anything starts', async () => {
    // Only here: the tool refuses the input before anything starts.
    await assert.rejects(call(runCommandTool, { command: 'exec sleep 300', background: true, on_timeout: 'kill' }), /on_timeout: "kill" only applies to a foreground command/);
    await assert.rejects(call(runCommandTool, { command: 'echo hi', on_timeout: 'never' }), /on_timeout/);
    assert.deepEqual(registry.running(), []);
  });

  it('still stops the command when the call is cancelled before the move', async () => {
    // Only here: a cancelled call stops the real group.
    const seconds = uniqueSleep();
    const token = new ManualCancellation();
    const { ctx, terminal } = setup({ token });
    const pending = invokeTool(runCommandTool, { command: `echo go; exec sleep ${seconds}`, timeout: 30 }, ctx);
    await shown(terminal, 'go');
    token.cancel();
    assert.match(resultText(await pending), /^Cancelled: the command and every process it started were stopped/);
    assert.deepEqual(registry.running(), []);
    assert.deepEqual(processesWithCommandLine(`sleep ${seconds}`), []);
  });

  it('is no longer stopped by the call\'s cancellation once it moved, but by Ctrl+C in its terminal', async () => {
    // Only here: once moved, the call's token no longer reaches the real process, and the terminal's Ctrl+C does.
    const token = new ManualCancellation();
    const { ctx, terminal } = setup({ token });
    const id = backgroundId(resultText(await invokeTool(runCommandTool, { command: 'echo go; exec sleep 300', timeout: 1 }, ctx)));
    token.cancel();
    const command = registry.get(id);
    assert.ok(command);
    assert.equal(command.status().state, 'running');
    terminal.interrupt();
    await command.ended;
    assert.deepEqual(command.status(), { state: 'killed', how: 'stopped by the user in its terminal' });
  });

  it('takes the call\'s "after" checkpoint when the moved command ends, not when the call returns', async () => {
    // Only here: the deferred checkpoint through the whole tool, when a real moved command ends.
    const events: string[] = [];
    const checkpoint = {
      beforeChange: async () => void events.push('before'),
      deferAfter: () => {
        events.push('deferred');
        return { finish: async () => void events.push('after') };
      },
    };
    const { ctx } = setup();
    const text = resultText(await invokeTool(runCommandTool, { command: 'touch moved-file.txt; exec sleep 300', timeout: 1 }, { ...ctx, call: { ...ctx.call, checkpoint } }));
    assert.deepEqual(events, ['before', 'deferred']);
    await call(stopCommandTool, { id: backgroundId(text) });
    await until(() => events.includes('after'), 'the deferred "after" checkpoint', 5000);
    assert.deepEqual(events, ['before', 'deferred', 'after']);
  });

  describe('when the client needs an answer (returnBy)', () => {
    it('moves the command to the background then, and says why', async () => {
      // Only here: the tool's returnBy reaches the foreground stage for a real command.
      // Due once the command printed its line (whatever the machine's load), until then 100 ms away.
      const { ctx, terminal } = setup();
      const returnBy = (): number => (terminal.text.includes('early') ? Date.now() : Date.now() + 100);
      const text = resultText(await invokeTool(runCommandTool, { command: 'echo early; exec sleep 300', timeout: 120 }, { ...ctx, call: { ...ctx.call, returnBy } }));
      assert.match(text, /^Still running after \d+\.\d s: moved to the background because the client needs an answer now; the command was not stopped\.$/m);
      const id = backgroundId(text);
      assert.equal(stdoutOf(text), 'early');
      assert.equal(registry.get(id)?.status().state, 'running');
      assert.match(terminal.notes.join('\n'), new RegExp(`moved to the background as ${id} because the client needs an answer now`));
    });

    it('does nothing when returnBy answers undefined: the command ends in the foreground', async () => {
      // Only here: a real command runs to its end when returnBy gives no time.
      const { text } = await call(runCommandTool, { command: 'sleep 0.3; echo finished', timeout: 10 }, { returnBy: () => undefined });
      assert.match(text, /^Exit code: 0/);
    });

    it('ends a background start\'s wait for wait_for with what it has', async () => {
      // Only here: returnBy ends a real background start's wait.
      const { ctx, terminal } = setup();
      const returnBy = (): number => (terminal.text.includes('booting') ? Date.now() : Date.now() + 100);
      const text = resultText(await invokeTool(runCommandTool, { command: 'echo booting; exec sleep 300', background: true, wait_for: 'never printed', timeout: 60 }, { ...ctx, call: { ...ctx.call, returnBy } }));
      assert.match(text, /^Started in the background; still running after \d+\.\d s, and no line matched wait_for yet; the call returns because the client needs an answer now\.$/m);
      assert.equal(stdoutOf(text), 'booting');
      assert.equal(registry.get(backgroundId(text))?.status().state, 'running', 'an answer due is no cancellation: the command keeps running');
    });

    it('ends workspace_command_output\'s wait with what it has', async () => {
      // Only here: returnBy ends workspace_command_output's wait on a real command.
      const id = backgroundId((await call(runCommandTool, { command: 'echo booting; exec sleep 300', background: true, wait_for: '^booting$' })).text);
      const returnBy = Date.now() + 400;
      const { text } = await call(commandOutputTool, { id, wait_for: 'never printed', timeout: 600 }, { returnBy: () => returnBy });
      assert.match(text, /^Waited \d+\.\d s: no line matched wait_for yet and the command is still running; the call returns because the client needs an answer now\. Its output since the last read\.$/m);
      assert.match(text, /^Status: running$/m);
    });

  });
});
