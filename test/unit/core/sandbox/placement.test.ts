import * as assert from 'node:assert/strict';
import { placeCommand } from '../../../../src/core/sandbox/placement';
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

  it('runs on the host with only the policy asking when the user turned the sandbox off', () => {
    assert.deepEqual(placeCommand('off', bwrap, 'allow', 'unsandboxed'), { where: 'host', approval: 'none', why: 'workspaceAgentTools.runCommand.sandbox is off' });
    const asking = placeCommand('off', none, 'ask', undefined);
    assert.equal(asking.where === 'host' && asking.approval, 'policy');
  });
});
