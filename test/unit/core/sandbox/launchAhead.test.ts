// The staged launch started ahead (stagedRuns.ts OverlayStaging): one waits per set of folders,
// replaced after each run, and it holds nothing: it ends with the host that started it, and one made
// for other folders or other mounts of the machine is discarded, never used.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readManifest, RUN_MANIFEST } from '../../../../src/core/sandbox/node/keptRuns';
import { OverlayStaging } from '../../../../src/core/sandbox/node/stagedRuns';
import { alive } from '../../../support/procfs';
import { launchesAhead, waitingAhead as waitingUnder } from '../../support/launchesAhead';
import { describeOnlyOn } from '../../support/platforms';
import { requireProgram } from '../../support/programs';
import { until } from '../../../support/until';

function machineMounts(): string {
  return fs.readFileSync('/proc/self/mountinfo', 'utf8');
}

async function gone(pid: number): Promise<void> {
  while (alive(pid)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeOnlyOn('linux', 'overlayfs in a user namespace, bubblewrap')('sandbox/node/stagedRuns: the launch started ahead', function () {
  this.timeout(30_000);
  let base: string;
  let staging: OverlayStaging;
  const stagedRoot = (): string => path.join(base, 'staged');
  /** The pid of the one launch started ahead for this test's staging (or for `pid`'s). */
  const waitingAhead = async (root: string, pid = process.pid): Promise<number> => (await waitingUnder(root, pid)).pid;

  beforeEach(() => {
    requireProgram('unshare');
    requireProgram('bash');
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-ahead-'));
    for (const folder of ['one', 'two']) fs.mkdirSync(path.join(base, folder));
    staging = new OverlayStaging(stagedRoot());
  });
  afterEach(async () => {
    const left = launchesAhead(stagedRoot()).map((launch) => launch.pid);
    staging.dispose();
    await Promise.all(left.map(gone));
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('starts one after a run ends, gives it to the next run over the same folders, and discards it for other folders', async () => {
    const one = [path.join(base, 'one')];
    const first = await staging.prepare(one, []);
    assert.equal(first.ahead, undefined);
    await first.dispose();
    assert.equal(await staging.aheadReady(), true);
    const waiting = await waitingAhead(stagedRoot());
    assert.ok(waiting);
    const second = await staging.prepare(one, []);
    assert.ok(second.ahead?.launch.waiting());
    // Not launched by it (the plain launch ran instead): discarded at dispose, and the next one started.
    await second.dispose();
    await gone(waiting);
    assert.equal(await staging.aheadReady(), true);
    const next = await waitingAhead(stagedRoot());
    const other = await staging.prepare([path.join(base, 'two')], []);
    assert.equal(other.ahead, undefined);
    await gone(next);
    await other.dispose();
    await staging.aheadReady();
  });

  it("discards one started before the machine's mounts changed", async function () {
    if (process.getuid?.() !== 0) {
      this.skip();
    }
    const one = [path.join(base, 'one')];
    await (await staging.prepare(one, [])).dispose();
    assert.equal(await staging.aheadReady(), true);
    const waiting = await waitingAhead(stagedRoot());
    const mountPoint = path.join(base, 'mounted');
    fs.mkdirSync(mountPoint);
    assert.equal(spawnSync(requireProgram('mount'), ['-t', 'tmpfs', 'wat-ahead', mountPoint]).status, 0);
    try {
      const run = await staging.prepare(one, []);
      assert.equal(run.ahead, undefined);
      await gone(waiting);
      await run.dispose();
      await staging.aheadReady();
    } finally {
      spawnSync(requireProgram('umount'), [mountPoint]);
    }
  });

  it('ends when the host that started it is killed', async () => {
    // A host of its own: it starts one, says its pid, and waits to be killed.
    const script = `
      const { OverlayStaging } = require(${JSON.stringify(require.resolve('../../../../src/core/sandbox/node/stagedRuns'))});
      const staging = new OverlayStaging(${JSON.stringify(stagedRoot())});
      (async () => {
        await (await staging.prepare([${JSON.stringify(path.join(base, 'one'))}], [])).dispose();
        console.log(await staging.aheadReady());
        setInterval(() => undefined, 1000);
      })();`;
    const host = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const said = await new Promise<string>((resolve) => host.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
    assert.equal(said, 'true');
    const waiting = await waitingAhead(stagedRoot(), host.pid);
    host.kill('SIGKILL');
    await new Promise((resolve) => host.once('exit', resolve));
    await gone(waiting);
  });

  it("leaves a run that wrote nothing as it began (its first manifest, no plan, nothing recorded as merged) and removes it after its dispose has returned, before the next launch ahead", async () => {
    const one = path.join(base, 'one');
    // A mount point of the sandbox's (an empty folder bubblewrap made for a bind) is no change.
    const run = await staging.prepare([one], [path.join(one, '.vscode')]);
    const [name] = fs.readdirSync(path.join(base, 'staged'));
    const dir = path.join(base, 'staged', name);
    fs.mkdirSync(path.join(dir, 'upper0', '.vscode'));
    // Its first manifest is written while the command starts.
    await until(() => fs.existsSync(path.join(dir, RUN_MANIFEST)), "the run's manifest");
    assert.deepEqual(await run.merge(undefined), { changes: [], touched: [{ folder: one, paths: [] }] });
    assert.equal((await readManifest(dir))?.state, 'running', 'no merge began, nothing was recorded after the first manifest');
    await run.dispose();
    // Removed off the command's path: not yet when dispose returns, by the time the next launch ahead waits.
    assert.equal(fs.existsSync(path.join(dir, 'upper0')), true);
    assert.equal(await staging.aheadReady(), true);
    assert.equal(fs.existsSync(dir), false);
    // What is left is the launch ahead's own folder: no manifest, its layers empty.
    const left = fs.readdirSync(path.join(base, 'staged'));
    assert.equal(left.length, 1);
    assert.deepEqual(fs.readdirSync(path.join(base, 'staged', left[0])).sort(), ['lower0', 'upper0', 'work0']);
    assert.deepEqual(fs.readdirSync(path.join(base, 'staged', left[0], 'upper0')), []);
  });

  it('records the plan before a merge begins and what is held after it; a run that merged without holding is removed', async () => {
    const one = path.join(base, 'one');
    const held = await staging.prepare([one], []);
    const heldDir = path.join(base, 'staged', fs.readdirSync(path.join(base, 'staged'))[0]);
    fs.mkdirSync(path.join(heldDir, 'upper0', '.vscode'));
    fs.writeFileSync(path.join(heldDir, 'upper0', '.vscode', 'tasks.json'), '{}');
    const merge = await held.merge(undefined);
    assert.deepEqual(merge.changes.map((change) => [change.path, Boolean(change.held)]), [['.vscode', true]]);
    const manifest = await readManifest(heldDir);
    assert.equal(manifest?.state, 'merged');
    assert.deepEqual(manifest?.layers[0].held.map((entry) => entry.path), ['.vscode']);
    await held.dispose();
    await staging.aheadReady();
    assert.deepEqual(fs.readdirSync(heldDir).sort(), ['run.json', 'upper0'], 'the held change and its manifest are kept');

    const merged = await staging.prepare([one], []);
    // It runs over the layers of the launch started ahead (not launched here: discarded at its dispose).
    const [mergedName] = fs.readdirSync(path.join(base, 'staged')).filter((each) => path.join(base, 'staged', each) !== heldDir);
    const mergedDir = path.join(base, 'staged', mergedName);
    fs.writeFileSync(path.join(mergedDir, 'upper0', 'new.txt'), 'new\n');
    const written = await merged.merge(undefined);
    assert.deepEqual(written.touched, [{ folder: one, paths: ['new.txt'] }]);
    assert.equal(fs.readFileSync(path.join(one, 'new.txt'), 'utf8'), 'new\n');
    // Its plan, written before the first step, is what recovery would finish; nothing kept, so no later write.
    assert.equal((await readManifest(mergedDir))?.state, 'merging');
    await merged.dispose();
    await staging.aheadReady();
    assert.equal(fs.existsSync(mergedDir), false);
  });

  it("starts the next one without the tool's word that its result is given (a run that ended otherwise), and at once with it", async () => {
    const one = [path.join(base, 'one')];
    await (await staging.prepare(one, [])).dispose();
    // No resultGiven, no aheadReady: started all the same.
    const first = await waitingAhead(stagedRoot());
    const mounts = machineMounts();
    const taken = await staging.prepare(one, []);
    // If it fails, say which of takeAhead's conditions did not hold.
    assert.ok(taken.ahead?.launch.waiting(), `not taken: the launch ahead (pid ${first}) ${alive(first) ? 'still runs' : 'has ended'}; the machine's mounts ${machineMounts() === mounts ? 'are as they were' : 'changed meanwhile'}`);
    await taken.dispose();
    await gone(first);
    staging.resultGiven();
    assert.equal(await staging.aheadReady(), true);
  });
});
