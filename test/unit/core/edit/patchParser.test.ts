import * as assert from 'node:assert/strict';
import { splitLines, joinLines } from '../../../../src/core/text/lineEndings';
import { parsePatch } from '../../../../src/core/edit/patchParser';
import { planPatch } from '../../../../src/core/edit/patchPlanner';

const wrap = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

function updated(file: string, ...body: string[]): string {
  const [planned] = planPatch(parsePatch(wrap('*** Update File: f.txt', ...body)), { state: () => ({ kind: 'file', lines: splitLines(file) }), key: (p) => p });
  assert.ok(planned.kind === 'update');
  return joinLines(planned.lines);
}

describe('patch parser and planner details', () => {
  it('parses Add, Delete, Update with Move to, @@ context and several chunks', () => {
    const operations = parsePatch(wrap('*** Add File: a.txt', '+x', '*** Delete File: b.txt', '*** Update File: c.txt', '*** Move to: d.txt', '@@ def f():', ' keep', '-old', '+new', '@@', '-z', '*** End of File'));
    assert.deepEqual(operations, [
      { kind: 'add', path: 'a.txt', content: 'x\n' },
      { kind: 'delete', path: 'b.txt' },
      {
        kind: 'update',
        path: 'c.txt',
        moveTo: 'd.txt',
        chunks: [
          { context: 'def f():', oldLines: ['keep', 'old'], newLines: ['keep', 'new'], endOfFile: false, patchLine: 7 },
          { context: undefined, oldLines: ['z'], newLines: [], endOfFile: true, patchLine: 11 },
        ],
      },
    ]);
  });

  it('accepts a patch wrapped in a shell heredoc and CRLF patch text', () => {
    const operations = parsePatch(`apply_patch <<'EOF'\r\n${wrap('*** Add File: a.txt', '+x').replace(/\n/g, '\r\n')}\r\nEOF\r\n`);
    assert.deepEqual(operations, [{ kind: 'add', path: 'a.txt', content: 'x\n' }]);
  });

  it('names the patch line of a line without a prefix', () => {
    assert.throws(() => parsePatch(wrap('*** Update File: a.txt', '@@', '-x', 'oops')), /line 5 \("oops"\) in "\*\*\* Update File: a\.txt" must start with/);
  });

  it('refuses an Add File line without "+"', () => {
    assert.throws(() => parsePatch(wrap('*** Add File: a.txt', 'no plus')), /line 3 of the patch is inside "\*\*\* Add File: a\.txt" but does not start with "\+"/);
  });

  it('locates a chunk after its @@ context line, skipping an identical earlier block', () => {
    const file = 'def a():\n    return 1\ndef b():\n    return 1\n';
    assert.equal(updated(file, '@@ def b():', '-    return 1', '+    return 2'), 'def a():\n    return 1\ndef b():\n    return 2\n');
  });

  it('inserts added-only lines right after their @@ context line', () => {
    assert.equal(updated('a\nb\nc\n', '@@ a', '+inserted'), 'a\ninserted\nb\nc\n');
  });

  it('anchors an End of File chunk at the end', () => {
    assert.equal(updated('x\nend\nx\nend\n', '@@', ' x', '-end', '+END', '*** End of File'), 'x\nend\nx\nEND\n');
  });

  it('keeps a missing final newline when the last line changes or lines are appended', () => {
    assert.equal(updated('a\nb', '@@', ' a', '-b', '+B'), 'a\nB');
    assert.equal(updated('a\nb', '@@', '+c'), 'a\nb\nc');
  });

  it('matches context loosely (trailing whitespace) but keeps the file text of context lines', () => {
    assert.equal(updated('keep   \nold\n', '@@', ' keep', '-old', '+new'), 'keep   \nnew\n');
  });

  it('refuses a loose match that fits several places', () => {
    assert.throws(() => updated('x  \ny\nx \ny\n', '@@', '-x', '+z'), /match several places only when whitespace or punctuation is ignored/);
  });

  it('refuses two sections for one file', () => {
    assert.throws(
      () => planPatch(parsePatch(wrap('*** Delete File: a.txt', '*** Add File: a.txt', '+x')), { state: () => ({ kind: 'file', lines: [] }), key: (p) => p }),
      /touches a\.txt twice/,
    );
  });
});
