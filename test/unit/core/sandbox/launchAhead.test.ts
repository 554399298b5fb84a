// The staged launch started ahead (stagedRuns.ts OverlayStaging): one waits per set of folders,
// replaced after each run, and it holds nothing: it ends with the host that started it, and one made
// for other folders or other mounts of the machine is discarded, never used.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OverlayStaging } from '../../../../src/core/sandbox/node/stagedRuns';
import { alive } from '../../../support/procfs';
import { childProcesses } from '../../support/leftoverProcesses';
import { describeOnlyOn } from '../../support/platforms';
import { requireProgram } from '../../support/programs';

/** The launches started ahead among a process's children (their shell waits for its line, then makes the mounts private). */
function aheadOf(pid = process.pid): number[] {
  return childProcesses(pid).filter((child) => child.commandLine.includes('mount --make-rprivate /')).map((child) => child.pid);
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

  beforeEach(() => {
    requireProgram('unshare');
    requireProgram('bash');
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-ahead-'));
    for (const folder of ['one', 'two']) fs.mkdirSync(path.join(base, folder));
    staging = new OverlayStaging(path.join(base, 'staged'));
  });
  afterEach(async () => {
    const left = aheadOf();
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
    const [waiting] = aheadOf();
    assert.ok(waiting);
    const second = await staging.prepare(one, []);
    assert.ok(second.ahead?.launch.waiting());
    // Not launched by it (the plain launch ran instead): discarded at dispose, and the next one started.
    await second.dispose();
    await gone(waiting);
    assert.equal(await staging.aheadReady(), true);
    const [next] = aheadOf();
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
    const [waiting] = aheadOf();
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
      const staging = new OverlayStaging(${JSON.stringify(path.join(base, 'staged'))});
      (async () => {
        await (await staging.prepare([${JSON.stringify(path.join(base, 'one'))}], [])).dispose();
        console.log(await staging.aheadReady());
        setInterval(() => undefined, 1000);
      })();`;
    const host = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const said = await new Promise<string>((resolve) => host.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
    assert.equal(said, 'true');
    const [waiting] = aheadOf(host.pid);
    assert.ok(waiting);
    host.kill('SIGKILL');
    await new Promise((resolve) => host.once('exit', resolve));
    await gone(waiting);
  });
});
