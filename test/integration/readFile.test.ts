// workspace_read_file in the real extension host, called through vscode.lm.invokeTool.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { copyFixture, invoke, invokeError, workspaceRoot } from './support/tools';

describe('workspace_read_file (extension host)', () => {
  before(() => {
    for (const name of ['hundred.txt', 'crlf.txt', 'utf8-bom.txt', 'utf16le.txt', 'utf16be.txt', 'red.png', 'two-pages.pdf', 'binary.bin', 'long-line.txt', 'empty.txt']) {
      copyFixture(name, `read/${name}`);
    }
  });

  it('is registered with the Language Model Tools API with its schema', () => {
    const tool = vscode.lm.tools.find((candidate) => candidate.name === 'workspace_read_file');
    assert.ok(tool, 'workspace_read_file is not in vscode.lm.tools');
    assert.deepStrictEqual((tool.inputSchema as { required: string[] }).required, ['file_path']);
  });

  it('registers all sixteen tools', () => {
    const names = vscode.lm.tools.map((tool) => tool.name).filter((name) => name.startsWith('workspace_')).sort();
    assert.deepStrictEqual(names, ['workspace_apply_patch', 'workspace_command_output', 'workspace_diagnostics', 'workspace_edit_file', 'workspace_find', 'workspace_glob', 'workspace_grep', 'workspace_list_directory', 'workspace_read_file', 'workspace_rename_symbol', 'workspace_review_status', 'workspace_run_command', 'workspace_send_input', 'workspace_stop_command', 'workspace_symbols', 'workspace_write_file']);
  });

  it('returns cat -n numbered lines with a continuation footer', async () => {
    const { text } = await invoke('workspace_read_file', { file_path: 'read/hundred.txt', offset: 98, limit: 2 });
    assert.strictEqual(text, '    98\tline 98\n    99\tline 99\n\n[Showing lines 98-99 of 100. Use offset=100 to read more.]');
  });

  it('accepts absolute paths and reports workspace-relative ones', async () => {
    const { text } = await invoke('workspace_read_file', { file_path: path.join(workspaceRoot(), 'read/empty.txt') });
    assert.strictEqual(text, 'read/empty.txt is empty (0 bytes).');
  });

  it('decodes CRLF, UTF-8 BOM, UTF-16 LE and BE files', async () => {
    assert.strictEqual((await invoke('workspace_read_file', { file_path: 'read/crlf.txt' })).text, '     1\tfirst line\n     2\tsecond line\n     3\tthird line');
    assert.strictEqual((await invoke('workspace_read_file', { file_path: 'read/utf8-bom.txt' })).text, '     1\théllo bom\n     2\tline two');
    assert.strictEqual((await invoke('workspace_read_file', { file_path: 'read/utf16le.txt' })).text, '     1\tcafé utf16le\n     2\tsecond ☃');
    assert.strictEqual((await invoke('workspace_read_file', { file_path: 'read/utf16be.txt' })).text, '     1\tcafé utf16be\n     2\tsecond ☃');
  });

  it('cuts lines over 2000 characters', async () => {
    const { text } = await invoke('workspace_read_file', { file_path: 'read/long-line.txt' });
    assert.match(text, /^     2\tx{2000}… \[line truncated: 3000 more characters\]$/m);
  });

  it('returns a PNG as an image data part', async () => {
    const { parts } = await invoke('workspace_read_file', { file_path: 'read/red.png' });
    const image = parts.find((part) => part && typeof part === 'object' && 'mimeType' in part) as { mimeType: string; data: Uint8Array } | undefined;
    assert.ok(image, `no image part in ${JSON.stringify(parts).slice(0, 300)}`);
    assert.strictEqual(image.mimeType, 'image/png');
    assert.deepStrictEqual(Buffer.from(image.data), fs.readFileSync(path.join(workspaceRoot(), 'read/red.png')));
  });

  it('returns PDF text per page', async () => {
    const { text } = await invoke('workspace_read_file', { file_path: 'read/two-pages.pdf' });
    assert.match(text, /--- Page 1 of 2 ---\nHello from page one/);
    assert.match(text, /--- Page 2 of 2 ---\nSecond page says goodbye/);
  });

  it('refuses other binary files with their size', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: 'read/binary.bin' }), /read\/binary\.bin is a binary file \(1\.0 KB\)/);
  });

  it('refuses a directory with a hint to list it', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: 'read' }), /is a directory, not a file\. Use workspace_list_directory/);
  });

  it('rejects inputs the schema does not allow, and names a top-level field it left out (a client\'s own, such as Gemini CLI\'s wait_for_previous)', async () => {
    assert.match(await invokeError('workspace_read_file', { file_path: 42 }), /file_path must be string/);
    const { text } = await invoke('workspace_read_file', { file_path: 'read/crlf.txt', wait_for_previous: true });
    assert.match(text, /\[workspace_read_file ignored a field it does not take: "wait_for_previous"\. Its fields: file_path, offset, limit, char_offset, char_limit\.\]$/);
  });

  it('reads unsaved editor text and says so', async () => {
    const uri = vscode.Uri.file(path.join(workspaceRoot(), 'read/crlf.txt'));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), 'typed but not saved\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      assert.ok(document.isDirty);
      const { text } = await invoke('workspace_read_file', { file_path: 'read/crlf.txt', limit: 2 });
      assert.match(text, /unsaved changes in the editor/);
      assert.match(text, /     1\ttyped but not saved\n     2\tfirst line/);
      assert.strictEqual(fs.readFileSync(uri.fsPath, 'utf8'), 'first line\r\nsecond line\r\nthird line\r\n', 'the file on disk must not change');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
