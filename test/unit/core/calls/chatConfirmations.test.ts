import * as assert from 'node:assert/strict';
import { ShownConfirmations } from '../../../../src/core/calls/chatConfirmations';

describe('calls/chatConfirmations: the confirmation chat showed for a call', () => {
  it('gives an invocation the message shown for its tool and input, once', () => {
    const shown = new ShownConfirmations();
    shown.add('workspace_run_command', { command: 'rm x' }, 'rm x needs approval');
    assert.equal(shown.take('workspace_run_command', { command: 'rm y' }), undefined);
    assert.equal(shown.take('workspace_send_input', { command: 'rm x' }), undefined);
    assert.equal(shown.take('workspace_run_command', { command: 'rm x' }), 'rm x needs approval');
    assert.equal(shown.take('workspace_run_command', { command: 'rm x' }), undefined, 'one confirmation answers one invocation');
  });

  it('keeps the confirmations of the same call in the order shown', () => {
    const shown = new ShownConfirmations();
    shown.add('t', { a: 1 }, 'first');
    shown.add('t', { a: 1 }, 'second');
    assert.deepEqual([shown.take('t', { a: 1 }), shown.take('t', { a: 1 }), shown.take('t', { a: 1 })], ['first', 'second', undefined]);
  });

  it('forgets the oldest beyond 64 (those chat declined are never taken)', () => {
    const shown = new ShownConfirmations();
    for (let i = 0; i < 65; i++) shown.add('t', { i }, `m${i}`);
    assert.equal(shown.take('t', { i: 0 }), undefined);
    assert.equal(shown.take('t', { i: 1 }), 'm1');
    assert.equal(shown.take('t', { i: 64 }), 'm64');
  });
});
