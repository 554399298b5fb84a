// Staged command changes in the real extension host (runCommand.stageChanges, Linux with bubblewrap
// and overlays): an approved command's new repository with a planted core.fsmonitor and its nested
// execution config are held and never reach the folder, so git run afterwards as VS Code's git
// extension runs it obeys nothing the command planted; the rest is merged, listed in the result and
// the Activity record, and Restore to Before This Call undoes it exactly.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../src/core/activity/activityRecord';
import type { HeldQuestion, HeldReviewOutcome } from '../../src/core/calls/heldReview';
import type { RestoreOutcome } from '../../src/core/calls/restore';
import { CommandId } from '../../src/vscode/commandIds';
import { answerNextApproval, invoke, withSettings, workspaceRoot } from './support/tools';

const abs = (relative: string): string => path.join(workspaceRoot(), relative);

let counter = 0;
function freshFolder(): string {
  counter += 1;
  const relative = `staged-run/${counter}`;
  fs.mkdirSync(abs(relative), { recursive: true });
  return relative;
}

/** Runs an approved command (each line below asks once: it writes in the workspace) with its changes staged. */
async function runStaged(command: string, cwd: string): Promise<string> {
  return withSettings({ 'runCommand.stageChanges': true }, async () => {
    const call = invoke('workspace_run_command', { command, cwd });
    // The first command of a pass also tries the sandbox and the overlay: on a busy machine the question comes late.
    await answerNextApproval(true, 60_000);
    return (await call).text;
  });
}

async function latestRecord(): Promise<ActivityRecord> {
  const records = (await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? [];
  return records[0];
}

async function recordById(id: number): Promise<ActivityRecord | undefined> {
  return ((await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? []).find((record) => record.id === id);
}

/** Presses the buttons of the next modal questions of Merge and Discard Held Change (a missing one is no); answers the questions asked so far. */
async function answerHeldQuestions(...buttons: (string | null)[]): Promise<HeldQuestion[]> {
  return (await vscode.commands.executeCommand<HeldQuestion[]>(CommandId.heldQuestionsForTests, buttons)) ?? [];
}

/** Merges or discards a held change from its row, as its inline action does (the row is the argument). */
async function fromRow(command: string, record: ActivityRecord, index: number): Promise<HeldReviewOutcome> {
  return (await vscode.commands.executeCommand<HeldReviewOutcome>(command, { kind: 'held', record, index })) as HeldReviewOutcome;
}

describe('staged command changes (extension host)', function () {
  this.timeout(90_000);
  before(function () {
    // The sandbox and overlays are Linux's; an untrusted workspace runs no command.
    if (process.platform !== 'linux' || !vscode.workspace.isTrusted) this.skip();
  });

  it('holds a new repository with a planted core.fsmonitor: git status run afterwards outside any sandbox never runs it', async () => {
    const dir = freshFolder();
    const marker = path.join(path.dirname(workspaceRoot()), `fsmonitor-ran-${process.pid}`);
    const text = await runStaged(`mkdir pkg && cd pkg && git init -q && git config core.fsmonitor "touch ${marker}" && echo code > main.c`, dir);
    assert.match(text, /^Sandbox: bubblewrap: .*changes staged in an overlay/m, text);
    assert.match(text, new RegExp(`- A ${dir}/pkg/\\.git \\(held: `), text);
    assert.equal(fs.existsSync(abs(`${dir}/pkg/.git`)), false);
    assert.equal(fs.readFileSync(abs(`${dir}/pkg/main.c`), 'utf8'), 'code\n');
    spawnSync('git', ['status'], { cwd: abs(`${dir}/pkg`), env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(workspaceRoot()) } });
    assert.equal(fs.existsSync(marker), false, 'the planted fsmonitor ran');
  });

  it('holds nested execution config (pkg/.vscode/tasks.json, a *.code-workspace) that a person may open next, and shows it for review in the Activity view', async () => {
    const dir = freshFolder();
    const text = await runStaged('mkdir -p pkg/.vscode && echo {} > pkg/.vscode/tasks.json && echo \'{"folders":[]}\' > pkg/app.code-workspace && echo ok > pkg/ok.txt', dir);
    assert.match(text, new RegExp(`- A ${dir}/pkg/\\.vscode \\(held: `), text);
    assert.equal(fs.existsSync(abs(`${dir}/pkg/.vscode`)), false);
    assert.equal(fs.existsSync(abs(`${dir}/pkg/app.code-workspace`)), false);
    assert.equal(fs.readFileSync(abs(`${dir}/pkg/ok.txt`), 'utf8'), 'ok\n');

    // The call's record lists what was held; its row says so; Show Held Change opens the command's version beside the folder's.
    const record = await latestRecord();
    const held = record.held ?? [];
    assert.deepEqual(held.map((entry) => entry.path).sort(), [`${dir}/pkg/.vscode`, `${dir}/pkg/app.code-workspace`]);
    const rows = (await vscode.commands.executeCommand<Array<{ description?: string }>>(CommandId.activityViewRows)) ?? [];
    assert.ok(rows.some((row) => String(row.description).includes('2 held for review')), JSON.stringify(rows));
    const index = held.findIndex((entry) => entry.path.endsWith('app.code-workspace'));
    await vscode.commands.executeCommand(CommandId.showHeldChange, record.id, index);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff is open: ${tab?.label}`);
    assert.equal(tab.input.modified.fsPath, held[index].keptAt);
    assert.equal(fs.readFileSync(held[index].keptAt, 'utf8'), '{"folders":[]}\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("shows a staged command's changes in its record and restores to before it exactly", async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/keep.txt`), 'before\n');
    fs.writeFileSync(abs(`${dir}/gone.txt`), 'gone\n');
    const text = await runStaged('echo after > keep.txt && rm gone.txt && echo new > new.txt', dir);
    for (const line of [`- M ${dir}/keep.txt`, `- D ${dir}/gone.txt`, `- A ${dir}/new.txt`]) {
      assert.ok(text.includes(line), `${line} in:\n${text}`);
    }
    assert.equal(fs.readFileSync(abs(`${dir}/keep.txt`), 'utf8'), 'after\n');

    const record = await latestRecord();
    assert.equal(record.tool, 'workspace_run_command');
    const changed = Object.fromEntries(record.changedPaths.map((file) => [file.path, file.kind]));
    assert.deepEqual([changed[`${dir}/keep.txt`], changed[`${dir}/gone.txt`], changed[`${dir}/new.txt`]], ['modified', 'deleted', 'created'], JSON.stringify(record.changedPaths));

    const pending = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, record.id));
    await answerNextApproval(true);
    const outcome = await pending;
    assert.equal(outcome.restored, true, outcome.message);
    assert.equal(fs.readFileSync(abs(`${dir}/keep.txt`), 'utf8'), 'before\n');
    assert.equal(fs.readFileSync(abs(`${dir}/gone.txt`), 'utf8'), 'gone\n');
    assert.equal(fs.existsSync(abs(`${dir}/new.txt`)), false);
  });

  it('runs `rm some-file` without a question with runCommand.askAfterStaged, lists its change and restores it', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/some-file.txt`), 'some\n');
    let asked = false;
    const text = await withSettings({ 'runCommand.askAfterStaged': true }, async () => {
      const call = invoke('workspace_run_command', { command: 'rm some-file.txt', cwd: dir }).then((outcome) => outcome.text, (error: Error) => error.message);
      // A question is the failure: it is rejected at once, so the call ends instead of waiting for an answer.
      let done = false;
      const watch = (async () => {
        while (!done) {
          asked ||= (await vscode.commands.executeCommand<boolean>(CommandId.reject)) === true;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      try {
        return await call;
      } finally {
        done = true;
        await watch;
      }
    });
    assert.equal(asked, false, `a question was asked:\n${text}`);
    assert.match(text, /Not asked before: this command ran without asking because its changes were staged for review/, text);
    assert.ok(text.includes(`- D ${dir}/some-file.txt`), text);
    assert.equal(fs.existsSync(abs(`${dir}/some-file.txt`)), false);

    const record = await latestRecord();
    assert.ok(record.approvals.some((approval) => approval.askedAfter === true), JSON.stringify(record.approvals));
    assert.deepEqual(record.changedPaths.map((file) => [file.path, file.kind]), [[`${dir}/some-file.txt`, 'deleted']]);
    const pending = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, record.id));
    await answerNextApproval(true);
    const outcome = await pending;
    assert.equal(outcome.restored, true, outcome.message);
    assert.equal(fs.readFileSync(abs(`${dir}/some-file.txt`), 'utf8'), 'some\n');
  });

  it('merges a held .vscode/tasks.json from its row after the modal question (undone by Restore), and discards another held change', async () => {
    const dir = freshFolder();
    fs.mkdirSync(abs(`${dir}/pkg/.vscode`), { recursive: true });
    await runStaged('echo \'{"version":"2.0.0","tasks":[]}\' > pkg/.vscode/tasks.json && echo \'{"folders":[]}\' > pkg/app.code-workspace', dir);
    const record = await latestRecord();
    const held = record.held ?? [];
    const tasks = held.findIndex((entry) => entry.path === `${dir}/pkg/.vscode/tasks.json`);
    const workspaceFile = held.findIndex((entry) => entry.path === `${dir}/pkg/app.code-workspace`);
    assert.ok(tasks >= 0 && workspaceFile >= 0, JSON.stringify(held));

    // No answer: nothing merged, still held.
    await answerHeldQuestions();
    assert.equal((await fromRow(CommandId.mergeHeldChange, record, tasks)).done, false);
    assert.equal(fs.existsSync(abs(`${dir}/pkg/.vscode/tasks.json`)), false);

    await answerHeldQuestions('Merge');
    const merged = await fromRow(CommandId.mergeHeldChange, record, tasks);
    assert.equal(merged.done, true, merged.message);
    assert.equal(fs.readFileSync(abs(`${dir}/pkg/.vscode/tasks.json`), 'utf8'), '{"version":"2.0.0","tasks":[]}\n');
    const asked = (await answerHeldQuestions()).slice(-2);
    assert.match(asked[1].title, /Merge the held change .*tasks\.json/);
    assert.match(asked[1].detail, /execution config[\s\S]*outside the sandbox/);
    assert.equal((await recordById(record.id))?.held?.[tasks].state, 'merged');

    await answerHeldQuestions('Discard');
    const discarded = await fromRow(CommandId.discardHeldChange, record, workspaceFile);
    assert.equal(discarded.done, true, discarded.message);
    assert.equal(fs.existsSync(abs(`${dir}/pkg/app.code-workspace`)), false);
    assert.equal((await recordById(record.id))?.held?.[workspaceFile].state, 'discarded');
    assert.equal(fs.existsSync(held[tasks].keptAt.split('/upper')[0]), false, 'the run folder is removed once nothing is held');

    // The merge is the person's change with its own checkpoint: restoring to before it undoes it.
    const pending = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, merged.activityId));
    await answerNextApproval(true);
    assert.equal((await pending).restored, true);
    assert.equal(fs.existsSync(abs(`${dir}/pkg/.vscode/tasks.json`)), false);
  });

  it("lists a kept run an earlier window left in the middle of its merge (its temporary removed), and merges what it had not merged from its row", async () => {
    const dir = freshFolder();
    const logFile = (await vscode.commands.executeCommand<string>(CommandId.activityLogFile)) ?? '';
    const run = path.join(path.dirname(logFile), 'staged', '999999999-1-0abc');
    fs.mkdirSync(path.join(run, 'upper0', dir, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(run, 'upper0', dir, 'a.txt'), 'merged after the crash\n');
    fs.writeFileSync(path.join(run, 'upper0', dir, '.vscode', 'settings.json'), '{}\n');
    const temporary = abs(`${dir}/.wat-merge-0123456789ab`);
    fs.writeFileSync(temporary, 'half');
    const why = `${dir}/.vscode: execution config is never merged unasked`;
    fs.writeFileSync(path.join(run, 'run.json'), JSON.stringify({ version: 1, pid: 999999999, startedAt: Date.now() - 1000, state: 'merging', layers: [{ folder: workspaceRoot(), upper: 'upper0', planned: [['write', `${dir}/a.txt`]], held: [{ path: `${dir}/.vscode`, status: 'A', why }] }] }));

    await vscode.commands.executeCommand(CommandId.recoverHeldChangesForTests);
    const record = await latestRecord();
    assert.equal(record.tool, 'staged changes from an earlier session');
    assert.deepEqual((record.held ?? []).map((entry) => entry.path).sort(), [`${dir}/.vscode`, `${dir}/a.txt`]);
    assert.equal(fs.existsSync(temporary), false, 'the killed merge\'s temporary is removed');
    const rows = (await vscode.commands.executeCommand<Array<{ label?: string; description?: string }>>(CommandId.activityViewRows)) ?? [];
    const row = rows.find((candidate) => candidate.label === 'staged changes from an earlier session');
    assert.ok(String(row?.description).includes('2 held for review'), JSON.stringify(rows));

    const index = (record.held ?? []).findIndex((entry) => entry.path === `${dir}/a.txt`);
    await answerHeldQuestions('Merge');
    const outcome = await fromRow(CommandId.mergeHeldChange, record, index);
    assert.equal(outcome.done, true, outcome.message);
    assert.equal(fs.readFileSync(abs(`${dir}/a.txt`), 'utf8'), 'merged after the crash\n');
    assert.equal(fs.existsSync(abs(`${dir}/.vscode`)), false, 'the held execution config stays held');
  });
});
