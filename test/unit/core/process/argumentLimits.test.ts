import * as assert from 'node:assert/strict';
import { argumentSizeProblem, MAX_ARGUMENT_BYTES, MAX_EXEC_TOTAL_BYTES } from '../../../../src/core/process/argumentLimits';

describe('process/argumentLimits', () => {
  it('accepts a command line of one argument up to Linux\'s 128 KiB, its NUL included', () => {
    assert.equal(argumentSizeProblem(['/bin/sh', '-c', 'a'.repeat(MAX_ARGUMENT_BYTES - 1)], {}), undefined);
  });

  it('refuses one argument a byte longer, and says how long it is', () => {
    assert.deepEqual(argumentSizeProblem(['/bin/sh', '-c', 'a'.repeat(MAX_ARGUMENT_BYTES)], {}), { kind: 'argument', bytes: MAX_ARGUMENT_BYTES, limit: MAX_ARGUMENT_BYTES - 1 });
  });

  it('counts bytes, not characters', () => {
    assert.equal(argumentSizeProblem(['é'.repeat(70_000)], {})?.kind, 'argument');
  });

  it('refuses arguments and environment that together pass the total limit', () => {
    const env = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`BIG_${index}`, 'x'.repeat(120_000)]));
    assert.equal(argumentSizeProblem(['/bin/sh', '-c', 'true'], env)?.kind, 'total');
    assert.ok(MAX_EXEC_TOTAL_BYTES < 10 * 120_000);
  });
});
