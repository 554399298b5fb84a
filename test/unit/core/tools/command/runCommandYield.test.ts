// A foreground command still running at its timeout, or when the client needs an answer
// (ctx.call.returnBy), moves to the background instead of being killed: through the tools, in the
// real sandbox, with the real process runner. Each way the foreground wait ends, with room in the
// background or none, and what follows a move (cancellation, Ctrl+C, later output, the deferred
// checkpoint) is decided by runInForeground and proved on a fake clock in foreground.test.ts; the
// real group stopped at a kill timeout is processRunner.test.ts's. The tests here prove what only
// real processes show, each named in a comment.
import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import type { ToolSettings } from '../../../../../src/core/settings';
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

  it('moves when the client needs an answer with the output so far and the id, and the command keeps running in the same terminal', async () => {
    // Only here: the tool's returnBy reaches the foreground stage, the real output and terminal carry over at the move, and workspace_stop_command ends the real group.
    // Due once the command printed its lines (whatever the machine's load), until then 100 ms away.
    const { ctx, terminal } = setup();
    const returnBy = (): number => (terminal.text.includes('second') ? Date.now() : Date.now() + 100);
    const text = resultText(await invokeTool(runCommandTool, { command: 'echo first; echo second; exec sleep 300', timeout: 120 }, { ...ctx, call: { ...ctx.call, returnBy } }));
    assert.match(text, /^Still running after \d+\.\d s: moved to the background because the client needs an answer now; the command was not stopped\.$/m);
    const id = backgroundId(text);
    assert.match(text, /^Status: running$/m);
    assert.match(text, /^Sandbox: bubblewrap/m);
    assert.equal(stdoutOf(text), 'first\nsecond');
    assert.match(text, /Read new output with workspace_command_output/);
    assert.deepEqual(registry.running().map((command) => command.id), [id]);
    assert.equal(registry.get(id)?.commandLine, 'echo first; echo second; exec sleep 300');
    // The terminal the user watched says where the command went, and is not finished.
    assert.equal(terminal.notes.length, 1);
    assert.match(terminal.notes[0], new RegExp(`^Still running after \\d+\\.\\d s: moved to the background as ${id} because the client needs an answer now\\. It keeps running here; Ctrl\\+C stops it\\.$`));
    assert.equal(terminal.summary, '');
    await call(stopCommandTool, { id });
    await until(() => terminal.summary !== '', 'the terminal to show the end', 5000);
    assert.equal(terminal.summary.startsWith('killed (stopped on request)'), true, terminal.summary);
    assert.match(terminal.summary, new RegExp(`background command ${id}\\)$`));
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
});
