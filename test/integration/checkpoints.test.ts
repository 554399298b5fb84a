// Checkpoints in the real extension host: every changing call is recorded before and after, the
// Activity records list what it changed, and Restore to Before This Call brings the files back
// exactly (bytes, modes, deleted and created files), through the approval queue, and can itself be
// undone. The user's git repository is never touched.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../src/core/activity/activityRecord';
import { CommandId, UriScheme } from '../../src/vscode/commandIds';
import type { RestoreOutcome } from '../../src/core/calls/restore';
import { answerNextApproval, invoke, until, withSettings, workspaceRoot } from './support/tools';
import { backgroundId } from '../support/commandResults';

const abs = (relative: string): string => path.join(workspaceRoot(), relative);

let counter = 0;
function freshFolder(): string {
  counter += 1;
  const relative = `checkpoint-run/${counter}`;
  fs.mkdirSync(abs(relative), { recursive: true });
  return relative;
}

/** Every file under a folder: mode and bytes (symlinks: their target). */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) out[`${rel}${name}`] = `link:${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) walk(full, `${rel}${name}/`);
      else out[`${rel}${name}`] = `${(stat.mode & 0o777).toString(8)}:${fs.readFileSync(full).toString('hex')}`;
    }
  };
  walk(folder, '');
  return out;
}

async function latestRecord(): Promise<ActivityRecord> {
  const records = (await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? [];
  return records[0];
}

/** Starts a restore and answers its question (true: approve). */
async function restore(id: number, approve = true): Promise<RestoreOutcome> {
  const pending = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, id));
  const settled = await Promise.race([pending.then((outcome) => outcome), answerNextApproval(approve).then(() => undefined)]);
  if (settled) {
    throw new Error(`the restore asked nothing: ${settled.message}`);
  }
  return pending;
}

async function pendingQuestions(): Promise<Array<{ kind: string; title: string; detail: string }>> {
  return (await vscode.commands.executeCommand<Array<{ kind: string; title: string; detail: string }>>(CommandId.listPendingApprovals)) ?? [];
}

describe('checkpoints (extension host)', function () {
  this.timeout(60_000);
  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('after an approved `rm -rf src && echo x > new.txt`, restore brings back every file of src with its mode and removes new.txt; the restore can be undone', async () => {
    assert.equal(fs.existsSync(abs('.git')), false, 'this test runs in a workspace that is not a git repository');
    const dir = freshFolder();
    fs.mkdirSync(abs(`${dir}/src/deep/er`), { recursive: true });
    fs.writeFileSync(abs(`${dir}/src/main.c`), 'int main(void) {\n  return 0;\n}\n');
    fs.writeFileSync(abs(`${dir}/src/deep/run.sh`), '#!/bin/sh\necho run\n', { mode: 0o755 });
    fs.chmodSync(abs(`${dir}/src/deep/run.sh`), 0o755);
    fs.writeFileSync(abs(`${dir}/src/deep/er/blob.bin`), Buffer.from([0, 1, 2, 255, 254, 13, 10, 0]));
    fs.symlinkSync('../main.c', abs(`${dir}/src/deep/main-link.c`));
    fs.writeFileSync(abs(`${dir}/keep.txt`), 'kept\n');
    const original = snapshot(abs(dir));

    const call = invoke('workspace_run_command', { command: 'rm -rf src && echo x > new.txt', cwd: dir });
    await answerNextApproval(true);
    assert.match((await call).text, /^Exit code: 0/);
    assert.equal(fs.existsSync(abs(`${dir}/src`)), false);

    const record = await latestRecord();
    assert.equal(record.tool, 'workspace_run_command');
    assert.ok(record.checkpoint?.before && record.checkpoint.after, JSON.stringify(record));
    const changed = Object.fromEntries(record.changedPaths.map((file) => [file.path, file]));
    assert.deepEqual(changed[`${dir}/new.txt`], { path: `${dir}/new.txt`, kind: 'created', added: 1, deleted: 0 });
    assert.deepEqual(changed[`${dir}/src/main.c`], { path: `${dir}/src/main.c`, kind: 'deleted', added: 0, deleted: 3 });
    assert.equal(changed[`${dir}/src/deep/er/blob.bin`]?.kind, 'deleted');
    assert.equal(changed[`${dir}/src/deep/er/blob.bin`]?.added, undefined, 'binary files have no line counts');
    assert.equal(changed[`${dir}/keep.txt`], undefined);

    const pending = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, record.id));
    await until(async () => (await pendingQuestions()).length > 0, 'the restore question');
    const [question] = await pendingQuestions();
    assert.equal(question.kind, 'restore');
    assert.match(question.detail, new RegExp(`delete ${dir}/new\\.txt`));
    assert.match(question.detail, new RegExp(`restore ${dir}/src/main\\.c`));
    assert.equal(fs.existsSync(abs(`${dir}/src`)), false, 'nothing is restored before the answer');
    await answerNextApproval(true);
    const outcome = await pending;
    assert.equal(outcome.restored, true, outcome.message);
    assert.deepEqual(snapshot(abs(dir)), original);

    // The restore is a record with its own checkpoint: restoring to before it undoes it.
    const restoreRecord = await latestRecord();
    assert.equal(restoreRecord.id, outcome.activityId);
    assert.equal(restoreRecord.tool, 'restoreCheckpoint');
    assert.ok(restoreRecord.checkpoint?.after);
    assert.ok(restoreRecord.changedPaths.some((file) => file.path === `${dir}/new.txt` && file.kind === 'deleted'));
    const undo = await restore(restoreRecord.id);
    assert.equal(undo.restored, true, undo.message);
    assert.equal(fs.existsSync(abs(`${dir}/src`)), false);
    assert.equal(fs.readFileSync(abs(`${dir}/new.txt`), 'utf8'), 'x\n');
  });

  it('a background command\'s record gets its "after" checkpoint when the command is stopped, and restore undoes what it wrote', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/old.txt`), 'old\n');
    const start = invoke('workspace_run_command', { command: 'rm old.txt; echo made > made.txt; echo ready; exec sleep 300', cwd: dir, background: true, wait_for: '^ready$' });
    await answerNextApproval(true);
    const id = backgroundId((await start).text);
    const started = await latestRecord();
    assert.equal(started.tool, 'workspace_run_command');
    // While the command runs, its call has only a "before".
    assert.ok(started.checkpoint?.before && !started.checkpoint.after, JSON.stringify(started.checkpoint));
    // No restore while a command runs: it could swap a folder for a link while the restore writes.
    const refused = await vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, started.id);
    assert.equal(refused.restored, false);
    assert.match(refused.message, new RegExp(`^Background commands are running: ${id} `));
    assert.equal(fs.readFileSync(abs(`${dir}/made.txt`), 'utf8'), 'made\n');

    await invoke('workspace_stop_command', { id });
    const amended = async (): Promise<ActivityRecord | undefined> =>
      ((await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? []).find((record) => record.id === started.id && record.checkpoint?.after !== undefined);
    await until(async () => (await amended()) !== undefined, 'the after checkpoint of the background call');
    const record = (await amended())!;
    assert.deepEqual(
      record.changedPaths.map((file) => [file.path, file.kind]).sort(),
      [[`${dir}/made.txt`, 'created'], [`${dir}/old.txt`, 'deleted']],
    );
    assert.equal((await restore(record.id)).restored, true);
    assert.equal(fs.readFileSync(abs(`${dir}/old.txt`), 'utf8'), 'old\n');
    assert.equal(fs.existsSync(abs(`${dir}/made.txt`)), false);
  });

  it('never writes outside the folder: a hard-linked file is replaced, a symlinked folder is not written through', async () => {
    const dir = freshFolder();
    const outside = fs.mkdtempSync(path.join(path.dirname(workspaceRoot()), 'outside-'));
    fs.writeFileSync(abs(`${dir}/linked.txt`), 'original\n');
    fs.linkSync(abs(`${dir}/linked.txt`), path.join(outside, 'other-name.txt'));
    fs.mkdirSync(abs(`${dir}/sub`));
    fs.writeFileSync(abs(`${dir}/sub/file.txt`), 'in sub\n');
    const call = invoke('workspace_run_command', { command: `echo changed > linked.txt && rm -rf sub && ln -s ${outside} sub`, cwd: dir });
    await answerNextApproval(true);
    await call;
    assert.equal(fs.readFileSync(path.join(outside, 'other-name.txt'), 'utf8'), 'changed\n', 'the command wrote through the hard link');
    assert.equal((await restore((await latestRecord()).id)).restored, true);
    assert.equal(fs.readFileSync(abs(`${dir}/linked.txt`), 'utf8'), 'original\n');
    assert.equal(fs.readFileSync(path.join(outside, 'other-name.txt'), 'utf8'), 'changed\n', 'the restore replaced the workspace name only');
    assert.ok(fs.lstatSync(abs(`${dir}/sub`)).isDirectory(), 'the symlink was replaced by the folder');
    assert.equal(fs.readFileSync(abs(`${dir}/sub/file.txt`), 'utf8'), 'in sub\n');
    assert.deepEqual(fs.readdirSync(outside), ['other-name.txt'], 'nothing was written through the symlink');
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a rejected restore changes nothing', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/a.txt`), 'a\n');
    const call = invoke('workspace_run_command', { command: 'rm a.txt', cwd: dir });
    await answerNextApproval(true);
    await call;
    const outcome = await restore((await latestRecord()).id, false);
    assert.equal(outcome.restored, false);
    assert.equal(fs.existsSync(abs(`${dir}/a.txt`)), false);
  });

  it('restoring an edit to a CRLF/BOM file gives the original bytes, and an open editor shows the restored text', async () => {
    const dir = freshFolder();
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('alpha\r\nbeta\r\ngamma\r\n')]);
    fs.writeFileSync(abs(`${dir}/crlf-bom.txt`), original);
    await invoke('workspace_read_file', { file_path: `${dir}/crlf-bom.txt` });
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(abs(`${dir}/crlf-bom.txt`)));
    await vscode.window.showTextDocument(document);
    const call = invoke('workspace_edit_file', { file_path: `${dir}/crlf-bom.txt`, old_string: 'beta', new_string: 'BETA' });
    await answerNextApproval(true);
    await call;
    assert.ok(fs.readFileSync(abs(`${dir}/crlf-bom.txt`)).includes(Buffer.from('BETA\r\n')));
    const record = await latestRecord();
    assert.deepEqual(record.changedPaths, [{ path: `${dir}/crlf-bom.txt`, kind: 'modified', added: 1, deleted: 1 }]);

    // Show Changes: the file before and after the call, from its checkpoints.
    await vscode.commands.executeCommand(CommandId.showCheckpointChanges, record.id, 0);
    let diff: vscode.TabInputTextDiff | undefined;
    await until(() => {
      diff = vscode.window.tabGroups.all.flatMap((group) => group.tabs).map((tab) => tab.input).find((input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff && input.original.scheme === UriScheme.checkpoint);
      return diff !== undefined;
    }, 'the Show Changes diff');
    assert.equal((await vscode.workspace.openTextDocument(diff!.original)).getText(), 'alpha\r\nbeta\r\ngamma\r\n');
    assert.equal((await vscode.workspace.openTextDocument(diff!.modified)).getText(), 'alpha\r\nBETA\r\ngamma\r\n');

    // Unsaved text in the editor: the question says it will be replaced.
    const typed = new vscode.WorkspaceEdit();
    typed.insert(document.uri, new vscode.Position(0, 0), 'typed ');
    await vscode.workspace.applyEdit(typed);
    assert.ok(document.isDirty);
    const pending = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, record.id));
    await until(async () => (await pendingQuestions()).length > 0, 'the restore question');
    assert.match((await pendingQuestions())[0].detail, /Unsaved text in .*crlf-bom\.txt will be replaced/);
    await answerNextApproval(true);
    assert.equal((await pending).restored, true);
    assert.ok(fs.readFileSync(abs(`${dir}/crlf-bom.txt`)).equals(original), 'the original bytes');
    await until(() => document.getText() === 'alpha\r\nbeta\r\ngamma\r\n' && !document.isDirty, 'the editor to show the restored text');
  });

  it('restores what an apply_patch added, deleted and changed', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/keep.py`), 'def f():\n    return 1\n');
    fs.writeFileSync(abs(`${dir}/gone.txt`), 'gone\n');
    fs.writeFileSync(abs(`${dir}/tool.sh`), '#!/bin/sh\necho 1\n', { mode: 0o755 });
    fs.chmodSync(abs(`${dir}/tool.sh`), 0o755);
    const original = snapshot(abs(dir));
    for (const name of ['keep.py', 'tool.sh']) await invoke('workspace_read_file', { file_path: `${dir}/${name}` });
    const patch = [
      '*** Begin Patch',
      `*** Add File: ${dir}/added/new.py`,
      '+print("new")',
      `*** Delete File: ${dir}/gone.txt`,
      `*** Update File: ${dir}/keep.py`,
      '@@',
      ' def f():',
      '-    return 1',
      '+    return 2',
      `*** Update File: ${dir}/tool.sh`,
      '@@',
      '-echo 1',
      '+echo 2',
      '*** End Patch',
    ].join('\n');
    const call = invoke('workspace_apply_patch', { patch });
    await answerNextApproval(true);
    assert.match((await call).text, /^Success/);
    const record = await latestRecord();
    assert.deepEqual(record.changedPaths.map((file) => `${file.kind} ${file.path}`).sort(), [`created ${dir}/added/new.py`, `deleted ${dir}/gone.txt`, `modified ${dir}/keep.py`, `modified ${dir}/tool.sh`]);
    assert.equal((await restore(record.id)).restored, true);
    assert.deepEqual(snapshot(abs(dir)), original);
    assert.equal(fs.existsSync(abs(`${dir}/added`)), false, 'the folder the patch made is gone with its file');
  });

  it('notes a file over the size cap in the result and the activity record, and the call still runs', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/big.bin`), Buffer.alloc(1024 * 1024 + 10, 7));
    await withSettings({ 'checkpoints.maxFileSizeMB': 1 }, async () => {
      const call = invoke('workspace_run_command', { command: 'touch made.txt', cwd: dir });
      await answerNextApproval(true);
      const { text } = await call;
      assert.match(text, /Exit code: 0/);
      assert.match(text, new RegExp(`\\[Checkpoint: .*${dir}/big\\.bin \\(1\\.0 MB\\) is over the checkpoint size cap of 1 MB`));
      const record = await latestRecord();
      assert.match(record.checkpoint?.notes?.join('\n') ?? '', /big\.bin .* over the checkpoint size cap/);
      assert.ok(record.changedPaths.some((file) => file.path === `${dir}/made.txt` && file.kind === 'created'));
    });
    fs.rmSync(abs(`${dir}/big.bin`));
  });

  it('lists at most 500 changed files in a record and counts the rest; restore covers them all', async () => {
    const dir = freshFolder();
    const call = invoke('workspace_run_command', { command: 'mkdir many && cd many && seq 1 600 | xargs touch', cwd: dir });
    await answerNextApproval(true);
    await call;
    const record = await latestRecord();
    assert.equal(record.changedPaths.length, 500);
    assert.equal(record.checkpoint?.omittedPaths, 100);
    assert.equal((await restore(record.id)).restored, true);
    assert.equal(fs.existsSync(abs(`${dir}/many`)), false);
  });

  it('takes no checkpoint for a read-only command or a read', async () => {
    await invoke('workspace_run_command', { command: 'ls' });
    assert.equal((await latestRecord()).checkpoint, undefined);
    await invoke('workspace_list_directory', {});
    assert.equal((await latestRecord()).checkpoint, undefined);
  });

  describe('in a git repository', () => {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: workspaceRoot(), encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    const dotGit = (): string => execFileSync('sh', ['-c', 'find . -type f -exec sha256sum {} + | sort; find . -exec stat -c "%n %s %Y %a" {} + | sort'], { cwd: abs('.git'), encoding: 'utf8' });
    // VS Code's git extension would open the repository made here and fail (EPIPE) once the test
    // removes it again, inside whichever test runs then: it opens none while git.enabled is false.
    const gitConfig = () => vscode.workspace.getConfiguration('git');
    let gitEnabled: boolean | undefined;
    before(async () => {
      gitEnabled = gitConfig().inspect<boolean>('enabled')?.globalValue;
      await gitConfig().update('enabled', false, vscode.ConfigurationTarget.Global);
      git('init', '-q');
      fs.writeFileSync(abs('.git/info/exclude'), 'checkpoint-run/\n');
      fs.writeFileSync(abs('git-tracked.txt'), 'v1\n');
      git('add', 'git-tracked.txt');
      git('commit', '-q', '-m', 'first');
      fs.writeFileSync(abs('git-tracked.txt'), 'stashed\n');
      git('stash', '-q');
      fs.writeFileSync(abs('git-tracked.txt'), 'v2\n');
    });
    after(async () => {
      fs.rmSync(abs('.git'), { recursive: true, force: true });
      fs.rmSync(abs('git-tracked.txt'), { force: true });
      // Past the git extension's debounced scan of the change, before it may open repositories again.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await gitConfig().update('enabled', gitEnabled, vscode.ConfigurationTarget.Global);
    });

    it('leaves git status, the stash list and .git identical through checkpointing and restoring', async () => {
      // --no-optional-locks: the test's own status must not refresh the user's index either.
      const before = dotGit();
      const status = git('--no-optional-locks', 'status', '--porcelain', '--ignored');
      const stash = git('stash', 'list');
      const call = invoke('workspace_run_command', { command: 'echo v3 > git-tracked.txt && rm -f writing/plain.txt' });
      await answerNextApproval(true);
      await call;
      const record = await latestRecord();
      assert.ok(record.changedPaths.some((file) => file.path === 'git-tracked.txt' && file.kind === 'modified'), JSON.stringify(record.changedPaths));
      assert.equal((await restore(record.id)).restored, true);
      assert.equal(fs.readFileSync(abs('git-tracked.txt'), 'utf8'), 'v2\n');
      assert.equal(dotGit(), before);
      assert.equal(git('--no-optional-locks', 'status', '--porcelain', '--ignored'), status);
      assert.equal(git('stash', 'list'), stash);
    });
  });
  it('a first edit made while the store is being built waits for the build (shown as "preparing undo" in the status bar), and its restore brings back the exact bytes; reads do not wait', async () => {
    type BuildForTests = { state: { phase: string; waiting?: number }; warmUp: { phase: string }; statusText: string };
    const buildState = async () => (await vscode.commands.executeCommand<BuildForTests>(CommandId.checkpointBuildForTests, { action: 'state' }))!;
    // The build started with the window has ended (the one below queues behind it otherwise).
    await until(async () => (await buildState()).warmUp.phase !== 'building', 'the window\'s own store build to end');
    const dir = freshFolder();
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first line\r\nsecond line: caf\u00e9\r\nthird\r\n')]);
    fs.writeFileSync(abs(`${dir}/during-build.txt`), original);

    assert.equal(await vscode.commands.executeCommand(CommandId.checkpointBuildForTests, { action: 'startHeld' }), true);
    let released = false;
    try {
      const read = await invoke('workspace_read_file', { file_path: `${dir}/during-build.txt` });
      assert.match(read.text, /second line/);
      const call = invoke('workspace_edit_file', { file_path: `${dir}/during-build.txt`, old_string: 'second line', new_string: 'SECOND LINE' });
      await answerNextApproval(true);
      await until(async () => ((await buildState()).state.waiting ?? 0) >= 1, 'the edit to wait for the build');
      const shown = await buildState();
      assert.match(shown.statusText, /preparing undo \d+% \(waiting\)/);
      assert.deepEqual(fs.readFileSync(abs(`${dir}/during-build.txt`)), original, 'the edit waits for its "before"');
      await vscode.commands.executeCommand(CommandId.checkpointBuildForTests, { action: 'release' });
      released = true;
      await call;
    } finally {
      if (!released) await vscode.commands.executeCommand(CommandId.checkpointBuildForTests, { action: 'release' });
    }
    assert.ok(fs.readFileSync(abs(`${dir}/during-build.txt`)).includes(Buffer.from('SECOND LINE')));
    const record = await latestRecord();
    assert.equal(record.tool, 'workspace_edit_file');
    assert.deepEqual(record.changedPaths, [{ path: `${dir}/during-build.txt`, kind: 'modified', added: 1, deleted: 1 }]);
    await until(async () => (await buildState()).state.phase === 'ready', 'the build to end');
    assert.doesNotMatch((await buildState()).statusText, /preparing undo/);

    const outcome = await restore(record.id);
    assert.equal(outcome.restored, true, outcome.message);
    assert.deepEqual(fs.readFileSync(abs(`${dir}/during-build.txt`)), original);
  });
});
