import * as assert from 'node:assert/strict';
import { parsePatch } from '../../../../src/core/edit/patchParser';

const wrap = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('edit/patchParser', () => {
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
});
