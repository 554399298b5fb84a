import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StagedMerge } from '../../../../src/core/ports/process';
import { describeKept, discardKept, mergeKept, NOT_MERGED_COMMAND, NOT_MERGED_KILLED, readManifest, recoverKeptRuns, RUN_MANIFEST } from '../../../../src/core/sandbox/node/keptRuns';
import { OverlayStaging } from '../../../../src/core/sandbox/node/stagedRuns';
import { MergeStopped } from '../../../../src/core/sandbox/node/upperLayer';
import { describeOnlyOn } from '../../support/platforms';
import { requireProgram } from '../../support/programs';
import { until } from '../../../support/until';

const CHILD = path.resolve(__dirname, '../../support/killedMergeChild.js');

/** An entry the command "wrote" in its upper layer: text for a file, `{ link }` for a symlink, `{ dir }` for a folder. */
type Written = string | { readonly link: string } | { readonly dir: true } | { readonly text: string; readonly mode: number };

function put(root: string, entries: Record<string, Written>): void {
  for (const [relative, what] of Object.entries(entries)) {
    const full = path.join(root, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    if (typeof what === 'string') {
      fs.writeFileSync(full, what);
    } else if ('link' in what) {
      fs.symlinkSync(what.link, full);
    } else if ('dir' in what) {
      fs.mkdirSync(full, { recursive: true });
    } else {
      fs.writeFileSync(full, what.text);
      fs.chmodSync(full, what.mode);
    }
  }
}

/** Files of a folder as `path: text` (symlinks as `-> target`), the temporaries of a merge included. */
function listing(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (relative: string): void => {
    for (const name of fs.readdirSync(path.join(root, relative)).sort()) {
      const child = relative === '' ? name : `${relative}/${name}`;
      const stat = fs.lstatSync(path.join(root, child));
      if (stat.isSymbolicLink()) out[child] = `-> ${fs.readlinkSync(path.join(root, child))}`;
      else if (stat.isDirectory()) walk(child);
      else out[child] = fs.readFileSync(path.join(root, child), 'utf8');
    }
  };
  walk('');
  return out;
}

describeOnlyOn('linux', "util-linux's unshare (a staged run's layers)")('sandbox/node/keptRuns: held changes merged or discarded from their review, and recovered after a crash', function () {
  let base: string;
  let root: string;
  let folder: string;

  beforeEach(() => {
    requireProgram('unshare');
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-kept-')));
    root = path.join(base, 'staged');
    folder = path.join(base, 'ws');
    fs.mkdirSync(folder);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  /** A run over the folder whose command wrote `upper` (put there by hand, as overlayfs would), merged as the host merges it. */
  async function stagedRun(upper: Record<string, Written>, meanwhile: () => void = () => undefined): Promise<{ merge: StagedMerge; run: string }> {
    // The folder's own entries must be older than the run's start (their ctime is what tells a conflict).
    await new Promise((resolve) => setTimeout(resolve, 20));
    const staging = new OverlayStaging(root);
    const run = await staging.prepare([folder], []);
    const dir = path.join(root, fs.readdirSync(root)[0]);
    put(path.join(dir, 'upper0'), upper);
    // The kernel's file times are coarse (a few ms): the person's change comes visibly after the start.
    await new Promise((resolve) => setTimeout(resolve, 20));
    meanwhile();
    const merge = await run.merge(undefined);
    await run.dispose();
    // The launch the run's end starts ahead for the next command is not this test's: ended, its folder gone.
    staging.dispose();
    await staging.aheadReady();
    return { merge, run: dir };
  }

  function kept(merge: StagedMerge, relative: string): string {
    const change = merge.changes.find((candidate) => candidate.path === relative);
    assert.ok(change?.held && change.keptAt, `${relative} held in ${JSON.stringify(merge.changes)}`);
    return change.keptAt;
  }

  it('merges one held file (execution config) with its mode, and removes the run once nothing is left', async () => {
    put(folder, { '.vscode': { dir: true } });
    const { merge, run } = await stagedRun({ '.vscode/tasks.json': { text: '{"tasks":[]}', mode: 0o640 }, 'ok.txt': 'ok' });
    assert.equal(fs.existsSync(path.join(folder, '.vscode/tasks.json')), false);
    const facts = await describeKept(root, kept(merge, '.vscode/tasks.json'));
    assert.deepEqual([facts.kind, facts.status, facts.changedInFolder, facts.folder], ['file', 'A', false, folder]);
    assert.match(facts.why, /execution config/);
    const outcome = await mergeKept(root, kept(merge, '.vscode/tasks.json'));
    assert.deepEqual(outcome, { steps: 1, skipped: [], left: 0 });
    assert.equal(fs.readFileSync(path.join(folder, '.vscode/tasks.json'), 'utf8'), '{"tasks":[]}');
    assert.equal(fs.statSync(path.join(folder, '.vscode/tasks.json')).mode & 0o777, 0o640);
    assert.equal(fs.existsSync(run), false, 'the run folder is removed');
  });

  it('merges a held symbolic link as a link, never following it', async () => {
    const outside = path.join(base, 'outside.txt');
    fs.writeFileSync(outside, 'untouched');
    const { merge } = await stagedRun({ '.gitattributes': { link: outside } });
    await mergeKept(root, kept(merge, '.gitattributes'));
    assert.equal(fs.readlinkSync(path.join(folder, '.gitattributes')), outside);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'untouched');
  });

  it('merges a held folder (a new repository) whole, and leaves the other held changes kept', async () => {
    const { merge, run } = await stagedRun({ 'pkg/.git/config': '[core]\n', 'pkg/.git/objects/ab': 'obj', 'pkg/.git/HEAD': 'ref: refs/heads/main\n', 'pkg/main.c': 'code', '.vscode/tasks.json': '{}' });
    assert.equal(fs.existsSync(path.join(folder, 'pkg/.git')), false);
    const facts = await describeKept(root, kept(merge, 'pkg/.git'));
    assert.deepEqual([facts.kind, facts.files], ['folder', 3]);
    const outcome = await mergeKept(root, kept(merge, 'pkg/.git'));
    assert.equal(outcome.left, 1);
    assert.deepEqual(listing(path.join(folder, 'pkg')), { '.git/HEAD': 'ref: refs/heads/main\n', '.git/config': '[core]\n', '.git/objects/ab': 'obj', 'main.c': 'code' });
    assert.deepEqual((await readManifest(run))?.layers[0].held.map((entry) => entry.path), ['.vscode']);
    await assert.rejects(mergeKept(root, kept(merge, 'pkg/.git')), /not a change kept for review.*merged or discarded already/);
  });

  it('holds a file the person changed while the command ran, says so, and replaces it only when merged', async () => {
    put(folder, { 'notes.txt': 'original' });
    const { merge } = await stagedRun({ 'notes.txt': 'the command' }, () => fs.writeFileSync(path.join(folder, 'notes.txt'), 'the person'));
    assert.equal(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8'), 'the person');
    const facts = await describeKept(root, kept(merge, 'notes.txt'));
    assert.deepEqual([facts.status, facts.changedInFolder], ['M', true]);
    assert.match(facts.why, /changed in the folder while the command ran/);
    await mergeKept(root, kept(merge, 'notes.txt'));
    assert.equal(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8'), 'the command');
  });

  it('refuses a merge through a symbolic link planted on the way since, writes nothing outside and keeps the change', async () => {
    put(folder, { 'sub/.vscode': { dir: true } });
    const { merge } = await stagedRun({ 'sub/.vscode/tasks.json': '{"planted":true}' });
    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(path.join(elsewhere, '.vscode'), { recursive: true });
    fs.rmSync(path.join(folder, 'sub'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(folder, 'sub'));
    await assert.rejects(mergeKept(root, kept(merge, 'sub/.vscode/tasks.json')), (error: Error) => error instanceof MergeStopped && /symbolic link/.test(error.message));
    assert.deepEqual(fs.readdirSync(path.join(elsewhere, '.vscode')), []);
    assert.equal((await describeKept(root, kept(merge, 'sub/.vscode/tasks.json'))).path, 'sub/.vscode/tasks.json', 'still kept');
  });

  it('discards a held change without touching the folder, and refuses a path that is not a held change', async () => {
    const { merge, run } = await stagedRun({ 'app.code-workspace': '{"folders":[]}', 'merged.txt': 'm' });
    await assert.rejects(mergeKept(root, path.join(run, 'upper0', 'merged.txt')), /not a change kept for review/);
    await assert.rejects(mergeKept(root, path.join(run, 'upper0', '..', RUN_MANIFEST)), /not a change kept for review/);
    assert.deepEqual(await discardKept(root, kept(merge, 'app.code-workspace')), { steps: 0, skipped: [], left: 0 });
    assert.equal(fs.existsSync(path.join(folder, 'app.code-workspace')), false);
    assert.equal(fs.existsSync(run), false);
  });

  it('keeps what a merge that stopped did not merge, listed beside what it held, to merge from its review', async () => {
    put(folder, { 'ro': { dir: true } });
    // A folder nothing can be written into, root included (chattr +i), so the merge stops there.
    const root0 = process.getuid?.() === 0;
    const lock = (on: boolean): void => {
      if (root0) execFileSync(requireProgram('chattr'), [on ? '+i' : '-i', path.join(folder, 'ro')]);
      else fs.chmodSync(path.join(folder, 'ro'), on ? 0o555 : 0o755);
    };
    lock(true);
    let merge: StagedMerge;
    try {
      ({ merge } = await stagedRun({ 'ro/a.txt': 'a', 'ro/b.txt': 'b', 'z.txt': 'z', '.vscode/tasks.json': '{}' }));
    } finally {
      lock(false);
    }
    assert.match(merge.stopped ?? '', /ro\/a\.txt/);
    assert.equal(fs.readFileSync(path.join(folder, 'z.txt'), 'utf8'), 'z');
    const held = merge.changes.filter((change) => change.held).map((change) => `${change.path}: ${/^not merged: the merge stopped/.test(change.held ?? '') ? 'the rest' : /execution config/.test(change.held ?? '') ? 'execution config' : change.held}`).sort();
    assert.deepEqual(held, ['.vscode: execution config', 'ro/a.txt: the rest', 'ro/b.txt: the rest']);
    await mergeKept(root, kept(merge, 'ro/a.txt'));
    await mergeKept(root, kept(merge, 'ro/b.txt'));
    assert.deepEqual(listing(path.join(folder, 'ro')), { 'a.txt': 'a', 'b.txt': 'b' });
  });

  it('after a merge killed in its middle: every file is old or new, and recovery removes the temporaries and lists the rest and the held, which then merge', async () => {
    const before: Record<string, string> = {};
    const after: Record<string, string> = {};
    for (let i = 0; i < 8; i++) {
      before[`dir/f${i}.txt`] = `old ${i}`;
      after[`dir/f${i}.txt`] = `new ${i}`;
      after[`added/n${i}.txt`] = `added ${i}`;
    }
    put(folder, before);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const upper = { ...after, '.vscode/tasks.json': '{}' };
    const child = spawn(process.execPath, [CHILD, root, folder, JSON.stringify(upper), '5'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    assert.equal(signal, 'SIGKILL', output);

    const seen = listing(folder);
    const temporaries = Object.keys(seen).filter((name) => path.basename(name).startsWith('.wat-merge-'));
    assert.equal(temporaries.length, 1, JSON.stringify(seen));
    for (const [name, text] of Object.entries(seen)) {
      if (!temporaries.includes(name)) assert.ok(text === before[name] || text === after[name], `${name} is old or new: ${text}`);
    }
    const merged = Object.keys(after).filter((name) => seen[name] === after[name]);
    assert.equal(merged.length, 4, 'four entries renamed before the kill');

    const { runs, removed } = await recoverKeptRuns(root);
    assert.deepEqual(removed, []);
    assert.equal(runs.length, 1);
    const [run] = runs;
    assert.equal(run.interrupted, 'merge');
    assert.equal(run.removedTemporaries, 1);
    assert.equal(Object.keys(listing(folder)).some((name) => path.basename(name).startsWith('.wat-merge-')), false);
    assert.deepEqual(fs.readdirSync(run.run).sort(), [RUN_MANIFEST, 'upper0'], 'only the upper layer and the manifest are kept');
    const rest = run.changes.filter((change) => change.why === NOT_MERGED_KILLED).map((change) => change.path);
    const notYet = Object.keys(after).filter((name) => !merged.includes(name));
    // A new folder stands for what is below it.
    const expected = [...new Set(notYet.map((name) => (name.startsWith('added/') && !fs.existsSync(path.join(folder, 'added')) ? 'added' : name)))].sort();
    assert.deepEqual(rest.sort(), expected);
    assert.ok(run.changes.some((change) => change.path === '.vscode' && /execution config/.test(change.why)), JSON.stringify(run.changes));

    for (const change of run.changes) await mergeKept(root, change.keptAt);
    assert.deepEqual(listing(folder), { ...after, '.vscode/tasks.json': '{}' });
    assert.equal(fs.existsSync(run.run), false);
  });

  it("recovers a run whose window closed while its command ran (its changes listed, held ones as held), prunes old and manifest-less runs, and leaves a live window's runs alone", async () => {
    put(folder, { 'keep.txt': 'old' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new OverlayStaging(root).prepare([folder], []);
    const [name] = fs.readdirSync(root);
    // Its first manifest is written while the command starts.
    await until(() => fs.existsSync(path.join(root, name, RUN_MANIFEST)), 'the run\'s manifest');
    put(path.join(root, name, 'upper0'), { 'keep.txt': 'new', 'pkg/a.txt': 'a', 'pkg/.vscode/settings.json': '{}' });
    // A live window's runs, this one's included, are not touched.
    assert.deepEqual(await recoverKeptRuns(root), { runs: [], removed: [] });
    // While its command, outliving its window, still runs over the layers, the run is left alone.
    const mount = `mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3,userxattr" "$1" && echo mounted && exec sleep 60`;
    const command = spawn(requireProgram('unshare'), ['--user', '--map-root-user', '--mount', 'sh', '-c', mount, 'sh', folder, path.join(root, name, 'upper0'), path.join(root, name, 'work0')], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        command.stdout.once('data', () => resolve());
        command.once('exit', (code) => reject(new Error(`the overlay was not mounted (${code})`)));
      });
      assert.deepEqual(await recoverKeptRuns(root, { isAlive: () => false }), { runs: [], removed: [] });
    } finally {
      command.kill('SIGKILL');
      if (command.exitCode === null && command.signalCode === null) await new Promise((resolve) => command.once('exit', resolve));
    }
    fs.mkdirSync(path.join(root, '999999999-1-abcd'));

    const { runs, removed } = await recoverKeptRuns(root, { isAlive: () => false });
    assert.deepEqual(removed, [path.join(root, '999999999-1-abcd')], 'a run without a manifest is removed');
    assert.equal(runs.length, 1);
    assert.equal(runs[0].interrupted, 'command');
    const byPath = Object.fromEntries(runs[0].changes.map((change) => [change.path, change.why]));
    assert.deepEqual(Object.keys(byPath).sort(), ['keep.txt', 'pkg', 'pkg/.vscode']);
    assert.equal(byPath['keep.txt'], NOT_MERGED_COMMAND);
    assert.match(byPath['pkg/.vscode'], /execution config/);
    assert.equal(fs.readFileSync(path.join(folder, 'keep.txt'), 'utf8'), 'old', 'nothing merged unasked');

    // The new folder merged from its row leaves the execution config below it held, for its own answer.
    const pkg = runs[0].changes.find((change) => change.path === 'pkg');
    assert.deepEqual((await describeKept(root, pkg?.keptAt ?? '')).nested, ['pkg/.vscode']);
    await mergeKept(root, pkg?.keptAt ?? '');
    assert.deepEqual(listing(path.join(folder, 'pkg')), { 'a.txt': 'a' });
    // Listed again at the next start, the rest the same; past the age limit it is removed.
    assert.deepEqual((await recoverKeptRuns(root, { isAlive: () => false })).runs[0].changes.map((change) => change.path).sort(), ['keep.txt', 'pkg/.vscode']);
    const pruned = await recoverKeptRuns(root, { isAlive: () => false, now: Date.now() + 15 * 24 * 60 * 60 * 1000 });
    assert.deepEqual([pruned.runs.length, fs.readdirSync(root).length], [0, 0]);
  });
});
