import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { watchExecutionConfig } from '../../../../src/core/sandbox/configWatch';
import { MachineSandbox } from '../../../../src/core/sandbox/node/machineSandbox';
import { testContext } from '../../support/context';
import { RIPGREP } from '../../support/searchTree';
import { describeOnlyOn } from '../../support/platforms';

describeOnlyOn(['linux', 'darwin'], 'the OS sandbox (bubblewrap, Seatbelt)')('sandbox/configWatch', () => {
  let parent: string;
  let root: string;
  let sandbox: MachineSandbox;
  beforeEach(() => {
    parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-config-watch-')));
    root = path.join(parent, 'ws');
    fs.mkdirSync(path.join(root, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(root, '.vscode', 'settings.json'), '{}');
    sandbox = new MachineSandbox(RIPGREP);
  });
  afterEach(() => {
    sandbox.dispose();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('names what an unsandboxed command created or changed, from the index once it is built', async () => {
    const ctx = testContext({ root, workspace: { home: path.join(parent, 'home') } });
    // The first watch starts the index; the next ones are answered from it.
    await (await watchExecutionConfig(ctx, sandbox)).changesSince();
    await sandbox.scanIndex?.settled();
    const watch = await watchExecutionConfig(ctx, sandbox);
    execFileSync('git', ['init', '-q', 'lib/nested'], { cwd: root });
    fs.writeFileSync(path.join(root, 'lib', 'nested', '.git', 'hooks', 'post-checkout'), '#!/bin/sh\n');
    fs.writeFileSync(path.join(root, '.vscode', 'settings.json'), '{"x": 1}');
    const changes = await watch.changesSince();
    assert.deepEqual(sandbox.scanIndex?.status().map((each) => each.state), ['ready']);
    assert.deepEqual(changes.filter((change) => change.path.endsWith('post-checkout') || change.path.endsWith('settings.json')), [
      { path: path.join(root, '.vscode', 'settings.json'), change: 'changed' },
      { path: path.join(root, 'lib', 'nested', '.git', 'hooks', 'post-checkout'), change: 'created' },
    ]);
    assert.ok(changes.some((change) => change.path === path.join(root, 'lib', 'nested', '.git', 'config') && change.change === 'created'));
  });
});
