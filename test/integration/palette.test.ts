// The palette command that runs any tool through vscode.lm.invokeTool and shows the result.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandId, UriScheme } from '../../src/vscode/commandIds';

describe('Invoke Tool command (extension host)', () => {
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('runs a tool through invokeTool and opens the result in a read-only editor', async () => {
    const text = await vscode.commands.executeCommand<string>(CommandId.invokeTool, 'workspace_read_file', { file_path: 'notes.txt', limit: 1 });
    assert.match(text, /^     1\t/);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'no result editor opened');
    assert.strictEqual(editor.document.uri.scheme, UriScheme.result);
    assert.strictEqual(editor.document.getText(), text);
  });

  it('is registered as a command', async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes(CommandId.invokeTool));
  });
});
