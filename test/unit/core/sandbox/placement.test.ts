import * as assert from 'node:assert/strict';
import { placeCommand, unavailableWarning, withCaseInsensitiveFolders, type Placement } from '../../../../src/core/sandbox/placement';
import type { SandboxAvailability } from '../../../../src/core/ports/process';

const bwrap: SandboxAvailability = { kind: 'bubblewrap', executable: '/usr/bin/bwrap' };
const none: SandboxAvailability = { kind: 'none', reason: 'bubblewrap (bwrap) is not installed' };

describe('sandbox/placement', () => {
  it('runs a command the policy allows in the sandbox without the network and without asking', () => {
    assert.deepEqual(placeCommand('auto', bwrap, 'allow', undefined), { where: 'sandbox', sandbox: bwrap, network: false, approval: 'none', canLeave: true });
  });

  it('gives a command the user approves the network, and lets the question offer to leave the sandbox only in auto', () => {
    assert.deepEqual(placeCommand('auto', bwrap, 'ask', undefined), { where: 'sandbox', sandbox: bwrap, network: true, approval: 'policy', canLeave: true });
    assert.deepEqual(placeCommand('required', bwrap, 'ask', undefined), { where: 'sandbox', sandbox: bwrap, network: true, approval: 'policy', canLeave: false });
  });

  it('asks its own question for the network of a command that did not ask', () => {
    const placement = placeCommand('auto', bwrap, 'allow', 'network');
    assert.equal(placement.where === 'sandbox' && placement.network && placement.approval, 'own');
  });

  it('asks its own question, every time, to run outside the sandbox', () => {
    for (const decision of ['allow', 'ask'] as const) {
      const placement = placeCommand('auto', bwrap, decision, 'unsandboxed');
      assert.equal(placement.where === 'host' && placement.approval, 'own');
    }
  });

  it('asks its own question for every command in auto where the machine has no sandbox, and says why', () => {
    for (const decision of ['allow', 'ask'] as const) {
      const placement = placeCommand('auto', none, decision, undefined);
      assert.ok(placement.where === 'host' && placement.approval === 'own');
      assert.match(placement.why, /bubblewrap \(bwrap\) is not installed/);
    }
  });

  it('refuses in required mode where there is no sandbox, or when the call asks to leave it', () => {
    const missing = placeCommand('required', none, 'allow', undefined);
    assert.equal(missing.where, 'refused');
    assert.match(missing.why, /"required" and there is no sandbox: bubblewrap \(bwrap\) is not installed/);
    assert.equal(placeCommand('required', bwrap, 'ask', 'unsandboxed').where, 'refused');
  });

  it('on Windows, which has no sandbox, runs only a provably read-only line without asking; every other line asks its own question', () => {
    const windows: SandboxAvailability = { kind: 'none', reason: 'Windows has no OS sandbox this extension uses', windows: true };
    const readOnly = placeCommand('auto', windows, 'allow', undefined, true);
    assert.ok(readOnly.where === 'host' && readOnly.approval === 'none' && readOnly.windows === true);
    for (const [decision, isReadOnly, extra] of [['allow', false, undefined], ['ask', false, undefined], ['allow', true, 'network'], ['allow', true, 'unsandboxed']] as const) {
      const placement = placeCommand('auto', windows, decision, extra, isReadOnly);
      assert.ok(placement.where === 'host' && placement.approval === 'own' && placement.windows === true, `${decision} ${isReadOnly} ${extra}`);
    }
    assert.equal(placeCommand('required', windows, 'allow', undefined, true).where, 'refused');
    const elsewhere = placeCommand('auto', none, 'allow', undefined, true);
    assert.equal(elsewhere.where === 'host' && elsewhere.approval, 'own', 'elsewhere a missing sandbox still asks for everything');
    assert.match(unavailableWarning('auto', windows)?.consequence ?? '', /not provably read-only asks/);
  });

  it('runs on the host with only the policy asking when the user turned the sandbox off', () => {
    assert.deepEqual(placeCommand('off', bwrap, 'allow', 'unsandboxed'), { where: 'host', approval: 'none', why: 'workspaceAgentTools.runCommand.sandbox is off' });
    const asking = placeCommand('off', none, 'ask', undefined);
    assert.equal(asking.where === 'host' && asking.approval, 'policy');
  });

  it('asks its own question for every bubblewrap command while a folder is on a volume that ignores case, and says why', () => {
    for (const decision of ['allow', 'ask'] as const) {
      const placement: Placement = withCaseInsensitiveFolders(placeCommand('auto', bwrap, decision, undefined), ['/mnt/usb/proj']);
      assert.ok(placement.where === 'sandbox');
      assert.equal(placement.approval, 'own');
      assert.equal(placement.network, decision === 'ask');
      assert.deepEqual(placement.oneSpelling, ['/mnt/usb/proj']);
      assert.match(placement.why ?? '', /^\/mnt\/usb\/proj is on a volume that ignores letter case \(or gives names other spellings\), .* another spelling \(\.GIT\/hooks, \.ENV\) reaches them$/);
    }
    const network = withCaseInsensitiveFolders(placeCommand('auto', bwrap, 'allow', 'network'), ['/a', '/b']);
    assert.match(network.where === 'sandbox' ? network.why ?? '' : '', /^the call asked for the network, and \/a, \/b are on volumes that ignore letter case \(or give names other spellings\)/);
  });

  it('leaves Seatbelt, the host and refusals as they are: only bubblewrap keeps names by mounting over one spelling', () => {
    const seatbelt: SandboxAvailability = { kind: 'seatbelt', executable: '/usr/bin/sandbox-exec' };
    const placements = [placeCommand('auto', seatbelt, 'allow', undefined), placeCommand('auto', none, 'allow', undefined), placeCommand('required', none, 'allow', undefined), placeCommand('auto', bwrap, 'allow', undefined)];
    assert.deepEqual(placements.slice(0, 3).map((placement) => withCaseInsensitiveFolders(placement, ['/x'])), placements.slice(0, 3));
    assert.deepEqual(withCaseInsensitiveFolders(placements[3], []), placements[3]);
  });
});

describe('sandbox/placement: the status bar\'s warning', () => {
  const failed: SandboxAvailability = { kind: 'none', reason: 'bubblewrap cannot start here: user namespaces are turned off', fix: 'sudo sysctl -w user.max_user_namespaces=15000' };

  it('says why there is no sandbox, the fix, and what commands do then', () => {
    assert.deepEqual(unavailableWarning('auto', failed), { reason: 'bubblewrap cannot start here: user namespaces are turned off', fix: 'sudo sysctl -w user.max_user_namespaces=15000', consequence: 'every command asks before it runs, outside the sandbox with all your rights' });
    assert.match(unavailableWarning('required', failed)?.consequence ?? '', /every command is refused .*"required"/);
  });

  it('says nothing where there is a sandbox or the user turned it off', () => {
    assert.equal(unavailableWarning('auto', bwrap), undefined);
    assert.equal(unavailableWarning('off', failed), undefined);
  });

  it('puts the fix after the cause in the Sandbox: line and the refusal', () => {
    const placement = placeCommand('auto', failed, 'allow', undefined);
    assert.equal(placement.where === 'host' && placement.unavailable, 'bubblewrap cannot start here: user namespaces are turned off; sudo sysctl -w user.max_user_namespaces=15000');
    assert.match(placeCommand('required', failed, 'allow', undefined).why ?? '', /there is no sandbox: bubblewrap cannot start here: user namespaces are turned off; sudo sysctl -w user\.max_user_namespaces=15000$/);
  });
});
