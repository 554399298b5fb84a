// The retry inside the sandbox with one more writable folder: the failed run's result names it,
// the retry asks the extension's own question (Accept before Run Outside the Sandbox), and the
// folder's secrets stay hidden.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { commandWorkspace } from '../../../support/commandWorkspace';

describe('workspace_run_command: a folder made writable for one sandboxed run', () => {
  const workspace = commandWorkspace();
  let outside: string;
  before(() => {
    outside = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : workspace.parent, 'wat-grant-'));
    fs.writeFileSync(path.join(outside, '.env'), 'GRANT_SECRET=canary\n');
  });
  // outside is unset when the suite was skipped (support/commandWorkspace.ts: no OS sandbox).
  after(() => outside && fs.rmSync(outside, { recursive: true, force: true }));

  it('names the refused folder in the result and the writable_path that retries in the sandbox', async () => {
    const { text } = await workspace.run({ command: `sh -c 'echo hi > ${outside}/out.txt'` }, { approve: true });
    assert.match(text, /Read-only file system/);
    assert.ok(text.includes(`it refused a write to ${outside}/out.txt`), text);
    assert.ok(text.includes(`writable_path: "${outside}"`), text);
    assert.equal(fs.existsSync(path.join(outside, 'out.txt')), false);
  });

  it('asks its own question with the folder, then runs in the sandbox with it writable and its .env hidden', async () => {
    const { text, approver } = await workspace.run({ command: `sh -c 'echo hi > ${outside}/out.txt; cat ${outside}/.env; echo done'`, writable_path: outside }, { approve: true });
    assert.equal(approver.asked.length, 1);
    assert.equal(approver.asked[0].path, outside);
    assert.equal((approver.asked[0] as { alternative?: string }).alternative, 'Run Outside the Sandbox');
    assert.match(approver.asked[0].detail, /in the sandbox with .* writable too/);
    assert.match(approver.asked[0].detail, /used by your tools outside the sandbox/);
    assert.match(text, new RegExp(`^Sandbox: bubblewrap: .*; also writable: ${outside}`, 'm'));
    assert.match(text, /^done$/m);
    assert.doesNotMatch(text, /canary/);
    assert.equal(fs.readFileSync(path.join(outside, 'out.txt'), 'utf8'), 'hi\n');
  });

  it('refuses a folder on PATH, warns about one that holds a PATH folder, and drops that folder from the command\'s PATH', async () => {
    const bin = path.join(outside, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const environment = { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const refused = workspace.setup({ approve: true, environment });
    await assert.rejects(invokeTool(runCommandTool, { command: 'pwd', writable_path: bin }, refused.ctx), /on your PATH/);
    const { text, approver } = await workspace.run({ command: 'sh -c \'echo "PATH=$PATH"\'', writable_path: outside }, { approve: true, environment });
    assert.ok(approver.asked[0].detail.includes(`It holds ${bin}, on your PATH`), approver.asked[0].detail);
    assert.match(text, /^PATH=/m);
    assert.doesNotMatch(text, new RegExp(`^PATH=.*${bin}`, 'm'));
  });

  it('asks even for a command the policy would run without asking, and runs nothing when the user declines', async () => {
    const { ctx, approver } = workspace.setup({ approve: false });
    await assert.rejects(invokeTool(runCommandTool, { command: `sh -c 'echo x > ${outside}/declined.txt'`, writable_path: outside }, ctx), /declined/);
    await assert.rejects(invokeTool(runCommandTool, { command: 'pwd', writable_path: outside }, ctx), /declined/);
    assert.equal(approver.asked.length, 2);
    assert.equal(fs.existsSync(path.join(outside, 'declined.txt')), false);
  });

  it('refuses the home folder, a system folder and a folder inside the workspace before asking', async () => {
    for (const folder of [os.homedir(), '/usr/local', workspace.root]) {
      const { ctx, approver } = workspace.setup({ approve: true });
      await assert.rejects(invokeTool(runCommandTool, { command: 'pwd', writable_path: folder }, ctx), /writable_path/);
      assert.equal(approver.asked.length, 0, folder);
    }
  });
});
