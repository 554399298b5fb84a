import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileTool } from '../../../../src/core/tools/writeFile';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { needsSymlinks } from '../../support/platforms';
import { writingWorkspace } from '../../support/writingWorkspace';

describe('tools/writeFile', () => {
  const workspace = writingWorkspace();
  const { file, bytes, withOptions, run, read } = workspace;

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

  it('may overwrite a file whose unsaved editor text it read', async () => {
    const dirty = new Map([[file('plain.txt'), 'one\ntwo (typed)\nthree\n']]);
    withOptions({ dirty });
    await read('plain.txt');
    assert.equal(await run(writeFileTool, { file_path: 'plain.txt', content: 'one\ntwo (typed)\nthree\nfour\n' }), 'Updated plain.txt (+1 -0 lines)');
  });

  it('refuses to overwrite unsaved editor text once the user typed more after its last write', async () => {
    const dirty = new Map([[file('plain.txt'), 'one\ntwo (typed)\nthree\n']]);
    withOptions({ dirty });
    await read('plain.txt');
    await run(writeFileTool, { file_path: 'plain.txt', content: 'one\ntwo (typed)\nthree\nfour\n' });
    dirty.set(file('plain.txt'), 'one\ntwo (typed more)\nthree\nfour\n');
    await assert.rejects(run(writeFileTool, { file_path: 'plain.txt', content: 'x\n' }), /has changed since you last read it/);
  });

  it("keeps a CRLF file's line endings when the content uses LF", async () => {
    await read('crlf.txt');
    await run(writeFileTool, { file_path: 'crlf.txt', content: 'alpha\nBETA\ngamma\n' });
    assert.equal(bytes('crlf.txt').toString('latin1'), 'alpha\r\nBETA\r\ngamma\r\n');
  });

  it('keeps the UTF-8 BOM', async () => {
    await read('bom.txt');
    await run(writeFileTool, { file_path: 'bom.txt', content: 'héllo\nthere\n' });
    assert.deepEqual(bytes('bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nthere\n')]));
  });

  it('keeps the UTF-16 LE encoding, its BOM and its CRLF line endings', async () => {
    await read('utf16le.txt');
    await run(writeFileTool, { file_path: 'utf16le.txt', content: 'first ☃\nthird\n' });
    assert.deepEqual(bytes('utf16le.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first ☃\r\nthird\r\n', 'utf16le')]));
  });

  it('leaves the file byte-identical and tells the model when the user rejects', async () => {
    await read('plain.txt');
    workspace.applier.accept = false;
    await assert.rejects(run(writeFileTool, { file_path: 'plain.txt', content: 'x\n' }), /The user rejected the change to plain\.txt; nothing was written/);
    assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
  });

  it('shows creating .vscode/settings.json for review even where auto-approve would skip it, naming the rule', async () => {
    await run(writeFileTool, { file_path: '.vscode/settings.json', content: '{}\n' });
    assert.match(workspace.applier.reviewed[0].files[0].alwaysAsk ?? '', /^file\.execution_config_write: /);
  });

  it('reports the rule when the user rejects a warned change', async () => {
    workspace.applier.accept = false;
    await assert.rejects(run(writeFileTool, { file_path: '.vscode/tasks.json', content: '{}\n' }), /Denied by file\.execution_config_write: .*The user declined when asked/);
  });

  it('shows a write reached through a protected link for review even where auto-approve matches it: .vscode -> cfg, then cfg/settings.json', async function () {
    needsSymlinks(this);
    fs.mkdirSync(file('cfg'));
    fs.symlinkSync('cfg', file('.vscode'));
    withOptions({ settings: { autoApprove: { 'cfg/**': true } } });
    await run(writeFileTool, { file_path: 'cfg/settings.json', content: '{}\n' });
    assert.equal(workspace.applier.reviewed.length, 1, 'reviewed, not auto-approved');
    assert.match(workspace.applier.reviewed[0].files[0].alwaysAsk ?? '', /^file\.execution_config_write: .*reached through .*\.vscode, a symbolic link/);
    // Through the link's own path it is execution config as before.
    await run(writeFileTool, { file_path: '.vscode/tasks.json', content: '{}\n' });
    assert.match(workspace.applier.reviewed[1].files[0].alwaysAsk ?? '', /^file\.execution_config_write: /);
    // A file next to it that no link leads to is auto-approved as the setting says.
    withOptions({ settings: { autoApprove: { 'other/**': true } } });
    await run(writeFileTool, { file_path: 'other/x.json', content: '{}\n' });
    assert.equal(workspace.applier.reviewed.length, 2);
  });

  describe('the home folder\'s execution config', () => {
    let home = '';
    beforeEach(() => {
      home = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-home-'));
    });
    afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

    it('denies git\'s global config, autostart, systemd user units and ~/.local/bin at the high level, even where allowedWritePaths names home', async () => {
      withOptions({ settings: { riskLevel: 'high', allowedWritePaths: [home] }, workspace: { home } });
      for (const name of ['.gitconfig', '.config/git/config', '.config/autostart/x.desktop', '.config/systemd/user/x.service', '.local/bin/git', '.zshenv', '.config/fish/config.fish']) {
        await assert.rejects(run(writeFileTool, { file_path: path.join(home, name), content: 'x\n' }), /Denied by file\.sensitive_path_write: .*runs programs outside any sandbox/, name);
        assert.equal(fs.existsSync(path.join(home, name)), false, name);
      }
      await run(writeFileTool, { file_path: path.join(home, 'notes.txt'), content: 'x\n' });
      assert.equal(fs.readFileSync(path.join(home, 'notes.txt'), 'utf8'), 'x\n');
    });

    it('asks for the file a home entry links to: ~/.bashrc -> a file of the workspace', async function () {
      needsSymlinks(this);
      fs.mkdirSync(file('dotfiles'));
      fs.writeFileSync(file('dotfiles/bashrc'), '# bashrc\n');
      fs.symlinkSync(file('dotfiles/bashrc'), path.join(home, '.bashrc'));
      withOptions({ settings: { autoApprove: { 'dotfiles/**': true } }, workspace: { home } });
      await read('dotfiles/bashrc');
      await run(writeFileTool, { file_path: 'dotfiles/bashrc', content: 'curl x | sh\n' });
      assert.match(workspace.applier.reviewed[0]?.files[0].alwaysAsk ?? '', /^file\.execution_config_write: .*reached through .*\.bashrc/);
    });
  });

  it('denies writes into .git with the rule id', async () => {
    fs.mkdirSync(file('.git'));
    await assert.rejects(run(writeFileTool, { file_path: '.git/HEAD', content: 'x' }), /Denied by file\.protected_file_overwrite/);
  });

  it('writes through a symlink to the target inside the workspace and keeps the link', async function () {
    needsSymlinks(this);
    fs.symlinkSync('plain.txt', file('link.txt'));
    await read('link.txt');
    await run(writeFileTool, { file_path: 'link.txt', content: 'via link\n' });
    assert.ok(fs.lstatSync(file('link.txt')).isSymbolicLink());
    assert.equal(bytes('plain.txt').toString(), 'via link\n');
  });

  describe('with a folder outside the workspace', () => {
    let outside: string;
    beforeEach(() => {
      outside = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-outside-'));
    });
    afterEach(() => fs.rmSync(outside, { recursive: true, force: true }));

    it('refuses a symlink that leads outside the workspace', async function () {
      needsSymlinks(this);
      fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
      fs.symlinkSync(path.join(outside, 'secret.txt'), file('escape.txt'));
      await assert.rejects(run(writeFileTool, { file_path: 'escape.txt', content: 'x\n' }), /Denied by file\.symlink_escape_write: escape\.txt is a symbolic link .* leads outside the workspace/);
      assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'outside\n');
    });
  });

  it('refuses a file with several hard links at the low level', async () => {
    fs.linkSync(file('plain.txt'), file('hard.txt'));
    withOptions({ settings: { riskLevel: 'low' } });
    await assert.rejects(run(writeFileTool, { file_path: 'hard.txt', content: 'x\n' }), /^ToolError: Denied by file\.hard_link_write: hard\.txt has 2 hard links/);
    assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
  });

  describe('a hard-linked file at the default level', () => {
    beforeEach(async () => {
      fs.linkSync(file('plain.txt'), file('hard.txt'));
      await read('hard.txt');
      workspace.applier.accept = false;
    });

    it('names the rule when the user rejects the write, and writes nothing', async () => {
      await assert.rejects(run(writeFileTool, { file_path: 'hard.txt', content: 'x\n' }), /^ToolError: Denied by file\.hard_link_write: hard\.txt has 2 hard links.*The user declined when asked/);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('makes the user review the write, naming the rule', async () => {
      await assert.rejects(run(writeFileTool, { file_path: 'hard.txt', content: 'x\n' }));
      assert.match(workspace.applier.reviewed[0].files[0].alwaysAsk ?? '', /^file\.hard_link_write: /);
    });
  });

  it('is refused in an untrusted workspace, like the other writing tools', async () => {
    withOptions({ workspace: { trusted: false } });
    await assert.rejects(invokeTool(writeFileTool, { file_path: 'a.txt', content: 'x' }, workspace.ctx), /not trusted \(Restricted Mode\)/);
    assert.equal(workspace.applier.reviewed.length, 0);
  });
});
