// The guard on reads, attack by attack, each under the risk level where the table says deny.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { answerNextApproval, invoke, invokeError, screenshot, withSettings, workspaceRoot } from './support/tools';

describe('read guard (extension host)', () => {
  let root: string;
  let outside: string;
  let sibling: string;

  before(() => {
    root = workspaceRoot();
    const parent = path.dirname(root);
    outside = path.join(parent, 'outside');
    sibling = `${root}-sibling`; // shares the workspace's name as a string prefix
    fs.mkdirSync(outside, { recursive: true });
    fs.mkdirSync(sibling, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside secret\n');
    fs.writeFileSync(path.join(sibling, 'secret.txt'), 'sibling secret\n');
    fs.mkdirSync(path.join(root, 'attacks'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'attacks/file-link.txt'));
    fs.symlinkSync(outside, path.join(root, 'attacks/dir-link'));
    fs.symlinkSync(path.join(root, 'attacks/loop-b'), path.join(root, 'attacks/loop-a'));
    fs.symlinkSync(path.join(root, 'attacks/loop-a'), path.join(root, 'attacks/loop-b'));
    execFileSync('mkfifo', [path.join(root, 'attacks/fifo')]);
    fs.writeFileSync(path.join(root, '.env'), 'API_TOKEN=do-not-leak\n');
  });

  const deniedAtLow = (input: object) => withSettings({ riskLevel: 'low' }, () => invokeError('workspace_read_file', input));

  it('denies .. traversal out of the workspace', async () => {
    assert.match(await deniedAtLow({ file_path: '../outside/secret.txt' }), /^Denied by file\.outside_workspace_read: /);
  });

  it('denies an absolute path outside the workspace', async () => {
    assert.match(await deniedAtLow({ file_path: path.join(outside, 'secret.txt') }), /^Denied by file\.outside_workspace_read: /);
  });

  it('denies a sibling folder whose name starts with the workspace name', async () => {
    assert.match(await deniedAtLow({ file_path: path.join(sibling, 'secret.txt') }), /^Denied by file\.outside_workspace_read: /);
  });

  it('denies a file symlink that points outside', async () => {
    assert.match(await deniedAtLow({ file_path: 'attacks/file-link.txt' }), /^Denied by file\.outside_workspace_read: .*file-link\.txt \(a symlink to .*outside\/secret\.txt\) is outside/);
  });

  it('denies a path through a folder symlink that points outside', async () => {
    assert.match(await deniedAtLow({ file_path: 'attacks/dir-link/secret.txt' }), /^Denied by file\.outside_workspace_read: /);
  });

  it('refuses a symlink loop without hanging', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: 'attacks/loop-a' }), /^Denied by file\.non_regular_file: .*broken, or a loop/);
  });

  it('denies /dev/zero at every level', async () => {
    await withSettings({ riskLevel: 'high' }, async () => {
      assert.match(await invokeError('workspace_read_file', { file_path: '/dev/zero' }), /^Denied by file\.system_path_read: /);
    });
  });

  it('refuses a FIFO before opening it', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: 'attacks/fifo' }), /^Denied by file\.non_regular_file: .*FIFO/);
  });

  it('denies ~/.ssh at the default level', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: path.join(os.homedir(), '.ssh/id_rsa') }), /^Denied by file\.sensitive_path_read: /);
    assert.match(await invokeError('workspace_read_file', { file_path: '~/.ssh/config' }), /^Denied by file\.sensitive_path_read: /);
  });

  it('denies a .env file at the default level without leaking it', async () => {
    const message = await invokeError('workspace_read_file', { file_path: '.env' });
    assert.match(message, /^Denied by file\.sensitive_path_read: /);
    assert.ok(!message.includes('do-not-leak'));
  });

  it('refuses a NUL byte in the path', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: 'read/crlf.txt\u0000.png' }), /NUL byte/);
  });

  it('lists nothing outside the workspace at low risk either', async () => {
    assert.match(await withSettings({ riskLevel: 'low' }, () => invokeError('workspace_list_directory', { path: '..' })), /^Denied by file\.outside_workspace_read: /);
  });
});

describe('read guard warnings (extension host)', () => {
  it('asks at medium for a file outside the workspace and reads it once allowed', async () => {
    const outsideFile = path.join(path.dirname(workspaceRoot()), 'outside/asked.txt');
    fs.mkdirSync(path.dirname(outsideFile), { recursive: true });
    fs.writeFileSync(outsideFile, 'allowed content\n');
    const pending = invoke('workspace_read_file', { file_path: outsideFile });
    if (process.env.WAT_TEST_PASS === 'trusted') {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // let the notification render
      await screenshot('guard-warning-notification');
    }
    await answerNextApproval(true);
    assert.strictEqual((await pending).text, `     1\tallowed content`);
  });

  it('fails with the rule id when the user rejects the question', async () => {
    const outsideFile = path.join(path.dirname(workspaceRoot()), 'outside/asked.txt');
    const pending = invokeError('workspace_read_file', { file_path: outsideFile });
    await answerNextApproval(false);
    assert.match(await pending, /^Denied by file\.outside_workspace_read: .*The user declined when asked\./);
  });
});
