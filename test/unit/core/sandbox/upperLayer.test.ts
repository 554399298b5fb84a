import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyMerge, lowerFactsOf, MERGE_TEMPORARY_PREFIX, MergeStopped, readUpperLayer } from '../../../../src/core/sandbox/node/upperLayer';
import { openWorkFolder } from '../../../../src/core/sandbox/node/overlayLaunch';
import { opaqueFolders, planMerge, type MergePlan } from '../../../../src/core/sandbox/staging';
import { describeOnlyOn } from '../../support/platforms';
import { requireProgram } from '../../support/programs';

/** What a folder holds, entry by entry: kind, mode, bytes or link target, and which files are one file (hard links). */
function manifest(root: string): string[] {
  const lines: string[] = [];
  const inodes = new Map<number, string[]>();
  const walk = (relative: string): void => {
    for (const name of fs.readdirSync(path.join(root, relative)).sort()) {
      const child = relative === '' ? name : `${relative}/${name}`;
      const full = path.join(root, child);
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) {
        lines.push(`l ${child} -> ${fs.readlinkSync(full)}`);
      } else if (stat.isDirectory()) {
        lines.push(`d ${(stat.mode & 0o7777).toString(8)} ${child}`);
        walk(child);
      } else {
        lines.push(`f ${(stat.mode & 0o7777).toString(8)} ${child} ${JSON.stringify(fs.readFileSync(full, 'utf8'))}`);
        if (stat.nlink > 1) inodes.set(stat.ino, [...(inodes.get(stat.ino) ?? []), child]);
      }
    }
  };
  walk('');
  return [...lines, ...[...inodes.values()].map((group) => `= ${group.sort().join(' ')}`).sort()];
}

/**
 * Runs `script` in `folder` as seen through an overlay (the folder as its lower layer) in a private
 * user and mount namespace, as a staged command runs; then copies the merged view to `seen`.
 * Returns the upper layer.
 */
function runOverlaid(base: string, folder: string, script: string): { upper: string; seen: string } {
  const upper = path.join(base, 'upper');
  const work = path.join(base, 'work');
  const merged = path.join(base, 'merged');
  const seen = path.join(base, 'seen');
  for (const dir of [upper, work, merged]) fs.mkdirSync(dir);
  const outer = [
    `mount -t overlay overlay -o "lowerdir=$LOWER,upperdir=$UPPER,workdir=$WORK,userxattr" "$MERGED"`,
    `cd "$MERGED"`,
    `(${script})`,
    `cd /`,
    `cp -a "$MERGED/." "$SEEN"`,
  ].join(' && ');
  execFileSync(requireProgram('unshare'), ['--user', '--map-root-user', '--mount', 'sh', '-c', outer], {
    env: { PATH: process.env.PATH, LOWER: folder, UPPER: upper, WORK: work, MERGED: merged, SEEN: seen },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { upper, seen };
}

/** Reads the upper layer, finds its opaque folders from the two views, and plans the merge. */
async function plan(folder: string, upper: string, seen: string): Promise<MergePlan> {
  const listing = (root: string) => (relative: string) => {
    try {
      return fs.readdirSync(path.join(root, relative));
    } catch {
      return undefined;
    }
  };
  const plain = await readUpperLayer(upper);
  const opaque = opaqueFolders(plain, listing(folder), (relative) => listing(seen)(relative) ?? []);
  const entries = await readUpperLayer(upper, opaque);
  return planMerge(entries, await lowerFactsOf(folder, entries, Infinity));
}

/** Plans and merges; returns the plan. */
async function merge(folder: string, upper: string, seen: string): Promise<MergePlan> {
  const planned = await plan(folder, upper, seen);
  await applyMerge(planned, upper, folder);
  return planned;
}

describeOnlyOn('linux', 'overlayfs in a user namespace')('sandbox/node/upperLayer: a command\'s changes in a real overlay, merged into its folder', function () {
  this.timeout(30_000);
  let base: string;
  let folder: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-upper-'));
    folder = path.join(base, 'folder');
    fs.mkdirSync(path.join(folder, 'keep'), { recursive: true });
    fs.mkdirSync(path.join(folder, 'gone'));
    fs.mkdirSync(path.join(folder, 'remade'));
    fs.writeFileSync(path.join(folder, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'b\n');
    fs.writeFileSync(path.join(folder, 'keep/x.txt'), 'x\n');
    fs.writeFileSync(path.join(folder, 'gone/y.txt'), 'y\n');
    fs.writeFileSync(path.join(folder, 'remade/old.txt'), 'old\n');
    fs.writeFileSync(path.join(folder, 'script.sh'), '#!/bin/sh\n', { mode: 0o644 });
    fs.symlinkSync('a.txt', path.join(folder, 'link'));
  });
  afterEach(async () => {
    await openWorkFolder(path.join(base, 'work'));
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('leaves the folder exactly as the command saw it: changed, new, deleted, renamed, a folder made again, modes, symlinks, hard links', async () => {
    const { upper, seen } = runOverlaid(
      base,
      folder,
      [
        'echo changed > a.txt',
        'rm b.txt',
        'mkdir -p deep/er && echo d > deep/er/f.txt',
        'rm -rf gone',
        'rm -rf remade && mkdir remade && echo fresh > remade/new.txt',
        'chmod 755 script.sh',
        'rm link && ln -s b.txt link',
        'ln -s deep/er newlink',
        'mv keep/x.txt keep/z.txt',
        'echo n > new.txt && ln new.txt hard.txt',
      ].join(' && '),
    );
    const entries = await readUpperLayer(upper);
    assert.deepEqual(entries.filter((entry) => entry.kind === 'whiteout').map((entry) => entry.path).sort(), ['b.txt', 'gone', 'keep/x.txt']);
    const plan = await merge(folder, upper, seen);
    assert.deepEqual(manifest(folder), manifest(seen));
    assert.deepEqual(
      plan.changes.map((change) => `${change.status} ${change.path}`).sort(),
      ['A deep', 'A deep/er', 'A deep/er/f.txt', 'A hard.txt', 'A keep/z.txt', 'A new.txt', 'A newlink', 'A remade/new.txt', 'D b.txt', 'D gone', 'D keep/x.txt', 'M a.txt', 'M link', 'M remade', 'M script.sh'],
    );
    assert.ok(!plan.changes.some((change) => change.held));
    assert.deepEqual(fs.readdirSync(folder).filter((name) => name.startsWith(MERGE_TEMPORARY_PREFIX)), []);
  });

  it('holds a new repository with a planted fsmonitor and nested execution config, and merges the rest', async () => {
    const git = requireProgram('git');
    const { upper, seen } = runOverlaid(
      base,
      folder,
      [
        `"${git}" init -q nested`,
        `"${git}" -C nested config core.fsmonitor "touch ${base}/pwned"`,
        'echo code > nested/main.js',
        'mkdir -p pkg/.vscode && echo {} > pkg/.vscode/tasks.json',
        'echo ok > pkg/index.js',
      ].join(' && '),
    );
    const plan = await merge(folder, upper, seen);
    assert.deepEqual(plan.changes.filter((change) => change.held).map((change) => change.path).sort(), ['nested/.git', 'pkg/.vscode']);
    assert.equal(fs.readFileSync(path.join(folder, 'nested/main.js'), 'utf8'), 'code\n');
    assert.equal(fs.readFileSync(path.join(folder, 'pkg/index.js'), 'utf8'), 'ok\n');
    assert.ok(!fs.existsSync(path.join(folder, 'nested/.git')), 'the new repository is not merged');
    assert.ok(!fs.existsSync(path.join(folder, 'pkg/.vscode')), 'the nested execution config is not merged');
    // As VS Code's git extension would, outside any sandbox: nothing of the held repository runs.
    spawnSync(git, ['status', '--porcelain'], { cwd: path.join(folder, 'nested'), env: { ...process.env, GIT_CEILING_DIRECTORIES: folder }, stdio: 'ignore' });
    assert.ok(!fs.existsSync(path.join(base, 'pwned')));
  });

  it('merges an install-like churn exactly: over a thousand new files, bin links, executables, one package replaced whole', async () => {
    // What `npm install` does to a folder, in the shape that matters to a merge: an existing package
    // removed and made again (an opaque folder), 1,320 new files in 60 packages, each with an
    // executable and a symbolic link to it from node_modules/.bin, and a lock file rewritten.
    fs.mkdirSync(path.join(folder, 'node_modules/old-pkg/lib'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'node_modules/old-pkg/lib/stale.js'), 'stale\n');
    fs.writeFileSync(path.join(folder, 'package-lock.json'), '{"v":1}\n');
    const install = [
      'rm -rf node_modules/old-pkg && mkdir -p node_modules/old-pkg && echo v2 > node_modules/old-pkg/index.js',
      'mkdir -p node_modules/.bin',
      'i=0; while [ $i -lt 60 ]; do d=node_modules/pkg$i; mkdir -p $d/lib $d/bin; for j in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do echo "m$i.$j" > $d/lib/m$j.js; done; echo "{\\"name\\":\\"pkg$i\\"}" > $d/package.json; printf "#!/bin/sh\\necho $i\\n" > $d/bin/cli; ln -s ../pkg$i/bin/cli node_modules/.bin/pkg$i; i=$((i + 1)); done',
      'chmod 755 node_modules/pkg*/bin/cli',
      'echo \'{"v":2}\' > package-lock.json',
    ].join(' && ');
    const { upper, seen } = runOverlaid(base, folder, install);
    const planned = await merge(folder, upper, seen);
    assert.deepEqual(manifest(folder), manifest(seen));
    assert.equal(fs.readdirSync(path.join(folder, 'node_modules')).filter((name) => name.startsWith('pkg')).length, 60);
    assert.equal(fs.statSync(path.join(folder, 'node_modules/pkg7/bin/cli')).mode & 0o777, 0o755);
    assert.equal(fs.readlinkSync(path.join(folder, 'node_modules/.bin/pkg7')), '../pkg7/bin/cli');
    assert.ok(!fs.existsSync(path.join(folder, 'node_modules/old-pkg/lib')), 'the replaced package keeps nothing of its old self');
    assert.ok(planned.changes.length > 1_400, `${planned.changes.length} changes`);
    assert.ok(!planned.changes.some((change) => change.held));
    assert.deepEqual(fs.readdirSync(path.join(folder, 'node_modules')).filter((name) => name.startsWith(MERGE_TEMPORARY_PREFIX)), []);
  });

  it('stops, writing nothing outside, when a folder on the way became a symbolic link before the merge', async () => {
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    const { upper, seen } = runOverlaid(base, folder, 'echo a2 > a.txt && echo new > keep/planted.txt');
    const planned = await plan(folder, upper, seen);
    // Another program (a background command) swaps keep/ for a link to a folder outside after the plan.
    fs.rmSync(path.join(folder, 'keep'), { recursive: true });
    fs.symlinkSync(outside, path.join(folder, 'keep'));
    await assert.rejects(applyMerge(planned, upper, folder), (error: unknown) => {
      assert.ok(error instanceof MergeStopped);
      assert.match(error.message, /^The merge stopped at keep\/planted\.txt \(write\): keep is reached through a symbolic link now\. 1 earlier step\(s\) were done/);
      assert.deepEqual(error.done.map((step) => step.path), ['a.txt']);
      return true;
    });
    assert.deepEqual(fs.readdirSync(outside), []);
  });
});
