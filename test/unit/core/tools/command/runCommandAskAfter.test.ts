// workspace_run_command with runCommand.askAfterStaged (issue 40 item 8), in the real bubblewrap
// sandbox over real overlays: a line the policy asks about only because it writes files it names
// inside the workspace runs staged without the question, and its changes are listed; where staging
// or the checkpoint turns out missing before it runs, the question is asked then, and nothing ran.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../../../../../src/core/context';
import type { CallCheckpoint } from '../../../../../src/core/ports/checkpoints';
import type { CommandHost, SandboxHost, StagingHost } from '../../../../../src/core/ports/process';
import { commandConfirmation } from '../../../../../src/core/tools/command/approve';
import { runCommandTool } from '../../../../../src/core/tools/command/runCommand';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { commandWorkspace } from '../../../support/commandWorkspace';
import { resultText } from '../../../support/context';
import { describeOnlyOn } from '../../../support/platforms';

/**
 * A checkpoint that records (or fails to), as the call's CallCheckpoints would: once, whoever asks
 * again; its "before" holds every path but those in `unrecorded` (ignored, over the size cap).
 */
function checkpoint(recorded: boolean, events: string[], unrecorded: readonly string[] = []): CallCheckpoint {
  let taken = false;
  return {
    recordedBy: async (_folder, paths) => new Set(recorded ? paths.filter((relative) => !unrecorded.includes(relative)) : []),
    beforeChange: async () => {
      if (!taken) {
        taken = true;
        events.push('before');
      }
    },
    recordedBefore: async () => recorded,
    deferAfter: () => ({ finish: async () => undefined }),
  };
}

/** The sandbox with its staging answering `available` as the machine does the first time, and `later` from then on. */
function stagingThatGoes(host: CommandHost, later: { ok: false; why: string }): CommandHost {
  const sandbox = host.sandbox;
  const real = sandbox.staging as StagingHost;
  let calls = 0;
  const staging: StagingHost = {
    available: async (bubblewrap) => (calls++ === 0 ? real.available(bubblewrap) : later),
    prepare: (folders, mountPoints) => real.prepare(folders, mountPoints),
  };
  return { ...host, sandbox: Object.create(sandbox, { staging: { value: staging } }) as SandboxHost };
}

describeOnlyOn('linux', 'overlayfs in a user namespace under bubblewrap')('tools/runCommand with runCommand.askAfterStaged', function () {
  this.timeout(60_000);
  const workspace = commandWorkspace({ staging: true });

  before(async () => {
    // Without staging every line here asks: say what is missing instead of failing on the question.
    const sandbox = workspace.setup().ctx.host.commands?.sandbox;
    const availability = await sandbox?.availability('');
    const staging = availability?.kind === 'bubblewrap' && sandbox?.staging ? await sandbox.staging.available(availability.executable) : { ok: false as const, why: 'no bubblewrap sandbox' };
    if (!staging.ok) {
      throw new Error(`These tests need overlay staging (util-linux's unshare, overlayfs in a user namespace): ${staging.why}`);
    }
  });

  beforeEach(() => {
    const root = workspace.root;
    for (const entry of fs.readdirSync(root)) {
      fs.rmSync(path.join(root, entry), { recursive: true, force: true });
    }
    fs.writeFileSync(path.join(root, 'gone.txt'), 'gone\n');
  });

  async function run(command: string, options: { recorded?: boolean; unrecorded?: readonly string[]; setting?: boolean; wrapHost?: (host: CommandHost) => CommandHost } = {}) {
    const events: string[] = [];
    const { ctx, approver } = workspace.setup({ approve: false, settings: { runCommandAskAfterStaged: options.setting ?? true }, ...(options.wrapHost ? { wrapHost: options.wrapHost } : {}) });
    const withCheckpoint: ToolContext = { ...ctx, call: { ...ctx.call, checkpoint: checkpoint(options.recorded ?? true, events, options.unrecorded) } };
    const outcome = await invokeTool(runCommandTool, { command }, withCheckpoint).then((result) => ({ text: resultText(result) }), (error: Error) => ({ text: error.message }));
    return { ...outcome, asked: approver.asked, events };
  }

  it('runs `rm gone.txt` without a question, staged and without network, and lists its change for review', async () => {
    const { text, asked, events } = await run('rm gone.txt');
    assert.deepEqual(asked, [], text);
    assert.equal(fs.existsSync(path.join(workspace.root, 'gone.txt')), false);
    assert.match(text, /^Sandbox: bubblewrap: .*no network.*changes staged in an overlay/m);
    assert.match(text, /Not asked before: this command ran without asking because its changes were staged for review/);
    assert.match(text, /- D gone\.txt/);
    assert.deepEqual(events, ['before']);
  });

  it('holds, instead of merging, the deletion or replacement of what the checkpoint before it did not record', async () => {
    const root = workspace.root;
    fs.writeFileSync(path.join(root, 'local.db'), 'rows\n');
    fs.mkdirSync(path.join(root, 'cache'));
    fs.writeFileSync(path.join(root, 'cache', 'big.bin'), 'big\n');
    fs.writeFileSync(path.join(root, 'cache', 'small.txt'), 'small\n');
    fs.mkdirSync(path.join(root, 'dist'));
    fs.writeFileSync(path.join(root, 'dist', 'out.js'), 'out\n');
    const { text, asked } = await run('rm gone.txt local.db && rm -r cache dist', { unrecorded: ['local.db', 'cache/big.bin'] });
    assert.deepEqual(asked, [], text);
    // Recorded, so Restore brings them back: merged.
    assert.equal(fs.existsSync(path.join(root, 'gone.txt')), false);
    assert.equal(fs.existsSync(path.join(root, 'dist')), false);
    // Not recorded: kept in the folder, the deletion held for the person's review.
    assert.equal(fs.readFileSync(path.join(root, 'local.db'), 'utf8'), 'rows\n');
    assert.equal(fs.readFileSync(path.join(root, 'cache', 'big.bin'), 'utf8'), 'big\n');
    assert.match(text, /- D local\.db \(held: the command ran without asking, and what it replaces or deletes here is not in the checkpoint before it/);
    assert.match(text, /- D cache \(held: the command ran without asking/);
    assert.match(text, /- D gone\.txt\n/);
  });

  it("shows no chat confirmation for such a line (the extension's own question asks if staging fails), and the policy's with the setting off", async () => {
    const on = workspace.setup({ settings: { runCommandAskAfterStaged: true } }).ctx;
    assert.equal(await commandConfirmation({ command: 'rm gone.txt' }, on), undefined);
    assert.notEqual(await commandConfirmation({ command: 'rm gone.txt; python3 -c 1' }, on), undefined);
    assert.notEqual(await commandConfirmation({ command: 'rm gone.txt', background: true }, on), undefined);
    const off = workspace.setup({ settings: { runCommandAskAfterStaged: false } }).ctx;
    assert.match((await commandConfirmation({ command: 'rm gone.txt' }, off))?.message ?? '', /rm deletes or destroys files/);
  });

  it('asks as before with the setting off', async () => {
    const { text, asked } = await run('rm gone.txt', { setting: false });
    assert.equal(asked.length, 1, text);
    assert.equal(fs.existsSync(path.join(workspace.root, 'gone.txt')), true);
  });

  it('asks as before for a line that also asks for another reason', async () => {
    const { asked, text } = await run('rm gone.txt; python3 -c 1');
    assert.equal(asked.length, 1, text);
    assert.equal(fs.existsSync(path.join(workspace.root, 'gone.txt')), true);
  });

  it('asks, before anything runs, when staging turns out unavailable at lease time', async () => {
    const { text, asked } = await run('rm gone.txt', { wrapHost: (host) => stagingThatGoes(host, { ok: false, why: 'no overlay now' }) });
    assert.equal(asked.length, 1, text);
    assert.match(asked[0].detail ?? '', /it was to run staged without asking \(runCommand\.askAfterStaged\), but its changes cannot be staged here \(no overlay now\)/);
    assert.match(text, /declined/);
    assert.equal(fs.existsSync(path.join(workspace.root, 'gone.txt')), true);
  });

  it('asks, before anything runs, when the checkpoint to restore from was not taken', async () => {
    const { text, asked } = await run('rm gone.txt', { recorded: false });
    assert.equal(asked.length, 1, text);
    assert.match(asked[0].detail ?? '', /the checkpoint to restore from could not be taken/);
    assert.equal(fs.existsSync(path.join(workspace.root, 'gone.txt')), true);
  });
});
