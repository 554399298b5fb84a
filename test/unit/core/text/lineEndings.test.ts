import * as assert from 'node:assert/strict';
import { displayLines, dominantLineEnding, hasMixedLineEndings, joinLines, replaceLineRange, splitLines } from '../../../../src/core/text/lineEndings';

describe('text/lineEndings', () => {
  it('splits CRLF, LF and lone CR lines, each keeping its terminator', () => {
    assert.deepEqual(splitLines('a\r\nb\nc\rd'), [
      { text: 'a', eol: '\r\n' },
      { text: 'b', eol: '\n' },
      { text: 'c', eol: '\r' },
      { text: 'd', eol: '' },
    ]);
  });

  it('joins the lines back to the identical text', () => {
    for (const text of ['', 'x', 'x\n', '\n\n', 'a\r\nb\rc\n\r\n', '\r', 'a\r\r\n']) {
      assert.equal(joinLines(splitLines(text)), text);
    }
  });

  it('picks the most common terminator', () => {
    assert.equal(dominantLineEnding(splitLines('a\r\nb\r\nc\n')), '\r\n');
  });

  it('picks the first terminator seen on a tie', () => {
    assert.equal(dominantLineEnding(splitLines('a\nb\r\n')), '\n');
  });

  it('picks LF for a single line without a terminator', () => {
    assert.equal(dominantLineEnding(splitLines('only')), '\n');
  });

  it('detects mixed terminators', () => {
    assert.equal(hasMixedLineEndings(splitLines('a\r\nb\n')), true);
    assert.equal(hasMixedLineEndings(splitLines('a\r\nb\r\nc')), false);
  });

  it('keeps the terminators of unchanged lines in a replaced range and gives new lines the dominant one', () => {
    const lines = splitLines('one\r\ntwo\rthree\nfour\r\n');
    assert.equal(joinLines(replaceLineRange(lines, 0, 4, 'one\ntwo\nTHREE\nfour\n', '\r\n')), 'one\r\ntwo\rTHREE\r\nfour\r\n');
  });

  it('keeps a missing final newline when the new text has none', () => {
    const lines = splitLines('a\nb');
    assert.equal(joinLines(replaceLineRange(lines, 1, 2, 'B', '\n')), 'a\nB');
  });

  it('keeps the last line terminator when asked, for a match that stopped before it', () => {
    const lines = splitLines('a\nfoo bar\rc\n');
    assert.equal(joinLines(replaceLineRange(lines, 1, 2, 'x\ny bar\n', '\n', true)), 'a\nx\ny bar\rc\n');
  });

  describe('displayLines', () => {
    it('splits on LF and CRLF and ignores the final terminator', () => {
      assert.deepEqual(displayLines('a\r\nb\nc'), ['a', 'b', 'c']);
      assert.deepEqual(displayLines('a\n\n'), ['a', '']);
      assert.deepEqual(displayLines(''), []);
    });
  });

  it('never writes a lone CR before an empty line ending in LF, which would read back as one CRLF and lose the empty line', () => {
    // A kept line ending in CR, then an added empty line (the dominant ending is LF).
    const kept = splitLines('x\nx\nx\rnext');
    const replaced = replaceLineRange(kept, 2, 3, 'x\n\nchanged\n', '\n', true);
    assert.deepEqual(splitLines(joinLines(replaced)).map((line) => line.text), ['x', 'x', 'x', '', 'changed', 'next']);
    // A line emptied after a line ending in CR keeps being a line.
    const emptied = replaceLineRange(splitLines('a\rdef\nb'), 1, 2, '\n', '\n');
    assert.deepEqual(splitLines(joinLines(emptied)).map((line) => line.text), ['a', '', 'b']);
  });
});
