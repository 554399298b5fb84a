import * as assert from 'node:assert/strict';
import { planMerge, type LowerFacts, type LowerKind, type UpperEntry } from '../../../../src/core/sandbox/staging';

/** The folder before the merge: its entries' kinds, and the ones someone else changed while the command ran. */
function folder(kinds: Record<string, LowerKind>, changed: readonly string[] = []): LowerFacts {
  return { kindOf: (relative) => kinds[relative], changedSince: (relative) => changed.includes(relative) };
}

const file = (p: string, extra: Partial<UpperEntry> = {}): UpperEntry => ({ path: p, kind: 'file', mode: 0o644, ...extra });
const dir = (p: string, extra: Partial<UpperEntry> = {}): UpperEntry => ({ path: p, kind: 'directory', mode: 0o755, ...extra });
const whiteout = (p: string): UpperEntry => ({ path: p, kind: 'whiteout' });

describe('sandbox/staging: what of a command\'s upper layer is merged and what is held', () => {
  it('merges new, changed and deleted files with their modes, folders before what goes in them, and names each change', () => {
    const plan = planMerge([file('src/new.ts'), dir('src/gen'), file('src/gen/out.js', { mode: 0o755 }), dir('src'), file('README.md'), whiteout('old.txt'), whiteout('never-there')], folder({ src: 'directory', 'README.md': 'file', 'old.txt': 'file' }));
    assert.deepEqual(plan.steps, [
      { op: 'write', path: 'README.md', mode: 0o644 },
      { op: 'remove', path: 'old.txt' },
      { op: 'mkdir', path: 'src/gen', mode: 0o755 },
      { op: 'write', path: 'src/new.ts', mode: 0o644 },
      { op: 'write', path: 'src/gen/out.js', mode: 0o755 },
    ]);
    assert.deepEqual(plan.changes, [
      { path: 'README.md', status: 'M' },
      { path: 'old.txt', status: 'D' },
      { path: 'src/gen', status: 'A' },
      { path: 'src/new.ts', status: 'A' },
      { path: 'src/gen/out.js', status: 'A' },
    ]);
  });

  it('holds execution config made at any depth and in any letter case, and merges the rest of the command\'s work', () => {
    const plan = planMerge(
      [dir('pkg'), dir('pkg/.vscode'), file('pkg/.vscode/tasks.json'), file('pkg/index.js'), dir('.GIT', {}), dir('.GIT/hooks'), file('.GIT/hooks/pre-commit', { mode: 0o755 }), file('.gitattributes'), file('app.code-workspace'), file('.Git/config')],
      folder({ '.GIT': 'directory', '.GIT/hooks': 'directory', '.Git': 'directory' }),
    );
    const held = plan.changes.filter((change) => change.held).map((change) => change.path).sort();
    assert.deepEqual(held, ['.GIT/hooks/pre-commit', '.Git/config', '.gitattributes', 'app.code-workspace', 'pkg/.vscode']);
    const written = plan.steps.map((step) => step.path);
    assert.ok(written.includes('pkg/index.js'));
    for (const p of ['pkg/.vscode/tasks.json', '.GIT/hooks/pre-commit', '.gitattributes', 'app.code-workspace', '.Git/config']) {
      assert.ok(!written.includes(p), `${p} must not be merged`);
    }
  });

  it('holds a new repository whole, whatever its folder is called, so a planted core.fsmonitor is never merged', () => {
    const repository = [dir('fresh'), dir('fresh/.git'), file('fresh/.git/HEAD'), file('fresh/.git/config'), dir('fresh/.git/objects'), file('fresh/.git/objects/ab'), file('fresh/notes.txt')];
    const bare = [dir('innocent'), file('innocent/HEAD'), dir('innocent/refs'), file('innocent/config'), dir('innocent/hooks'), file('innocent/hooks/post-update')];
    const plan = planMerge([...repository, ...bare], folder({}));
    const held = plan.changes.filter((change) => change.held);
    assert.deepEqual(held.map((change) => change.path).sort(), ['fresh/.git', 'innocent']);
    assert.match(held.find((change) => change.path === 'innocent')?.held ?? '', /new repository/);
    assert.deepEqual(plan.steps.map((step) => step.path), ['fresh', 'fresh/notes.txt']);
  });

  it('merges the work git does in an existing repository (objects, refs, the index), but not its config or hooks', () => {
    const plan = planMerge([dir('.git'), dir('.git/objects'), dir('.git/objects/ab'), file('.git/objects/ab/cdef'), file('.git/index'), dir('.git/refs'), dir('.git/refs/heads'), file('.git/refs/heads/main'), file('.git/config')], folder({ '.git': 'directory', '.git/objects': 'directory', '.git/refs': 'directory', '.git/refs/heads': 'directory', '.git/index': 'file', '.git/refs/heads/main': 'file', '.git/config': 'file' }));
    assert.deepEqual(plan.steps.map((step) => `${step.op} ${step.path}`), ['write .git/index', 'mkdir .git/objects/ab', 'write .git/objects/ab/cdef', 'write .git/refs/heads/main']);
    assert.deepEqual(plan.changes.filter((change) => change.held).map((change) => change.path), ['.git/config']);
  });

  it('replaces a folder that was deleted and made again (opaque) whole, and a file that became a folder', () => {
    const plan = planMerge([dir('build', { opaque: true }), file('build/app.js'), dir('lib'), file('lib/x.js')], folder({ build: 'directory', lib: 'file' }));
    assert.deepEqual(plan.steps, [
      { op: 'remove', path: 'build' },
      { op: 'mkdir', path: 'build', mode: 0o755 },
      { op: 'remove', path: 'lib' },
      { op: 'mkdir', path: 'lib', mode: 0o755 },
      { op: 'write', path: 'build/app.js', mode: 0o644 },
      { op: 'write', path: 'lib/x.js', mode: 0o644 },
    ]);
  });

  it('keeps hard links linked and symbolic links as written', () => {
    const plan = planMerge([file('a', { inode: '1:7' }), file('b', { inode: '1:7' }), { path: 'current', kind: 'symlink', target: 'releases/v2' }], folder({ current: 'symlink' }));
    assert.deepEqual(plan.steps, [
      { op: 'write', path: 'a', mode: 0o644 },
      { op: 'link', path: 'b', to: 'a' },
      { op: 'symlink', path: 'current', target: 'releases/v2' },
    ]);
    assert.deepEqual(plan.changes.map((change) => `${change.status} ${change.path}`), ['A a', 'A b', 'M current']);
  });

  it('holds a file someone else changed while the command ran: a conflict is shown, never resolved silently', () => {
    const plan = planMerge([file('notes.md'), file('other.md')], folder({ 'notes.md': 'file', 'other.md': 'file' }, ['notes.md']));
    assert.deepEqual(plan.steps.map((step) => step.path), ['other.md']);
    assert.match(plan.changes.find((change) => change.path === 'notes.md')?.held ?? '', /changed in the folder while the command ran/);
  });

  it('holds what is neither a file, a folder nor a link (a FIFO, a device the command made)', () => {
    const plan = planMerge([{ path: 'pipe', kind: 'other' }], folder({}));
    assert.deepEqual(plan.steps, []);
    assert.deepEqual(plan.changes, [{ path: 'pipe', status: 'A', held: 'neither a file, a folder nor a link' }]);
  });
});
