import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MachineSandbox } from '../../../../src/core/sandbox/machineSandbox';
import { planSandbox } from '../../../../src/core/sandbox/plan';
import { testContext } from '../../support/context';
import { RIPGREP } from '../../support/searchTree';

describe('sandbox/plan', () => {
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

  const plan = () => planSandbox(testContext({ root, workspace: { home: path.join(parent, 'home') } }), sandbox, false);

  it('binds what exists read-only, binds the empty folder where a protected folder is missing, and hides .env', async () => {
    const first = await plan();
    assert.deepEqual(first.writable, [root]);
    assert.deepEqual(first.readOnly, [path.join(root, '.git', 'config')]);
    assert.deepEqual(first.readOnlyMissing, [path.join(root, '.vscode'), path.join(root, '.git', 'hooks')]);
    const systemSecrets = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers'].filter((file) => fs.existsSync(file));
    assert.deepEqual(first.hiddenFiles, [...systemSecrets, path.join(root, '.env')]);
    await sandbox.releaseMountPoints(first.heldFolders);
  });

  it('treats another command\'s mount point as missing and keeps it until the last command that holds it ends', async () => {
    const vscodeFolder = path.join(root, '.vscode');
    const first = await plan();
    // What bubblewrap does for the first command: it makes the mount point on the disk.
    fs.mkdirSync(vscodeFolder);
    const second = await plan();
    assert.ok(second.readOnlyMissing.includes(vscodeFolder), 'bound from the empty folder, not from a folder about to be removed');
    assert.equal(second.readOnly.includes(vscodeFolder), false);
    await sandbox.releaseMountPoints(first.heldFolders);
    assert.equal(fs.existsSync(vscodeFolder), true, 'still held by the second command');
    await sandbox.releaseMountPoints(second.heldFolders);
    assert.equal(fs.existsSync(vscodeFolder), false);
  });

  it('never removes a protected folder the user made', async () => {
    fs.mkdirSync(path.join(root, '.vscode'));
    const only = await plan();
    assert.ok(only.readOnly.includes(path.join(root, '.vscode')));
    await sandbox.releaseMountPoints(only.heldFolders);
    assert.equal(fs.existsSync(path.join(root, '.vscode')), true);
  });
});
