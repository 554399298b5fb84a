import * as assert from 'node:assert/strict';
import { MAX_LINE_CHARS, OutputCursor } from '../../../../src/core/process/outputCursor';

describe('process/outputCursor', () => {
  it('returns the output since the last take, and nothing twice', () => {
    const cursor = new OutputCursor(100, 100);
    cursor.append('one\ntwo\n', 'stdout');
    assert.equal(cursor.take().stdout.text, 'one\ntwo\n');
    cursor.append('three\n', 'stdout');
    const second = cursor.take();
    assert.equal(second.stdout.text, 'three\n');
    assert.equal(second.stdout.totalChars, 6);
    assert.equal(cursor.take().stdout.totalChars, 0);
  });

  it('keeps the streams apart', () => {
    const cursor = new OutputCursor(100, 100);
    cursor.append('out\n', 'stdout');
    cursor.append('err\n', 'stderr');
    const taken = cursor.take();
    assert.equal(taken.stdout.text, 'out\n');
    assert.equal(taken.stderr.text, 'err\n');
  });

  it('budgets each take to head and tail, saying how much was left out', () => {
    const cursor = new OutputCursor(10, 10);
    for (let line = 1; line <= 1000; line += 1) cursor.append(`${line}\n`, 'stdout');
    const taken = cursor.take().stdout;
    assert.equal(taken.totalChars, 3893);
    assert.equal(taken.omittedChars, 3893 - 20);
    assert.match(taken.text, /^1\n2\n3\n4\n5\n\n\[\.\.\. 3873 characters omitted \.\.\.\]\n\n999\n1000\n$/);
    // The next take starts after what was taken, with a fresh budget.
    cursor.append('1001\n', 'stdout');
    assert.equal(cursor.take().stdout.text, '1001\n');
  });

  it('completes lines split across chunks, drops CR and escapes for matching', () => {
    const cursor = new OutputCursor(100, 100);
    assert.deepEqual(cursor.append('Listening on ', 'stdout'), []);
    assert.deepEqual(cursor.append('\u001b[32mport 3000\u001b[0m\r\nnext', 'stdout'), ['Listening on port 3000']);
    assert.deepEqual(cursor.end(), ['next']);
  });

  it('ends a line at a lone CR too, as progress bars redraw', () => {
    const cursor = new OutputCursor(100, 100);
    assert.deepEqual(cursor.append('building 10%\rbuilding 100%\rcompiled successfully\n', 'stdout'), ['building 10%', 'building 100%', 'compiled successfully']);
  });

  it('keeps untaken lines for wait_for until the next take', () => {
    const cursor = new OutputCursor(100, 100);
    cursor.append('ready\n', 'stderr');
    assert.deepEqual(cursor.untakenLines(), ['ready']);
    cursor.take();
    assert.deepEqual(cursor.untakenLines(), []);
  });

  it('keeps only the most recent untaken lines within the budget', () => {
    const cursor = new OutputCursor(10, 10);
    for (let line = 1; line <= 5000; line += 1) cursor.append(`${line}\n`, 'stdout');
    const lines = cursor.untakenLines();
    assert.equal(lines.at(-1), '5000');
    assert.ok(lines.join('').length <= 20 + 4, `kept ${lines.length} lines`);
  });

  it('keeps a bounded number of lines from a flood of empty ones (or ones that are only escapes)', () => {
    const cursor = new OutputCursor(10, 10);
    cursor.append('\n'.repeat(100_000), 'stdout');
    cursor.append('\x1b[0m\n'.repeat(100_000), 'stdout');
    assert.ok(cursor.untakenLines().length <= 21, `kept ${cursor.untakenLines().length} lines`);
  });

  it('cuts a line without newlines into bounded pieces, so memory stays flat', () => {
    const cursor = new OutputCursor(100, 100);
    const lines = cursor.append('x'.repeat(MAX_LINE_CHARS * 2 + 5), 'stdout');
    assert.deepEqual(lines.map((line) => line.length), [MAX_LINE_CHARS, MAX_LINE_CHARS]);
    assert.deepEqual(cursor.end(), ['xxxxx']);
  });
});
