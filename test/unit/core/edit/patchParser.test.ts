import * as assert from 'node:assert/strict';
import { parsePatch } from '../../../../src/core/edit/patchParser';

const wrap = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('edit/patchParser', () => {
  it('parses Add, Delete, Update with Move to, @@ context and several chunks', () => {
    const operations = parsePatch(wrap('*** Add File: a.txt', '+x', '*** Delete File: b.txt', '*** Update File: c.txt', '*** Move to: d.txt', '@@ def f():', ' keep', '-old', '+new', '@@', '-z', '*** End of File'));
    assert.deepEqual(operations.tolerated, []);
    assert.deepEqual(operations.operations, [
      { kind: 'add', path: 'a.txt', content: 'x\n' },
      { kind: 'delete', path: 'b.txt' },
      {
        kind: 'update',
        path: 'c.txt',
        moveTo: 'd.txt',
        chunks: [
          { anchors: ['def f():'], oldLines: ['keep', 'old'], newLines: ['keep', 'new'], endOfFile: false, patchLine: 7, trailingBareBlanks: 0 },
          { anchors: [], oldLines: ['z'], newLines: [], endOfFile: true, patchLine: 11, trailingBareBlanks: 0 },
        ],
      },
    ]);
  });

  it('accepts a patch wrapped in a shell heredoc and CRLF patch text', () => {
    const operations = parsePatch(`apply_patch <<'EOF'\r\n${wrap('*** Add File: a.txt', '+x').replace(/\n/g, '\r\n')}\r\nEOF\r\n`);
    assert.deepEqual(operations, { operations: [{ kind: 'add', path: 'a.txt', content: 'x\n' }], tolerated: [] });
  });

  it('refuses an unknown "***" line inside a chunk and names its patch line', () => {
    assert.throws(() => parsePatch(wrap('*** Update File: a.txt', '@@', '-x', '*** Update file: b.txt')), /line 5 \("\*\*\* Update file: b\.txt"\) in "\*\*\* Update File: a\.txt" is not a known "\*\*\*" or "@@" line/);
  });

  it('refuses an Add File line without "+"', () => {
    assert.throws(() => parsePatch(wrap('*** Add File: a.txt', 'no plus')), /line 3 of the patch is inside "\*\*\* Add File: a\.txt" but does not start with "\+"/);
  });

  it('refuses text after "*** End Patch"', () => {
    assert.throws(() => parsePatch(`${wrap('*** Add File: a.txt', '+x')}\n*** Begin Patch\n*** Add File: b.txt\n+y`), /line 4: "\*\*\* End Patch" must be the last line/);
  });

  describe('blank lines between sections are separators, never chunks', () => {
    const chunk = { anchors: [], oldLines: ['x'], newLines: ['X'], endOfFile: false, trailingBareBlanks: 0 };

    it('skips a blank line after "*** Update File:"', () => {
      assert.deepEqual(parsePatch(wrap('*** Update File: a.txt', '', '@@', '-x', '+X')).operations, [{ kind: 'update', path: 'a.txt', moveTo: undefined, chunks: [{ ...chunk, patchLine: 4 }] }]);
    });

    it('skips blank lines around "*** Move to:"', () => {
      assert.deepEqual(parsePatch(wrap('*** Update File: a.txt', '', '*** Move to: b.txt', '', '-x', '+X')).operations, [{ kind: 'update', path: 'a.txt', moveTo: 'b.txt', chunks: [{ ...chunk, patchLine: 6 }] }]);
    });

    it('skips a blank line after "*** End of File" and before the next section', () => {
      const { operations } = parsePatch(wrap('*** Update File: a.txt', '@@', '-x', '+X', '*** End of File', '', '*** Delete File: b.txt'));
      assert.deepEqual(operations, [
        { kind: 'update', path: 'a.txt', moveTo: undefined, chunks: [{ ...chunk, endOfFile: true, patchLine: 3 }] },
        { kind: 'delete', path: 'b.txt' },
      ]);
    });

    it('keeps a bare blank line inside a chunk as an empty line, and counts the ones at its end', () => {
      const [update] = parsePatch(wrap('*** Update File: a.txt', '@@', ' a', '', '-x', '+X', '', '', '*** Delete File: b.txt')).operations;
      assert.ok(update.kind === 'update');
      assert.deepEqual(update.chunks[0], { anchors: [], oldLines: ['a', '', 'x', '', ''], newLines: ['a', '', 'X', '', ''], endOfFile: false, patchLine: 3, trailingBareBlanks: 2 });
    });

    it('drops blank lines around an added file', () => {
      assert.deepEqual(parsePatch(wrap('*** Add File: a.txt', '', '+x', '+y', '', '*** Delete File: b.txt')).operations[0], { kind: 'add', path: 'a.txt', content: 'x\ny\n' });
    });
  });

  it('stacks consecutive "@@" lines as anchors, outermost first', () => {
    const [update] = parsePatch(wrap('*** Update File: a.py', '@@ class B:', '@@     def m(self):', '-        return 1', '+        return 2')).operations;
    assert.ok(update.kind === 'update');
    assert.deepEqual(update.chunks.map((chunk) => chunk.anchors), [['class B:', '    def m(self):']]);
  });

  it('refuses an "@@" chunk with no lines', () => {
    assert.throws(() => parsePatch(wrap('*** Update File: a.txt', '@@ x', '', '*** Delete File: b.txt')), /the chunk at line 3 of "\*\*\* Update File: a\.txt" has no lines/);
  });

  describe('tolerated slips, each reported', () => {
    it('reads a chunk line without its leading space as an unchanged line', () => {
      const { operations, tolerated } = parsePatch(wrap('*** Update File: a.txt', '@@', 'keep', '-x', '+X'));
      assert.ok(operations[0].kind === 'update');
      assert.deepEqual(operations[0].chunks[0].oldLines, ['keep', 'x']);
      assert.deepEqual(tolerated, ['Line 4 ("keep") had no leading " ", "-" or "+"; it was read as an unchanged line.']);
    });

    it('reads a patch without "*** End Patch" to its last line', () => {
      const { operations, tolerated } = parsePatch('*** Begin Patch\n*** Add File: a.txt\n+x\n');
      assert.deepEqual(operations, [{ kind: 'add', path: 'a.txt', content: 'x\n' }]);
      assert.deepEqual(tolerated, ['The patch had no "*** End Patch" line; it was read to its last line.']);
    });

    it('ignores the line numbers of a unified-diff "@@ -a,b +c,d @@" line and keeps the text after it as the anchor', () => {
      const { operations, tolerated } = parsePatch(wrap('*** Update File: a.py', '@@ -10,3 +10,3 @@ def f():', '-x', '+y'));
      assert.ok(operations[0].kind === 'update');
      assert.deepEqual(operations[0].chunks[0].anchors, ['def f():']);
      assert.match(tolerated[0], /^Line 3: the line numbers of "@@ -10,3 \+10,3 @@ def f\(\):" were ignored/);
    });

    it('reads a blank line between the lines of an added file as an empty line', () => {
      const { operations, tolerated } = parsePatch(wrap('*** Add File: a.txt', '+x', '', '+y'));
      assert.deepEqual(operations, [{ kind: 'add', path: 'a.txt', content: 'x\n\ny\n' }]);
      assert.equal(tolerated.length, 1);
    });
  });
});
