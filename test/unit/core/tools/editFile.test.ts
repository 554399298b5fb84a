import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { editFileTool } from '../../../../src/core/tools/editFile';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { writingWorkspace } from '../../support/writingWorkspace';

describe('tools/editFile', () => {
  const workspace = writingWorkspace();
  const { file, bytes, withOptions, run, read } = workspace;

  it('shows the changed lines of an edit with their numbers', async () => {
    const text = await run(editFileTool, { file_path: 'crlf.txt', old_string: 'beta', new_string: 'BETA\nbeta2' });
    assert.equal(text, 'Edited crlf.txt: 1 replacement(s)\n     2\tBETA\n     3\tbeta2');
  });

  it('edits a CRLF file and keeps CRLF', async () => {
    await run(editFileTool, { file_path: 'crlf.txt', old_string: 'beta', new_string: 'BETA\nbeta2' });
    assert.equal(bytes('crlf.txt').toString('latin1'), 'alpha\r\nBETA\r\nbeta2\r\ngamma\r\n');
  });

  it('keeps the other lines of a mixed file byte-identical', async () => {
    await run(editFileTool, { file_path: 'mixed.txt', old_string: 'three', new_string: 'THREE' });
    assert.equal(bytes('mixed.txt').toString('latin1'), 'one\r\ntwo\nTHREE\r\nfour\r\n');
  });

  it('keeps a missing final newline', async () => {
    await run(editFileTool, { file_path: 'no-final-newline.txt', old_string: 'last', new_string: 'LAST' });
    assert.equal(bytes('no-final-newline.txt').toString(), 'first\nLAST');
  });

  it('keeps the BOM and UTF-16 encoding', async () => {
    await run(editFileTool, { file_path: 'utf16be.txt', old_string: 'second', new_string: 'zweite' });
    assert.deepEqual(bytes('utf16be.txt'), Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('first ☃\nzweite\n', 'utf16le').swap16()]));
  });

  it('edits a file it has not read when old_string matches exactly once', async () => {
    assert.equal(await run(editFileTool, { file_path: 'plain.txt', old_string: 'three', new_string: 'THREE' }), 'Edited plain.txt: 1 replacement(s)\n     3\tTHREE');
  });

  it("words a single edit's error as old_string's own, without an index into edits", async () => {
    const error = await run(editFileTool, { file_path: 'plain.txt', old_string: 'no such text', new_string: 'x' }).then(() => '', (e: Error) => e.message);
    assert.match(error, /^old_string was not found in plain\.txt/);
    assert.doesNotMatch(error, /edits\[0\]|edit 1 of 1/);
  });

  it('refuses an ambiguous match with the line numbers', async () => {
    fs.writeFileSync(file('dup.txt'), 'x = 1\ny\nx = 1\n');
    await assert.rejects(run(editFileTool, { file_path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 2' }), /occurs 2 times in dup\.txt, starting at lines 1, 3/);
  });

  it('reports a tolerant match', async () => {
    fs.writeFileSync(file('ws.txt'), 'a = 1   \nb = 2\n');
    const text = await run(editFileTool, { file_path: 'ws.txt', old_string: 'a = 1\nb = 2', new_string: 'a = 1\nb = 3' });
    assert.match(text, /\(old_string matched ignoring trailing whitespace\.\)/);
    assert.equal(bytes('ws.txt').toString(), 'a = 1   \nb = 3\n');
  });

  it('accepts an edit of a file changed since it was read when old_string still matches exactly once', async () => {
    await read('plain.txt');
    fs.writeFileSync(file('plain.txt'), 'zero\none\ntwo\nthree\n');
    await run(editFileTool, { file_path: 'plain.txt', old_string: 'two', new_string: 'TWO' });
    assert.equal(bytes('plain.txt').toString(), 'zero\none\nTWO\nthree\n');
  });

  it('refuses a loose match in a file changed since it was read', async () => {
    await read('plain.txt');
    fs.writeFileSync(file('plain.txt'), 'one  \ntwo\n');
    await assert.rejects(run(editFileTool, { file_path: 'plain.txt', old_string: 'one\ntwo', new_string: 'x' }), /has changed since you last read it/);
  });

  it("edits the editor's unsaved text, not the file on disk", async () => {
    withOptions({ dirty: new Map([[file('plain.txt'), 'one\ntwo (typed)\nthree\n']]) });
    await run(editFileTool, { file_path: 'plain.txt', old_string: 'one', new_string: 'ONE' });
    assert.equal(Buffer.from(workspace.applier.applied[0].files[0].after?.bytes ?? []).toString(), 'ONE\ntwo (typed)\nthree\n');
  });

  it('creates a missing file from an empty old_string', async () => {
    assert.equal(await run(editFileTool, { file_path: 'made.txt', old_string: '', new_string: 'hi\n' }), 'Created made.txt (1 lines)');
  });

  it('refuses a file that is not valid UTF-8 rather than corrupting it', async () => {
    await assert.rejects(run(editFileTool, { file_path: 'latin1.txt', old_string: 'caf', new_string: 'CAF' }), /not valid UTF-8/);
  });

  it('is refused in an untrusted workspace, like the other writing tools', async () => {
    withOptions({ workspace: { trusted: false } });
    await assert.rejects(invokeTool(editFileTool, { file_path: 'plain.txt', old_string: 'one', new_string: 'ONE' }, workspace.ctx), /not trusted \(Restricted Mode\)/);
    assert.equal(workspace.applier.reviewed.length, 0);
  });

  describe('a notebook cell (cell)', () => {
    const NOTEBOOK = fs.readFileSync(`${__dirname}/../../../../../test/fixtures/files/cells.ipynb`, 'utf8');
    beforeEach(() => fs.writeFileSync(file('nb.ipynb'), NOTEBOOK));

    it("edits one cell's text and plans the cell for a notebook editor, every other byte kept", async () => {
      assert.equal(await run(editFileTool, { file_path: 'nb.ipynb', cell: 1, old_string: 'value = 42', new_string: 'value = 43' }), 'Edited nb.ipynb cell 1: 1 replacement(s)\n     1\tvalue = 43');
      assert.equal(bytes('nb.ipynb').toString(), NOTEBOOK.replace('"value = 42\\n"', '"value = 43\\n"'));
      assert.deepEqual(workspace.applier.applied[0].files[0].notebookCell, { index: 1, text: 'value = 43\nprint(f"hello {value}")' });
    });

    it("edits the notebook editor's unsaved cell text, and keeps the unsaved text of the other cells", async () => {
      withOptions({ dirtyNotebooks: new Map([[file('nb.ipynb'), ['# Title (typed)\nSome text', 'value = 42\nprint(value)']]]) });
      await run(editFileTool, { file_path: 'nb.ipynb', cell: 1, old_string: 'value = 42', new_string: 'value = 43' });
      const planned = workspace.applier.applied[0].files[0];
      assert.equal(planned.before?.fromEditor, true);
      assert.deepEqual(planned.notebookCell, { index: 1, text: 'value = 43\nprint(value)' });
      const after = Buffer.from(planned.after?.bytes ?? []).toString();
      assert.match(after, /"# Title \(typed\)\\n",\n {4}"Some text"/);
      assert.match(after, /"value = 43\\n",\n {4}"print\(value\)"/);
      assert.match(after, /"image\/png": "iVBOR/);
    });

    it('refuses, changing nothing, when the unsaved notebook has cells added or removed', async () => {
      withOptions({ dirtyNotebooks: new Map([[file('nb.ipynb'), ['# Title', 'value = 42', 'a new cell']]]) });
      await assert.rejects(run(editFileTool, { file_path: 'nb.ipynb', cell: 1, old_string: 'value = 42', new_string: 'value = 43' }), /open in a notebook editor with unsaved changes that add or remove cells \(3 cells in the editor, 2 in the file\)\. Ask the user to save the notebook/);
      assert.equal(workspace.applier.reviewed.length, 0);
      assert.equal(bytes('nb.ipynb').toString(), NOTEBOOK);
    });

    it("reads a notebook with unsaved cells as the editor holds it, and an edit of what it showed is fresh", async () => {
      withOptions({ dirtyNotebooks: new Map([[file('nb.ipynb'), ['# Title', 'value = 7']]]) });
      const shown = await read('nb.ipynb');
      assert.match(shown, /^\[nb\.ipynb has unsaved changes in the notebook editor; showing the editor's cells, not the file on disk\.\]\n/);
      assert.match(shown, /^\[cell 1\] code python\n {5}1\tvalue = 7$/m);
      assert.equal(await run(editFileTool, { file_path: 'nb.ipynb', cell: 1, old_string: 'value = 7', new_string: 'value = 8' }), 'Edited nb.ipynb cell 1: 1 replacement(s)\n     1\tvalue = 8');
    });
  });

  describe('several edits in one call (edits)', () => {
    it('applies them in order as one reviewed change and shows every changed line', async () => {
      const text = await run(editFileTool, { file_path: 'crlf.txt', edits: [{ old_string: 'alpha', new_string: 'ALPHA' }, { old_string: 'gamma', new_string: 'GAMMA\ndelta' }] });
      assert.equal(text, 'Edited crlf.txt: 2 replacement(s)\n     1\tALPHA\n...\n     3\tGAMMA\n     4\tdelta');
      assert.equal(workspace.applier.reviewed.length, 1);
      assert.equal(bytes('crlf.txt').toString('latin1'), 'ALPHA\r\nbeta\r\nGAMMA\r\ndelta\r\n');
    });

    it('names the failing edit and writes nothing', async () => {
      await assert.rejects(
        run(editFileTool, { file_path: 'plain.txt', edits: [{ old_string: 'one', new_string: 'ONE' }, { old_string: 'zwei', new_string: 'TWO' }, { old_string: 'three', new_string: 'THREE' }] }),
        /edits\[1\] \(edit 2 of 3\) failed, so none of the 3 edits was made: old_string was not found in plain\.txt/,
      );
      assert.equal(workspace.applier.reviewed.length, 0);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('reports the match level of each edit that did not match exactly', async () => {
      fs.writeFileSync(file('ws.txt'), 'a = 1   \nb = 2\nc = 3\n');
      const text = await run(editFileTool, { file_path: 'ws.txt', edits: [{ old_string: 'c = 3', new_string: 'c = 4' }, { old_string: 'a = 1\nb = 2', new_string: 'a = 0\nb = 2' }] });
      assert.match(text, /^Edited ws\.txt: 2 replacement\(s\)\n\(edits\[1\] \(edit 2 of 2\): old_string matched ignoring trailing whitespace\.\)\n/);
      assert.equal(bytes('ws.txt').toString(), 'a = 0\nb = 2\nc = 4\n');
    });

    it('refuses an edit that overlaps the text an earlier edit wrote, naming both', async () => {
      await assert.rejects(
        run(editFileTool, { file_path: 'plain.txt', edits: [{ old_string: 'two', new_string: 'TWO' }, { old_string: 'TWO\nthree', new_string: 'x' }] }),
        /edits\[1\] \(edit 2 of 2\) overlaps the text that edits\[0\] \(edit 1 of 2\) wrote \(line 2 of plain\.txt/,
      );
      assert.equal(workspace.applier.reviewed.length, 0);
    });

    it('creates a missing file from a first edit with an empty old_string and edits it with the rest', async () => {
      assert.equal(await run(editFileTool, { file_path: 'made.txt', edits: [{ old_string: '', new_string: 'a\nb\n' }, { old_string: 'b', new_string: 'B' }] }), 'Created made.txt (2 lines)');
      assert.equal(bytes('made.txt').toString(), 'a\nB\n');
    });

    it('refuses old_string together with edits, naming both', async () => {
      await assert.rejects(run(editFileTool, { file_path: 'plain.txt', old_string: 'one', new_string: 'ONE', edits: [{ old_string: 'two', new_string: 'TWO' }] }), /give either old_string and new_string \(one edit\) or edits \(several\), not both/);
    });

    it('refuses an empty edits list and a call with neither form', async () => {
      await assert.rejects(run(editFileTool, { file_path: 'plain.txt', edits: [] }), /edits is empty/);
      await assert.rejects(run(editFileTool, { file_path: 'plain.txt' }), /missing required field old_string and new_string \(or edits\)/);
      await assert.rejects(run(editFileTool, { file_path: 'plain.txt', old_string: 'one' }), /missing required field new_string/);
    });

    it('refuses an edit item without new_string through the schema', async () => {
      await assert.rejects(run(editFileTool, { file_path: 'plain.txt', edits: [{ old_string: 'one' }] }), /edits\.0 must have required property 'new_string'|missing required field "new_string"/);
    });
  });
});
