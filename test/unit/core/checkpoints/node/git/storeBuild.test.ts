// The store's background build: it records the folder ahead of the first call, a checkpoint asked
// for during it waits for it and still records the folder as it was before the call's change, it
// reports progress and the calls waiting, and it can be stopped.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CallCheckpoints } from '../../../../../../src/core/checkpoints/callCheckpoint';
import { byteShares, objectWriters, PREWRITE_PATHS } from '../../../../../../src/core/checkpoints/node/git/storeBuild';
import { CONFIG, gitCommandLine } from '../../../../../../src/core/checkpoints/node/git/gitRunner';
import { GitCheckpointStore } from '../../../../../../src/core/checkpoints/node/git/gitCheckpointStore';
import type { CheckpointLimits, StoreBuildState } from '../../../../../../src/core/ports/checkpoints';
import { needsWindowsProgram, skipUnlessOn } from '../../../../support/platforms';

const LIMITS: CheckpointLimits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024 * 1024, excludes: [] };

/** git on the folder's private repository, as the store drives it. */
function privateGit(store: GitCheckpointStore, folder: string, ...args: string[]): string {
  const gitDir = store.gitDirOf(folder);
  return execFileSync('git', args, { env: { PATH: process.env.PATH ?? '', GIT_DIR: gitDir, GIT_INDEX_FILE: path.join(gitDir, 'checkpoint-index'), GIT_WORK_TREE: folder, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }, encoding: 'utf8' });
}

/** Restores a checkpoint's files with Node, as the host's restore does for files no editor holds. */
async function restoreTo(store: GitCheckpointStore, targetId: string, folder: string): Promise<void> {
  const target = store.get(targetId)!;
  const current = await store.take([folder], LIMITS);
  for (const step of await store.restoreSteps(target, current)) {
    const file = path.join(folder, step.path);
    if (step.action === 'delete') {
      fs.rmSync(file, { force: true });
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, await step.entry!.read(), { mode: step.entry!.executable ? 0o755 : 0o644 });
    }
  }
}

/** Puts a git wrapper first on PATH that logs its own niceness and arguments, however the store starts it (nice, ionice or itself). */
function logNiceness(base: string): { logged: () => { nice: number; command: string }[]; restore: () => void } {
  const bin = path.join(base, 'bin');
  const log = path.join(base, 'nice.log');
  fs.mkdirSync(bin);
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$(nice) $*" >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
  const savedPath = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
  return {
    logged: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => ({ nice: Number(line.split(' ')[0]), command: line.split(' ').slice(1).join(' ') })) : []),
    restore: () => {
      process.env.PATH = savedPath;
    },
  };
}

describe('GitCheckpointStore build (the store prepared in the background)', function () {
  // The build runs git at normal priority here: under nice 19, as for users, beside npm test's other
  // tiers on 2 busy cores it got what CPU was left (1-17 s a test, a build of 700 files over 20 s).
  // One test runs the users' build and proves its priority. The limit only catches a hang; no
  // assertion is on time.
  this.timeout(180_000);
  before(function () {
    needsWindowsProgram(this, 'git');
  });

  let base: string;
  let folder: string;
  let store: GitCheckpointStore;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-build-'));
    folder = path.join(base, 'ws');
    fs.mkdirSync(path.join(folder, 'src'), { recursive: true });
    // More files than one piece of update-index's input and than the bulk threshold: progress has steps, objects go to one pack.
    for (let i = 0; i < 700; i += 1) {
      fs.writeFileSync(path.join(folder, 'src', `f${i}.c`), `int f${i}(void) { return ${i}; }\n`);
    }
    fs.writeFileSync(path.join(folder, 'main.c'), 'int main(void) {\n  return 0;\n}\n');
    store = new GitCheckpointStore(path.join(base, 'store'), { lowPriorityBuild: false });
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('records every file of the folder in the private index before any checkpoint is taken', async () => {
    await store.build([folder], LIMITS);
    const indexed = privateGit(store, folder, 'ls-files').split('\n').filter(Boolean);
    assert.equal(indexed.length, 701);
    assert.ok(indexed.includes('main.c'));
  });

  it('leaves nothing for the next checkpoint to record: git status of the private index is empty', async () => {
    await store.build([folder], LIMITS);
    assert.equal(privateGit(store, folder, 'status', '--porcelain', '--untracked-files=all'), '');
  });

  it('writes the objects of a first record of many files side by side, a pack per writer, and still indexes every file with its stat', async () => {
    for (let i = 0; i < PREWRITE_PATHS; i += 1) {
      fs.writeFileSync(path.join(folder, 'src', `g${i}.c`), `int g${i}(void) { return ${i}; }\n`);
    }
    const fractions: number[] = [];
    await store.build([folder], LIMITS, { onState: (state) => fractions.push(state.fraction) });
    const files = 701 + PREWRITE_PATHS;
    assert.equal(privateGit(store, folder, 'ls-files').split('\n').filter(Boolean).length, files);
    const counts = privateGit(store, folder, 'count-objects', '-v');
    // One pack per writer (a machine with one core writes them in the update-index itself: one pack).
    assert.match(counts, new RegExp(`^packs: ${objectWriters() >= 2 ? objectWriters() : 1}$`, 'm'));
    assert.match(counts, new RegExp(`^in-pack: ${files}$`, 'm'));
    // The stat cache is filled: nothing left for the next checkpoint, and no throwaway index is left behind.
    assert.equal(privateGit(store, folder, 'status', '--porcelain', '--untracked-files=all'), '');
    assert.deepEqual(fs.readdirSync(store.gitDirOf(folder)).filter((name) => name.startsWith('prewrite-')), []);
    assert.deepEqual([...fractions].sort((a, b) => a - b), fractions);
    assert.equal(fractions.at(-1), 1);
  });

  it('shares paths among writers in contiguous ranges of about equal bytes', () => {
    assert.deepEqual(byteShares([1, 1, 1, 1], 2), [[0, 2], [2, 4]]);
    assert.deepEqual(byteShares([10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2), [[0, 1], [1, 11]]);
    assert.deepEqual(byteShares([0, 0, 0], 4), [[0, 1], [1, 2], [2, 3]]);
    assert.deepEqual(byteShares([5], 3), [[0, 1]]);
    assert.deepEqual(byteShares([], 2), []);
  });

  it('stores the first record of many files as one pack, not one file per object', async () => {
    await store.build([folder], LIMITS);
    const counts = privateGit(store, folder, 'count-objects', '-v');
    assert.match(counts, /^in-pack: 701$/m);
    assert.match(counts, /^packs: 1$/m);
  });

  it('a checkpoint asked for during the build records the folder as it was before the change that follows it, byte for byte', async () => {
    const original = fs.readFileSync(path.join(folder, 'main.c'));
    const building = store.build([folder], LIMITS);
    const call = new CallCheckpoints(store, [folder], LIMITS);
    await call.beforeChange();
    fs.writeFileSync(path.join(folder, 'main.c'), 'changed by the call\n');
    fs.rmSync(path.join(folder, 'src', 'f7.c'));
    const outcome = await call.finishNow();
    await building;
    assert.deepEqual(outcome!.changed.map((file) => `${file.kind} ${file.path}`).sort(), ['deleted src/f7.c', 'modified main.c']);
    await restoreTo(store, outcome!.before, folder);
    assert.deepEqual(fs.readFileSync(path.join(folder, 'main.c')), original);
    assert.equal(fs.readFileSync(path.join(folder, 'src', 'f7.c'), 'utf8'), 'int f7(void) { return 7; }\n');
  });

  it('records, in one pack, what a checkpoint records: the executable bit, symlinks as links, not files over the size cap (noted), not ignored files', async () => {
    fs.writeFileSync(path.join(folder, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    fs.chmodSync(path.join(folder, 'run.sh'), 0o755);
    fs.symlinkSync('main.c', path.join(folder, 'link.c'));
    fs.writeFileSync(path.join(folder, 'big.bin'), Buffer.alloc(LIMITS.maxFileBytes + 1, 1));
    fs.writeFileSync(path.join(folder, '.gitignore'), 'ignored.o\n');
    fs.writeFileSync(path.join(folder, 'ignored.o'), 'object\n');
    const notes = await store.build([folder], LIMITS);
    assert.equal(notes.length, 1);
    assert.match(notes[0], /^big\.bin .* is over the checkpoint size cap/);
    const staged = privateGit(store, folder, 'ls-files', '-s', 'run.sh', 'link.c', 'big.bin', 'ignored.o', 'main.c');
    assert.match(staged, /^100755 \w+ 0\trun\.sh$/m);
    assert.match(staged, /^120000 \w+ 0\tlink\.c$/m);
    assert.match(staged, /^100644 \w+ 0\tmain\.c$/m);
    assert.doesNotMatch(staged, /big\.bin|ignored\.o/);
    const linkSha = /^120000 (\w+)/m.exec(staged)![1];
    assert.equal(privateGit(store, folder, 'cat-file', 'blob', linkSha), 'main.c');
  });

  it('a checkpoint asked for during the build waits for it: the build reports one waiting call until it ends', async () => {
    const states: StoreBuildState[] = [];
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const building = store.build([folder], LIMITS, { hold, onState: (state) => states.push(state) });
    let taken = false;
    const checkpoint = store.take([folder], LIMITS).then((result) => {
      taken = true;
      return result;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(taken, false, 'the checkpoint waits while the build is held');
    assert.equal(states.at(-1)?.waiting, 1);
    release();
    await building;
    assert.ok((await checkpoint).folders[0].state);
    assert.equal(states.at(-1)?.fraction, 1);
  });

  it('reports its progress from 0 to 1, never going back, with steps in between', async () => {
    const fractions: number[] = [];
    await store.build([folder], LIMITS, { onState: (state) => fractions.push(state.fraction) });
    assert.equal(fractions[0], 0);
    assert.equal(fractions.at(-1), 1);
    assert.ok(fractions.some((fraction) => fraction > 0 && fraction < 1), fractions.join(' '));
    assert.deepEqual([...fractions].sort((a, b) => a - b), fractions);
  });

  it('over several folders, reaches 1 only once every folder is built', async () => {
    const second = path.join(base, 'second');
    fs.mkdirSync(second);
    fs.writeFileSync(path.join(second, 'x.txt'), 'x\n');
    const fractions: number[] = [];
    await store.build([folder, second], LIMITS, { onState: (state) => fractions.push(state.fraction) });
    assert.equal(fractions.at(-1), 1);
    assert.ok(fractions.slice(0, -1).every((fraction) => fraction < 1), fractions.join(' '));
    assert.equal(privateGit(store, second, 'ls-files'), 'x.txt\n');
  });

  it('stops when its signal is aborted, and the next checkpoint still records the folder exactly', async () => {
    const stop = new AbortController();
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const building = store.build([folder], LIMITS, { signal: stop.signal, hold });
    stop.abort();
    release();
    await assert.rejects(building, /stopped/);
    const original = fs.readFileSync(path.join(folder, 'main.c'));
    const before = await store.take([folder], LIMITS);
    fs.writeFileSync(path.join(folder, 'main.c'), 'changed\n');
    await restoreTo(store, before.id, folder);
    assert.deepEqual(fs.readFileSync(path.join(folder, 'main.c')), original);
  });

  it('runs a second build after the first, not beside it', async () => {
    const order: string[] = [];
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = store.build([folder], LIMITS, { hold }).then(() => order.push('first'));
    const second = store.build([folder], LIMITS).then(() => order.push('second'));
    release();
    await Promise.all([first, second]);
    assert.deepEqual(order, ['first', 'second']);
  });

  it("runs git at low priority by default (users' builds), and at normal priority once a checkpoint waits for the build", async function () {
    skipUnlessOn(this, ['linux', 'darwin'], 'nice on PATH');
    const { logged, restore } = logNiceness(base);
    try {
      const usersStore = new GitCheckpointStore(path.join(base, 'users-store'));
      let asked = false;
      let checkpoint: Promise<unknown> | undefined;
      let beforeWait: { nice: number; command: string }[] = [];
      let build: { nice: number; command: string }[] = [];
      await usersStore.build([folder], LIMITS, {
        onState: (state) => {
          // Once git has read part of the files, a checkpoint is asked for and waits for the build.
          if (state.fraction > 0 && state.fraction < 1 && !asked) {
            asked = true;
            // The store's creation (git init) is not the build's and runs at normal priority.
            beforeWait = logged().filter((run) => !run.command.startsWith('init '));
            checkpoint = usersStore.take([folder], LIMITS);
          }
          // The build's last git run (its git status) has ended; the checkpoint's own runs come after.
          if (state.fraction === 1) build = logged().filter((run) => !run.command.startsWith('init '));
        },
      });
      assert.ok(checkpoint, 'a checkpoint was asked for during the build');
      await checkpoint;
      const normal = os.getPriority();
      const low = Math.min(19, normal + 19);
      assert.ok(beforeWait.length > 0 && beforeWait.every((run) => run.nice === low), `low priority before a checkpoint waits: ${JSON.stringify(beforeWait)}`);
      assert.ok(build.every((run) => run.nice === low || run.nice === normal), JSON.stringify(build));
      assert.match(build.at(-1)?.command ?? '', / status /);
      assert.equal(build.at(-1)?.nice, normal, `normal priority once it waits: ${JSON.stringify(build)}`);
    } finally {
      restore();
    }
  });

  it('runs every git of the build at normal priority when the store is made with lowPriorityBuild: false', async function () {
    skipUnlessOn(this, ['linux', 'darwin'], 'nice on PATH');
    const { logged, restore } = logNiceness(base);
    try {
      await new GitCheckpointStore(path.join(base, 'normal-store'), { lowPriorityBuild: false }).build([folder], LIMITS);
    } finally {
      restore();
    }
    const runs = logged();
    assert.ok(runs.some((run) => run.command.includes(' update-index ')), JSON.stringify(runs));
    assert.ok(runs.every((run) => run.nice === os.getPriority()), JSON.stringify(runs));
  });

  it('a folder whose store is already built costs no new commit', async () => {
    await store.build([folder], LIMITS);
    const head = privateGit(store, folder, 'rev-parse', 'HEAD');
    await store.build([folder], LIMITS);
    assert.equal(privateGit(store, folder, 'rev-parse', 'HEAD'), head);
  });
});

describe('gitCommandLine', () => {
  it('runs git itself at normal priority', () => {
    assert.deepEqual(gitCommandLine(['status'], false, 'linux'), { program: 'git', args: ['status'] });
  });

  it('runs git under nice (and ionice on Linux, best-effort class) at low priority', function () {
    skipUnlessOn(this, ['linux', 'darwin'], 'nice on PATH');
    const line = gitCommandLine(['status'], true, 'linux');
    const joined = [line.program, ...line.args].join(' ');
    assert.match(joined, /nice -n 19 git status$/);
    if (line.program === 'ionice') assert.deepEqual(line.args.slice(0, 4), ['-c', '2', '-n', '7']);
  });

  it('creates the private store with no line-ending conversion and with long paths (Git for Windows reads core.longpaths)', () => {
    const config = new Map(CONFIG);
    assert.equal(config.get('core.autocrlf'), 'false');
    assert.equal(config.get('core.longpaths'), 'true');
  });

  it('runs git itself on Windows, whose priority is lowered once it started', () => {
    assert.deepEqual(gitCommandLine(['status'], true, 'win32'), { program: 'git', args: ['status'] });
  });
});
