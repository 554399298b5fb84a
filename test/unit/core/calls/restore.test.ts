import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ActivityRecord } from '../../../../src/core/activity/activityRecord';
import { restoreToBefore, type RestoreServices, type RestoreWorkspace } from '../../../../src/core/calls/restore';
import { checkpointLimits } from '../../../../src/core/checkpoints/callCheckpoint';
import { fileLocation } from '../../../../src/core/location';
import type { ApprovalRequest } from '../../../../src/core/ports/approval';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { MemoryActivityLog, ManualClock } from '../../support/activityLog';
import { DiskRestoreWriter, MemoryCheckpointStore } from '../../support/checkpointStore';
import { ScriptedApprover } from '../../support/context';

describe('calls/restore', () => {
  let base: string;
  let folder: string;
  let store: MemoryCheckpointStore;
  let writer: DiskRestoreWriter;
  let log: MemoryActivityLog;
  let approver: ScriptedApprover;
  let clock: ManualClock;
  let running: { id: string; commandLine: string }[];
  let workspace: RestoreWorkspace;
  let services: RestoreServices;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-restore-'));
    folder = path.join(base, 'ws');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'a.txt'), 'one\n');
    store = new MemoryCheckpointStore();
    writer = new DiskRestoreWriter();
    log = new MemoryActivityLog();
    approver = new ScriptedApprover(true);
    clock = new ManualClock();
    running = [];
    workspace = { folders: [{ name: 'ws', location: fileLocation(folder) }], platform: process.platform, limits: checkpointLimits(DEFAULT_SETTINGS) };
    services = { store, activity: log, approver, writer, clock, background: { running: () => running } };
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  /** A recorded call that changed a.txt and made b.txt, with its checkpoint before. */
  async function changingCall(): Promise<ActivityRecord> {
    const before = await store.take([folder], workspace.limits);
    fs.writeFileSync(path.join(folder, 'a.txt'), 'changed\n');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'made\n');
    const record: ActivityRecord = { id: log.newId(), startedAt: '', tool: 'workspace_edit_file', input: '{}', verdicts: [], approvals: [], durationMs: 1, outcome: 'ok', resultChars: 1, redactions: [], changedPaths: [], checkpoint: { before: before.id } };
    log.add(record, {});
    return record;
  }
  const read = (name: string): string | undefined => (fs.existsSync(path.join(folder, name)) ? fs.readFileSync(path.join(folder, name), 'utf8') : undefined);

  it('asks, writes the steps and records the restore with its own checkpoints, so it can be undone', async () => {
    const record = await changingCall();
    const { outcome, notice } = await restoreToBefore(record, String(record.id), services, workspace);
    assert.deepEqual(outcome, { activityId: 2, restored: true, written: ['a.txt'], deleted: ['b.txt'], problems: [], message: 'Restored 1 file(s) and deleted 1 to before call 1.' });
    assert.equal(notice, 'information');
    assert.deepEqual([read('a.txt'), read('b.txt')], ['one\n', undefined]);
    assert.deepEqual(approver.asked, [{ kind: 'restore', title: 'Restore the workspace to before call 1 (edit_file)?', detail: 'It will change 2 file(s): delete b.txt (created since); restore a.txt.' }] satisfies ApprovalRequest[]);
    const restore = log.records[1];
    assert.deepEqual(
      { ...restore, startedAt: undefined },
      { id: 2, startedAt: undefined, tool: 'restoreCheckpoint', input: '{"activityId":1}', verdicts: [], approvals: [{ kind: 'restore', title: 'Restore the workspace to before call 1 (edit_file)?', allowed: true }], durationMs: 0, outcome: 'ok', resultChars: 0, redactions: [], changedPaths: [{ path: 'a.txt', kind: 'modified' }, { path: 'b.txt', kind: 'deleted', added: 0, deleted: 1 }], checkpoint: { before: 'ckpt-2', after: 'ckpt-3' } },
    );
    assert.deepEqual(log.inputs.get(2), { activityId: 1 });
    // Undo: restoring to before the restore brings the call's changes back.
    const undone = await restoreToBefore(restore, '2', services, workspace);
    assert.equal(undone.outcome.restored, true);
    assert.deepEqual([read('a.txt'), read('b.txt')], ['changed\n', 'made\n']);
  });

  it('records a declined restore and changes nothing', async () => {
    const record = await changingCall();
    approver.answer = false;
    const { outcome, notice } = await restoreToBefore(record, '1', services, workspace);
    assert.deepEqual(outcome, { activityId: 2, restored: false, written: [], deleted: [], problems: [], message: 'The restore to before call 1 was declined; nothing was changed.' });
    assert.equal(notice, undefined);
    assert.deepEqual(writer.written, []);
    assert.deepEqual([log.records[1].outcome, log.records[1].error, log.records[1].approvals[0].allowed, log.records[1].checkpoint], ['error', outcome.message, false, undefined]);
    assert.equal(read('b.txt'), 'made\n');
  });

  it('refuses while a background command runs, before asking and again after the answer', async () => {
    const record = await changingCall();
    running = [{ id: 'bg-1', commandLine: 'npm run watch' }];
    const first = await restoreToBefore(record, '1', services, workspace);
    assert.equal(first.notice, 'warning');
    assert.match(first.outcome.message, /^Background commands are running: bg-1 \(npm run watch\)\. .*Nothing was changed\.$/);
    assert.deepEqual(approver.asked, []);
    running = [];
    approver.confirm = async (request) => {
      approver.asked.push(request);
      running = [{ id: 'bg-2', commandLine: 'make' }];
      return true;
    };
    const second = await restoreToBefore(record, '1', services, workspace);
    assert.match(second.outcome.message, /^Background commands are running: bg-2 \(make\)/);
    assert.deepEqual(writer.written, [], 'a command started while the question was open: nothing written');
    assert.equal(read('b.txt'), 'made\n');
  });

  it('refuses a missing record, a call without a checkpoint and a pruned checkpoint, with a warning', async () => {
    const record = await changingCall();
    const messages = [
      (await restoreToBefore(undefined, '7', services, workspace)).outcome.message,
      (await restoreToBefore({ ...record, checkpoint: undefined }, '1', services, workspace)).outcome.message,
    ];
    store.forget(record.checkpoint?.before ?? '');
    const pruned = await restoreToBefore(record, '1', services, workspace);
    messages.push(pruned.outcome.message);
    assert.deepEqual(messages, [
      'There is no activity record 7 to restore to.',
      'Call 1 (workspace_edit_file) has no checkpoint: it changed no files, or checkpoints were off.',
      'The checkpoint before call 1 was pruned from the store; it can no longer be restored.',
    ]);
    assert.equal(pruned.notice, 'warning');
    assert.equal(log.records.length, 1, 'refusals are not recorded');
  });

  it('says when there is nothing to restore, without asking', async () => {
    const before = await store.take([folder], workspace.limits);
    const record: ActivityRecord = { id: 1, startedAt: '', tool: 'workspace_write_file', input: '{}', verdicts: [], approvals: [], durationMs: 1, outcome: 'ok', resultChars: 1, redactions: [], changedPaths: [], checkpoint: { before: before.id } };
    const { outcome, notice } = await restoreToBefore(record, '1', services, workspace);
    assert.deepEqual([outcome.restored, outcome.message, notice], [true, 'The files are already as they were before call 1; nothing to restore.', 'information']);
    assert.deepEqual(approver.asked, []);
  });

  it('records the paths it could not restore as an error', async () => {
    const record = await changingCall();
    writer.problems = ['a.txt: permission denied'];
    const { outcome } = await restoreToBefore(record, '1', services, workspace);
    assert.deepEqual([outcome.restored, outcome.message], [false, 'Restored to before call 1, except: a.txt: permission denied']);
    assert.deepEqual([log.records[1].outcome, log.records[1].error], ['error', outcome.message]);
  });

  it('refuses when the workspace cannot be recorded first', async () => {
    const record = await changingCall();
    store.failure = new Error('disk full');
    const { outcome } = await restoreToBefore(record, '1', services, workspace);
    assert.equal(outcome.message, 'The workspace could not be recorded before restoring, so nothing was restored: No checkpoint was taken before this call: disk full');
    assert.deepEqual(approver.asked, []);
  });
});
