// workspace_send_input and "waiting for input": who must agree to input (judgeInput and its
// helpers), then through the tools in the real sandbox, with the real process runner, what only a
// real process shows: /proc sees a prompt's reader (and no reader behind a look-alike line), and
// input, Ctrl+D and Ctrl+C reach a real terminal. The tool's questions (a declined answer, a
// shell's lines judged, plan and Restricted Mode) are proven on scripted processes in
// background.test.ts.
import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import { commandOutputTool } from '../../../../../src/core/tools/command/commandOutput';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { judgeInput, readsCommandLines, sendInputTool, typedText } from '../../../../../src/core/tools/command/sendInput';
import type { Tool } from '../../../../../src/core/tools/toolSpec';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { commandWorkspace, TEST_INPUT_TIMING } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { backgroundId, stdoutOf } from '../../../../support/commandResults';
import { systemClock } from '../../../../../src/core/time';

describe('tools/sendInput: commands that wait for input', () => {
  describe('who must agree (judgeInput, readsCommandLines, typedText)', () => {
    const waiting = { prompt: 'Continue? [y/N]', since: 0 };
    it('types a plain yes, no or Enter into a waiting command at once, and asks for anything else', () => {
      for (const text of ['y\n', 'Y\n', 'yes\n', 'n\n', 'no\n', '\n', 'y']) {
        assert.equal(judgeInput(text, undefined, waiting, undefined).kind, 'send', text);
      }
      for (const text of ['yes please\n', 'y\ny\n', 'rm -rf /\n', 'hunter2\n']) {
        assert.equal(judgeInput(text, undefined, waiting, undefined).kind, 'ask', text);
      }
      assert.equal(judgeInput('y\n', undefined, undefined, undefined).kind, 'ask', 'no prompt to answer');
      assert.equal(judgeInput('', 'ctrl-c', undefined, undefined).kind, 'send');
    });

    it('judges a shell\'s input by the policy\'s verdicts: the strictest wins', () => {
      const allow = { decision: 'allow' as const, findings: [] };
      const ask = { decision: 'ask' as const, findings: [{ decision: 'ask' as const, reason: 'rm deletes files' }] };
      const deny = { decision: 'deny' as const, findings: [{ decision: 'deny' as const, reason: 'refused' }] };
      assert.equal(judgeInput('ls\n', undefined, waiting, [allow]).kind, 'send');
      assert.match(judgeInput('ls\nrm x\n', undefined, waiting, [allow, ask]).why, /rm deletes files/);
      assert.equal(judgeInput('y\n', undefined, waiting, [ask]).kind, 'ask', 'a plain answer to a shell is a command line too');
      assert.equal(judgeInput('x\n', undefined, waiting, [ask, deny]).kind, 'refuse');
      assert.equal(judgeInput('ls\n', undefined, waiting, [allow], true).kind, 'ask', 'a shell whose state drifted asks for every line');
      assert.equal(judgeInput('x\n', undefined, waiting, [deny], true).kind, 'refuse');
    });

    it('counts only a bare shell as reading command lines', () => {
      for (const line of ['bash', 'sh', '/bin/bash --norc', 'bash -i', 'zsh -l', 'sh -s']) {
        assert.equal(readsCommandLines(line), true, line);
      }
      for (const line of ['bash script.sh', 'bash -c "read x; rm -rf $x"', 'sh -c cat', 'python3', 'bash | tee log', 'ssh host', 'read -p "Go? " x']) {
        assert.equal(readsCommandLines(line), false, line);
      }
    });

    it('presses Enter after the text unless told not to, and not after a key alone', () => {
      assert.equal(typedText({ text: 'y' }), 'y\n');
      assert.equal(typedText({ text: 'y', enter: false }), 'y');
      assert.equal(typedText({}), '\n');
      assert.equal(typedText({ keys: 'ctrl-d' }), '');
      assert.equal(typedText({ text: 'abc', keys: 'ctrl-d' }), 'abc\n');
    });
  });

  describe('through the tools', () => {
    const workspace = commandWorkspace();
    let registry: BackgroundCommandRegistry;
    beforeEach(() => {
      registry = new BackgroundCommandRegistry({ clock: systemClock, inputTiming: TEST_INPUT_TIMING });
    });
    afterEach(async () => {
      await registry.stopAll();
    });

    async function call(tool: Tool, input: Record<string, unknown>, approve = true) {
      const { ctx, approver } = workspace.setup({ approve, background: registry });
      return { text: resultText(await invokeTool(tool, input, ctx)), approver };
    }

    it('returns a command waiting at a read -p prompt (interactive: true) with its id and the prompt, and a plain answer finishes it', async () => {
      const first = await call(runCommandTool, { command: 'bash -c \'read -p "Continue? [y/N] " answer; echo "answer=$answer"\'', timeout: 60, interactive: true });
      assert.match(first.text, /^Status: running, waiting for input: Continue\? \[y\/N\] \(bash reads its input\)$/m);
      const id = backgroundId(first.text);
      const answered = await call(sendInputTool, { id, text: 'y' });
      assert.deepEqual(answered.approver.asked, [], 'a plain yes goes without asking');
      assert.match(answered.text, /^Sent "y" and Enter\. The command has ended \(exited 0\)\.$/m);
      assert.equal(stdoutOf(answered.text), 'answer=y');
    });

    it('ctrl-d ends a reader\'s input, ctrl-c interrupts a command, and an ended command refuses input', async () => {
      const cat = await call(runCommandTool, { command: 'cat', timeout: 60, interactive: true });
      const catId = backgroundId(cat.text);
      const typed = await call(sendInputTool, { id: catId, text: 'some text', keys: 'ctrl-d' });
      assert.match(typed.text, /The command has ended \(exited 0\)/);
      assert.equal(stdoutOf(typed.text), 'some text');
      await assert.rejects(call(sendInputTool, { id: catId, text: 'y' }), /has ended \(exited 0\): there is nothing to send input to/);

      const sleeper = await call(runCommandTool, { command: 'echo up; sleep 600', background: true, wait_for: '^up$' });
      const sleepId = backgroundId(sleeper.text);
      const interrupted = await call(sendInputTool, { id: sleepId, keys: 'ctrl-c' });
      assert.match(interrupted.text, /The command has ended \(killed \(by signal SIGINT\)\)|The command has ended \(exited 130\)/);
    });

    it('does not call a log line that looks like a prompt waiting when nothing reads the input', async () => {
      // Its input watch looks every 100 ms after 1 s of quiet (TEST_INPUT_TIMING): ten looks before the timeout.
      const first = await call(runCommandTool, { command: 'echo "Overwrite? [y/N]"; sleep 600', timeout: 2, interactive: true });
      assert.match(first.text, /^Still running after 2 s: moved to the background at the timeout/m);
      assert.doesNotMatch(first.text, /waiting for input/);
      const read = await call(commandOutputTool, { id: backgroundId(first.text) });
      assert.match(read.text, /^Status: running$/m);
    });
  });
});
