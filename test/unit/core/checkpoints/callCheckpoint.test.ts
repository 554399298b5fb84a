import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CallCheckpoints, checkpointFolders, checkpointLimits, shownChangedPath, touchedIn } from '../../../../src/core/checkpoints/callCheckpoint';
import { GitCheckpointStore } from '../../../../src/core/checkpoints/node/git/gitCheckpointStore';
import { fileLocation } from '../../../../src/core/location';
import type { CheckpointStore } from '../../../../src/core/ports/checkpoints';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { editFileTool } from '../../../../src/core/tools/editFile';
import { readFileTool } from '../../../../src/core/tools/readFile';
import { RecordingChangeApplier } from '../../support/changeApplier';
import { testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { needsWindowsProgram } from '../../support/platforms';

describe('checkpoints/callCheckpoint', () => {
  let base: string;
  let folder: string;
  let store: GitCheckpointStore;
  const limits = checkpointLimits(DEFAULT_SETTINGS);

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-call-ckpt-'));
    folder = path.join(base, 'ws');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'a.txt'), 'one\ntwo\n');
    store = new GitCheckpointStore(path.join(base, 'store'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('records once before the change and compares with after', async function () {
    needsWindowsProgram(this, 'git');
    const call = new CallCheckpoints(store, [folder], limits);
    assert.equal(call.started, false);
    await call.beforeChange();
    await call.beforeChange();
    fs.writeFileSync(path.join(folder, 'a.txt'), 'one\nTWO\n');
    const outcome = await call.finishNow();
    assert.ok(outcome?.after);
    assert.deepEqual(outcome.changed.map((file) => [file.path, file.kind, file.added, file.deleted]), [['a.txt', 'modified', 1, 1]]);
    assert.equal(await call.finishNow(), outcome, 'finishing again returns the same outcome');
  });

  it("says which paths its \"before\" recorded: not ignored ones, nor those over the size cap, nor any when it was not taken", async function () {
    needsWindowsProgram(this, 'git');
    fs.writeFileSync(path.join(folder, '.gitignore'), 'local.db\n');
    fs.writeFileSync(path.join(folder, 'local.db'), 'rows\n');
    fs.mkdirSync(path.join(folder, 'sub'));
    fs.writeFileSync(path.join(folder, 'sub', 'big.bin'), Buffer.alloc(2048));
    fs.writeFileSync(path.join(folder, 'sub', 'small.txt'), 'small\n');
    const call = new CallCheckpoints(store, [folder], { ...limits, maxFileBytes: 1024 });
    assert.deepEqual([...(await call.recordedBy(folder, ['a.txt']))], [], 'nothing before the "before"');
    await call.beforeChange();
    const asked = ['a.txt', 'local.db', 'sub/big.bin', 'sub/small.txt', 'missing.txt'];
    assert.deepEqual([...(await call.recordedBy(folder, asked))].sort(), ['a.txt', 'sub/small.txt']);
    // Asked about a folder holding the workspace folder: the paths inside it, re-rooted.
    assert.deepEqual([...(await call.recordedBy(base, asked.map((relative) => `ws/${relative}`)))].sort(), ['ws/a.txt', 'ws/sub/small.txt']);
  });

  it('defers the after checkpoint to whoever finishes it (a background command that ends later)', async function () {
    needsWindowsProgram(this, 'git');
    const seen: unknown[] = [];
    const call = new CallCheckpoints(store, [folder], limits, (outcome) => seen.push(outcome));
    await call.beforeChange();
    const deferred = call.deferAfter();
    assert.equal(call.isDeferred, true);
    fs.writeFileSync(path.join(folder, 'later.txt'), 'made by the background command\n');
    const outcome = await deferred.finish();
    assert.deepEqual(outcome?.changed.map((file) => `${file.kind} ${file.path}`), ['created later.txt']);
    assert.deepEqual(seen, [outcome]);
  });

  it('turns a failing store into a note: the call goes on', async () => {
    const broken: CheckpointStore = { ...store, take: () => Promise.reject(new Error('disk full')), get: () => undefined, changes: async () => [], restoreSteps: async () => [], entry: async () => undefined };
    const call = new CallCheckpoints(broken, [folder], limits);
    await call.beforeChange();
    assert.deepEqual(call.currentNotes(), ['No checkpoint was taken before this call: disk full']);
    assert.equal(await call.finishNow(), undefined);
  });

  it('names the folders on this disk by the host\'s path: on Windows C:\\work\\app, never the URI path /C:/work/app', () => {
    const folders = [
      { name: 'app', location: fileLocation('C:\\work\\app') },
      { name: 'share', location: fileLocation('\\\\server\\share\\lib') },
      { name: 'remote', location: { scheme: 'vscode-remote', authority: 'host', path: '/r' } },
    ];
    assert.deepEqual(checkpointFolders({ folders, platform: 'win32' }), ['C:\\work\\app', '\\\\server\\share\\lib']);
    const changed = { folder: 'C:\\work\\app', rawPath: Buffer.from('src/a.ts'), path: 'src/a.ts', kind: 'modified' as const };
    assert.equal(shownChangedPath(changed, { folders, platform: 'win32' }), 'app/src/a.ts');
    const posix = [{ name: 'app', location: fileLocation('/work/app') }, { name: 'lib', location: fileLocation('/src/lib') }];
    assert.deepEqual(checkpointFolders({ folders: posix, platform: 'linux' }), ['/work/app', '/src/lib']);
    assert.equal(shownChangedPath({ ...changed, folder: '/src/lib' }, { folders: posix, platform: 'linux' }), 'lib/src/a.ts');
  });

  describe('the tools say when they change files', () => {
    it('edit_file records right before its write, after the review accepted it, and not when the review rejects', async () => {
      const applier = new RecordingChangeApplier(false);
      const calls: string[] = [];
      const checkpoint = { beforeChange: async () => void calls.push(`before (reviews so far: ${applier.reviewed.length})`), deferAfter: () => ({ finish: async () => undefined }) };
      const ctx = testContext({ root: folder, changes: applier });
      const withCheckpoint = { ...ctx, call: { ...ctx.call, checkpoint } };
      await invokeTool(readFileTool, { file_path: 'a.txt' }, withCheckpoint);
      await assert.rejects(invokeTool(editFileTool, { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' }, withCheckpoint), /rejected/);
      assert.deepEqual(calls, []);
      applier.accept = true;
      await invokeTool(editFileTool, { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' }, withCheckpoint);
      assert.deepEqual(calls, ['before (reviews so far: 2)']);
    });
  });

  it("limits the \"after\" to a staged merge's paths, re-rooted for a workspace folder inside the merged one, whole where nothing says", () => {
    const touched = [{ folder: '/w/app', paths: ['src/a.c', 'lib/inner/x.c', 'gone'] }];
    assert.deepEqual(touchedIn('/w/app', touched), ['src/a.c', 'lib/inner/x.c', 'gone']);
    assert.deepEqual(touchedIn('/w/app/lib/inner', touched), ['x.c']);
    assert.deepEqual(touchedIn('/w/app/docs', touched), []);
    // A touched path covers the inner folder (deleted or made again), or no merge covers the folder: recorded whole.
    assert.equal(touchedIn('/w/app/gone/inner', touched), undefined);
    assert.equal(touchedIn('/w/app/gone', touched), undefined);
    assert.equal(touchedIn('/w/other', touched), undefined);
    assert.equal(touchedIn('/w/app-2', touched), undefined);
  });
});
