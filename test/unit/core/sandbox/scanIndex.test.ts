import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../../../src/core/errors';
import type { DirectoryWatchHandle, DirectoryWatcher } from '../../../../src/core/ports/directoryWatch';
import { workspaceScanGlobs } from '../../../../src/core/guard/protectedNames';
import { acquireSandboxLease } from '../../../../src/core/sandbox/lease';
import { InotifyWatcher } from '../../../../src/core/sandbox/node/inotifyWatch';
import { MachineSandbox } from '../../../../src/core/sandbox/node/machineSandbox';
import { ScanGlobs, ScanIndex } from '../../../../src/core/sandbox/scanIndex';
import { testContext } from '../../support/context';
import { RIPGREP } from '../../support/searchTree';
import { describeOnlyOn } from '../../support/platforms';

/** The real watcher, with a smaller queue or a folder it refuses to watch. */
class TestWatcher extends InotifyWatcher {
  refuse: string | undefined;
  /** A folder taken for a network file system's. */
  remote: string | undefined;
  /** Listings wait for it (a build still under way). */
  gate: Promise<void> = Promise.resolve();
  async list(directory: string): Promise<{ name: string; kind: 'file' | 'directory' | 'other' }[]> {
    await this.gate;
    return super.list(directory);
  }
  constructor(readonly queueLimit: number | undefined = new InotifyWatcher().queueLimit) {
    super();
  }
  watch(directory: string, onEvent: (name: string | undefined, kind: 'rename' | 'change') => void, onError: (error: unknown) => void): DirectoryWatchHandle {
    if (directory === this.refuse) {
      throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
    }
    return super.watch(directory, onEvent, onError);
  }
  reportsEveryChange(directory: string): boolean {
    return directory !== this.remote && super.reportsEveryChange(directory);
  }
}

const write = (file: string, text = 'A=1\n'): void => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/scanIndex', () => {
  let parent: string;
  let root: string;
  let index: ScanIndex;
  let watcher: TestWatcher;
  const sandbox = new MachineSandbox(RIPGREP, [], process.platform, { scanIndex: false });
  /** What today's walk lists: ripgrep with the same globs. */
  const walked = async (folder = root): Promise<string[]> => ((await sandbox.listFiles([folder], workspaceScanGlobs(), NEVER_CANCELLED)) ?? ['the walk failed']).sort();
  const indexed = async (folder = root): Promise<string[]> => {
    const answer = await index.lookup([folder]);
    assert.deepEqual(answer.unindexed, [], `the index vouches for ${folder}`);
    return answer.files;
  };
  const ready = async (): Promise<void> => {
    index.track([root]);
    await index.settled();
  };

  beforeEach(() => {
    parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-scan-index-')));
    root = path.join(parent, 'ws');
    fs.mkdirSync(root);
    watcher = new TestWatcher();
    index = new ScanIndex(watcher);
  });
  afterEach(() => {
    index.dispose();
    fs.rmSync(parent, { recursive: true, force: true });
  });
  after(() => sandbox.dispose());

  it('lists what ripgrep\'s walk lists: secrets, execution config at any depth, every HEAD, nothing from the object store, no link or fifo', async () => {
    write(path.join(root, '.env'));
    write(path.join(root, 'a', 'b', '.ENV.local'));
    write(path.join(root, 'a', '.env.example'));
    write(path.join(root, 'a', 'plain.txt'));
    write(path.join(root, '.vscode', 'tasks.json'), '{}');
    write(path.join(root, '.vscode', 'deep', 'x.json'), '{}');
    write(path.join(root, 'w.code-workspace'), '{}');
    write(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    write(path.join(root, '.git', 'config'), '[core]\n');
    write(path.join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    write(path.join(root, '.git', 'objects', 'ab', 'HEAD'), 'x');
    write(path.join(root, '.git', 'refs', 'remotes', 'origin', 'HEAD'), 'x');
    write(path.join(root, '.git', 'modules', 'sub', 'config'), '[core]\n');
    write(path.join(root, 'bare.git', 'info', 'attributes'), '* filter=x\n');
    write(path.join(root, 'lib', '.npmrc'), '//registry/:_authToken=x\n');
    fs.symlinkSync(path.join(root, '.env'), path.join(root, 'lib', '.envrc'));
    execFileSync('mkfifo', [path.join(root, 'lib', '.netrc')]);
    await ready();
    assert.deepEqual(await indexed(), await walked());
    assert.ok((await indexed()).includes(path.join(root, 'a', 'b', '.ENV.local')));
  });

  it('has a .env created just before the lookup, with no wait at all', async () => {
    await ready();
    write(path.join(root, 'src', '..', '.env'));
    assert.deepEqual(await indexed(), [path.join(root, '.env')]);
  });

  it('has a .env created 10 ms before the lookup', async () => {
    fs.mkdirSync(path.join(root, 'src'));
    await ready();
    write(path.join(root, 'src', '.env'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(await indexed(), [path.join(root, 'src', '.env')]);
  });

  it('has a .env inside folders another process created (a command), at the next lookup', async () => {
    await ready();
    execFileSync('/bin/sh', ['-c', 'mkdir -p a/b/c && echo A=1 > a/b/c/.env && mkdir a/d && echo B=1 > a/d/.env.production'], { cwd: root });
    assert.deepEqual(await indexed(), [path.join(root, 'a', 'b', 'c', '.env'), path.join(root, 'a', 'd', '.env.production')]);
  });

  it('has the .env of a folder renamed into the tree, and forgets it when the folder is renamed out', async () => {
    await ready();
    const outside = path.join(parent, 'outside');
    write(path.join(outside, 'deep', '.env'));
    fs.renameSync(outside, path.join(root, 'moved'));
    assert.deepEqual(await indexed(), [path.join(root, 'moved', 'deep', '.env')]);
    fs.renameSync(path.join(root, 'moved'), path.join(parent, 'gone'));
    assert.deepEqual(await indexed(), []);
  });

  it('follows a folder renamed inside the tree to its new path', async () => {
    write(path.join(root, 'a', 'x', '.env'));
    await ready();
    fs.renameSync(path.join(root, 'a', 'x'), path.join(root, 'y'));
    write(path.join(root, 'y', '.envrc'));
    assert.deepEqual(await indexed(), [path.join(root, 'y', '.env'), path.join(root, 'y', '.envrc')]);
  });

  it('has a plain file renamed to .env, and forgets a .env renamed to a plain name', async () => {
    write(path.join(root, 'a', 'notes.txt'));
    write(path.join(root, 'a', '.env.local'));
    await ready();
    fs.renameSync(path.join(root, 'a', 'notes.txt'), path.join(root, 'a', '.env'));
    fs.renameSync(path.join(root, 'a', '.env.local'), path.join(root, 'a', 'local.txt'));
    assert.deepEqual(await indexed(), [path.join(root, 'a', '.env')]);
  });

  it('forgets a deleted .env and the files of a deleted folder', async () => {
    write(path.join(root, '.env'));
    write(path.join(root, 'a', 'b', '.env'));
    await ready();
    fs.rmSync(path.join(root, '.env'));
    fs.rmSync(path.join(root, 'a'), { recursive: true });
    assert.deepEqual(await indexed(), []);
  });

  it('watches a folder removed and made again under the same name (its inode may be reused)', async () => {
    write(path.join(root, 'd', 'old.txt'));
    await ready();
    fs.rmSync(path.join(root, 'd'), { recursive: true });
    fs.mkdirSync(path.join(root, 'd'));
    assert.deepEqual(await indexed(), []);
    write(path.join(root, 'd', '.env'));
    assert.deepEqual(await indexed(), [path.join(root, 'd', '.env')]);
  });

  it('has a nested repository created just before the lease, whose config is bound read-only and hooks held', async () => {
    const machine = new MachineSandbox(RIPGREP);
    try {
      const ctx = testContext({ root, workspace: { home: path.join(parent, 'home') } });
      const lease = () => acquireSandboxLease(ctx, machine, { sandbox: { kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, network: false, cwd: root, env: {} });
      await (await lease()).release();
      await machine.scanIndex?.settled();
      execFileSync('git', ['init', '-q', 'lib/nested'], { cwd: root });
      write(path.join(root, 'lib', 'nested', '.env'));
      const second = await lease();
      await second.release();
      assert.deepEqual(machine.scanIndex?.status().map((each) => each.state), ['ready'], 'answered from the index');
      assert.ok(second.plan.readOnly.includes(path.join(root, 'lib', 'nested', '.git', 'config')));
      assert.ok(second.plan.readOnlyMissing.includes(path.join(root, 'lib', 'nested', '.git', 'hooks')) || second.plan.readOnly.includes(path.join(root, 'lib', 'nested', '.git', 'hooks')));
      assert.ok(second.plan.hiddenFiles.includes(path.join(root, 'lib', 'nested', '.env')));
    } finally {
      machine.dispose();
    }
  });

  describe('the folders holding a .gitignore (for the search engine)', () => {
    const ignoreFolders = async (folder = root): Promise<string[]> => [...((await index.ignoreFileFolders(folder)) ?? ['not vouched for'])].sort();

    it('knows each one, and neither a link nor a folder of that name', async () => {
      write(path.join(root, '.gitignore'), 'x\n');
      write(path.join(root, 'a', 'b', '.gitignore'), 'y\n');
      write(path.join(root, 'a', '.gitignore', 'inside.txt'), '');
      fs.mkdirSync(path.join(root, 'c'));
      fs.symlinkSync('../.gitignore', path.join(root, 'c', '.gitignore'));
      await ready();
      assert.deepEqual(await ignoreFolders(), ['', 'a/b']);
      assert.deepEqual(await ignoreFolders(path.join(root, 'a')), ['b']);
      assert.deepEqual(await ignoreFolders(path.join(root, 'a', 'b')), ['']);
    });

    it('has one written just before the lookup, in a folder made then, and forgets one deleted or moved out', async () => {
      write(path.join(root, 'a', '.gitignore'), 'y\n');
      write(path.join(root, 'b', 'c', '.gitignore'), 'z\n');
      await ready();
      write(path.join(root, 'new', 'deep', '.gitignore'), 'n\n');
      fs.rmSync(path.join(root, 'a', '.gitignore'));
      fs.renameSync(path.join(root, 'b'), path.join(parent, 'b-out'));
      assert.deepEqual(await ignoreFolders(), ['new/deep']);
      fs.renameSync(path.join(root, 'new', 'deep', '.gitignore'), path.join(root, 'new', 'deep', 'rules.txt'));
      assert.deepEqual(await ignoreFolders(), []);
    });

    it('does not vouch for a folder outside every tracked one, beside one with the same start, reached through a link, or still being built', async () => {
      write(path.join(root, 'a', '.gitignore'), 'y\n');
      fs.symlinkSync('a', path.join(root, 'link'));
      let open = (): void => undefined;
      watcher.gate = new Promise((resolve) => (open = resolve));
      index.track([root]);
      assert.equal(await index.ignoreFileFolders(root), undefined);
      open();
      await index.settled();
      assert.deepEqual(await index.ignoreFileFolders(root), ['a']);
      assert.deepEqual(await index.ignoreFileFolders(path.join(root, 'a')), ['']);
      assert.equal(await index.ignoreFileFolders(path.join(root, 'link')), undefined);
      assert.equal(await index.ignoreFileFolders(path.join(root, 'missing')), undefined);
      assert.equal(await index.ignoreFileFolders(`${root}2`), undefined);
      assert.equal(await index.ignoreFileFolders(parent), undefined);
    });
  });

  it('answers nothing for a folder still being built: the caller walks it', async () => {
    let open = (): void => undefined;
    watcher.gate = new Promise((resolve) => (open = resolve));
    index.track([root]);
    assert.deepEqual(await index.lookup([root, path.join(parent, 'untracked')]), { files: [], unindexed: [root, path.join(parent, 'untracked')] });
    open();
    await index.settled();
    assert.deepEqual(await index.lookup([root, path.join(parent, 'untracked')]), { files: [], unindexed: [path.join(parent, 'untracked')] });
  });

  it('rebuilds every folder when one turn of the loop delivers a burst the queue may have overflowed with, and walks meanwhile', async () => {
    index.dispose();
    watcher = new TestWatcher(8);
    index = new ScanIndex(watcher, { burstPauseMs: 20 });
    await ready();
    // The rebuild's listings wait, so the lookup below meets it under way.
    let open = (): void => undefined;
    watcher.gate = new Promise((resolve) => (open = resolve));
    for (let file = 0; file < 20; file += 1) {
      write(path.join(root, `f${file}.txt`), 'x');
    }
    write(path.join(root, '.env'));
    const during = await index.lookup([root]);
    assert.deepEqual(during.unindexed, [root]);
    assert.equal(index.status()[0].reason, 'the watcher may have dropped events');
    open();
    await index.settled();
    assert.deepEqual(await indexed(), [path.join(root, '.env')]);
  });

  it('walks a folder whose watch cannot be added (no inotify watches left)', async () => {
    write(path.join(root, 'big', '.env'));
    watcher.refuse = path.join(root, 'big');
    await ready();
    assert.deepEqual(index.status().map((each) => each.state), ['failed']);
    assert.match(index.status()[0].reason ?? '', /ENOSPC/);
    assert.deepEqual((await index.lookup([root])).unindexed, [root]);
  });

  it('walks a folder on a network file system (a change made elsewhere raises no event)', async () => {
    watcher.remote = root;
    await ready();
    assert.match(index.status()[0].reason ?? '', /not a local file system/);
    assert.deepEqual((await index.lookup([root])).unindexed, [root]);
  });

  it('walks a folder where a network file system is mounted inside it', async () => {
    // The remote folder sits on another device than its parent, as a mount point does.
    const inside = path.join(root, 'mnt');
    fs.mkdirSync(inside);
    watcher.remote = inside;
    const realEntry = watcher.entry.bind(watcher);
    watcher.entry = (file, follow) => {
      const entry = realEntry(file, follow);
      return entry && file === inside ? { ...entry, device: entry.device + 1 } : entry;
    };
    await ready();
    assert.match(index.status()[0].reason ?? '', /mnt is not on a local file system/);
    assert.deepEqual((await index.lookup([root])).unindexed, [root]);
  });

  it('walks a folder with more subfolders than its share of watches', async () => {
    index.dispose();
    index = new ScanIndex(watcher, { maxWatches: 3 });
    for (const name of ['a', 'b', 'c', 'd']) fs.mkdirSync(path.join(root, name));
    await ready();
    assert.deepEqual((await index.lookup([root])).unindexed, [root]);
  });

  it('rebuilds a folder renamed away and replaced by another of the same name', async () => {
    write(path.join(root, 'old.env'));
    await ready();
    fs.renameSync(root, path.join(parent, 'previous'));
    write(path.join(root, '.env'));
    assert.deepEqual((await index.lookup([root])).unindexed, [root]);
    await index.settled();
    assert.deepEqual(await indexed(), [path.join(root, '.env')]);
  });

  it('stops watching a folder no longer tracked (removed from the workspace)', async () => {
    await ready();
    index.track([], true);
    assert.deepEqual(index.status(), []);
    assert.deepEqual((await index.lookup([root])).unindexed, [root]);
  });
});

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/scanIndex ScanGlobs', () => {
  const globs = new ScanGlobs();
  it('selects the last matching glob, as ripgrep\'s overrides do', () => {
    assert.equal(globs.selectsFile('a/.git/HEAD'), true);
    assert.equal(globs.entersFolder('a/.git/objects'), false);
    assert.equal(globs.entersFolder('x.git/modules/m/refs'), false);
    assert.equal(globs.entersFolder('src'), true);
  });
});

/** Keeps the type of the port honest: a watcher that cannot watch at all leaves every folder to the walk. */
describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/scanIndex without watches', () => {
  const none: DirectoryWatcher = {
    queueLimit: undefined,
    watch: () => {
      throw new Error('fs.watch is not available');
    },
    flush: async () => undefined,
    entry: () => ({ kind: 'directory', inode: 1, device: 1 }),
    reportsEveryChange: () => true,
    list: async () => [],
  };
  it('fails the folder and walks it', async () => {
    const index = new ScanIndex(none);
    index.track(['/nowhere']);
    await index.settled();
    assert.deepEqual(await index.lookup(['/nowhere']), { files: [], unindexed: ['/nowhere'] });
  });
});
