import * as assert from 'node:assert/strict';
import { unsafeSedCommand } from '../../../../../src/core/guard/command/sed';

describe('guard/command/sed', () => {
  describe('sed script scanner', () => {
    it('accepts addresses, substitutions and printing', () => {
      assert.equal(unsafeSedCommand('/^#/d; 1,3s|a|b|g; $p'), undefined);
    });
    it('finds a w flag after a substitution with escaped delimiters', () => {
      assert.equal(unsafeSedCommand('s/a\\/b/c/w out'), 'the s///w flag');
    });
    it('finds r, which reads another file', () => {
      assert.equal(unsafeSedCommand('r /etc/passwd'), 'the r command');
    });
  });
});
