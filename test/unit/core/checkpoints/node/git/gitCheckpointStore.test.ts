import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONFIG } from '../../../../../../src/core/checkpoints/node/git/gitRunner';
import { GitCheckpointStore } from '../../../../../../src/core/checkpoints/node/git/gitCheckpointStore';
import type { CheckpointLimits, RestoreStep } from '../../../../../../src/core/ports/checkpoints';
import { git } from '../../../../../support/gitFixtures';
import { needsWindowsProgram } from '../../../../support/platforms';

const LIMITS: CheckpointLimits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024 * 1024, excludes: [] };

/** Applies restore steps with Node, as the host's restore does for files no editor holds. */
async function applySteps(steps: readonly RestoreStep[]): Promise<void> {
  for (const step of steps.filter((s) => s.action === 'delete')) {
    fs.rmSync(Buffer.concat([Buffer.from(`${step.folder}/`), Buffer.from(step.rawPath)]), { force: true });
  }
  for (const step of steps.filter((s) => s.action === 'write')) {
    const target = Buffer.concat([Buffer.from(`${step.folder}/`), Buffer.from(step.rawPath)]);
    fs.mkdirSync(path.dirname(target.toString('latin1')) === '.' ? step.folder : Buffer.from(path.dirname(target.toString('latin1')), 'latin1'), { recursive: true });
    fs.rmSync(target, { force: true });
    const entry = step.entry!;
    const bytes = await entry.read();
    if (entry.type === 'symlink') {
      fs.symlinkSync(Buffer.from(bytes), target);
    } else {
      fs.writeFileSync(target, bytes, { mode: entry.executable ? 0o755 : 0o644 });
      fs.chmodSync(target, entry.executable ? 0o755 : 0o644);
    }
  }
}

/** Every file under `root` with its mode and bytes; `.git` at the root skipped, or every `.git` with `everyGit`. */
function tree(root: string, everyGit = false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: Buffer, rel: string): void => {
    for (const name of fs.readdirSync(dir, { encoding: 'buffer' })) {
      const full = Buffer.concat([dir, Buffer.from('/'), name]);
      const key = `${rel}${name.toString('latin1')}`;
      if (key === '.git' || (everyGit && name.toString('latin1') === '.git')) continue;
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) out[key] = `link:${fs.readlinkSync(full, { encoding: 'buffer' }).toString('hex')}`;
      else if (stat.isDirectory()) walk(full, `${key}/`);
      else out[key] = `${(stat.mode & 0o777).toString(8)}:${fs.readFileSync(full).toString('hex')}`;
    }
  };
  walk(Buffer.from(root), '');
  return out;
}

function hashTree(dir: string): string {
  return execFileSync('sh', ['-c', 'find . -type f -exec sha256sum {} + | sort; find . | sort; find . -exec stat -c "%n %s %Y %a" {} + | sort'], { cwd: dir, encoding: 'utf8' });
}

describe('GitCheckpointStore', () => {
  before(function () {
    needsWindowsProgram(this, 'git');
  });

  let base: string;
  let folder: string;
  let store: GitCheckpointStore;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-ckpt-'));
    folder = path.join(base, 'ws');
    fs.mkdirSync(folder);
    store = new GitCheckpointStore(path.join(base, 'store'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('keeps its store owner-only: it holds every recorded file, .env files included', async () => {
    fs.writeFileSync(path.join(folder, '.env'), 'API_KEY=secret\n');
    await store.take([folder], LIMITS);
    const stores = fs.readdirSync(path.join(base, 'store'));
    assert.ok(stores.length > 0);
    for (const name of stores) assert.equal(fs.statSync(path.join(base, 'store', name)).mode & 0o777, 0o700, name);
  });

  it('creates its store with every CONFIG value in force, and opening the store again does not add them twice', async () => {
    await store.take([folder], LIMITS);
    const gitDir = store.gitDirOf(folder);
    const inForce = (): Map<string, string> => {
      const listed = execFileSync('git', ['config', '--file', path.join(gitDir, 'config'), '--list', '-z'], { encoding: 'utf8' });
      // Later entries replace earlier ones, as git reads a key: its last value.
      return new Map(listed.split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('\n')), entry.slice(entry.indexOf('\n') + 1)]));
    };
    const config = inForce();
    for (const [key, value] of CONFIG) assert.equal(config.get(key.toLowerCase()), value, key);
    const written = fs.readFileSync(path.join(gitDir, 'config'), 'utf8');
    await new GitCheckpointStore(path.join(base, 'store')).take([folder], LIMITS);
    assert.equal(fs.readFileSync(path.join(gitDir, 'config'), 'utf8'), written);
  });

  it('restores deleted, created and changed files byte for byte with modes, symlinks, binary files and odd names', async () => {
    fs.mkdirSync(path.join(folder, 'src/deep'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'src/a.txt'), 'one\r\ntwo\r\n');
    fs.writeFileSync(path.join(folder, 'src/deep/run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    fs.writeFileSync(path.join(folder, 'src/bin.dat'), Buffer.from([0, 255, 1, 254, 0, 10, 13]));
    fs.symlinkSync('a.txt', path.join(folder, 'src/link'));
    fs.writeFileSync(path.join(folder, 'line\nbreak.txt'), 'newline name');
    fs.writeFileSync(Buffer.from([...Buffer.from(`${folder}/latin`), 0xe9, 0xff, ...Buffer.from('.txt')]), 'not utf-8 name');
    fs.writeFileSync(path.join(folder, '\uFEFFbom.txt'), Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a]));
    // Names git refuses by default as special on NTFS or HFS+.
    fs.writeFileSync(path.join(folder, 'GIT~1'), 'short name\n');
    fs.mkdirSync(path.join(folder, '.git.'));
    fs.writeFileSync(path.join(folder, '.git./x'), 'dot git dot\n');
    const original = tree(folder);

    const before = await store.take([folder], LIMITS);
    assert.deepEqual(before.notes, []);
    fs.rmSync(path.join(folder, 'src'), { recursive: true });
    fs.rmSync(path.join(folder, '.git.'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'GIT~1'), 'changed\n');
    fs.writeFileSync(path.join(folder, 'new.txt'), 'x\n');
    fs.writeFileSync(path.join(folder, 'line\nbreak.txt'), 'changed');
    fs.rmSync(Buffer.from([...Buffer.from(`${folder}/latin`), 0xe9, 0xff, ...Buffer.from('.txt')]));
    const after = await store.take([folder], LIMITS);

    const changes = await store.changes(before, after);
    const byPath = Object.fromEntries(changes.map((c) => [c.path, c]));
    assert.equal(byPath['new.txt'].kind, 'created');
    assert.equal(byPath['new.txt'].added, 1);
    assert.equal(byPath['src/a.txt'].kind, 'deleted');
    assert.equal(byPath['src/a.txt'].deleted, 2);
    assert.equal(byPath['line\nbreak.txt'].kind, 'modified');
    assert.equal(byPath['src/bin.dat'].added, undefined, 'binary files have no line counts');
    assert.ok(changes.some((c) => Buffer.from(c.rawPath).includes(Buffer.from([0xe9, 0xff])) && c.kind === 'deleted'));

    const steps = await store.restoreSteps(before, after);
    await applySteps(steps);
    assert.deepEqual(tree(folder), original);
    assert.equal(fs.existsSync(path.join(folder, 'new.txt')), false);
  });

  it('never reads or writes the user\'s repository: status, stash, refs, index and .git are unchanged', async () => {
    git(folder, 'init', '-q');
    fs.writeFileSync(path.join(folder, 'tracked.txt'), 'v1\n');
    fs.writeFileSync(path.join(folder, '.gitignore'), 'ignored/\n');
    git(folder, 'add', '.');
    git(folder, 'commit', '-q', '-m', 'one');
    fs.writeFileSync(path.join(folder, 'tracked.txt'), 'v2\n');
    git(folder, 'stash', '-q');
    fs.writeFileSync(path.join(folder, 'tracked.txt'), 'v3\n');
    fs.writeFileSync(path.join(folder, 'untracked.txt'), 'u\n');
    fs.mkdirSync(path.join(folder, 'ignored'));
    fs.writeFileSync(path.join(folder, 'ignored/big.log'), 'ignored\n');
    fs.writeFileSync(path.join(folder, '.git/info/exclude'), 'untracked.txt\n');
    // The test's own status must not refresh the user's index either: --no-optional-locks, and .git hashed first.
    git(folder, 'update-index', '-q', '--refresh');
    const dotGit = hashTree(path.join(folder, '.git'));
    const status = git(folder, '--no-optional-locks', 'status', '--porcelain', '--ignored');
    const stash = git(folder, 'stash', 'list');

    const before = await store.take([folder], LIMITS);
    fs.writeFileSync(path.join(folder, 'tracked.txt'), 'v4\n');
    fs.rmSync(path.join(folder, 'untracked.txt'));
    const after = await store.take([folder], LIMITS);
    const changed = (await store.changes(before, after)).map((c) => `${c.kind} ${c.path}`).sort();
    // The user's .git/info/exclude is not the store's: untracked.txt is recorded. .gitignore is honoured.
    assert.deepEqual(changed, ['deleted untracked.txt', 'modified tracked.txt']);
    await applySteps(await store.restoreSteps(before, after));

    assert.equal(hashTree(path.join(folder, '.git')), dotGit);
    assert.equal(git(folder, '--no-optional-locks', 'status', '--porcelain', '--ignored'), status);
    assert.equal(git(folder, 'stash', 'list'), stash);
  });

  it('records a file that became a folder and a folder that became a file, and restores both', async () => {
    fs.writeFileSync(path.join(folder, 'was-file'), 'file\n');
    fs.mkdirSync(path.join(folder, 'was-dir'));
    fs.writeFileSync(path.join(folder, 'was-dir/inner.txt'), 'inner\n');
    const original = tree(folder);
    const before = await store.take([folder], LIMITS);
    fs.rmSync(path.join(folder, 'was-file'));
    fs.mkdirSync(path.join(folder, 'was-file'));
    fs.writeFileSync(path.join(folder, 'was-file/x.txt'), 'x\n');
    fs.rmSync(path.join(folder, 'was-dir'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'was-dir'), 'now a file\n');
    const after = await store.take([folder], LIMITS);
    assert.deepEqual((await store.changes(before, after)).map((c) => `${c.kind} ${c.path}`).sort(), ['created was-dir', 'created was-file/x.txt', 'deleted was-dir/inner.txt', 'deleted was-file']);
    const steps = await store.restoreSteps(before, after);
    for (const step of steps.filter((s) => s.action === 'delete')) {
      fs.rmSync(path.join(folder, step.path));
      if (step.path.includes('/')) fs.rmdirSync(path.join(folder, path.dirname(step.path)));
    }
    await applySteps(steps.filter((s) => s.action === 'write'));
    assert.deepEqual(tree(folder), original);
  });

  it('never reads through a folder that became a symlink to somewhere else', async () => {
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'file.txt'), 'SECRET outside the workspace\n');
    fs.mkdirSync(path.join(folder, 'sub'));
    fs.writeFileSync(path.join(folder, 'sub/file.txt'), 'inside\n');
    const before = await store.take([folder], LIMITS);
    fs.rmSync(path.join(folder, 'sub'), { recursive: true });
    fs.symlinkSync(outside, path.join(folder, 'sub'));
    const after = await store.take([folder], LIMITS);
    assert.deepEqual((await store.changes(before, after)).map((c) => `${c.kind} ${c.path}`).sort(), ['created sub', 'deleted sub/file.txt']);
    assert.equal(await store.entry(after, folder, Buffer.from('sub/file.txt')), undefined);
    const steps = await store.restoreSteps(before, after);
    assert.deepEqual(steps.map((s) => `${s.action} ${s.path}`).sort(), ['delete sub', 'write sub/file.txt']);
  });

  it('notes a path git refuses and records the rest, so one such file cannot fail every checkpoint', async () => {
    // git refuses some names on some systems (a symlinked .gitmodules in older versions, NTFS names):
    // a git on PATH that refuses refused.txt the way git does stands in for them.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const shim = path.join(base, 'shim');
    fs.mkdirSync(shim);
    fs.writeFileSync(path.join(shim, 'git'), [
      '#!/bin/sh',
      'if [ "$1" = update-index ] && [ "$2" = --add ]; then',
      '  input=$(tr "\\0" "\\n")',
      '  if printf "%s\\n" "$input" | grep -qx refused.txt; then echo "error: invalid path \'refused.txt\'" >&2; echo "fatal: Unable to process path refused.txt" >&2; exit 128; fi',
      `  printf "%s\\n" "$input" | tr "\\n" "\\0" | exec ${realGit} "$@"`,
      'fi',
      `exec ${realGit} "$@"`,
      '',
    ].join('\n'), { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${shim}:${savedPath}`;
    try {
      fs.writeFileSync(path.join(folder, 'refused.txt'), 'x\n');
      fs.writeFileSync(path.join(folder, 'other.txt'), 'other\n');
      const first = await store.take([folder], LIMITS);
      assert.match(first.notes.join('\n'), /^refused\.txt was not recorded: git refused it \(invalid path 'refused\.txt'\)/m);
      assert.equal((await store.entry(first, folder, Buffer.from('other.txt')))?.type, 'file');
      assert.equal(await store.entry(first, folder, Buffer.from('refused.txt')), undefined);
      fs.writeFileSync(path.join(folder, 'other.txt'), 'changed\n');
      const second = await store.take([folder], LIMITS);
      assert.deepEqual((await store.changes(first, second)).map((c) => `${c.kind} ${c.path}`), ['modified other.txt']);
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('honours files.exclude globs', async () => {
    const limits = { ...LIMITS, excludes: ['**/*.{tmp,bak}', 'out'] };
    const before = await store.take([folder], limits);
    fs.writeFileSync(path.join(folder, 'a.tmp'), '1');
    fs.mkdirSync(path.join(folder, 'sub/out'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'sub/b.bak'), '1');
    fs.writeFileSync(path.join(folder, 'sub/out/kept.txt'), '1');
    fs.mkdirSync(path.join(folder, 'out'));
    fs.writeFileSync(path.join(folder, 'out/gone.txt'), '1');
    const after = await store.take([folder], limits);
    assert.deepEqual((await store.changes(before, after)).map((c) => c.path), ['sub/out/kept.txt']);
  });

  it('notes a file over the size cap instead of skipping it silently, and a restore leaves it alone', async () => {
    const limits = { ...LIMITS, maxFileBytes: 1000 };
    fs.writeFileSync(path.join(folder, 'grows.bin'), 'small');
    const before = await store.take([folder], limits);
    fs.writeFileSync(path.join(folder, 'big.bin'), Buffer.alloc(2000, 1));
    fs.writeFileSync(path.join(folder, 'grows.bin'), Buffer.alloc(3000, 2));
    const after = await store.take([folder], limits);
    assert.equal(after.notes.length, 2);
    assert.match(after.notes.join('\n'), /big\.bin \(0\.0 MB\) is over the checkpoint size cap/);
    assert.match(after.notes.join('\n'), /grows\.bin/);
    // The grown file is no longer recorded: it shows as deleted from the record, and restoring puts the small version back.
    const steps = await store.restoreSteps(before, after);
    assert.deepEqual(steps.map((s) => `${s.action} ${s.path}`), ['write grows.bin']);
    await applySteps(steps);
    assert.equal(fs.readFileSync(path.join(folder, 'grows.bin'), 'utf8'), 'small');
    assert.equal(fs.statSync(path.join(folder, 'big.bin')).size, 2000);
  });

  it('refuses to record a folder larger than the whole store may hold, before hashing anything', async () => {
    for (let i = 0; i < 3; i += 1) fs.writeFileSync(path.join(folder, `f${i}.bin`), Buffer.alloc(500, i));
    await assert.rejects(store.take([folder], { ...LIMITS, maxTotalBytes: 1000 }), /1 MB|0 MB in 3 files\) exceed the checkpoint store's cap/);
    const objects = execFileSync('git', [`--git-dir=${store.gitDirOf(folder)}`, 'count-objects'], { encoding: 'utf8' });
    assert.match(objects, /^0 objects/);
  });

  it('does not record empty folders (git has no entry for them), and restore leaves them', async () => {
    const before = await store.take([folder], LIMITS);
    fs.mkdirSync(path.join(folder, 'empty/inner'), { recursive: true });
    const after = await store.take([folder], LIMITS);
    assert.equal(after.folders[0].state, before.folders[0].state);
    assert.deepEqual(await store.changes(before, after), []);
    assert.deepEqual(await store.restoreSteps(before, after), []);
  });

  describe('nested repositories', () => {
    // One repository made with git for the whole suite, copied where a test wants one: a copy costs
    // one git command (the index's refresh) instead of six.
    let template: string;
    before(() => {
      template = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-ckpt-repository-'));
      makeUserRepository(template);
    });
    after(() => fs.rmSync(template, { recursive: true, force: true }));

    /** A repository at `dir` with a commit, a stash, a change, an untracked and an ignored file. */
    function userRepository(dir: string): void {
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      fs.cpSync(template, dir, { recursive: true });
      // The copy's files have new inodes and times: refreshed, the index is as git left it in the template.
      git(dir, 'update-index', '-q', '--refresh');
    }

    function makeUserRepository(dir: string): void {
      git(dir, 'init', '-q');
      fs.writeFileSync(path.join(dir, 'tracked.txt'), 'v1\n');
      fs.writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
      git(dir, 'add', '.');
      git(dir, 'commit', '-q', '-m', 'one');
      fs.writeFileSync(path.join(dir, 'tracked.txt'), 'stashed\n');
      git(dir, 'stash', '-q');
      fs.writeFileSync(path.join(dir, 'tracked.txt'), 'v2\n');
      fs.writeFileSync(path.join(dir, 'untracked.txt'), 'u\n');
      fs.mkdirSync(path.join(dir, 'build'));
      fs.writeFileSync(path.join(dir, 'build/out.o'), 'ignored\n');
      git(dir, 'update-index', '-q', '--refresh');
    }

    /** What the user's repository at `dir` is: its .git byte for byte, status, stash and refs. */
    function repositoryState(dir: string): string[] {
      return [
        hashTree(git(dir, 'rev-parse', '--absolute-git-dir').trim()),
        git(dir, '--no-optional-locks', 'status', '--porcelain', '--ignored'),
        git(dir, 'stash', 'list'),
        git(dir, 'for-each-ref'),
      ];
    }

    it('records a nested repository\'s files (not a commit of it) and restores them, its .git, status, stash and refs untouched', async () => {
      const lib = path.join(folder, 'vendor/lib');
      userRepository(lib);
      fs.writeFileSync(path.join(folder, 'top.txt'), 'top\n');
      const original = tree(folder, true);
      const state = repositoryState(lib);

      const before = await store.take([folder], LIMITS);
      assert.deepEqual(before.notes, []);
      assert.equal((await store.entry(before, folder, Buffer.from('vendor/lib/tracked.txt')))?.type, 'file');
      assert.equal(await store.entry(before, folder, Buffer.from('vendor/lib/build/out.o')), undefined, 'its .gitignore is honoured');
      assert.deepEqual(repositoryState(lib), state);

      fs.rmSync(path.join(lib, 'untracked.txt'));
      fs.writeFileSync(path.join(lib, 'tracked.txt'), 'changed by a command\n');
      fs.chmodSync(path.join(lib, 'run.sh'), 0o644);
      fs.writeFileSync(path.join(lib, 'created.txt'), 'new\n');
      const after = await store.take([folder], LIMITS);
      const changed = (await store.changes(before, after)).map((c) => `${c.kind} ${c.path}`).sort();
      assert.deepEqual(changed, ['created vendor/lib/created.txt', 'deleted vendor/lib/untracked.txt', 'modified vendor/lib/run.sh', 'modified vendor/lib/tracked.txt']);

      await applySteps(await store.restoreSteps(before, after));
      assert.deepEqual(tree(folder, true), original);
      assert.deepEqual(repositoryState(lib), state);
    });

    it('records repositories inside nested repositories and a work tree whose .git is a file (a submodule\'s)', async () => {
      userRepository(path.join(folder, 'outer'));
      userRepository(path.join(folder, 'outer/inner'));
      const modules = path.join(base, 'modules/sub');
      userRepository(path.join(folder, 'sub'));
      fs.mkdirSync(path.dirname(modules), { recursive: true });
      fs.renameSync(path.join(folder, 'sub/.git'), modules);
      fs.writeFileSync(path.join(folder, 'sub/.git'), `gitdir: ${modules}\n`);
      git(path.join(folder, 'sub'), 'config', 'core.worktree', path.join(folder, 'sub'));
      const original = tree(folder, true);
      const states = ['outer', 'outer/inner', 'sub'].map((dir) => repositoryState(path.join(folder, dir)));

      const before = await store.take([folder], LIMITS);
      assert.deepEqual(before.notes, []);
      for (const dir of ['outer', 'outer/inner', 'sub']) {
        fs.rmSync(path.join(folder, dir, 'tracked.txt'));
        fs.writeFileSync(path.join(folder, dir, 'made.txt'), dir);
      }
      const after = await store.take([folder], LIMITS);
      assert.equal((await store.changes(before, after)).length, 6);
      await applySteps(await store.restoreSteps(before, after));

      assert.deepEqual(tree(folder, true), original);
      assert.equal(fs.readFileSync(path.join(folder, 'sub/.git'), 'utf8'), `gitdir: ${modules}\n`);
      assert.deepEqual(['outer', 'outer/inner', 'sub'].map((dir) => repositoryState(path.join(folder, dir))), states);
    });

    it('records a bare repository\'s files as files, its config and hooks included', async () => {
      git(base, 'init', '-q', '--bare', path.join(folder, 'store-of-mine'));
      fs.writeFileSync(path.join(folder, 'store-of-mine/hooks/post-update'), '#!/bin/sh\n', { mode: 0o755 });
      const original = tree(folder, true);
      const before = await store.take([folder], LIMITS);
      fs.appendFileSync(path.join(folder, 'store-of-mine/config'), '[core]\n\tfsmonitor = /tmp/x\n');
      fs.rmSync(path.join(folder, 'store-of-mine/hooks/post-update'));
      const after = await store.take([folder], LIMITS);
      await applySteps(await store.restoreSteps(before, after));
      assert.deepEqual(tree(folder, true), original);
    });

    it('records several nested repositories side by side and at different depths, and only what changed in one of them', async () => {
      for (const dir of ['a/x', 'a/y', 'b', 'a/deep/er/z']) userRepository(path.join(folder, dir));
      fs.writeFileSync(path.join(folder, 'a/plain.txt'), 'plain\n');
      const original = tree(folder, true);
      const before = await store.take([folder], LIMITS);
      fs.writeFileSync(path.join(folder, 'a/y/tracked.txt'), 'changed\n');
      fs.rmSync(path.join(folder, 'a/deep/er/z/run.sh'));
      const after = await store.take([folder], LIMITS);
      assert.deepEqual((await store.changes(before, after)).map((c) => `${c.kind} ${c.path}`).sort(), ['deleted a/deep/er/z/run.sh', 'modified a/y/tracked.txt']);
      await applySteps(await store.restoreSteps(before, after));
      assert.deepEqual(tree(folder, true), original);
      assert.deepEqual(await store.changes(before, await store.take([folder], LIMITS)), []);
    });

    it('keeps recording a nested repository after pruning, in this window and the next', async () => {
      userRepository(path.join(folder, 'lib'));
      const limits = { ...LIMITS, maxTotalBytes: 300 * 1024 };
      let last = await store.take([folder], limits);
      for (let i = 0; i < 6; i += 1) {
        fs.writeFileSync(path.join(folder, 'lib/data.bin'), Buffer.from(Array.from({ length: 100 * 1024 }, () => Math.floor(Math.random() * 256))));
        last = await store.take([folder], limits);
      }
      fs.writeFileSync(path.join(folder, 'top.txt'), 'top\n');
      const next = await store.take([folder], limits);
      assert.deepEqual((await store.changes(last, next)).map((c) => c.path), ['top.txt']);
      const nextWindow = new GitCheckpointStore(path.join(base, 'store'));
      const first = await nextWindow.take([folder], limits);
      fs.writeFileSync(path.join(folder, 'lib/tracked.txt'), 'after a restart\n');
      const second = await nextWindow.take([folder], limits);
      assert.deepEqual((await nextWindow.changes(first, second)).map((c) => `${c.kind} ${c.path}`), ['modified lib/tracked.txt']);
      assert.equal((await nextWindow.entry(second, folder, Buffer.from('lib/run.sh')))?.executable, true);
    });

    it('takes an unchanged tree with a nested repository as the same state', async () => {
      userRepository(path.join(folder, 'lib'));
      const first = await store.take([folder], LIMITS);
      const second = await store.take([folder], LIMITS);
      assert.equal(second.folders[0].state, first.folders[0].state);
    });

    it('records a nested repository removed whole as its files deleted, and a restore writes them back (not its .git)', async () => {
      userRepository(path.join(folder, 'lib'));
      fs.writeFileSync(path.join(folder, 'top.txt'), 'top\n');
      const before = await store.take([folder], LIMITS);
      fs.rmSync(path.join(folder, 'lib'), { recursive: true });
      const after = await store.take([folder], LIMITS);
      assert.notEqual(after.folders[0].state, before.folders[0].state);
      assert.deepEqual((await store.changes(before, after)).map((c) => `${c.kind} ${c.path}`).sort(), ['deleted lib/.gitignore', 'deleted lib/run.sh', 'deleted lib/tracked.txt', 'deleted lib/untracked.txt']);
      await applySteps(await store.restoreSteps(before, after));
      assert.equal(fs.readFileSync(path.join(folder, 'lib/tracked.txt'), 'utf8'), 'v2\n');
      assert.equal(fs.existsSync(path.join(folder, 'lib/.git')), false);
    });

    it('applies files.exclude to a nested repository from the folder, not from the repository\'s root', async () => {
      userRepository(path.join(folder, 'lib'));
      const limits = { ...LIMITS, excludes: ['tracked.txt', 'lib/run.sh', '**/*.tmp'] };
      fs.writeFileSync(path.join(folder, 'lib/a.tmp'), 'x');
      fs.writeFileSync(path.join(folder, 'tracked.txt'), 'top');
      const checkpoint = await store.take([folder], limits);
      const recorded = async (p: string): Promise<boolean> => (await store.entry(checkpoint, folder, Buffer.from(p))) !== undefined;
      assert.equal(await recorded('lib/tracked.txt'), true, 'an anchored glob of the folder does not reach into the repository');
      assert.equal(await recorded('tracked.txt'), false);
      assert.equal(await recorded('lib/run.sh'), false);
      assert.equal(await recorded('lib/a.tmp'), false);
    });
  });

  it('prunes the oldest checkpoints when the store grows past its cap, and keeps the newest', async () => {
    const limits = { ...LIMITS, maxTotalBytes: 300 * 1024 };
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      // Random bytes do not compress: each checkpoint adds about 100 KB.
      fs.writeFileSync(path.join(folder, 'data.bin'), Buffer.from(Array.from({ length: 100 * 1024 }, () => Math.floor(Math.random() * 256))));
      ids.push((await store.take([folder], limits)).id);
    }
    assert.ok(store.get(ids[5]), 'the newest checkpoint is kept');
    assert.equal(store.get(ids[0]), undefined, 'the oldest checkpoint was pruned');
    const refs = git(folder, `--git-dir=${store.gitDirOf(folder)}`, 'for-each-ref', '--format=%(refname)', 'refs/checkpoints/');
    assert.ok(!refs.includes(ids[0]));
    const sizeKiB = execFileSync('du', ['-sk', path.join(store.gitDirOf(folder), 'objects')], { encoding: 'utf8' });
    assert.ok(Number(sizeKiB.split('\t')[0]) < 700, `store is ${sizeKiB}`);
  });

  it('never prunes a checkpoint it is told to keep (a call\'s before, while its after is taken)', async () => {
    const limits = { ...LIMITS, maxTotalBytes: 300 * 1024 };
    const random = () => Buffer.from(Array.from({ length: 100 * 1024 }, () => Math.floor(Math.random() * 256)));
    fs.writeFileSync(path.join(folder, 'data.bin'), random());
    const before = await store.take([folder], limits);
    for (let i = 0; i < 5; i += 1) {
      fs.writeFileSync(path.join(folder, 'data.bin'), random());
      await store.take([folder], limits, [before.id]);
    }
    assert.ok(store.get(before.id), 'the kept checkpoint survived pruning');
    const steps = await store.restoreSteps(before, await store.take([folder], limits, [before.id]));
    assert.equal(steps.length, 1);
    assert.equal((await steps[0].entry!.read()).length, 100 * 1024, 'its objects survived too');
  });

  it('lists a very large change without line counts', async () => {
    const before = await store.take([folder], LIMITS);
    for (let i = 0; i < 2001; i += 1) fs.writeFileSync(path.join(folder, `f${i}.txt`), 'x\n');
    const changes = await store.changes(before, await store.take([folder], LIMITS));
    assert.equal(changes.length, 2001);
    assert.ok(changes.every((c) => c.kind === 'created' && c.added === undefined));
  });

  it('takes an unchanged tree as the same state, quickly', async () => {
    for (let i = 0; i < 200; i += 1) fs.writeFileSync(path.join(folder, `f${i}.txt`), `${i}\n`);
    const first = await store.take([folder], LIMITS);
    const second = await store.take([folder], LIMITS);
    assert.equal(second.folders[0].state, first.folders[0].state);
    assert.notEqual(second.id, first.id);
  });
});
