import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyPatchTool } from '../../../../src/core/tools/applyPatch';
import { editFileTool } from '../../../../src/core/tools/editFile';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { readFileTool } from '../../../../src/core/tools/readFile';
import type { Tool } from '../../../../src/core/tools/toolSpec';
import { writeFileTool } from '../../../../src/core/tools/writeFile';
import { RecordingChangeApplier } from '../../support/changeApplier';
import { callTool, resultText, testContext, type TestContextOptions } from '../../support/context';
import { fixturePath } from '../../support/paths';

const FIXTURES = fixturePath('workspace/writing');

describe('writing tools (core, over the local disk)', () => {
  let root: string;
  let applier: RecordingChangeApplier;
  let ctx: ReturnType<typeof testContext>;
  const file = (name: string): string => path.join(root, name);
  const bytes = (name: string): Buffer => fs.readFileSync(file(name));

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-write-'));
    fs.cpSync(FIXTURES, root, { recursive: true });
    applier = new RecordingChangeApplier(true);
    ctx = testContext({ root, changes: applier });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const withOptions = (options: Partial<TestContextOptions>): void => {
    ctx = testContext({ root, changes: applier, reads: ctx.session.reads, ...options });
  };
  const run = async (tool: Tool, input: object): Promise<string> => resultText(await callTool(tool, input, ctx));
  const read = (name: string): Promise<string> => run(readFileTool, { file_path: name });

  describe('workspace_write_file', () => {
    it('creates a file and its parent folders and reports the line count', async () => {
      assert.equal(await run(writeFileTool, { file_path: 'new/deep/a.txt', content: 'x\ny\n' }), 'Created new/deep/a.txt (2 lines)');
      assert.equal(fs.readFileSync(file('new/deep/a.txt'), 'utf8'), 'x\ny\n');
    });

    it('refuses to overwrite an existing file the agent has not read', async () => {
      await assert.rejects(run(writeFileTool, { file_path: 'plain.txt', content: 'gone\n' }), /plain\.txt already exists and you have not read it\. Read it with workspace_read_file first/);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('refuses to overwrite a file that changed since it was read', async () => {
      await read('plain.txt');
      fs.writeFileSync(file('plain.txt'), 'someone else\n');
      await assert.rejects(run(writeFileTool, { file_path: 'plain.txt', content: 'mine\n' }), /has changed since you last read it.*Read it again/);
      assert.equal(bytes('plain.txt').toString(), 'someone else\n');
    });

    it('overwrites a file it read and reports added and removed lines', async () => {
      await read('plain.txt');
      assert.equal(await run(writeFileTool, { file_path: 'plain.txt', content: 'one\nTWO\nthree\nfour\n' }), 'Updated plain.txt (+2 -1 lines)');
      assert.equal(bytes('plain.txt').toString(), 'one\nTWO\nthree\nfour\n');
    });

    it('may write again after its own write without reading again', async () => {
      await read('plain.txt');
      await run(writeFileTool, { file_path: 'plain.txt', content: 'a\n' });
      assert.equal(await run(writeFileTool, { file_path: 'plain.txt', content: 'b\n' }), 'Updated plain.txt (+1 -1 lines)');
    });

    it("may overwrite a file whose unsaved editor text it read, and refuses once the user types more", async () => {
      const dirty = new Map([[file('plain.txt'), 'one\ntwo (typed)\nthree\n']]);
      withOptions({ dirty });
      await read('plain.txt');
      assert.equal(await run(writeFileTool, { file_path: 'plain.txt', content: 'one\ntwo (typed)\nthree\nfour\n' }), 'Updated plain.txt (+1 -0 lines)');
      dirty.set(file('plain.txt'), 'one\ntwo (typed more)\nthree\nfour\n');
      await assert.rejects(run(writeFileTool, { file_path: 'plain.txt', content: 'x\n' }), /has changed since you last read it/);
    });

    it("keeps a CRLF file's line endings when the content uses LF", async () => {
      await read('crlf.txt');
      await run(writeFileTool, { file_path: 'crlf.txt', content: 'alpha\nBETA\ngamma\n' });
      assert.equal(bytes('crlf.txt').toString('latin1'), 'alpha\r\nBETA\r\ngamma\r\n');
    });

    it('keeps the UTF-8 BOM and UTF-16 encodings', async () => {
      await read('bom.txt');
      await run(writeFileTool, { file_path: 'bom.txt', content: 'héllo\nthere\n' });
      assert.deepEqual(bytes('bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nthere\n')]));
      await read('utf16le.txt');
      await run(writeFileTool, { file_path: 'utf16le.txt', content: 'first ☃\nthird\n' });
      assert.deepEqual(bytes('utf16le.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first ☃\r\nthird\r\n', 'utf16le')]));
    });

    it('leaves the file byte-identical and tells the model when the user rejects', async () => {
      await read('plain.txt');
      applier.accept = false;
      await assert.rejects(run(writeFileTool, { file_path: 'plain.txt', content: 'x\n' }), /The user rejected the change to plain\.txt; nothing was written/);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('shows creating .vscode/settings.json for review even where auto-approve would skip it, naming the rule', async () => {
      await run(writeFileTool, { file_path: '.vscode/settings.json', content: '{}\n' });
      assert.match(applier.reviewed[0].files[0].alwaysAsk ?? '', /^file\.execution_config_write: /);
    });

    it('reports the rule when the user rejects a warned change', async () => {
      applier.accept = false;
      await assert.rejects(run(writeFileTool, { file_path: '.vscode/tasks.json', content: '{}\n' }), /Denied by file\.execution_config_write: .*The user declined when asked/);
    });

    it('denies writes into .git with the rule id', async () => {
      fs.mkdirSync(file('.git'));
      await assert.rejects(run(writeFileTool, { file_path: '.git/HEAD', content: 'x' }), /Denied by file\.protected_file_overwrite/);
    });

    it('writes through a symlink to the target inside the workspace and keeps the link', async () => {
      fs.symlinkSync('plain.txt', file('link.txt'));
      await read('link.txt');
      await run(writeFileTool, { file_path: 'link.txt', content: 'via link\n' });
      assert.ok(fs.lstatSync(file('link.txt')).isSymbolicLink());
      assert.equal(bytes('plain.txt').toString(), 'via link\n');
    });

    it('refuses a symlink that leads outside the workspace', async () => {
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-outside-'));
      try {
        fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
        fs.symlinkSync(path.join(outside, 'secret.txt'), file('escape.txt'));
        await assert.rejects(run(writeFileTool, { file_path: 'escape.txt', content: 'x\n' }), /Denied by file\.symlink_escape_write: escape\.txt is a symbolic link .* leads outside the workspace/);
        assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'outside\n');
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    });

    it('refuses a file with several hard links at the low level', async () => {
      fs.linkSync(file('plain.txt'), file('hard.txt'));
      withOptions({ settings: { riskLevel: 'low' } });
      await assert.rejects(run(writeFileTool, { file_path: 'hard.txt', content: 'x\n' }), /^ToolError: Denied by file\.hard_link_write: hard\.txt has 2 hard links/);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('makes the user review a write to a hard-linked file, and a rejection names the rule', async () => {
      fs.linkSync(file('plain.txt'), file('hard.txt'));
      await read('hard.txt');
      applier.accept = false;
      await assert.rejects(run(writeFileTool, { file_path: 'hard.txt', content: 'x\n' }), /^ToolError: Denied by file\.hard_link_write: hard\.txt has 2 hard links.*The user declined when asked/);
      assert.match(applier.reviewed[0].files[0].alwaysAsk ?? '', /^file\.hard_link_write: /);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('is refused in an untrusted workspace, like the other writing tools', async () => {
      withOptions({ workspace: { trusted: false } });
      for (const [tool, input] of [
        [writeFileTool, { file_path: 'a.txt', content: 'x' }],
        [editFileTool, { file_path: 'plain.txt', old_string: 'one', new_string: 'ONE' }],
        [applyPatchTool, { patch: '*** Begin Patch\n*** Add File: b.txt\n+x\n*** End Patch' }],
      ] as const) {
        await assert.rejects(invokeTool(tool, input, ctx), /not trusted \(Restricted Mode\)/);
      }
      assert.equal(applier.reviewed.length, 0);
    });
  });

  describe('workspace_edit_file', () => {
    it('edits a CRLF file, keeps CRLF and shows the changed lines with numbers', async () => {
      const text = await run(editFileTool, { file_path: 'crlf.txt', old_string: 'beta', new_string: 'BETA\nbeta2' });
      assert.equal(text, 'Edited crlf.txt: 1 replacement(s)\n     2\tBETA\n     3\tbeta2');
      assert.equal(bytes('crlf.txt').toString('latin1'), 'alpha\r\nBETA\r\nbeta2\r\ngamma\r\n');
    });

    it('keeps the other lines of a mixed file and its missing final newline byte-identical', async () => {
      await run(editFileTool, { file_path: 'mixed.txt', old_string: 'three', new_string: 'THREE' });
      assert.equal(bytes('mixed.txt').toString('latin1'), 'one\r\ntwo\nTHREE\r\nfour\r\n');
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
      assert.equal(Buffer.from(applier.applied[0].files[0].after?.bytes ?? []).toString(), 'ONE\ntwo (typed)\nthree\n');
    });

    it('creates a missing file from an empty old_string', async () => {
      assert.equal(await run(editFileTool, { file_path: 'made.txt', old_string: '', new_string: 'hi\n' }), 'Created made.txt (1 lines)');
    });

    it('refuses a file that is not valid UTF-8 rather than corrupting it', async () => {
      await assert.rejects(run(editFileTool, { file_path: 'latin1.txt', old_string: 'caf', new_string: 'CAF' }), /not valid UTF-8/);
    });
  });

  describe('workspace_apply_patch', () => {
    it('adds, updates and deletes in one review and lists A, M and D', async () => {
      const patch = '*** Begin Patch\n*** Add File: added.txt\n+new\n*** Update File: crlf.txt\n@@\n alpha\n-beta\n+BETA\n*** Delete File: plain.txt\n*** End Patch';
      assert.equal(await run(applyPatchTool, { patch }), 'Success. Updated the following files:\nA added.txt\nM crlf.txt\nD plain.txt');
      assert.equal(applier.reviewed.length, 1);
      assert.equal(bytes('crlf.txt').toString('latin1'), 'alpha\r\nBETA\r\ngamma\r\n');
      assert.equal(fs.existsSync(file('plain.txt')), false);
    });

    it('changes nothing when the second file fails, and names the file and the lines', async () => {
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n@@\n-one\n+ONE\n*** Update File: crlf.txt\n@@\n-delta\n+DELTA\n*** End Patch';
      await assert.rejects(run(applyPatchTool, { patch }), /In crlf\.txt, chunk 1 of 1 \(patch line 7\): these lines were not found:\n  delta/);
      assert.equal(applier.reviewed.length, 0);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('refuses to move onto an existing file', async () => {
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n*** Move to: crlf.txt\n@@\n-one\n+ONE\n*** End Patch';
      await assert.rejects(run(applyPatchTool, { patch }), /Move to: crlf\.txt" would overwrite an existing file/);
    });

    it('moves a file and reports it under its new path', async () => {
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n*** Move to: moved/plain.txt\n@@\n-one\n+ONE\n*** End Patch';
      assert.equal(await run(applyPatchTool, { patch }), 'Success. Updated the following files:\nM moved/plain.txt');
      assert.equal(fs.existsSync(file('plain.txt')), false);
      assert.equal(bytes('moved/plain.txt').toString(), 'ONE\ntwo\nthree\n');
    });

    it('asks through file.apply_patch_delete_many for five deletions, and is denied at the low level', async () => {
      const names = ['d1', 'd2', 'd3', 'd4', 'd5'];
      names.forEach((name) => fs.writeFileSync(file(name), name));
      const patch = `*** Begin Patch\n${names.map((name) => `*** Delete File: ${name}`).join('\n')}\n*** End Patch`;
      withOptions({ settings: { riskLevel: 'low' } });
      await assert.rejects(run(applyPatchTool, { patch }), /Denied by file\.apply_patch_delete_many: The patch deletes 5 files/);
      withOptions({});
      await run(applyPatchTool, { patch });
      assert.match(applier.reviewed[0].files[0].alwaysAsk ?? '', /file\.apply_patch_delete_many/);
    });

    it('deletes a binary file', async () => {
      fs.writeFileSync(file('blob.bin'), Buffer.from([0, 1, 2, 0]));
      await run(applyPatchTool, { patch: '*** Begin Patch\n*** Delete File: blob.bin\n*** End Patch' });
      assert.equal(fs.existsSync(file('blob.bin')), false);
    });
  });
});
