// A staged command's "after" taken without the private index (touchedCheckpoint.ts): for each kind
// of change, the tree it records is exactly the tree a whole record of the same folder gives (a
// store of its own, recording everything), and the index it leaves behind is a true stat cache for
// the next record, a change made back before it included.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitCheckpointStore } from '../../../../../../src/core/checkpoints/node/git/gitCheckpointStore';
import type { Checkpoint, CheckpointLimits } from '../../../../../../src/core/ports/checkpoints';
import { git } from '../../../../../support/gitFixtures';
import { until } from '../../../../../support/until';
import { childProcesses } from '../../../../support/leftoverProcesses';
import { describeOnlyOn, needsWindowsProgram } from '../../../../support/platforms';

const LIMITS: CheckpointLimits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024 * 1024, excludes: ['**/dist'] };

// Windows records the touched paths through the index (touchedPaths.test.ts).
describeOnlyOn(['linux', 'darwin'], 'a touched checkpoint without the index (POSIX modes and links)')('GitCheckpointStore: a touched checkpoint without the index', () => {
  before(function () {
    needsWindowsProgram(this, 'git');
  });

  let base: string;
  let folder: string;
  let store: GitCheckpointStore;
  let wholes = 0;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-touched-tree-'));
    folder = path.join(base, 'ws');
    write('a.txt', 'a\n');
    write('b.txt', 'b\n');
    write('src/one.c', 'one\n');
    write('src/two.c', 'two\n');
    write('src/deep/three.c', 'three\n');
    write('.gitignore', 'node_modules/\n*.log\n');
    store = new GitCheckpointStore(path.join(base, 'store'));
  });
  afterEach(async () => {
    await store.endAhead();
    fs.rmSync(base, { recursive: true, force: true });
  });

  function write(relative: string, text: string | Buffer): void {
    fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    fs.writeFileSync(path.join(folder, relative), text);
  }
  const treeOf = (of: GitCheckpointStore, checkpoint: Checkpoint): string => git(base, '--git-dir', of.gitDirOf(folder), 'rev-parse', `${checkpoint.folders[0].state}^{tree}`).trim();
  /** The folder recorded whole by a store of its own. */
  async function whole(): Promise<{ tree: string; notes: readonly string[] }> {
    wholes += 1;
    const fresh = new GitCheckpointStore(path.join(base, `whole-${wholes}`));
    const checkpoint = await fresh.take([folder], LIMITS);
    return { tree: treeOf(fresh, checkpoint), notes: checkpoint.notes };
  }
  /** The touched paths' checkpoint, taken the way `how` says, and its tree against a whole record's. */
  async function touchedMatchesWhole(paths: readonly string[], how: 'touched tree' | 'touched index' = 'touched tree'): Promise<Checkpoint> {
    const after = await store.take([folder], LIMITS, [], [{ folder, paths }]);
    assert.equal(store.lastTakeOf(folder), how);
    const expected = await whole();
    assert.equal(treeOf(store, after), expected.tree);
    assert.deepEqual(after.notes, expected.notes);
    return after;
  }

  it('records added, modified and deleted files, a new folder, a deleted folder', async () => {
    await store.take([folder], LIMITS);
    write('a.txt', 'a by the command\n');
    write('new.txt', 'new\n');
    write('made/deep/er/n.txt', 'n\n');
    fs.rmSync(path.join(folder, 'b.txt'));
    fs.rmSync(path.join(folder, 'src', 'deep'), { recursive: true });
    await touchedMatchesWhole(['a.txt', 'new.txt', 'made', 'made/deep/er/n.txt', 'b.txt', 'src/deep']);
  });

  it('records a file replaced by a folder, and a folder replaced by a file again', async () => {
    await store.take([folder], LIMITS);
    fs.rmSync(path.join(folder, 'a.txt'));
    write('a.txt/inside.txt', 'inside\n');
    await touchedMatchesWhole(['a.txt', 'a.txt/inside.txt']);
    fs.rmSync(path.join(folder, 'a.txt'), { recursive: true });
    write('a.txt', 'a file again\n');
    fs.rmSync(path.join(folder, 'src'), { recursive: true });
    write('src', 'src as a file\n');
    await touchedMatchesWhole(['a.txt', 'src']);
  });

  it('records a symbolic link as its target, a link replacing a file, and an executable bit set and cleared', async () => {
    fs.chmodSync(path.join(folder, 'src', 'two.c'), 0o755);
    await store.take([folder], LIMITS);
    fs.symlinkSync('a.txt', path.join(folder, 'link'));
    fs.symlinkSync('../../outside', path.join(folder, 'dangling'));
    fs.rmSync(path.join(folder, 'b.txt'));
    fs.symlinkSync('src/one.c', path.join(folder, 'b.txt'));
    fs.chmodSync(path.join(folder, 'src', 'one.c'), 0o755);
    fs.chmodSync(path.join(folder, 'src', 'two.c'), 0o644);
    await touchedMatchesWhole(['link', 'dangling', 'b.txt', 'src/one.c', 'src/two.c']);
  });

  it('leaves out an ignored file and folder, an excluded one, and a file over the size cap with the same note', async () => {
    await store.take([folder], LIMITS);
    write('node_modules/pkg/index.js', 'ignored\n');
    write('src/debug.log', 'ignored too\n');
    write('dist/bundle.js', 'excluded\n');
    write('big.bin', Buffer.alloc(LIMITS.maxFileBytes + 1));
    write('kept.txt', 'kept\n');
    const after = await touchedMatchesWhole(['node_modules', 'node_modules/pkg/index.js', 'src/debug.log', 'dist/bundle.js', 'big.bin', 'kept.txt']);
    assert.equal(after.notes.length, 1);
    assert.match(after.notes[0], /^big\.bin \(1\.0 MB\) is over the checkpoint size cap/);
  });

  it('asks git which touched files are ignored: a pattern, a folder ignored along the way, a pattern taken back, a nested .gitignore, an excluded folder, names git could read as magic or a pattern', async () => {
    write('.gitignore', 'node_modules/\n*.log\n!keep.log\n');
    write('src/.gitignore', 'gen/\n');
    await store.take([folder], LIMITS);
    write('debug.log', 'ignored\n');
    write('src/keep.log', 'taken back\n');
    write('node_modules/pkg/index.js', 'in an ignored folder\n');
    write('src/gen/out.c', 'ignored below src\n');
    write('dist/bundle.js', 'excluded\n');
    write(':(exclude)a', 'magic\n');
    write('*.c', 'a pattern\n');
    write('src/new.c', 'new\n');
    // Files alone (no folder among the paths): check-ignore answers, not ls-files.
    await touchedMatchesWhole(['debug.log', 'src/keep.log', 'node_modules/pkg/index.js', 'src/gen/out.c', 'dist/bundle.js', ':(exclude)a', '*.c', 'src/new.c', 'gone.txt']);
  });

  it('goes through the index for a touched file in a repository the command made', async () => {
    await store.take([folder], LIMITS);
    const made = path.join(folder, 'made');
    fs.mkdirSync(made);
    git(made, 'init', '-q');
    write('made/m.txt', 'm\n');
    await touchedMatchesWhole(['made/m.txt'], 'touched index');
  });

  it('after a whole record, takes the next touched checkpoint with the processes it started ahead, which see a .gitignore and files.exclude changed since', async () => {
    await store.take([folder], LIMITS);
    write('a.txt', 'a by the command\n');
    await touchedMatchesWhole(['a.txt']);
    // A whole record (the next call's "before"): the next touched checkpoint's processes start a turn after it.
    await store.take([folder], LIMITS);
    // Listed again until both are there (they start a turn later, and /proc's lists of children can miss one meanwhile).
    const ahead = (): string[] => childProcesses().map((child) => child.commandLine.replace(/^.*?git /, 'git ').replace(/ -c core\.excludesFile=\S+/, '')).sort();
    const expected = ['git -c fastimport.unpackLimit=0 fast-import --quiet --force', 'git check-ignore --no-index -z --stdin -v -n'];
    let listed: string[] = [];
    await until(() => JSON.stringify((listed = ahead())) === JSON.stringify(expected), 'fast-import and check-ignore started ahead', 5000).catch(() => undefined);
    assert.deepEqual(listed, expected);
    write('.gitignore', '*.tmp\n');
    write('x.tmp', 'ignored now\n');
    write('y.log', 'no longer ignored\n');
    write('out/z.txt', 'excluded now\n');
    const excluding: CheckpointLimits = { ...LIMITS, excludes: [...LIMITS.excludes, '**/out'] };
    const after = await store.take([folder], excluding, [], [{ folder, paths: ['.gitignore', 'x.tmp', 'y.log', 'out/z.txt'] }]);
    assert.equal(store.lastTakeOf(folder), 'touched tree');
    const fresh = new GitCheckpointStore(path.join(base, 'whole-excluding'));
    assert.equal(treeOf(store, after), treeOf(fresh, await fresh.take([folder], excluding)));
  });

  it('starts the processes of a first touched checkpoint after the "before" of a staged command that said it started', async () => {
    const aheadNow = (): string[] => childProcesses().map((child) => child.commandLine).filter((line) => / (fast-import|check-ignore) /.test(line));
    await store.take([folder], LIMITS);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(aheadNow(), [], 'nothing waits ahead before a staged command');
    const before = store.take([folder], LIMITS);
    store.expectTouched([folder]);
    await before;
    let listed: string[] = [];
    await until(() => (listed = aheadNow()).length === 2, 'fast-import and check-ignore started ahead', 5000).catch(() => undefined);
    assert.equal(listed.length, 2, listed.join('\n'));
    write('new.txt', 'new\n');
    await touchedMatchesWhole(['new.txt']);
  });

  it('records a folder along a touched path that became a link, or a file, in its place', async () => {
    fs.mkdirSync(path.join(base, 'outside'));
    fs.writeFileSync(path.join(base, 'outside', 'one.c'), 'outside\n');
    await store.take([folder], LIMITS);
    fs.rmSync(path.join(folder, 'src'), { recursive: true });
    fs.symlinkSync('../outside', path.join(folder, 'src'));
    await touchedMatchesWhole(['src/one.c', 'src/deep/three.c']);
    fs.rmSync(path.join(folder, 'src'));
    write('src', 'a file now\n');
    write('made/x.txt', 'x\n');
    await touchedMatchesWhole(['src/two.c', 'made/x.txt']);
  });

  it('records names with a newline and with bytes that are not UTF-8 exactly', async () => {
    await store.take([folder], LIMITS);
    write('line\nbreak.txt', 'newline\n');
    fs.mkdirSync(path.join(folder, 'odd'));
    fs.writeFileSync(Buffer.concat([Buffer.from(`${folder}/odd/`), Buffer.from([0x63, 0xe9, 0x22, 0x5c, 0x2e, 0x74])]), 'latin1 name\n');
    await touchedMatchesWhole(['line\nbreak.txt', 'odd']);
  });

  it('goes through the index for a path in a nested repository, with the same tree', async () => {
    const lib = path.join(folder, 'vendor', 'lib');
    fs.mkdirSync(lib, { recursive: true });
    git(lib, 'init', '-q');
    write('vendor/lib/l.c', 'l\n');
    await store.take([folder], LIMITS);
    write('vendor/lib/l.c', 'l by the command\n');
    write('a.txt', 'a by the command\n');
    await touchedMatchesWhole(['vendor/lib/l.c', 'a.txt'], 'touched index');
    // Beside the nested repository, not in it: without the index, the nested repository's tree kept.
    write('vendor/v.txt', 'v\n');
    await touchedMatchesWhole(['vendor/v.txt']);
  });

  it('chains touched checkpoints, then leaves an index the next whole record trusts', async () => {
    await store.take([folder], LIMITS);
    write('a.txt', 'a once\n');
    const first = await touchedMatchesWhole(['a.txt']);
    write('src/one.c', 'one by the next command\n');
    const second = await touchedMatchesWhole(['src/one.c']);
    assert.deepEqual((await store.changes(first, second)).map((change) => `${change.kind} ${change.path}`), ['modified src/one.c']);
    // Nothing changed since: the same state, no new commit.
    const unchanged = await store.take([folder], LIMITS);
    assert.equal(store.lastTakeOf(folder), 'whole');
    assert.equal(unchanged.folders[0].state, second.folders[0].state);
    write('b.txt', 'b by the person\n');
    const next = await store.take([folder], LIMITS);
    assert.deepEqual((await store.changes(second, next)).map((change) => `${change.kind} ${change.path}`), ['modified b.txt']);
  });

  it('records a file the command changed and the person changed back before the next checkpoint, its size and times as before', async () => {
    const before = await store.take([folder], LIMITS);
    const file = path.join(folder, 'a.txt');
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'A\n');
    fs.rmSync(path.join(folder, 'b.txt'));
    const after = await touchedMatchesWhole(['a.txt', 'b.txt']);
    // Changed back: the same bytes, the same size and times.
    fs.writeFileSync(file, 'a\n');
    fs.utimesSync(file, atime, mtime);
    write('b.txt', 'b\n');
    const next = await store.take([folder], LIMITS);
    assert.equal(treeOf(store, next), treeOf(store, before));
    assert.deepEqual((await store.changes(after, next)).map((change) => `${change.kind} ${change.path}`).sort(), ['created b.txt', 'modified a.txt']);
  });
});
