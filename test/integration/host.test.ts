// Checks the test host itself: the right VS Code, the right trust state, the copied fixture workspace.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

/** The exact version the runner started (WAT_TEST_VSCODE); without one, any version from the floor of engines.vscode on. */
const expectedVersion = process.env.WAT_TEST_VSCODE;

/** The floor of package.json's engines.vscode ("^1.100.0" gives [1, 100]). */
function engineFloor(): [number, number] {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { engines: { vscode: string } };
  const [major, minor] = manifest.engines.vscode.replace(/^[^\d]*/, '').split('.').map(Number);
  return [major, minor];
}

describe('integration test host', () => {
  it(`runs inside VS Code ${expectedVersion ?? 'at or above the floor of engines.vscode'}`, () => {
    if (expectedVersion) {
      assert.strictEqual(vscode.version, expectedVersion, `the runner started VS Code ${expectedVersion}, this is ${vscode.version}`);
      return;
    }
    const [major, minor] = vscode.version.split('.').map(Number);
    const [floorMajor, floorMinor] = engineFloor();
    assert.ok(major > floorMajor || (major === floorMajor && minor >= floorMinor), `VS Code ${vscode.version} is older than ${floorMajor}.${floorMinor}`);
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
