import * as assert from 'node:assert/strict';
import { planTextEdit, type TextEditRequest } from '../../../../src/core/edit/editPlanner';
import { joinLines, splitLines } from '../../../../src/core/text/lineEndings';

function edit(text: string, oldString: string, newString: string, replaceAll = false): { text: string; level: string; replacements: number; changed: { start: number; end: number }[] } {
  const request: TextEditRequest = { oldString, newString, replaceAll };
  const outcome = planTextEdit(splitLines(text), request, 'f.txt');
  return { text: joinLines(outcome.lines), level: outcome.level, replacements: outcome.replacements, changed: [...outcome.changedRanges] };
}

describe('edit/editPlanner', () => {
  describe('planTextEdit: the match ladder', () => {
    it('replaces a unique exact match and reports the exact level', () => {
      const result = edit('alpha\nbeta\ngamma\n', 'beta', 'BETA');
      assert.equal(result.text, 'alpha\nBETA\ngamma\n');
      assert.equal(result.level, 'exact');
      assert.deepEqual(result.changed, [{ start: 1, end: 2 }]);
    });

    it('refuses several exact matches and lists their line numbers', () => {
      assert.throws(() => edit('x = 1\ny = 2\nx = 1\n', 'x = 1', 'x = 3'), /occurs 2 times in f\.txt, starting at lines 1, 3/);
    });

    it('replaces every occurrence with replace_all, several on one line included', () => {
      const result = edit('foo foo\nbar\nfoo\n', 'foo', 'baz', true);
      assert.equal(result.text, 'baz baz\nbar\nbaz\n');
      assert.equal(result.replacements, 3);
    });

    it('refuses identical old_string and new_string', () => {
      assert.throws(() => edit('a\n', 'a', 'a'), /identical/);
    });

    it('matches an LF old_string in a CRLF file and writes CRLF back', () => {
      const result = edit('one\r\ntwo\r\nthree\r\n', 'one\ntwo\n', 'ONE\nTWO\nextra\n');
      assert.equal(result.text, 'ONE\r\nTWO\r\nextra\r\nthree\r\n');
      assert.equal(result.level, 'line-endings');
    });

    it('uses the exact level for a single-line match in a CRLF file', () => {
      const result = edit('one\r\ntwo\r\n', 'two', 'TWO');
      assert.equal(result.text, 'one\r\nTWO\r\n');
      assert.equal(result.level, 'exact');
    });

    it('keeps the lone CR of an edited line in a mixed file when the match stops before it', () => {
      assert.equal(edit('a\r\nfoo bar\rc\r\n', 'foo', 'FOO').text, 'a\r\nFOO bar\rc\r\n');
    });

    it('gives lines added inside a mixed file the dominant terminator, and unchanged lines keep theirs', () => {
      assert.equal(edit('a\r\nb\nc\r\n', 'b\n', 'b\nnew\n').text, 'a\r\nb\nnew\r\nc\r\n');
    });

    it('keeps the absence of a final newline', () => {
      assert.equal(edit('a\nlast', 'last', 'LAST').text, 'a\nLAST');
    });

    it('falls back to ignoring trailing whitespace', () => {
      const result = edit('def f():   \n    return 1\n', 'def f():\n    return 1', 'def f():\n    return 2');
      assert.equal(result.level, 'trailing-whitespace');
      assert.equal(result.text, 'def f():   \n    return 2\n');
    });

    it('falls back to ignoring indentation and re-indents new_string to the file', () => {
      const file = 'class A:\n    def f(self):\n        return 1\n';
      const result = edit(file, 'def f(self):\n    return 1', 'def f(self):\n    x = 2\n    return x');
      assert.equal(result.level, 'indentation');
      assert.equal(result.text, 'class A:\n    def f(self):\n        x = 2\n        return x\n');
    });

    it('falls back to ignoring smart quotes, dashes and non-breaking spaces', () => {
      const file = 'title = \u201cHello\u201d \u2014 world\nnext\u00a0line\n';
      const result = edit(file, 'title = "Hello" - world', 'title = "Bye"');
      assert.equal(result.level, 'unicode-punctuation');
      assert.equal(result.text, 'title = "Bye"\nnext\u00a0line\n');
    });

    it('keeps the file text of lines the model did not change in a tolerant match', () => {
      const file = 'a = \u2018x\u2019\nb = 1\n';
      const result = edit(file, "a = 'x'\nb = 1", "a = 'x'\nb = 2");
      assert.equal(result.text, 'a = \u2018x\u2019\nb = 2\n');
    });

    it('never accepts an ambiguous tolerant match and lists where it matched', () => {
      const file = 'if x:\n    go()   \nelse:\n    go()\n';
      assert.throws(() => edit(file, '    go()  \n', '    stop()\n'), /ignoring trailing whitespace it matches 2 places, starting at lines 2, 4/);
    });

    it('shows the closest region with line numbers when nothing matches', () => {
      const file = 'function add(a, b) {\n  return a + b;\n}\n';
      assert.throws(() => edit(file, 'function add(a, c) {\n  return a + c;\n}', 'x'), (error: Error) => {
        assert.match(error.message, /not found in f\.txt/);
        assert.match(error.message, /lines 1-3:\n     1\tfunction add\(a, b\) \{\n     2\t  return a \+ b;\n     3\t\}/);
        return true;
      });
    });
  });
});
