import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { planTextEdit, planTextEdits, type TextEditRequest } from '../../../../src/core/edit/editPlanner';
import { joinLines, splitLines, type TextLine } from '../../../../src/core/text/lineEndings';
import { fileArbitrary } from '../../support/lineFiles';

function edit(text: string, oldString: string, newString: string, replaceAll = false): { text: string; level: string; replacements: number; changed: { start: number; end: number }[] } {
  const request: TextEditRequest = { oldString, newString, replaceAll };
  const outcome = planTextEdit(splitLines(text), request, 'f.txt');
  return { text: joinLines(outcome.lines), level: outcome.level, replacements: outcome.replacements, changed: [...outcome.changedRanges] };
}

function assertOutsideUnchanged(before: readonly TextLine[], after: readonly TextLine[], start: number, removed: number, added: number): void {
  assert.deepEqual(after.slice(0, start), before.slice(0, start));
  const tailBefore = before.slice(start + removed);
  const tailAfter = after.slice(start + added);
  assert.deepEqual(tailAfter, tailBefore);
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

    it('keeps the absence of a final newline when a tolerant match of old_string with a final newline ends at the last line', () => {
      const result = edit('a\n    last  ', '    last\n', '    LAST\n    more\n');
      assert.equal(result.level, 'trailing-whitespace');
      assert.equal(result.text, 'a\n    LAST\n    more');
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

  describe('planTextEdits: several edits of one file', () => {
    const edits = (text: string, ...pairs: [string, string][]): { text: string; changed: { start: number; end: number }[] } => {
      const outcome = planTextEdits(splitLines(text), pairs.map(([oldString, newString]) => ({ oldString, newString, replaceAll: false })), 'f.txt');
      return { text: joinLines(outcome.lines), changed: [...outcome.changedRanges] };
    };

    it('finds each edit in the result of the ones before it, with its own uniqueness rule', () => {
      // "x = 1" occurs twice until the first edit changes one of them.
      assert.equal(edits('x = 1\ny\nx = 1\n', ['x = 1\ny', 'x = 2\ny'], ['x = 1', 'x = 3']).text, 'x = 2\ny\nx = 3\n');
    });

    it('refuses an edit that is still ambiguous after the ones before it and names it', () => {
      assert.throws(() => edits('x\nx\ny\n', ['y', 'Y'], ['x', 'X']), /^ToolError: edits\[1\] \(edit 2 of 2\) failed, so none of the 2 edits was made: old_string occurs 2 times in f\.txt, starting at lines 1, 2/);
    });

    it('allows edits that touch without overlapping, on one line too', () => {
      assert.equal(edits('abc\n', ['b', 'B'], ['a', 'A'], ['c', 'C']).text, 'ABC\n');
    });

    it('allows an edit next to text an earlier edit deleted, and refuses one across it', () => {
      assert.equal(edits('a\nb\nc\n', ['b\n', ''], ['a\n', 'A\n']).text, 'A\nc\n');
      assert.throws(() => edits('a\nb\nc\n', ['b\n', ''], ['a\nc', 'x']), /edits\[1\] \(edit 2 of 2\) overlaps the text that edits\[0\] \(edit 1 of 2\) wrote/);
    });

    it('reports the lines every edit wrote, in the new file', () => {
      assert.deepEqual(edits('a\nb\nc\nd\n', ['d', 'D1\nD2'], ['a\n', '']).changed, [
        { start: 0, end: 0 },
        { start: 2, end: 4 },
      ]);
    });
  });

  describe('keeps every line outside the edited region (property)', () => {
    it('edit_file: replacing a range of whole lines leaves all other lines and terminators byte-identical', () => {
      fc.assert(
        fc.property(fileArbitrary, fc.nat(), fc.nat(), fc.array(fc.stringMatching(/^[A-Z]{1,8}$/), { minLength: 0, maxLength: 4 }), (text, a, b, replacement) => {
          const lines = splitLines(text);
          const start = a % lines.length;
          const length = 1 + (b % (lines.length - start));
          // old_string as the model sees it: LF, the region's lines, ending before the last terminator.
          const oldString = lines.slice(start, start + length).map((line) => line.text).join('\n');
          const newString = replacement.map((word) => `NEW ${word}`).join('\n');
          const outcome = planTextEdit(lines, { oldString, newString, replaceAll: false }, 'f');
          const added = outcome.lines.length - lines.length + length;
          assertOutsideUnchanged(lines, outcome.lines, start, length, added);
        }),
        { numRuns: 300 },
      );
    });

    it('edit_file: replacing any unique span, mid-line included, leaves the lines it does not touch byte-identical', () => {
      fc.assert(
        fc.property(fileArbitrary, fc.nat(), fc.nat(), fc.stringMatching(/^[A-Z\n]{0,12}$/), (text, a, b, newString) => {
          const lines = splitLines(text);
          // The span is taken from the LF view the model reads; it may start and end inside lines.
          const lf = lines.map((line) => line.text + (line.eol === '' ? '' : '\n')).join('');
          const start = a % lf.length;
          const oldString = lf.slice(start, start + 1 + (b % (lf.length - start)));
          fc.pre(lf.indexOf(oldString) === lf.lastIndexOf(oldString) && oldString !== newString);
          const firstLine = lf.slice(0, start).split('\n').length - 1;
          const lastLine = lf.slice(0, start + oldString.length - 1).split('\n').length - 1;
          const outcome = planTextEdit(lines, { oldString, newString, replaceAll: false }, 'f');
          assert.deepEqual(outcome.lines.slice(0, firstLine), lines.slice(0, firstLine));
          const untouchedAfter = lines.slice(lastLine + 1);
          assert.deepEqual(outcome.lines.slice(outcome.lines.length - untouchedAfter.length), untouchedAfter);
          // The replaced text is really there, in the LF view of the new file.
          const newLf = outcome.lines.map((line) => line.text + (line.eol === '' ? '' : '\n')).join('');
          assert.equal(newLf, lf.slice(0, start) + newString + lf.slice(start + oldString.length));
        }),
        { numRuns: 500 },
      );
    });
  });
});
