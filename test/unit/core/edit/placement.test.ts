// Where an edit or a chunk lands, and how its added lines are indented there: "@@" lines resolved
// together with their chunk, and re-indentation line by line (issue 23, items 1 and 2). The shapes
// are the ones other agents' public tests use, written here as our own cases.
import * as assert from 'node:assert/strict';
import { planTextEdit } from '../../../../src/core/edit/editPlanner';
import { parsePatch } from '../../../../src/core/edit/patchParser';
import { planPatch } from '../../../../src/core/edit/patchPlanner';
import { joinLines, splitLines } from '../../../../src/core/text/lineEndings';

const wrap = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

function patched(file: string, ...body: string[]): string {
  const [planned] = planPatch(parsePatch(wrap('*** Update File: f.py', ...body)).operations, { state: () => ({ kind: 'file', lines: splitLines(file) }), key: (p) => p });
  assert.ok(planned.kind === 'update');
  return joinLines(planned.lines);
}

function edited(file: string, oldString: string, newString: string): string {
  return joinLines(planTextEdit(splitLines(file), { oldString, newString, replaceAll: false }, 'f.txt').lines);
}

const TWO_CLASSES = ['class A:', '    def m(self):', '        return 1', '', 'class B:', '    def m(self):', '        return 2', ''].join('\n');

describe('edit placement: "@@" lines resolved with their chunk', () => {
  it('applies a chunk under a stacked "@@ class A:" / "@@ def m(self):" when a later class also has m()', () => {
    const out = patched(TWO_CLASSES, '@@ class A:', '@@ def m(self):', '-        return 1', '+        return 10');
    assert.equal(out, TWO_CLASSES.replace('return 1\n', 'return 10\n'));
  });

  it('picks, among loose matches of one "@@" line, the only one the chunk fits after', () => {
    const out = patched(TWO_CLASSES, '@@ def m(self):', '-        return 2', '+        return 20');
    assert.equal(out, TWO_CLASSES.replace('return 2\n', 'return 20\n'));
  });

  it('does not let a chunk fit after a loose candidate by reaching past the next one', () => {
    // Both "  def h():" lines match "@@ def h():" only ignoring indentation; "b = 1" is under the second.
    const file = ['  def h():', '    a = 1', '  def h():', '    b = 1', ''].join('\n');
    assert.equal(patched(file, '@@ def h():', '-    b = 1', '+    b = 2'), file.replace('b = 1', 'b = 2'));
  });

  it('refuses when the chunk fits after several loose matches, naming them', () => {
    const same = ['class A:', '    def m(self):', '        return 1', 'class B:', '    def m(self):', '        return 1', ''].join('\n');
    assert.throws(() => patched(same, '@@ def m(self):', '-        return 1', '+        return 3'), /found only ignoring indentation, at lines 2, 5, and the chunk fits after 2 of them \(lines 2, 5\)/);
  });

  it('refuses when the chunk fits after none of the loose matches', () => {
    assert.throws(() => patched(TWO_CLASSES, '@@ def m(self):', '-        return 3', '+        return 4'), /the chunk's lines fit after none of them/);
  });

  it('refuses a chunk of added lines only under an ambiguous loose "@@" line: nothing pins it', () => {
    assert.throws(() => patched(TWO_CLASSES, '@@ def m(self):', '+        pass'), /fits after 2 of them/);
  });

  it('keeps chunk order: a later chunk is looked for after the previous one', () => {
    const out = patched(TWO_CLASSES, '@@ def m(self):', '-        return 1', '+        return 10', '@@ def m(self):', '-        return 2', '+        return 20');
    assert.equal(out, TWO_CLASSES.replace('return 1\n', 'return 10\n').replace('return 2\n', 'return 20\n'));
  });

  it('still takes the first exact match of an "@@" line, as before', () => {
    const file = ['def m():', '    a', 'def m():', '    a', ''].join('\n');
    assert.equal(patched(file, '@@ def m():', '-    a', '+    b'), ['def m():', '    b', 'def m():', '    a', ''].join('\n'));
  });
});

describe('edit placement: re-indentation line by line', () => {
  it('keeps the relative indentation of a multi-line new_string matched ignoring indentation (the block takes its first line\'s shift)', () => {
    assert.equal(edited('  hello\n    world\n', 'hello\nworld', 'goodbye\nmoon'), '  goodbye\n  moon\n');
  });

  it('rebases a replaced line by the shift of the line it replaces, without double indenting', () => {
    assert.equal(edited('    if (a) {\n        foo();\n    }\n', 'if (a) {\n    foo();\n}', 'if (a) {\n    bar();\n}'), '    if (a) {\n        bar();\n    }\n');
  });

  it('indents a pure insertion by its neighbour above, not by a shift seen two lines away', () => {
    // Lines 1 and 2 moved by different amounts in the file; the inserted line follows line 2.
    const file = 'def f():\n        x = 1\n    y = 2\n    z = 3\n';
    const out = edited(file, 'def f():\n    x = 1\n    y = 2\n    z = 3', 'def f():\n    x = 1\n    y = 2\n    w = 0\n    z = 3');
    assert.equal(out, 'def f():\n        x = 1\n    y = 2\n    w = 0\n    z = 3\n');
  });

  it('indents an insertion at the top of a region by the line below it', () => {
    const out = edited('\tif x:\n\t\treturn 1\n', 'if x:\n    return 1', '# check\nif x:\n    return 1');
    assert.equal(out, '\t# check\n\tif x:\n\t\treturn 1\n');
  });

  it('re-indents added lines of a patch chunk per hunk, with tabs in the file', () => {
    const file = 'func f() {\n\tif a {\n\t\tb()\n\t}\n}\n';
    const out = patched(file, '@@', ' func f() {', '     if a {', '-        b()', '+        c()', '+        d()', '     }');
    assert.equal(out, 'func f() {\n\tif a {\n\t\tc()\n\t\td()\n\t}\n}\n');
  });
});
