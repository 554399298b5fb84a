import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ARGS_FD, commandEnded, HOLD_FD, nestedBubblewrapOptions, opaqueFoldersThrough, openWorkFolder, stagedLaunch, stagedLaunchAhead, stagingLayout, type StagedFolder } from '../../../../src/core/sandbox/node/overlayLaunch';
import { applyMerge, lowerFactsOf, readUpperLayer } from '../../../../src/core/sandbox/node/upperLayer';
import { planMerge } from '../../../../src/core/sandbox/staging';
import { describeOnlyOn } from '../../support/platforms';
import { requireProgram } from '../../support/programs';

describeOnlyOn('linux', 'overlayfs in a user namespace, bubblewrap')('sandbox/node/overlayLaunch: a sandboxed command over an overlay of its folder', function () {
  this.timeout(30_000);
  let base: string;
  let folder: string;
  let layer: StagedFolder;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-staged-'));
    folder = path.join(base, 'ws');
    fs.mkdirSync(path.join(folder, '.git'), { recursive: true });
    fs.mkdirSync(path.join(folder, 'remade'));
    fs.writeFileSync(path.join(folder, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(folder, '.git/config'), '[core]\n');
    fs.writeFileSync(path.join(folder, 'remade/old.txt'), 'old\n');
    const staging = path.join(base, 'staging');
    [layer] = stagingLayout(staging, [folder]);
    for (const dir of [layer.lower, layer.upper, layer.work]) fs.mkdirSync(dir, { recursive: true });
  });
  afterEach(async () => {
    await openWorkFolder(layer.work);
    fs.rmSync(base, { recursive: true, force: true });
  });

  /**
   * Runs `script` in bubblewrap (the folder writable, its .git read-only) nested over the overlay;
   * while the namespace holds, reads the upper layer and its opaque folders as the host does.
   */
  async function run(script: string): Promise<{ status: number | null; exit: number; stdout: string; stderr: string; opaque: Set<string>; files: string[]; mounts: string[] }> {
    const { uid, gid } = os.userInfo();
    const bwrap = [requireProgram('bwrap'), ...nestedBubblewrapOptions(uid, gid), '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', folder, folder, '--ro-bind', path.join(folder, '.git'), path.join(folder, '.git'), '--chdir', folder, '--', '/bin/sh', '-c', script];
    const [program, ...args] = stagedLaunch(requireProgram('unshare'), [layer], bwrap);
    const child = spawn(program, args, { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const hold = child.stdio[HOLD_FD] as Duplex;
    const exit = await commandEnded(hold);
    const entries = await readUpperLayer(layer.upper);
    const opaque = await opaqueFoldersThrough(child.pid!, layer, entries);
    // While the namespace holds, the host sees what the command saw.
    const files = fs.readdirSync(path.join(`/proc/${child.pid}/root`, folder)).sort();
    // The namespace's mounts, each as "mount point, type, source and options".
    const mounts = fs.readFileSync(`/proc/${child.pid}/mountinfo`, 'utf8').split('\n').filter(Boolean).map((line) => {
      const [fields, after] = line.split(' - ');
      return `${fields.split(' ')[4]} ${after}`;
    });
    hold.end('\n');
    return { status: await closed, exit, stdout, stderr, opaque, files, mounts };
  }

  it('leaves the folder untouched while the command runs, as the user, with its protected binds; the merge then gives exactly what it saw', async () => {
    const result = await run('echo changed > a.txt && rm -rf remade && mkdir remade && echo n > remade/new.txt && id -u > who.txt && { echo x >> .git/config 2>/dev/null || echo refused > refused.txt; } && cat a.txt');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.exit, 0);
    assert.equal(result.stdout, 'changed\n');
    assert.deepEqual(result.files, ['.git', 'a.txt', 'refused.txt', 'remade', 'who.txt']);
    // Nothing reached the folder itself.
    assert.equal(fs.readFileSync(path.join(folder, 'a.txt'), 'utf8'), 'a\n');
    assert.deepEqual(fs.readdirSync(folder).sort(), ['.git', 'a.txt', 'remade']);
    assert.deepEqual([...result.opaque], ['remade']);
    const entries = await readUpperLayer(layer.upper, result.opaque);
    await applyMerge(planMerge(entries, await lowerFactsOf(folder, entries, Infinity)), layer.upper, folder);
    assert.equal(fs.readFileSync(path.join(folder, 'a.txt'), 'utf8'), 'changed\n');
    assert.deepEqual(fs.readdirSync(path.join(folder, 'remade')), ['new.txt']);
    assert.equal(fs.readFileSync(path.join(folder, 'who.txt'), 'utf8').trim(), String(os.userInfo().uid));
    assert.equal(fs.readFileSync(path.join(folder, 'refused.txt'), 'utf8'), 'refused\n');
    assert.equal(fs.readFileSync(path.join(folder, '.git/config'), 'utf8'), '[core]\n');
  });

  it("returns the command's exit code, and the command cannot write to the hold", async () => {
    const result = await run(`echo partial > b.txt; echo 0 >&${HOLD_FD}; exit 7`);
    assert.equal(result.exit, 7, result.stderr);
    assert.equal(result.status, 7);
    assert.deepEqual([...result.opaque], []);
    assert.deepEqual(fs.readdirSync(layer.upper), ['b.txt']);
    assert.ok(!fs.existsSync(path.join(folder, 'b.txt')));
  });

  it('mounts the overlay volatile and straight over the folder, its own lower layer, with no bind', async () => {
    const result = await run('echo changed > a.txt');
    assert.equal(result.exit, 0, result.stderr);
    const overlays = result.mounts.filter((mount) => mount.startsWith(`${folder} overlay `));
    assert.equal(overlays.length, 1, result.mounts.join('\n'));
    assert.match(overlays[0], new RegExp(`[ ,]lowerdir=${folder},`));
    // Volatile: the namespace's end does not sync the staging folder's whole file system.
    assert.match(overlays[0], /[ ,](fsync=)?volatile(,|$)/);
    assert.ok(!result.mounts.some((mount) => mount.startsWith(`${layer.lower} `)), result.mounts.join('\n'));
    assert.deepEqual(fs.readdirSync(layer.upper), ['a.txt']);
    assert.equal(fs.readFileSync(path.join(folder, 'a.txt'), 'utf8'), 'a\n');
  });

  it("binds a folder whose path overlayfs's options cannot carry at the layout's lower first, and stages it the same", async () => {
    folder = path.join(base, 'w,s');
    fs.mkdirSync(path.join(folder, '.git'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'a.txt'), 'a\n');
    [layer] = stagingLayout(path.join(base, 'staging-odd'), [folder]);
    for (const dir of [layer.lower, layer.upper, layer.work]) fs.mkdirSync(dir, { recursive: true });
    const result = await run('echo changed > a.txt && cat a.txt');
    assert.equal(result.exit, 0, result.stderr);
    assert.equal(result.stdout, 'changed\n');
    assert.ok(result.mounts.some((mount) => mount.startsWith(`${layer.lower} `)), result.mounts.join('\n'));
    assert.ok(result.mounts.some((mount) => mount.startsWith(`${folder} overlay `) && mount.includes(`lowerdir=${layer.lower},`)), result.mounts.join('\n'));
    assert.deepEqual(fs.readdirSync(layer.upper), ['a.txt']);
    assert.equal(fs.readFileSync(path.join(folder, 'a.txt'), 'utf8'), 'a\n');
  });

  it('opens every folder overlayfs left in the work folder with mode 0, so a normal user can remove it', async () => {
    const result = await run('echo n > b.txt');
    assert.equal(result.exit, 0, result.stderr);
    await openWorkFolder(layer.work);
    const closed: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const child = path.join(dir, entry.name);
        if (!entry.isDirectory()) continue;
        if ((fs.lstatSync(child).mode & 0o700) !== 0o700) closed.push(path.relative(layer.work, child));
        walk(child);
      }
    };
    walk(layer.work);
    assert.deepEqual(closed, []);
    assert.ok(fs.existsSync(path.join(layer.work, 'work')));
  });

  it('started ahead, it mounts nothing until the line, then the folder as it is then, and runs the argv written to it', async () => {
    const { uid, gid } = os.userInfo();
    const [program, ...args] = stagedLaunchAhead(requireProgram('unshare'), requireProgram('bash'), [layer]);
    const child = spawn(program, args, { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const hold = child.stdio[HOLD_FD] as Duplex;
    // The namespace is there, waiting, with no overlay yet.
    const namespaceMade = async (): Promise<string> => {
      for (;;) {
        const links = await Promise.all([`/proc/${child.pid}/ns/mnt`, '/proc/self/ns/mnt'].map((link) => fs.promises.readlink(link).catch(() => '')));
        if (links[0] !== '' && links[0] !== links[1]) return fs.readFileSync(`/proc/${child.pid}/mountinfo`, 'utf8');
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    assert.ok(!(await namespaceMade()).includes(' - overlay '));
    fs.writeFileSync(path.join(folder, 'a.txt'), 'edited\n');
    const plan = [requireProgram('bwrap'), ...nestedBubblewrapOptions(uid, gid), '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', folder, folder, '--chdir', folder, '--', '/bin/sh', '-c', `cat a.txt && echo new > b.txt && ls /proc/self/fd && exit 3`];
    (child.stdio as unknown as Duplex[])[ARGS_FD].end(`${plan.join('\0')}\0`);
    hold.write('go\n');
    const exit = await commandEnded(hold);
    hold.end('\n');
    assert.equal(await closed, 3, stderr);
    assert.equal(exit, 3);
    const [seen, ...descriptors] = stdout.trim().split('\n');
    assert.equal(seen, 'edited');
    // Neither the hold nor the argv's descriptor reaches the command.
    assert.ok(!descriptors.includes(String(HOLD_FD)) && !descriptors.includes(String(ARGS_FD)), descriptors.join(' '));
    assert.deepEqual(fs.readdirSync(layer.upper), ['b.txt']);
    assert.ok(!fs.existsSync(path.join(folder, 'b.txt')));
  });

  it('started ahead, it exits having run nothing when the host ends its hold without the line', async () => {
    const [program, ...args] = stagedLaunchAhead(requireProgram('unshare'), requireProgram('bash'), [layer]);
    const child = spawn(program, args, { env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    (child.stdio as unknown as Duplex[])[ARGS_FD].end();
    (child.stdio[HOLD_FD] as Duplex).end();
    assert.notEqual(await closed, 0);
    assert.deepEqual(fs.readdirSync(layer.upper), []);
    assert.deepEqual(fs.readdirSync(layer.work), []);
  });

  it('refuses a staging folder whose path overlayfs options cannot carry', () => {
    assert.throws(() => stagingLayout('/tmp/a,b', [folder]), /comma, colon, backslash or double quote/);
    assert.throws(() => stagingLayout('/tmp/a"b', [folder]), /comma, colon, backslash or double quote/);
  });
});
