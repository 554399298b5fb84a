// The test-mode command the host bench (test/bench/host, `npm run bench -- host`) times core's
// invokeTool with: it must keep answering what vscode.lm.invokeTool answers, or the bench compares
// two different things.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../src/core/activity/activityRecord';
import { joinTextParts } from '../../src/core/output/budget';
import { CommandId } from '../../src/vscode/commandIds';
import { invoke, workspaceRoot } from './support/tools';

interface CoreOutcome {
  texts: string[];
  ms: number;
}

const invokeCore = (name: string, input: object, through?: 'runCall'): Thenable<CoreOutcome> => vscode.commands.executeCommand<CoreOutcome>(CommandId.invokeCoreToolForTests, name, input, through);
const newestRecord = async (): Promise<ActivityRecord | undefined> => ((await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? [])[0];

describe('core invokeTool entry for the host bench (extension host, test mode)', () => {
  before(() => {
    const lines = Array.from({ length: 500 }, (_, index) => `line ${index + 1}: the quick brown fox jumps over the lazy dog`);
    fs.mkdirSync(path.join(workspaceRoot(), 'core-invoke'), { recursive: true });
    fs.writeFileSync(path.join(workspaceRoot(), 'core-invoke/five-hundred.txt'), `${lines.join('\n')}\n`);
  });

  it('returns the text vscode.lm.invokeTool returns for the same read, and how long invokeTool took', async () => {
    const input = { file_path: 'core-invoke/five-hundred.txt', limit: 500 };
    const core = await invokeCore('workspace_read_file', input);
    assert.strictEqual(joinTextParts(core.texts), (await invoke('workspace_read_file', input)).text);
    assert.match(joinTextParts(core.texts), /^ {5}1\tline 1: the quick/);
    assert.ok(Number.isFinite(core.ms) && core.ms >= 0, `ms: ${core.ms}`);
  });

  it('records nothing through invokeTool alone, and records the call through runCall', async () => {
    const input = { file_path: 'core-invoke/five-hundred.txt', offset: 7, limit: 1 };
    const before = (await newestRecord())?.id;
    await invokeCore('workspace_read_file', input);
    assert.strictEqual((await newestRecord())?.id, before);
    const core = await invokeCore('workspace_read_file', input, 'runCall');
    assert.strictEqual(joinTextParts(core.texts), (await invoke('workspace_read_file', input)).text);
    const records = ((await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? []).slice(0, 2);
    // The newest is the vscode.lm.invokeTool call; the one before it, runCall's.
    assert.deepStrictEqual(records.map((record) => [record.tool, record.client]), [['workspace_read_file', 'extension'], ['workspace_read_file', 'extension']]);
    assert.notStrictEqual(records[1].id, before);
  });

  it("fails with the tool's own message when the tool refuses the call", async () => {
    await assert.rejects(Promise.resolve(invokeCore('workspace_read_file', { file_path: '/dev/zero' })), /^Error: Denied by file\.system_path_read: /);
  });

  it('fails for a tool the extension does not have', async () => {
    await assert.rejects(Promise.resolve(invokeCore('workspace_no_such_tool', {})), /no tool named workspace_no_such_tool/);
  });
});
