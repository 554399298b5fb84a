import * as assert from 'node:assert/strict';
import { strictest, type Judgement } from '../../../src/core/decisions';

const plainAsk: Judgement = { decision: 'ask', reason: 'runs code' };
const writeAsk: Judgement = { decision: 'ask', reason: 'rm deletes files', cause: 'writes-workspace' };
const allowed: Judgement = { decision: 'allow', reason: 'reads' };

describe('decisions: strictest keeps a cause only when every question has it', () => {
  it('keeps the cause when every judgement that asks has it', () => {
    assert.deepEqual(strictest([allowed, writeAsk, { ...writeAsk, reason: 'mv moves' }], allowed), writeAsk);
  });
  it('drops it when another question has none, whichever comes first', () => {
    assert.deepEqual(strictest([writeAsk, plainAsk], allowed), { decision: 'ask', reason: 'rm deletes files' });
    assert.deepEqual(strictest([plainAsk, writeAsk], allowed), plainAsk);
    assert.deepEqual(strictest([allowed], writeAsk), writeAsk);
    assert.deepEqual(strictest([plainAsk], writeAsk), { decision: 'ask', reason: 'rm deletes files' });
  });
  it('a refusal decides, with no cause', () => {
    assert.deepEqual(strictest([writeAsk, { decision: 'deny', reason: 'denied' }], allowed), { decision: 'deny', reason: 'denied' });
  });
});
