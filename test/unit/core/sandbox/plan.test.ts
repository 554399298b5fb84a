import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MachineSandbox } from '../../../../src/core/sandbox/node/machineSandbox';
import { acquireSandboxLease } from '../../../../src/core/sandbox/lease';
import { CROWDED_SECRET_FILES, crowdedSecretFolders } from '../../../../src/core/sandbox/plan';
import { seatbeltProfile } from '../../../../src/core/sandbox/seatbelt';
import { testContext } from '../../support/context';
import { READS, SeatbeltProfile } from '../../support/seatbeltEvaluator';
import { RIPGREP } from '../../support/searchTree';
import { describeOnlyOn } from '../../support/platforms';

/** Runs a line through a lease's launcher as the process runner does: its input (bubblewrap's options) on fd 3. */
function runLaunched(launch: { readonly argv: readonly string[]; readonly input?: string }, line: string, env: NodeJS.ProcessEnv): ReturnType<typeof spawnSync> & { stdout: string; stderr: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-launch-'));
  const inputFile = path.join(folder, 'args');
  fs.writeFileSync(inputFile, launch.input ?? '');
  const fd = fs.openSync(inputFile, 'r');
  try {
    return spawnSync(launch.argv[0], [...launch.argv.slice(1), '/bin/sh', '-c', line], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe', fd] }) as ReturnType<typeof spawnSync> & { stdout: string; stderr: string };
  } finally {
    fs.closeSync(fd);
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/plan and its lease', () => {
  let parent: string;
  let root: string;
  let sandbox: MachineSandbox;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-plan-'));
    root = path.join(parent, 'ws');
    fs.mkdirSync(path.join(root, '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
    fs.writeFileSync(path.join(root, '.env'), 'A=1\n');
    sandbox = new MachineSandbox(RIPGREP);
  });
  afterEach(() => {
    sandbox.dispose();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  const lease = () => acquireSandboxLease(testContext({ root, workspace: { home: path.join(parent, 'home') } }), sandbox, { sandbox: { kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, network: false, cwd: root, env: {} });

  it('binds what exists read-only, binds the empty folder where a protected folder is missing, and hides .env', async () => {
    const first = await lease();
    assert.deepEqual(first.plan.writable, [root]);
    assert.deepEqual(first.plan.readOnly, [path.join(root, '.git', 'config')]);
    assert.deepEqual(first.plan.readOnlyMissing, [path.join(root, '.vscode'), path.join(root, '.git', 'hooks')]);
    assert.ok(first.plan.hiddenFiles.includes(path.join(root, '.env')));
    await first.release();
  });

  it('pins the folders on the way to every protected entry, so none can be renamed away', async () => {
    fs.mkdirSync(path.join(root, 'a', 'b', 'nested', '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, 'a', 'b', 'nested', '.git', 'config'), '[core]\n');
    const only = await lease();
    assert.deepEqual(only.plan.pinned, [path.join(root, '.git'), path.join(root, 'a'), path.join(root, 'a', 'b'), path.join(root, 'a', 'b', 'nested'), path.join(root, 'a', 'b', 'nested', '.git')]);
    await only.release();
  });

  it('treats another command\'s mount point as missing and keeps it until the last command that holds it ends', async () => {
    const vscodeFolder = path.join(root, '.vscode');
    const first = await lease();
    // What bubblewrap does for the first command: it makes the mount point on the disk.
    fs.mkdirSync(vscodeFolder);
    const second = await lease();
    assert.ok(second.plan.readOnlyMissing.includes(vscodeFolder), 'bound from the empty folder, not from a folder about to be removed');
    assert.equal(second.plan.readOnly.includes(vscodeFolder), false);
    await first.release();
    assert.equal(fs.existsSync(vscodeFolder), true, 'still held by the second command');
    await second.release();
    assert.equal(fs.existsSync(vscodeFolder), false);
  });

  it('lets go once however often it is released', async () => {
    const vscodeFolder = path.join(root, '.vscode');
    const first = await lease();
    const second = await lease();
    fs.mkdirSync(vscodeFolder);
    await first.release();
    await first.release();
    assert.equal(fs.existsSync(vscodeFolder), true, 'the second command still holds it');
    await second.release();
    assert.equal(fs.existsSync(vscodeFolder), false);
  });

  it('never removes a protected folder the user made', async () => {
    fs.mkdirSync(path.join(root, '.vscode'));
    const only = await lease();
    assert.ok(only.plan.readOnly.includes(path.join(root, '.vscode')));
    await only.release();
    assert.equal(fs.existsSync(path.join(root, '.vscode')), true);
  });

  it('hides a private folder inside another one once, by the outer folder (bubblewrap cannot bind inside a hidden folder)', async () => {
    const storage = path.join(parent, 'storage');
    const store = path.join(storage, 'window', 'checkpoints');
    fs.mkdirSync(store, { recursive: true });
    const nested = new MachineSandbox(RIPGREP, [storage, store]);
    try {
      const only = await acquireSandboxLease(testContext({ root, workspace: { home: path.join(parent, 'home') } }), nested, { sandbox: { kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, network: false, cwd: root, env: {} });
      assert.deepEqual(only.plan.hiddenDirectories, [storage]);
      await only.release();
    } finally {
      nested.dispose();
    }
  });

  it('names where a hidden entry\'s links lead (Seatbelt matches resolved paths): a linked ~/.aws, ~/.netrc, and ~/.config holding gh', async () => {
    const home = path.join(parent, 'home');
    const dotfiles = path.join(parent, 'dotfiles');
    fs.mkdirSync(path.join(dotfiles, 'aws'), { recursive: true });
    fs.writeFileSync(path.join(dotfiles, 'aws', 'credentials'), 'key\n');
    fs.writeFileSync(path.join(dotfiles, 'netrc'), 'machine x\n');
    fs.mkdirSync(home);
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.symlinkSync(path.join(dotfiles, 'aws'), path.join(home, '.aws'));
    fs.symlinkSync(path.join(dotfiles, 'netrc'), path.join(home, '.netrc'));
    fs.mkdirSync(path.join(dotfiles, 'config', 'gh'), { recursive: true });
    fs.symlinkSync(path.join(dotfiles, 'config'), path.join(home, '.config'));
    const only = await acquireSandboxLease(testContext({ root, workspace: { home } }), sandbox, { sandbox: { kind: 'seatbelt', executable: '/usr/bin/sandbox-exec' }, network: false, cwd: root, env: {} });
    try {
      const real = (p: string): string => fs.realpathSync(p);
      assert.deepEqual([...(only.plan.hiddenTargets ?? [])].sort(), [real(path.join(dotfiles, 'aws')), real(path.join(dotfiles, 'config', 'gh')), real(path.join(dotfiles, 'netrc'))]);
      const profile = new SeatbeltProfile(seatbeltProfile(only.plan));
      assert.ok(profile.refusesAll(READS, path.join(real(dotfiles), 'aws', 'credentials')));
      assert.ok(profile.refusesAll(READS, path.join(real(dotfiles), 'netrc')));
      assert.ok(profile.allowsAll(READS, path.join(real(dotfiles), 'other')));
    } finally {
      await only.release();
    }
  });

    it('empties /run once (also when /var/run is a link to it) and $XDG_RUNTIME_DIR wherever it is', async () => {
    const runtime = path.join(parent, 'runtime');
    fs.mkdirSync(runtime);
    const only = await acquireSandboxLease(testContext({ root, workspace: { home: path.join(parent, 'home') } }), sandbox, { sandbox: { kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, network: false, cwd: root, env: { XDG_RUNTIME_DIR: runtime } });
    const expected = [fs.realpathSync('/run'), ...(fs.realpathSync('/var/run') === fs.realpathSync('/run') ? [] : ['/var/run']), runtime];
    assert.deepEqual(only.plan.emptiedRuntime, expected);
    await only.release();
  });

  it('reports the protected entries that appeared after it was taken', async () => {
    const only = await lease();
    fs.writeFileSync(path.join(root, 'new.code-workspace'), '{}');
    fs.mkdirSync(path.join(root, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(root, 'lib', '.gitattributes'), '* filter=x\n');
    await only.release();
    assert.deepEqual((await only.addedSince()).sort(), [path.join(root, 'lib', '.gitattributes'), path.join(root, 'new.code-workspace')]);
  });
});

// Issue 37, items 2 and 7: whatever a setting or a workspace file says, the home folder, what holds
// it, a system folder and a PATH folder stay read-only; the home folder's execution config stays
// read-only inside a writable folder a user setting names; what a protected link leads to is protected.
describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/plan: what stays read-only whatever names it writable', () => {
  let parent: string;
  let root: string;
  let home: string;
  let sandbox: MachineSandbox;
  beforeEach(() => {
    parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-home-plan-')));
    root = path.join(parent, 'ws');
    home = path.join(parent, 'home');
    fs.mkdirSync(root, { recursive: true });
    fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'git', 'config'), '[user]\n');
    fs.writeFileSync(path.join(home, '.bashrc'), '# bashrc\n');
    sandbox = new MachineSandbox(RIPGREP);
  });
  afterEach(() => {
    sandbox.dispose();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  const lease = (options: { allowedWritePaths?: string[]; folder?: string; PATH?: string } = {}) => {
    const ctx = testContext({ root: options.folder ?? root, settings: { allowedWritePaths: options.allowedWritePaths ?? [] }, workspace: { home } });
    return acquireSandboxLease(ctx, sandbox, { sandbox: { kind: 'bubblewrap', executable: '/usr/bin/bwrap' }, network: false, cwd: options.folder ?? root, env: options.PATH ? { PATH: options.PATH } : {} });
  };

  it('keeps the home folder read-only when allowedWritePaths names it ("~"), and records why', async () => {
    const only = await lease({ allowedWritePaths: [root, '~'] });
    assert.deepEqual(only.plan.writable, [root]);
    assert.deepEqual(only.plan.notWritable?.map((entry) => entry.folder), [home]);
    assert.match(only.plan.notWritable?.[0].why ?? '', /holds your home folder/);
    await only.release();
  });

  it('keeps a workspace folder that is the home folder, or /, read-only', async () => {
    // Read-only is not hidden: the secret files of the home folder opened as a folder are hidden as a writable folder's.
    fs.mkdirSync(path.join(home, 'proj'), { recursive: true });
    fs.writeFileSync(path.join(home, 'proj', '.env'), 'API_TOKEN=x\n');
    const homeFolder = await lease({ folder: home });
    assert.deepEqual(homeFolder.plan.writable, []);
    assert.equal(homeFolder.plan.notWritable?.[0].folder, home);
    assert.ok(homeFolder.plan.hiddenFiles.includes(path.join(home, 'proj', '.env')), homeFolder.plan.hiddenFiles.join(' '));
    await homeFolder.release();
    fs.rmSync(path.join(home, 'proj'), { recursive: true });
    const slash = await lease({ allowedWritePaths: ['/'] });
    assert.deepEqual(slash.plan.writable, []);
    assert.deepEqual(slash.plan.notWritable?.map((entry) => entry.folder), ['/']);
    assert.match(slash.plan.notWritable?.[0].why ?? '', /holds your home folder/);
    await slash.release();
  });

  it('keeps a folder on PATH read-only, and a folder on PATH inside a writable folder, existing or not', async () => {
    const bin = path.join(parent, 'bin');
    fs.mkdirSync(bin);
    const onPath = await lease({ allowedWritePaths: [root, bin], PATH: `${bin}:/usr/bin` });
    assert.deepEqual(onPath.plan.writable, [root]);
    assert.match(onPath.plan.notWritable?.[0].why ?? '', new RegExp(`${bin} is on your PATH`));
    await onPath.release();
    fs.mkdirSync(path.join(root, 'tools', 'bin'), { recursive: true });
    const inside = await lease({ PATH: `${path.join(root, 'tools', 'bin')}:${path.join(root, 'venv', 'bin')}:/usr/bin` });
    assert.deepEqual(inside.plan.writable, [root]);
    assert.ok(inside.plan.readOnly.includes(path.join(root, 'tools', 'bin')), inside.plan.readOnly.join(' '));
    assert.ok(inside.plan.readOnlyMissing.includes(path.join(root, 'venv')), 'the shallowest missing folder on the way, so nothing can be made there');
    await inside.release();
  });

  it('keeps the home folder\'s git config, autostart and systemd user units read-only inside a writable ~/.config, existing or not', async () => {
    const only = await lease({ allowedWritePaths: [root, path.join(home, '.config')] });
    assert.deepEqual(only.plan.writable, [root, path.join(home, '.config')]);
    assert.ok(only.plan.readOnly.includes(path.join(home, '.config', 'git')), only.plan.readOnly.join(' '));
    for (const missing of ['autostart', 'systemd', 'fish', 'environment.d']) {
      assert.ok(only.plan.readOnlyMissing.includes(path.join(home, '.config', missing)), `${missing}: ${only.plan.readOnlyMissing.join(' ')}`);
    }
    await only.release();
    assert.equal(fs.existsSync(path.join(home, '.config', 'autostart')), false, 'the mount point is removed again');
  });

  it('binds what a protected link leads to read-only: .vscode -> cfg, .git/hooks -> ../tools/hooks, ~/.bashrc -> a workspace file', async () => {
    fs.mkdirSync(path.join(root, 'cfg'));
    fs.symlinkSync('cfg', path.join(root, '.vscode'));
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.mkdirSync(path.join(root, 'tools', 'hooks'), { recursive: true });
    fs.symlinkSync('../tools/hooks', path.join(root, '.git', 'hooks'));
    fs.writeFileSync(path.join(root, 'bashrc'), '# mine\n');
    fs.rmSync(path.join(home, '.bashrc'));
    fs.symlinkSync(path.join(root, 'bashrc'), path.join(home, '.bashrc'));
    const only = await lease();
    for (const target of ['cfg', 'tools/hooks', 'bashrc']) {
      assert.ok(only.plan.readOnly.includes(path.join(root, target)), `${target}: ${only.plan.readOnly.join(' ')}`);
    }
    assert.ok(only.plan.pinned.includes(path.join(root, 'tools')), 'the target cannot be renamed away');
    await only.release();
  });

  it('in bubblewrap: a workspace folder that is the home folder is where the command runs, read-only', async () => {
    const availability = await sandbox.availability('');
    if (availability.kind !== 'bubblewrap') {
      throw new Error(`This test needs bubblewrap (bwrap): ${availability.kind === 'none' ? availability.reason : availability.kind}`);
    }
    const ctx = testContext({ root: home, workspace: { home } });
    const only = await acquireSandboxLease(ctx, sandbox, { sandbox: availability, network: false, cwd: home, env: {} });
    try {
      const attempt = (line: string) => runLaunched(only.launch, line, { PATH: '/usr/bin:/bin', HOME: home });
      const here = attempt('pwd');
      assert.equal(here.status, 0, here.stderr);
      assert.equal(here.stdout.trim(), home);
      assert.notEqual(attempt('printf x > ~/.bashrc').status, 0);
      assert.notEqual(attempt('mkdir ~/.config/autostart').status, 0);
    } finally {
      await only.release();
    }
    assert.equal(fs.readFileSync(path.join(home, '.bashrc'), 'utf8'), '# bashrc\n');
    assert.equal(fs.existsSync(path.join(home, '.config', 'autostart')), false);
  });

  it('reports a protected link replaced during the command (a link is no mount point: bubblewrap cannot keep it from being renamed away)', async () => {
    fs.mkdirSync(path.join(root, 'cfg'));
    fs.symlinkSync('cfg', path.join(root, '.vscode'));
    const only = await lease();
    fs.renameSync(path.join(root, '.vscode'), path.join(root, 'old'));
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.writeFileSync(path.join(root, '.vscode', 'tasks.json'), '{}');
    await only.release();
    assert.deepEqual(await only.addedSince(), [path.join(root, '.vscode')]);
  });

  it('in bubblewrap: ~/.config/git/config, a new ~/.config/autostart and a linked .vscode\'s target cannot be written; the rest of ~/.config can', async function () {
    const availability = await sandbox.availability('');
    if (availability.kind !== 'bubblewrap') {
      throw new Error(`This test needs bubblewrap (bwrap): ${availability.kind === 'none' ? availability.reason : availability.kind}`);
    }
    fs.mkdirSync(path.join(root, 'cfg'));
    fs.symlinkSync('cfg', path.join(root, '.vscode'));
    const ctx = testContext({ root, settings: { allowedWritePaths: [root, path.join(home, '.config')] }, workspace: { home } });
    const only = await acquireSandboxLease(ctx, sandbox, { sandbox: availability, network: false, cwd: root, env: {} });
    try {
      const attempt = (line: string) => runLaunched(only.launch, line, { PATH: '/usr/bin:/bin', HOME: home });
      for (const line of [
        'printf x > ~/.config/git/config',
        'printf x >> ~/.config/git/config',
        'mkdir -p ~/.config/autostart/x && printf x > ~/.config/autostart/x.desktop',
        'mkdir -p ~/.config/systemd/user && printf x > ~/.config/systemd/user/x.service',
        `printf x > ${root}/cfg/settings.json`,
        `printf x > ${root}/.vscode/settings.json`,
      ]) {
        const run = attempt(line);
        assert.notEqual(run.status, 0, `${line} succeeded`);
      }
      assert.equal(attempt('printf ok > ~/.config/plain.txt').status, 0);
      assert.equal(attempt(`printf ok > ${root}/plain.txt`).status, 0);
    } finally {
      await only.release();
    }
    assert.equal(fs.readFileSync(path.join(home, '.config', 'git', 'config'), 'utf8'), '[user]\n');
    assert.equal(fs.readFileSync(path.join(home, '.config', 'plain.txt'), 'utf8'), 'ok');
    assert.deepEqual(fs.readdirSync(path.join(root, 'cfg')), []);
    assert.equal(fs.existsSync(path.join(home, '.config', 'autostart')), false);
    assert.equal(fs.existsSync(path.join(home, '.config', 'systemd')), false);
  });
});

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/plan: folders crowded with secret files', () => {
  const secrets = (folder: string, count: number): string[] => Array.from({ length: count }, (_, index) => `${folder}/.env.${index}`);

  it('hides a folder with more than CROWDED_SECRET_FILES secret files whole, and none with that many or fewer', () => {
    const crowded = crowdedSecretFolders([...secrets('/ws/many', CROWDED_SECRET_FILES + 1), ...secrets('/ws/some', CROWDED_SECRET_FILES)], ['/ws'], '/ws');
    assert.deepEqual(crowded.map((entry) => entry.folder), ['/ws/many']);
    assert.match(crowded[0].why, /holds 65 secret files/);
  });

  it('never hides a writable folder itself, nor the folder the command starts in or one holding it', () => {
    assert.deepEqual(crowdedSecretFolders(secrets('/ws', 500), ['/ws'], '/ws'), []);
    assert.deepEqual(crowdedSecretFolders(secrets('/ws/many', 500), ['/ws'], '/ws/many/sub'), []);
  });
});
