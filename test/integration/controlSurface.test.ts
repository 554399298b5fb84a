// Plan mode, the risk-level setting and the activity log, in the real extension host.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, invokeError, withSettings, workspaceRoot } from './support/tools';
import { CommandId } from '../../src/vscode/commandIds';

interface Record {
  id: number;
  tool: string;
  input: string;
  verdicts: { decision: string; rule?: string; subject: string }[];
  approvals: { kind: string; allowed: boolean }[];
  outcome: string;
  error?: string;
  resultChars: number;
  redactions: { kind: string; line: number }[];
}

const activity = async () => (await vscode.commands.executeCommand<Record[]>(CommandId.listActivity)) ?? [];
const newest = async () => (await activity())[0];

describe('plan mode (extension host)', () => {
  it('is toggled by its command and restored', async () => {
    const before = vscode.workspace.getConfiguration('workspaceAgentTools').get<boolean>('planMode');
    const enabled = await vscode.commands.executeCommand<boolean>(CommandId.togglePlanMode);
    assert.strictEqual(enabled, !before);
    assert.strictEqual(vscode.workspace.getConfiguration('workspaceAgentTools').get<boolean>('planMode'), enabled);
    await vscode.commands.executeCommand(CommandId.togglePlanMode);
    assert.strictEqual(vscode.workspace.getConfiguration('workspaceAgentTools').get<boolean>('planMode'), before);
    assert.ok(!fs.existsSync(path.join(workspaceRoot(), '.vscode/settings.json')), 'toggling must not create workspace settings');
  });

  const CALLS: [string, object][] = [
    ['workspace_write_file', { file_path: 'plan.txt', content: 'x\n' }],
    ['workspace_edit_file', { file_path: 'notes.txt', old_string: 'a', new_string: 'b' }],
    ['workspace_apply_patch', { patch: '*** Begin Patch\n*** Add File: plan.txt\n+x\n*** End Patch\n' }],
    ['workspace_run_command', { command: 'echo hi' }],
  ];
  for (const [name, input] of CALLS) {
    it(`refuses ${name} in plan mode with a message for the model`, async function () {
      if (!vscode.workspace.isTrusted) this.skip(); // untrusted refuses first, tested in trust.test
      const message = await withSettings({ planMode: true }, () => invokeError(name, input));
      assert.match(message, new RegExp(`^${name} is refused because the user has the workspace in plan mode`));
    });
  }

  it('still allows reads in plan mode', async () => {
    const { text } = await withSettings({ planMode: true }, () => invoke('workspace_list_directory', {}));
    assert.match(text, /^\.\/ \(/);
  });
});

describe('activity log (extension host)', () => {
  it('records one entry per call with the allow verdict, duration and size', async () => {
    const before = (await activity()).length;
    const { text } = await invoke('workspace_read_file', { file_path: 'notes.txt' });
    const records = await activity();
    assert.strictEqual(records.length, before + 1);
    const record = records[0];
    assert.strictEqual(record.tool, 'workspace_read_file');
    assert.strictEqual(record.outcome, 'ok');
    assert.strictEqual(record.resultChars, text.length);
    assert.deepStrictEqual(record.verdicts.map((verdict) => verdict.decision), ['allow']);
    assert.strictEqual(JSON.parse(record.input).file_path, 'notes.txt');
  });

  it('appends every record to a JSON Lines file in the extension storage', async () => {
    await invoke('workspace_list_directory', {});
    const record = await newest();
    const file = await vscode.commands.executeCommand<string>(CommandId.activityLogFile);
    let lines: Record[] = [];
    for (let attempt = 0; attempt < 50 && !lines.some((line) => line.id === record.id); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the append is asynchronous
      lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record);
    }
    assert.deepStrictEqual(lines.find((line) => line.id === record.id), JSON.parse(JSON.stringify(record)));
  });

  it('records a denial with its rule id', async () => {
    await withSettings({ riskLevel: 'low' }, () => invokeError('workspace_read_file', { file_path: '../outside.txt' }));
    const record = await newest();
    assert.strictEqual(record.outcome, 'error');
    assert.deepStrictEqual(record.verdicts.map((verdict) => [verdict.decision, verdict.rule]), [['deny', 'file.outside_workspace_read']]);
    assert.match(record.error ?? '', /^Denied by file\.outside_workspace_read/);
  });

  it('records a warning, the question and the answer', async () => {
    const outsideFile = path.join(path.dirname(workspaceRoot()), 'activity-outside.txt');
    fs.writeFileSync(outsideFile, 'outside\n');
    const pending = invokeError('workspace_read_file', { file_path: outsideFile });
    await answerNextApproval(false);
    await pending;
    const record = await newest();
    assert.deepStrictEqual(record.verdicts.map((verdict) => [verdict.decision, verdict.rule]), [['warn', 'file.outside_workspace_read']]);
    assert.deepStrictEqual(record.approvals.map((approval) => [approval.kind, approval.allowed]), [['guard', false]]);
  });

  it('records redactions without keeping the secret', async () => {
    const secret = 'ghp_R5v8KzQ2mN7pL4xW9tY3bC6dF1gH0jK2sA5e';
    fs.writeFileSync(path.join(workspaceRoot(), 'token.env.sh'), `TOKEN=${secret}\n`);
    await invoke('workspace_read_file', { file_path: 'token.env.sh' });
    const record = await newest();
    assert.deepStrictEqual(record.redactions, [{ kind: 'github', line: 1 }]);
    assert.ok(!JSON.stringify(record).includes(secret));
  });

  it('keeps no more than a short excerpt of long inputs', async () => {
    await invokeError('workspace_read_file', { file_path: 'x'.repeat(500) });
    const record = await newest();
    assert.ok(record.input.length < 200, record.input);
    assert.match(record.input, /\(500 chars\)/);
  });
});

describe('output budgets (extension host)', () => {
  before(() => {
    const lines = Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(3, '0')} ${'w'.repeat(95)}`);
    fs.writeFileSync(path.join(workspaceRoot(), 'wide.txt'), `${lines.join('\n')}\n`);
  });

  it('ends a read at a whole line within workspaceAgentTools.output.maxResultChars and gives the offset', async () => {
    const { text } = await withSettings({ 'output.maxResultChars': 10_500 }, () => invoke('workspace_read_file', { file_path: 'wide.txt' }));
    assert.match(text, /\n    93\t093 w{95}\n\n\[Showing lines 1-93 of 300\. Use offset=94 to read more\.\]\n\[Stopped before line 94 to stay within the output budget of 10500 characters/);
  });

  it('cuts any other result to the budget with a note naming the setting', async () => {
    const { text } = await withSettings({ 'output.maxResultChars': 10_000 }, () => invoke('workspace_grep', { pattern: 'w{95}', path: 'wide.txt', max_results: 300 }));
    assert.ok(text.length < 10_400, `${text.length} characters`);
    assert.match(text, /\[output truncated: \d+ more characters not shown\. The output budget is 10000 characters \(workspaceAgentTools\.output\.maxResultChars\)/);
  });

  it('keeps workspaceAgentTools.output.commandOutputChars of each stream of a command', async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    const { text } = await withSettings({ 'output.commandOutputChars': 4_000 }, () => invoke('workspace_run_command', { command: 'seq 1 100000' }));
    const stdout = /--- stdout ---\n([\s\S]*?)\n\[stdout was/.exec(text)?.[1] ?? '';
    assert.ok(stdout.length > 3_900 && stdout.length < 4_200, `kept ${stdout.length} characters`);
    assert.match(stdout, /\n100000$/);
  });
});
