// "Changed since read" means the content changed (issue 23, item 5): a file whose bytes are the same
// (only touched, saved unchanged, checked out identically) or whose line endings alone git rewrote
// is what the agent read; an edit of it keeps the line endings it has now.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { editFileTool } from '../../../../src/core/tools/editFile';
import { writeFileTool } from '../../../../src/core/tools/writeFile';
import { writingWorkspace } from '../../support/writingWorkspace';

describe('tools: no false "changed since you last read it"', () => {
  const workspace = writingWorkspace();
  const { file, bytes, run, read } = workspace;
  const later = (name: string): void => {
    const when = new Date(Date.now() + 60_000);
    fs.utimesSync(file(name), when, when);
  };

  it('overwrites a file whose modification time alone changed since it was read (touch, a save that changed nothing)', async () => {
    await read('plain.txt');
    later('plain.txt');
    assert.match(await run(writeFileTool, { file_path: 'plain.txt', content: 'new\n' }), /^Updated plain\.txt/);
  });

  it('overwrites a large file (read in a stream) whose modification time alone changed', async () => {
    fs.writeFileSync(file('large.txt'), 'line of a large file\n'.repeat(100_000));
    await read('large.txt');
    later('large.txt');
    assert.match(await run(writeFileTool, { file_path: 'large.txt', content: 'short now\n' }), /^Updated large\.txt/);
  });

  it("takes a file whose line endings alone were rewritten (git's autocrlf) as read, and a loose edit keeps its CRLF", async () => {
    fs.writeFileSync(file('eol.txt'), 'def f():\n    return 1\n');
    await read('eol.txt');
    fs.writeFileSync(file('eol.txt'), 'def f():\r\n    return 1\r\n');
    // Matched ignoring indentation, which a file changed since it was read would refuse.
    const text = await run(editFileTool, { file_path: 'eol.txt', old_string: 'def f():\n  return 1', new_string: 'def f():\n  return 2' });
    assert.match(text, /^Edited eol\.txt: 1 replacement/);
    assert.equal(bytes('eol.txt').toString(), 'def f():\r\n    return 2\r\n');
  });

  it('still refuses to overwrite a file whose content changed since it was read', async () => {
    await read('plain.txt');
    fs.writeFileSync(file('plain.txt'), 'someone else wrote this\n');
    await assert.rejects(run(writeFileTool, { file_path: 'plain.txt', content: 'new\n' }), /has changed since you last read it/);
    assert.equal(bytes('plain.txt').toString(), 'someone else wrote this\n');
  });

  it('still refuses when the line endings changed together with the text', async () => {
    fs.writeFileSync(file('eol.txt'), 'a\nb\n');
    await read('eol.txt');
    fs.writeFileSync(file('eol.txt'), 'a\r\nc\r\n');
    await assert.rejects(run(writeFileTool, { file_path: 'eol.txt', content: 'x\n' }), /has changed since you last read it/);
  });
});
