import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MachineSandbox } from '../../../../src/core/sandbox/node/machineSandbox';
import { acquireSandboxLease } from '../../../../src/core/sandbox/lease';
import { testContext } from '../../support/context';
import { RIPGREP } from '../../support/searchTree';

describe('sandbox/plan and its lease', () => {
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
