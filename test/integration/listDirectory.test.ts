// workspace_list_directory in the real extension host.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { invoke, invokeError, workspaceRoot } from './support/tools';

describe('workspace_list_directory (extension host)', () => {
  before(() => {
    const dir = path.join(workspaceRoot(), 'listing');
    fs.mkdirSync(path.join(dir, 'zeta'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'alpha'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'node_modules/pkg'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n*.tmp\n');
    fs.writeFileSync(path.join(dir, 'b.ts'), 'export const b = 1;\n');
    fs.writeFileSync(path.join(dir, 'a.md'), '# a\n');
    fs.writeFileSync(path.join(dir, 'scratch.tmp'), 'tmp');
  });

  it('lists directories first, then files with sizes, hiding .gitignore matches', async () => {
    const { text } = await invoke('workspace_list_directory', { path: 'listing' });
    assert.strictEqual(
      text,
      ['listing/ (2 directories, 3 files)', 'alpha/', 'zeta/', '.gitignore  (20 B)', 'a.md  (4 B)', 'b.ts  (20 B)', '[2 entries hidden by .gitignore; pass respect_git_ignore=false to see them]'].join('\n'),
    );
  });

  it('shows ignored entries when asked and applies ignore globs', async () => {
    const { text } = await invoke('workspace_list_directory', { path: 'listing', respect_git_ignore: false, ignore: ['*.md'] });
    assert.match(text, /^node_modules\/$/m);
    assert.match(text, /^scratch\.tmp  \(3 B\)$/m);
    assert.ok(!text.includes('a.md'));
    assert.match(text, /\[1 entries left out by the ignore patterns\]/);
  });

  it('lists the workspace root by default', async () => {
    const { text } = await invoke('workspace_list_directory', {});
    assert.match(text, /^\.\/ \(/);
    assert.match(text, /^listing\/$/m);
  });

  it('refuses a missing directory with a next step', async () => {
    assert.match(await invokeError('workspace_list_directory', { path: 'no/such/dir' }), /Directory not found: no\/such\/dir/);
  });
});
