import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkpointLimits } from '../../../../src/core/checkpoints/callCheckpoint';
import { planRestore, restorePreview } from '../../../../src/core/checkpoints/restore';
import { fileLocation, type WorkspaceFolder } from '../../../../src/core/location';
import type { RestoreStep } from '../../../../src/core/ports/checkpoints';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { DiskRestoreWriter, MemoryCheckpointStore } from '../../support/checkpointStore';

const limits = checkpointLimits(DEFAULT_SETTINGS);

describe('checkpoints/restore', () => {
  let base: string;
  let folder: string;
  let folders: WorkspaceFolder[];
  let store: MemoryCheckpointStore;
  let writer: DiskRestoreWriter;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-restore-plan-'));
    folder = path.join(base, 'ws');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'two\n');
    folders = [{ name: 'ws', location: fileLocation(folder) }];
    store = new MemoryCheckpointStore();
    writer = new DiskRestoreWriter();
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('records the folders now, then plans the steps back to the target with a preview', async () => {
    const target = await store.take([folder], limits);
    fs.writeFileSync(path.join(folder, 'a.txt'), 'changed\n');
    fs.rmSync(path.join(folder, 'b.txt'));
    fs.writeFileSync(path.join(folder, 'c.txt'), 'new\n');
    writer.unsavedPaths = ['a.txt'];
    const plan = await planRestore(target, store, { folders, platform: process.platform }, limits, writer);
    assert.ok('steps' in plan);
    assert.deepEqual(plan.steps.map((step) => `${step.action} ${step.path}`), ['delete c.txt', 'write a.txt', 'write b.txt']);
    assert.equal(plan.preview, 'It will change 3 file(s): delete c.txt (created since); restore a.txt; restore b.txt. Unsaved text in a.txt will be replaced.');
    assert.equal(await plan.checkpoints.beforeId(), 'ckpt-2', 'the state before the restore is recorded, so the restore can be undone');
    assert.deepEqual(store.takes, [[folder], [folder]]);
  });

  it('covers only the folders the target recorded that are still in the workspace on this disk', async () => {
    const other = path.join(base, 'other');
    fs.mkdirSync(other);
    const target = await store.take([folder], limits);
    const plan = await planRestore(target, store, { folders: [...folders, { name: 'other', location: fileLocation(other) }, { name: 'remote', location: { scheme: 'vscode-remote', authority: 'host', path: '/r' } }], platform: process.platform }, limits, writer);
    assert.ok('steps' in plan);
    assert.deepEqual(store.takes[1], [folder]);
    assert.deepEqual(plan.steps, []);
    assert.equal(plan.preview, '');
  });

  it('plans nothing when the folders cannot be recorded now, and says why', async () => {
    const target = await store.take([folder], limits);
    store.failure = new Error('disk full');
    assert.deepEqual(await planRestore(target, store, { folders, platform: process.platform }, limits, writer), { notRecorded: ['No checkpoint was taken before this call: disk full'] });
  });

  it('previews at most 25 steps, symlinks named, and what the target could not record', () => {
    const steps: RestoreStep[] = Array.from({ length: 27 }, (_, index) => ({ folder, rawPath: Buffer.from(`f${index}`), path: `f${index}`, action: 'write' as const, entry: { type: index === 0 ? 'symlink' as const : 'file' as const, executable: false, read: async () => new Uint8Array() } }));
    const preview = restorePreview(steps, [], ['big.bin was over the size cap.']);
    assert.match(preview, /^It will change 27 file\(s\): restore f0 \(symlink\); restore f1; .*restore f24; and 2 more\. Not recorded, so left as they are: big\.bin was over the size cap\.$/);
    assert.doesNotMatch(preview, /f25/);
  });
});
