// Checks the test host itself: the right VS Code, the right trust state, the copied fixture workspace.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

describe('integration test host', () => {
  it('runs inside VS Code 1.100.x', () => {
    assert.ok(vscode.version.startsWith('1.100.'), `unexpected VS Code version ${vscode.version}`);
  });

  it('has the workspace trust the pass asked for', function () {
    const pass = process.env.WAT_TEST_PASS;
    if (pass !== 'trusted' && pass !== 'untrusted') this.skip();
    assert.strictEqual(vscode.workspace.isTrusted, pass === 'trusted');
  });

  it('opened the copied fixture workspace', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.strictEqual(folders.length, 1, 'expected exactly one workspace folder');
    const root = folders[0].uri;
    assert.strictEqual(root.scheme, 'file');
    assert.strictEqual(path.basename(root.fsPath), 'ws');
    const expected = process.env.WAT_TEST_WORKSPACE;
    if (expected) assert.strictEqual(path.resolve(root.fsPath), path.resolve(expected));
    assert.ok(fs.existsSync(path.join(root.fsPath, 'README.md')), 'fixture README.md missing');
  });
});
