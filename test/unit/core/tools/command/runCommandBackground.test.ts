// Background commands through the tools, the one way production calls them (invokeTool), in the
// real sandbox, with real processes: a wait_for start's real output, the sandbox's failure hint, a
// real group stopped whole, and the refusals of bad input before anything starts. The waits, the
// reads, the limit, cancellation, stop and the deferred checkpoint are proven on scripted processes
// and a fake clock in background.test.ts.
import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import type { ToolSettings } from '../../../../../src/core/settings';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { stopCommandTool } from '../../../../../src/core/tools/command/stopCommand';
import type { Tool } from '../../../../../src/core/tools/toolSpec';
import { commandWorkspace, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { processesWithCommandLine } from '../../../../support/procfs';
import { backgroundId, stdoutOf } from '../../../../support/commandResults';
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
    const text = await call(runCommandTool, { command: 'echo booting; echo "ready on port 4321"; exec sleep 300', background: true, wait_for: 'ready on port \\d+' });
    assert.match(text, /^Started in the background; a line matched wait_for/);
    assert.match(text, /^Status: running$/m);
    assert.match(text, /^Sandbox: bubblewrap/m);
    assert.equal(stdoutOf(text), 'booting\nready on port 4321');
    assert.equal(registry.running().map((command) => command.id).join(), backgroundId(text));
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

  it('refuses wait_for without background, and an invalid pattern, with what to do', async () => {
    await assert.rejects(call(runCommandTool, { command: 'echo hi', wait_for: 'hi' }), /wait_for only applies with background: true/);
    await assert.rejects(call(runCommandTool, { command: 'echo hi', background: true, wait_for: '(unclosed' }), /wait_for is not a valid regular expression[\s\S]*RE2 syntax/);
    await assert.rejects(call(runCommandTool, { command: 'echo hi', background: true, wait_for: '(?<=x)y' }), /RE2 syntax/);
    assert.deepEqual(registry.running(), [], 'nothing was started');
  });

  it('refuses a wait_for whose compiled program is large (counted repetitions), before anything starts', async () => {
    await assert.rejects(call(runCommandTool, { command: 'echo never', background: true, wait_for: 'a{0,990}[b-z]' }), /wait_for is not a valid regular expression[\s\S]*compiles to \d+ steps, more than the 500 allowed/);
    assert.equal(registry.running().length, 0);
  });

  it('refuses a timeout out of range, naming the field', async () => {
    await assert.rejects(call(commandOutputTool, { id: 'bg1', timeout: 601 }), /timeout must be from 0 to 600/);
  });
});
