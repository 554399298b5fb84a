import * as assert from 'node:assert/strict';
import { BoundedOutput, stripAnsi } from '../../../../src/core/process/boundedOutput';

describe('process/boundedOutput', () => {
  it('keeps the start and the end and counts what was left out', () => {
    const kept = new BoundedOutput(5, 5);
    for (let index = 0; index < 1000; index += 1) {
      kept.append('0123456789');
    }
    const result = kept.result();
    assert.equal(result.totalChars, 10_000);
    assert.equal(result.omittedChars, 9_990);
    assert.equal(result.text, '01234\n[... 9990 characters omitted ...]\n56789');
  });

  it('removes colour and cursor escapes', () => {
    assert.equal(stripAnsi('\u001b[1;32mok\u001b[0m \u001b]0;title\u0007done'), 'ok done');
  });
});
