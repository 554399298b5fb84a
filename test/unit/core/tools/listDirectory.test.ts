import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDirectoryTool, MAX_LIST_ENTRIES } from '../../../../src/core/tools/listDirectory';
import { resultText, testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';

describe('tools/listDirectory', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-list-'));
    fs.mkdirSync(path.join(root, 'src/nested'), { recursive: true });
    fs.mkdirSync(path.join(root, 'build'));
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n*.log\n');
    fs.writeFileSync(path.join(root, 'src/.gitignore'), 'generated.ts\n');
    fs.writeFileSync(path.join(root, 'README.md'), 'hello\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'x'.repeat(2048));
    fs.writeFileSync(path.join(root, 'debug.log'), 'log\n');
    fs.writeFileSync(path.join(root, 'src/main.ts'), 'export {};\n');
    fs.writeFileSync(path.join(root, 'src/generated.ts'), '// gen\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const list = async (input: { path?: string; ignore?: string[]; respect_git_ignore?: boolean }) => resultText(await invokeTool(listDirectoryTool, input, testContext({ root })));

  it('lists directories first with a slash, then files with sizes, each alphabetical', async () => {
    const lines = (await list({})).split('\n');
    assert.deepEqual(lines.slice(0, 5), ['./ (1 directories, 3 files)', 'src/', '.gitignore  (13 B)', 'README.md  (6 B)', 'b.txt  (2.0 KB)']);
  });

  it('hides .gitignore matches and .git by default and counts them', async () => {
    const text = await list({});
    assert.ok(!/^build\//m.test(text));
    assert.ok(!/^debug\.log/m.test(text));
    assert.ok(!/^\.git\//m.test(text));
    assert.match(text, /\[3 entries hidden by \.gitignore; pass respect_git_ignore=false to see them\]/);
  });

  it('applies nested .gitignore files', async () => {
    const text = await list({ path: 'src' });
    assert.match(text, /^main\.ts/m);
    assert.ok(!text.includes('generated.ts  ('));
  });

  it('shows everything when respect_git_ignore is false', async () => {
    const text = await list({ respect_git_ignore: false });
    for (const name of ['build/', '.git/', 'debug.log  (4 B)']) {
      assert.ok(text.includes(name), name);
    }
  });

  it('leaves out entries matching ignore globs', async () => {
    const text = await list({ ignore: ['*.md', 'src'] });
    assert.ok(!text.includes('README.md'));
    assert.ok(!text.includes('src/'));
    assert.match(text, /\[2 entries left out by the ignore patterns\]/);
  });

  it('caps long listings and counts the rest', async () => {
    const many = path.join(root, 'many');
    fs.mkdirSync(many);
    for (let i = 0; i < MAX_LIST_ENTRIES + 7; i += 1) {
      fs.writeFileSync(path.join(many, `f${String(i).padStart(4, '0')}.txt`), '');
    }
    const text = await list({ path: 'many' });
    assert.match(text, /\[7 more entries not shown\]$/);
    assert.equal(text.split('\n').filter((line) => line.startsWith('f')).length, MAX_LIST_ENTRIES);
    assert.equal((await invokeTool(listDirectoryTool, { path: 'many' }, testContext({ root }))).continuation, '[7 more entries not shown]');
    assert.equal((await invokeTool(listDirectoryTool, {}, testContext({ root }))).continuation, undefined);
  });

  it('refuses a file and points to read_file', async () => {
    await assert.rejects(list({ path: 'README.md' }), /is a file, not a directory\. Use workspace_read_file/);
  });
});
