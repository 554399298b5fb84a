// workspace_write_file, workspace_edit_file and workspace_apply_patch in the real extension host:
// the diff review, Accept/Reject through the commands, byte-exact application and the refusals.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { answerNextApproval, invoke, invokeError, REPO, screenshot, withSettings, workspaceRoot } from './support/tools';
import { CommandId, UriScheme } from '../../src/vscode/commandIds';

const FIXTURES = path.join(REPO, 'test/fixtures/workspace/writing');

let counter = 0;
/** A fresh folder of the workspace with copies of the writing fixtures, so tests never share files. */
function freshFolder(): string {
  counter += 1;
  const relative = `writing-run/${counter}`;
  const target = path.join(workspaceRoot(), relative);
  fs.mkdirSync(target, { recursive: true });
  for (const name of fs.readdirSync(FIXTURES)) {
    fs.copyFileSync(path.join(FIXTURES, name), path.join(target, name));
    fs.chmodSync(path.join(target, name), fs.statSync(path.join(FIXTURES, name)).mode & 0o777);
  }
  return relative;
}

const abs = (relative: string): string => path.join(workspaceRoot(), relative);
const bytes = (relative: string): Buffer => fs.readFileSync(abs(relative));

function proposalTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => tab.input)
    .filter((input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff && input.modified.scheme === UriScheme.proposal);
}

async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Calls a writing tool and answers its review: true accepts, false rejects. Resolves to the result text or the error message. */
async function callAndAnswer(name: string, input: object, accept: boolean): Promise<{ text?: string; error?: string }> {
  const call = invoke(name, input).then(
    (outcome) => ({ text: outcome.text }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
  await answerNextApproval(accept);
  return call;
}

async function read(relative: string): Promise<void> {
  await invoke('workspace_read_file', { file_path: relative });
}

describe('writing tools (extension host)', () => {
  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens the proposal in a diff editor and writes it when Accept is pressed in its title bar', async () => {
    const dir = freshFolder();
    const call = invoke('workspace_edit_file', { file_path: `${dir}/plain.txt`, old_string: 'two', new_string: 'TWO' });
    const diff = await waitFor(() => proposalTabs()[0], 'the diff editor');
    const proposal = (await vscode.workspace.openTextDocument(diff.modified)).getText();
    assert.strictEqual(proposal, 'one\nTWO\nthree\n');
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).getText(), 'one\ntwo\nthree\n');
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'one\ntwo\nthree\n', 'nothing may be written before Accept');
    await screenshot('writing-diff-review');
    // The title-bar button passes the diff editor's resource.
    assert.strictEqual(await vscode.commands.executeCommand(CommandId.approve, diff.modified), true);
    const { text } = await call;
    assert.strictEqual(text, `Edited ${dir}/plain.txt: 1 replacement(s)\n     2\tTWO`);
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'one\nTWO\nthree\n');
    await waitFor(() => proposalTabs().length === 0, 'the diff to close');
  });

  it('leaves the file byte-identical and tells the model when the user rejects', async () => {
    const dir = freshFolder();
    const before = bytes(`${dir}/crlf.txt`);
    const outcome = await callAndAnswer('workspace_edit_file', { file_path: `${dir}/crlf.txt`, old_string: 'beta', new_string: 'BETA' }, false);
    assert.match(outcome.error ?? '', /The user rejected the change to .*crlf\.txt; nothing was written/);
    assert.deepStrictEqual(bytes(`${dir}/crlf.txt`), before);
  });

  it('rejects and closes the diff when the tool call is cancelled', async () => {
    const dir = freshFolder();
    const source = new vscode.CancellationTokenSource();
    const call = invoke('workspace_edit_file', { file_path: `${dir}/plain.txt`, old_string: 'one', new_string: 'ONE' }, source.token).then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await waitFor(() => proposalTabs()[0], 'the diff editor');
    source.cancel();
    // VS Code ends a cancelled invokeTool with its own CancellationError.
    assert.match(await call, /cancel/i);
    await waitFor(() => proposalTabs().length === 0, 'the diff to close');
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'one\ntwo\nthree\n');
  });

  it('writes without a diff where workspaceAgentTools.autoApprove allows it', async () => {
    const dir = freshFolder();
    await withSettings({ autoApprove: { [`${dir}/**`]: true } }, async () => {
      const { text } = await invoke('workspace_write_file', { file_path: `${dir}/auto/new.txt`, content: 'auto\n' });
      assert.strictEqual(text, `Created ${dir}/auto/new.txt (1 lines)`);
    });
    assert.strictEqual(bytes(`${dir}/auto/new.txt`).toString(), 'auto\n');
  });

  it('asks before creating .vscode/settings.json even when autoApprove covers everything', async () => {
    const target = '.vscode/settings.json';
    assert.ok(!fs.existsSync(abs(target)));
    await withSettings({ autoApprove: { '**': true } }, async () => {
      const outcome = await callAndAnswer('workspace_write_file', { file_path: target, content: '{ "task.allowAutomaticTasks": "on" }\n' }, false);
      assert.match(outcome.error ?? '', /Denied by file\.execution_config_write: .*The user declined when asked/);
    });
    assert.ok(!fs.existsSync(abs(target)));
  });

  it("keeps the user's unsaved editor text and builds on it", async () => {
    const dir = freshFolder();
    const uri = vscode.Uri.file(abs(`${dir}/plain.txt`));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const typing = new vscode.WorkspaceEdit();
    typing.insert(uri, new vscode.Position(2, 5), ' (typed, unsaved)');
    assert.ok(await vscode.workspace.applyEdit(typing));
    assert.ok(document.isDirty);
    const outcome = await callAndAnswer('workspace_edit_file', { file_path: `${dir}/plain.txt`, old_string: 'one', new_string: 'ONE' }, true);
    assert.ok(outcome.text, outcome.error);
    assert.strictEqual(document.getText(), 'ONE\ntwo\nthree (typed, unsaved)\n');
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'ONE\ntwo\nthree (typed, unsaved)\n');
  });

  it('is undone by a single undo, back to the exact bytes', async () => {
    const dir = freshFolder();
    const original = bytes(`${dir}/bom.txt`);
    const outcome = await callAndAnswer('workspace_edit_file', { file_path: `${dir}/bom.txt`, old_string: 'world', new_string: 'monde\nwelt' }, true);
    assert.ok(outcome.text, outcome.error);
    assert.notDeepStrictEqual(bytes(`${dir}/bom.txt`), original);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(abs(`${dir}/bom.txt`)));
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    assert.ok(await document.save());
    assert.deepStrictEqual(bytes(`${dir}/bom.txt`), original);
  });

  describe('keeps the bytes of what it did not change', () => {
    const cases: { file: string; old: string; replacement: string; expected: Buffer }[] = [
      { file: 'crlf.txt', old: 'beta', replacement: 'BETA\nmore', expected: Buffer.from('alpha\r\nBETA\r\nmore\r\ngamma\r\n') },
      { file: 'mixed.txt', old: 'four', replacement: 'FOUR\nfive', expected: Buffer.from('one\r\ntwo\nthree\r\nFOUR\r\nfive\r\n') },
      { file: 'bom.txt', old: 'world', replacement: 'monde', expected: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nmonde\n')]) },
      { file: 'utf16le.txt', old: 'second', replacement: 'zweite', expected: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first ☃\r\nzweite\r\n', 'utf16le')]) },
      { file: 'utf16be.txt', old: 'second', replacement: 'zweite', expected: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('first ☃\nzweite\n', 'utf16le').swap16()]) },
      { file: 'no-final-newline.txt', old: 'last', replacement: 'LAST', expected: Buffer.from('first\nLAST') },
    ];
    for (const { file, old, replacement, expected } of cases) {
      it(`edit_file on ${file}`, async () => {
        const dir = freshFolder();
        const outcome = await callAndAnswer('workspace_edit_file', { file_path: `${dir}/${file}`, old_string: old, new_string: replacement }, true);
        assert.ok(outcome.text, outcome.error);
        assert.deepStrictEqual(bytes(`${dir}/${file}`), expected);
      });
    }

    it('write_file keeps CRLF and the executable bit', async () => {
      const dir = freshFolder();
      await read(`${dir}/script.sh`);
      const outcome = await callAndAnswer('workspace_write_file', { file_path: `${dir}/script.sh`, content: '#!/bin/sh\necho changed\n' }, true);
      assert.strictEqual(outcome.text, `Updated ${dir}/script.sh (+1 -1 lines)`);
      assert.strictEqual(fs.statSync(abs(`${dir}/script.sh`)).mode & 0o777, 0o755);
      await read(`${dir}/crlf.txt`);
      await callAndAnswer('workspace_write_file', { file_path: `${dir}/crlf.txt`, content: 'alpha\nbeta\n' }, true);
      assert.strictEqual(bytes(`${dir}/crlf.txt`).toString(), 'alpha\r\nbeta\r\n');
    });

    it('apply_patch keeps mixed line endings and the executable bit', async () => {
      const dir = freshFolder();
      const patch = `*** Begin Patch\n*** Update File: ${dir}/mixed.txt\n@@\n one\n-two\n+TWO\n three\n*** Update File: ${dir}/script.sh\n@@\n-echo hello\n+echo patched\n*** End Patch`;
      const outcome = await callAndAnswer('workspace_apply_patch', { patch }, true);
      assert.strictEqual(outcome.text, `Success. Updated the following files:\nM ${dir}/mixed.txt\nM ${dir}/script.sh`);
      assert.strictEqual(bytes(`${dir}/mixed.txt`).toString(), 'one\r\nTWO\r\nthree\r\nfour\r\n');
      assert.strictEqual(bytes(`${dir}/script.sh`).toString(), '#!/bin/sh\necho patched\n');
      assert.strictEqual(fs.statSync(abs(`${dir}/script.sh`)).mode & 0o777, 0o755);
    });
  });

  it('refuses to overwrite a file that changed since it was read', async () => {
    const dir = freshFolder();
    await read(`${dir}/plain.txt`);
    fs.writeFileSync(abs(`${dir}/plain.txt`), 'changed elsewhere\n');
    const error = await invokeError('workspace_write_file', { file_path: `${dir}/plain.txt`, content: 'mine\n' });
    assert.match(error, /has changed since you last read it.*Read it again with workspace_read_file/);
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'changed elsewhere\n');
  });

  it('refuses an ambiguous match and lists the line numbers', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/dup.txt`), 'x = 1\ny = 2\nx = 1\n');
    const error = await invokeError('workspace_edit_file', { file_path: `${dir}/dup.txt`, old_string: 'x = 1', new_string: 'x = 3' });
    assert.match(error, /occurs 2 times in .*dup\.txt, starting at lines 1, 3/);
  });

  it('reports a tolerant match', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/indent.py`), 'class A:\n    def f(self):\n        return 1\n');
    const outcome = await callAndAnswer('workspace_edit_file', { file_path: `${dir}/indent.py`, old_string: 'def f(self):\n    return 1', new_string: 'def f(self):\n    return 2' }, true);
    assert.match(outcome.text ?? outcome.error ?? '', /matched ignoring indentation; new_string was re-indented/);
    assert.strictEqual(bytes(`${dir}/indent.py`).toString(), 'class A:\n    def f(self):\n        return 2\n');
  });

  describe('several edits in one call (edits)', () => {
    it('reviews every edit in one diff and keeps the BOM and CRLF of the file', async () => {
      const dir = freshFolder();
      const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('h\u00e9llo\r\nworld\r\nagain\r\n')]);
      fs.writeFileSync(abs(`${dir}/bom-crlf.txt`), original);
      const call = invoke('workspace_edit_file', { file_path: `${dir}/bom-crlf.txt`, edits: [{ old_string: 'again', new_string: 'AGAIN\nand more' }, { old_string: 'h\u00e9llo\nworld', new_string: 'HELLO\nworld' }] });
      const diff = await waitFor(() => proposalTabs()[0], 'the diff editor');
      assert.strictEqual(proposalTabs().length, 1, 'one diff for the whole call');
      assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), 'HELLO\r\nworld\r\nAGAIN\r\nand more\r\n');
      await screenshot('writing-edits-one-diff');
      await answerNextApproval(true);
      assert.strictEqual((await call).text, `Edited ${dir}/bom-crlf.txt: 2 replacement(s)\n(edits[1] (edit 2 of 2): old_string matched after normalising line endings (old_string's line breaks differ from the file's).)\n     1\tHELLO\n     2\tworld\n...\n     3\tAGAIN\n     4\tand more`);
      assert.deepStrictEqual(bytes(`${dir}/bom-crlf.txt`), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('HELLO\r\nworld\r\nAGAIN\r\nand more\r\n')]));
    });

    it('writes nothing and opens no diff when an edit in the middle fails, and names it', async () => {
      const dir = freshFolder();
      const before = bytes(`${dir}/crlf.txt`);
      const error = await invokeError('workspace_edit_file', {
        file_path: `${dir}/crlf.txt`,
        edits: [
          { old_string: 'alpha', new_string: 'ALPHA' },
          { old_string: 'no such text', new_string: 'x' },
          { old_string: 'gamma', new_string: 'GAMMA' },
        ],
      });
      assert.match(error, /edits\[1\] \(edit 2 of 3\) failed, so none of the 3 edits was made: old_string was not found in .*crlf\.txt/);
      assert.strictEqual(proposalTabs().length, 0);
      assert.deepStrictEqual(bytes(`${dir}/crlf.txt`), before);
    });
  });

  it('re-indents the added lines of a patch chunk that matched a file indented deeper', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/m.py`), 'class A:\n    def f(self):\n        return 1\n');
    const patch = `*** Begin Patch\n*** Update File: ${dir}/m.py\n\n@@\n def f(self):\n-    return 1\n+    x = 2\n+    return x\n\n*** End Patch`;
    const outcome = await callAndAnswer('workspace_apply_patch', { patch }, true);
    assert.match(outcome.text ?? outcome.error ?? '', /^Success\. Updated the following files:\nM .*m\.py\nThe patch was read leniently:\n- .*m\.py, chunk 1: its lines were found ignoring indentation; its added lines were re-indented to the file\.$/);
    assert.strictEqual(bytes(`${dir}/m.py`).toString(), 'class A:\n    def f(self):\n        x = 2\n        return x\n');
  });

  it('changes nothing when the second file of a patch fails, and names it', async () => {
    const dir = freshFolder();
    const patch = `*** Begin Patch\n*** Update File: ${dir}/plain.txt\n@@\n-one\n+ONE\n*** Update File: ${dir}/crlf.txt\n@@\n-no such line\n+x\n*** End Patch`;
    const error = await invokeError('workspace_apply_patch', { patch });
    assert.match(error, /In .*crlf\.txt, chunk 1 of 1 .*these lines were not found:\n  no such line/);
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'one\ntwo\nthree\n');
  });

  it('reviews a multi-file patch as one decision and applies it as one edit', async () => {
    const dir = freshFolder();
    const patch = `*** Begin Patch\n*** Add File: ${dir}/added.txt\n+new\n*** Update File: ${dir}/plain.txt\n@@\n-one\n+ONE\n*** Delete File: ${dir}/latin1.txt\n*** End Patch`;
    const call = invoke('workspace_apply_patch', { patch });
    await waitFor(() => proposalTabs()[0], 'the first diff');
    const pending = await vscode.commands.executeCommand<{ detail: string }[]>(CommandId.listPendingApprovals);
    assert.match(pending[0].detail, /Files: A .*added\.txt \(new file\), M .*plain\.txt, D .*latin1\.txt \(delete\)/);
    await answerNextApproval(true);
    assert.strictEqual((await call).text, `Success. Updated the following files:\nA ${dir}/added.txt\nM ${dir}/plain.txt\nD ${dir}/latin1.txt`);
    assert.strictEqual(bytes(`${dir}/added.txt`).toString(), 'new\n');
    assert.ok(!fs.existsSync(abs(`${dir}/latin1.txt`)));
  });

  it('rolls back the files already written when a later part of the change fails', async () => {
    const dir = freshFolder();
    // The second file cannot be created: its parent is a file. Planning cannot know; writing fails.
    const patch = `*** Begin Patch\n*** Update File: ${dir}/plain.txt\n@@\n-one\n+ONE\n*** Add File: ${dir}/crlf.txt/child.txt\n+x\n*** End Patch`;
    const outcome = await callAndAnswer('workspace_apply_patch', { patch }, true);
    assert.match(outcome.error ?? '', /Writing the change failed .*Every file was restored/);
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'one\ntwo\nthree\n');
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === abs(`${dir}/plain.txt`));
    assert.ok(!document?.isDirty, 'the editor must not keep the failed change');
    assert.strictEqual(bytes(`${dir}/crlf.txt`).toString(), 'alpha\r\nbeta\r\ngamma\r\n');
  });

  it('appends errors that appear in the edited file open in an editor', async () => {
    const dir = freshFolder();
    fs.writeFileSync(abs(`${dir}/data.json`), '{\n  "a": 1\n}\n');
    // Language services (JSON pulls diagnostics) check files shown in an editor, as the user's open files are.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(abs(`${dir}/data.json`))));
    const outcome = await callAndAnswer('workspace_edit_file', { file_path: `${dir}/data.json`, old_string: '"a": 1', new_string: '"a": 1,,' }, true);
    // In workspace_diagnostics' line form: path:line:col severity source(code): message.
    assert.match(outcome.text ?? outcome.error ?? '', /New errors reported in (\S*data\.json) after the edit:\n {2}\1:2:\d+ error json(\(\d+\))?: /);
  });

  it('moves a file onto an existing one after the review, which shows that file\'s content replaced, and Reject leaves both', async () => {
    const dir = freshFolder();
    const patch = `*** Begin Patch\n*** Update File: ${dir}/plain.txt\n*** Move to: ${dir}/crlf.txt\n@@\n-one\n+ONE\n*** End Patch`;
    const rejected = await callAndAnswer('workspace_apply_patch', { patch }, false);
    assert.match(rejected.error ?? '', /rejected/);
    assert.strictEqual(bytes(`${dir}/crlf.txt`).toString(), 'alpha\r\nbeta\r\ngamma\r\n');
    assert.ok(fs.existsSync(abs(`${dir}/plain.txt`)));

    const call = invoke('workspace_apply_patch', { patch });
    const diff = await waitFor(() => proposalTabs().find((tab) => tab.original.path.endsWith('/crlf.txt')), 'the diff of the file moved onto');
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).getText(), 'alpha\r\nbeta\r\ngamma\r\n', 'the left side is what is replaced');
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), 'ONE\ntwo\nthree\n');
    await answerNextApproval(true);
    const outcome = await call;
    assert.match(outcome.text, /^Success\. Updated the following files:\nM .*crlf\.txt\nD .*plain\.txt\n.*plain\.txt was moved onto .*crlf\.txt, which existed: its content was replaced\./);
    assert.strictEqual(bytes(`${dir}/crlf.txt`).toString(), 'ONE\ntwo\nthree\n');
    assert.ok(!fs.existsSync(abs(`${dir}/plain.txt`)));
  });

  it('refuses a symlink that leads outside the workspace', async () => {
    const dir = freshFolder();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-outside-'));
    fs.writeFileSync(path.join(outside, 'target.txt'), 'outside\n');
    fs.symlinkSync(path.join(outside, 'target.txt'), abs(`${dir}/escape.txt`));
    const error = await invokeError('workspace_edit_file', { file_path: `${dir}/escape.txt`, old_string: 'outside', new_string: 'inside' });
    assert.match(error, /Denied by file\.symlink_escape_write: .*symbolic link .*leads outside the workspace/);
    assert.strictEqual(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8'), 'outside\n');
  });

  it('writes through a symlink inside the workspace to its target and keeps the link', async () => {
    const dir = freshFolder();
    fs.symlinkSync('plain.txt', abs(`${dir}/link.txt`));
    const outcome = await callAndAnswer('workspace_edit_file', { file_path: `${dir}/link.txt`, old_string: 'two', new_string: 'TWO' }, true);
    assert.ok(outcome.text, outcome.error);
    assert.ok(fs.lstatSync(abs(`${dir}/link.txt`)).isSymbolicLink());
    assert.strictEqual(bytes(`${dir}/plain.txt`).toString(), 'one\nTWO\nthree\n');
  });
});

describe('writing tools in an untrusted workspace (extension host)', () => {
  const calls: [string, object][] = [
    ['workspace_write_file', { file_path: 'writing/new.txt', content: 'x\n' }],
    ['workspace_edit_file', { file_path: 'writing/plain.txt', old_string: 'one', new_string: 'ONE' }],
    ['workspace_apply_patch', { patch: '*** Begin Patch\n*** Delete File: writing/plain.txt\n*** End Patch' }],
  ];
  for (const [name, input] of calls) {
    it(`${name} is refused and changes nothing`, async function () {
      if (process.env.WAT_TEST_PASS !== 'untrusted' && vscode.workspace.isTrusted) this.skip();
      assert.match(await invokeError(name, input), /not available because this workspace is not trusted/);
      assert.strictEqual(fs.readFileSync(abs('writing/plain.txt'), 'utf8'), 'one\ntwo\nthree\n');
      assert.ok(!fs.existsSync(abs('writing/new.txt')));
    });
  }
});
