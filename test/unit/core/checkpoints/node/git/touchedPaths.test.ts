// A checkpoint limited to the paths a change touched (a staged command's merge): those paths are
// recorded as a full checkpoint records them, the rest of the folder as the store last recorded it,
// and the private index stays a true cache for the next full checkpoint.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitCheckpointStore } from '../../../../../../src/core/checkpoints/node/git/gitCheckpointStore';
import { MAX_PATHSPECS, touchedPathspecs } from '../../../../../../src/core/checkpoints/node/git/folderStore';
import type { Checkpoint, CheckpointLimits } from '../../../../../../src/core/ports/checkpoints';
import { git } from '../../../../../support/gitFixtures';
import { needsWindowsProgram } from '../../../../support/platforms';

const LIMITS: CheckpointLimits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024 * 1024, excludes: ['**/dist'] };

describe('GitCheckpointStore: a checkpoint of the touched paths only', () => {
  before(function () {
    needsWindowsProgram(this, 'git');
  });

  let base: string;
  let folder: string;
  let store: GitCheckpointStore;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-touched-'));
    folder = path.join(base, 'ws');
    fs.mkdirSync(path.join(folder, 'src'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'b\n');
    fs.writeFileSync(path.join(folder, 'src', 'one.c'), 'one\n');
    fs.writeFileSync(path.join(folder, 'src', 'two.c'), 'two\n');
    fs.writeFileSync(path.join(folder, '.gitignore'), 'node_modules/\n');
    store = new GitCheckpointStore(path.join(base, 'store'));
  });
  afterEach(async () => {
    await store.endAhead();
    fs.rmSync(base, { recursive: true, force: true });
  });

  const write = (relative: string, text: string | Buffer): void => {
    fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    fs.writeFileSync(path.join(folder, relative), text);
  };
  const touchedTake = (paths: readonly string[], keep: readonly string[] = []): Promise<Checkpoint> => store.take([folder], LIMITS, keep, [{ folder, paths }]);
  const listed = async (from: Checkpoint, to: Checkpoint): Promise<string[]> => (await store.changes(from, to)).map((change) => `${change.kind} ${change.path}`).sort();

  it("records the touched paths and not another file changed meanwhile, which the next full checkpoint still finds", async () => {
    const before = await store.take([folder], LIMITS);
    write('a.txt', 'a by the command\n');
    write('new.txt', 'new\n');
    fs.rmSync(path.join(folder, 'src', 'one.c'));
    // Someone else's edit while the command ran: not the call's change.
    write('b.txt', 'b by the person\n');
    const after = await touchedTake(['a.txt', 'new.txt', 'src/one.c'], [before.id]);
    assert.deepEqual(await listed(before, after), ['created new.txt', 'deleted src/one.c', 'modified a.txt']);
    const next = await store.take([folder], LIMITS);
    assert.deepEqual(await listed(after, next), ['modified b.txt']);
  });

  it('records a touched folder whole: one deleted with its files, one made again, a file that became a folder', async () => {
    write('gone/x.txt', 'x\n');
    write('gone/deep/y.txt', 'y\n');
    write('remade/old.txt', 'old\n');
    write('became', 'a file\n');
    const before = await store.take([folder], LIMITS);
    fs.rmSync(path.join(folder, 'gone'), { recursive: true });
    fs.rmSync(path.join(folder, 'remade'), { recursive: true });
    write('remade/n.txt', 'n\n');
    fs.rmSync(path.join(folder, 'became'));
    write('became/inside.txt', 'inside\n');
    write('src/two.c', 'two by the person\n');
    const after = await touchedTake(['gone', 'remade', 'remade/n.txt', 'became', 'became/inside.txt']);
    assert.deepEqual(await listed(before, after), ['created became/inside.txt', 'created remade/n.txt', 'deleted became', 'deleted gone/deep/y.txt', 'deleted gone/x.txt', 'deleted remade/old.txt']);
  });

  it('leaves out what a full checkpoint leaves out: an ignored folder (10,000 new files), files.exclude, the size cap with its note', async function () {
    this.timeout(60_000);
    const before = await store.take([folder], LIMITS);
    const touched: string[] = ['node_modules'];
    for (let i = 0; i < 10_000; i += 1) {
      const relative = `node_modules/pkg${i % 100}/f${i}.js`;
      write(relative, `${i}\n`);
      touched.push(relative);
    }
    write('dist/bundle.js', 'bundle\n');
    write('big.bin', Buffer.alloc(LIMITS.maxFileBytes + 1));
    write('kept.txt', 'kept\n');
    write('b.txt', 'b by the person\n');
    const after = await touchedTake([...touched, 'dist', 'dist/bundle.js', 'big.bin', 'kept.txt']);
    assert.deepEqual(await listed(before, after), ['created kept.txt']);
    assert.equal(after.notes.length, 1);
    assert.match(after.notes[0], /^big\.bin \(1\.0 MB\) is over the checkpoint size cap/);
    // A full checkpoint records the same there.
    const full = await store.take([folder], LIMITS);
    assert.deepEqual(await listed(after, full), ['modified b.txt']);
    assert.deepEqual(full.notes, after.notes);
  });

  it('takes no status at all for a folder with nothing touched: the state the store last recorded', async () => {
    const before = await store.take([folder], LIMITS);
    write('b.txt', 'b by the person\n');
    const after = await touchedTake([]);
    assert.equal(after.folders[0].state, before.folders[0].state);
  });

  it('records the whole folder when it cannot name a path to git exactly, or before the store knows what it holds', async () => {
    // No checkpoint yet in this window: the store does not know what HEAD was recorded from.
    write('b.txt', 'b2\n');
    const first = await touchedTake(['a.txt']);
    assert.ok((await store.entry(first, folder, Buffer.from('b.txt'))) !== undefined);
    write('b.txt', 'b3\n');
    write('a.txt', 'a3\n');
    const second = await touchedTake(['bad\uFFFDname']);
    assert.deepEqual(await listed(first, second), ['modified a.txt', 'modified b.txt']);
  });

  describe('nested repositories', () => {
    beforeEach(() => {
      const lib = path.join(folder, 'vendor', 'lib');
      fs.mkdirSync(lib, { recursive: true });
      git(lib, 'init', '-q');
      fs.writeFileSync(path.join(lib, '.gitignore'), 'build/\n');
      fs.writeFileSync(path.join(lib, 'l.c'), 'l\n');
      fs.writeFileSync(path.join(lib, 'm.c'), 'm\n');
    });

    it("records a touched file inside a nested repository, not another one there, and never its .git", async () => {
      const before = await store.take([folder], LIMITS);
      write('vendor/lib/l.c', 'l by the command\n');
      write('vendor/lib/build/out.o', 'ignored there\n');
      write('vendor/lib/m.c', 'm by the person\n');
      const after = await touchedTake(['vendor/lib/l.c', 'vendor/lib/build', 'vendor/lib/build/out.o', 'vendor/lib/.git/config']);
      assert.deepEqual(await listed(before, after), ['modified vendor/lib/l.c']);
      const next = await store.take([folder], LIMITS);
      assert.deepEqual(await listed(after, next), ['modified vendor/lib/m.c']);
    });

    it('keeps the nested repositories no touched path reaches, and finds one again under a touched path, or a new one', async () => {
      const before = await store.take([folder], LIMITS);
      write('a.txt', 'a by the command\n');
      const other = await touchedTake(['a.txt']);
      assert.deepEqual(await listed(before, other), ['modified a.txt']);
      // A touched folder holding the nested repository, and a new repository.
      write('vendor/lib/l.c', 'l again\n');
      const pkg = path.join(folder, 'pkg');
      fs.mkdirSync(pkg);
      git(pkg, 'init', '-q');
      fs.writeFileSync(path.join(pkg, 'p.c'), 'p\n');
      write('b.txt', 'b by the person\n');
      const after = await touchedTake(['vendor', 'pkg']);
      assert.deepEqual(await listed(other, after), ['created pkg/p.c', 'modified vendor/lib/l.c']);
      // Deleted with the folder above it.
      fs.rmSync(path.join(folder, 'vendor'), { recursive: true });
      const gone = await touchedTake(['vendor']);
      assert.deepEqual(await listed(after, gone), ['deleted vendor/lib/.gitignore', 'deleted vendor/lib/l.c', 'deleted vendor/lib/m.c']);
      const full = await store.take([folder], LIMITS);
      assert.deepEqual(await listed(gone, full), ['modified b.txt']);
    });
  });

  describe('touchedPathspecs', () => {
    it('keeps each path once, none below another', () => {
      assert.deepEqual(touchedPathspecs(['a/b', 'a', 'a-b', 'a-b/c', 'z', 'a/b/c', 'z']), ['a', 'a-b', 'z'].map((p) => Buffer.from(p)));
    });

    it(`widens more than ${MAX_PATHSPECS} paths to their folders, the deepest first`, () => {
      const paths = Array.from({ length: MAX_PATHSPECS + 1 }, (_, i) => `top/d${i}/f.js`);
      assert.deepEqual(touchedPathspecs([...paths, 'x.txt']), [Buffer.from('top'), Buffer.from('x.txt')]);
    });

    it('gives up (the whole folder) on a name git cannot be given exactly, a path that is not plain, or too many at the top', () => {
      assert.equal(touchedPathspecs(['ok', 'not\uFFFDutf8']), undefined);
      assert.equal(touchedPathspecs(['a/../b']), undefined);
      assert.equal(touchedPathspecs(['']), undefined);
      assert.equal(touchedPathspecs(Array.from({ length: MAX_PATHSPECS + 1 }, (_, i) => `f${i}`)), undefined);
    });
  });
});
