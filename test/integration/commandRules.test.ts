// The user's own rules for commands, in the real extension host through vscode.lm.invokeTool:
// "Always Allow" on a command's question saves the exact rule it showed to user settings and the
// same command then runs without asking (in the sandbox); VS Code's own
// chat.tools.terminal.autoApprove entries that deny make a command that would run at once ask.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { CommandId } from '../../src/vscode/commandIds';
import { SETTINGS_SECTION } from '../../src/core/settings';
import { invoke, until, withSettings, workspaceRoot } from './support/tools';

const TOOL = 'workspace_run_command';

interface Question { kind: string; title: string; detail: string; allowRules?: string[] }

async function pendingQuestions(): Promise<Question[]> {
  return (await vscode.commands.executeCommand<Question[]>(CommandId.listPendingApprovals)) ?? [];
}

/** The tool's result when it comes before any question; fails when the call asks. */
async function runWithoutQuestion(command: string): Promise<string> {
  const call = invoke(TOOL, { command, timeout: 30 });
  let settled = false;
  void call.finally(() => (settled = true));
  while (!settled) {
    const asked = await pendingQuestions();
    if (asked.length > 0) {
      await vscode.commands.executeCommand(CommandId.reject);
      throw new Error(`\`${command}\` asked: ${asked[0].detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (await call).text;
}

describe('command rules of the user (extension host)', function () {
  this.timeout(90_000);

  before(function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
  });

  it('Always Allow saves the exact rule the question offered to user settings, and the same command then runs in the sandbox without asking', async () => {
    const file = path.join(workspaceRoot(), 'always-allowed.txt');
    fs.rmSync(file, { force: true });
    await withSettings({ 'runCommand.allow': [] }, async () => {
      const call = invoke(TOOL, { command: 'touch always-allowed.txt', timeout: 30 });
      await until(async () => (await pendingQuestions()).length > 0, 'the command asks');
      const [question] = await pendingQuestions();
      assert.deepEqual(question.allowRules, ['/^touch always-allowed\\.txt$/'], question.detail);
      assert.equal(await vscode.commands.executeCommand<boolean>(CommandId.approveAlways, question.allowRules), true);
      const first = await call;
      assert.match(first.text, /Exit code: 0/, first.text);
      assert.ok(fs.existsSync(file));
      const saved = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<string[]>('runCommand.allow')?.globalValue;
      assert.deepEqual(saved, ['/^touch always-allowed\\.txt$/'], 'saved to user settings, exactly as shown');

      fs.rmSync(file);
      const second = await runWithoutQuestion('touch always-allowed.txt');
      assert.match(second, /Exit code: 0/, second);
      assert.match(second, /Sandbox: /, 'it ran in the sandbox');
      assert.ok(fs.existsSync(file));

      // The rule is exact: the same program with other arguments still asks.
      const other = invoke(TOOL, { command: 'touch other-file.txt', timeout: 30 });
      await until(async () => (await pendingQuestions()).length > 0, 'another touch asks');
      await vscode.commands.executeCommand(CommandId.reject);
      await assert.rejects(other, /declined/);
    });
    fs.rmSync(file, { force: true });
  });

  it("makes a command VS Code's chat.tools.terminal.autoApprove denies ask, although our policy would run it at once", async function () {
    const terminal = vscode.workspace.getConfiguration('chat.tools.terminal');
    if (terminal.inspect('autoApprove')?.defaultValue === undefined) {
      // VS Code 1.100 has no such setting, so there is nothing of VS Code's to honour.
      this.skip();
    }
    fs.writeFileSync(path.join(workspaceRoot(), 'floor.txt'), 'floor\n');
    const before = await runWithoutQuestion('cat floor.txt');
    assert.match(before, /floor/);
    const previous = terminal.inspect('autoApprove')?.globalValue;
    await terminal.update('autoApprove', { cat: false }, vscode.ConfigurationTarget.Global);
    try {
      const call = invoke(TOOL, { command: 'cat floor.txt', timeout: 30 });
      await until(async () => (await pendingQuestions()).length > 0, 'cat asks');
      const [question] = await pendingQuestions();
      assert.match(question.detail, /matches "cat" of VS Code's chat\.tools\.terminal\.autoApprove/, question.detail);
      assert.equal(question.allowRules, undefined, 'no Always Allow that VS Code\'s rule would override');
      await vscode.commands.executeCommand(CommandId.reject);
      await assert.rejects(call, /declined/);
    } finally {
      await terminal.update('autoApprove', previous, vscode.ConfigurationTarget.Global);
      fs.rmSync(path.join(workspaceRoot(), 'floor.txt'), { force: true });
    }
  });
});
