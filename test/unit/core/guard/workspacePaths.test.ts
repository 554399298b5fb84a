import * as assert from 'node:assert/strict';
import type { WorkspaceInfo } from '../../../../src/core/ports/workspace';
import { resolveWorkspacePath } from '../../../../src/core/guard/workspacePaths';
import { SINGLE_FOLDER, TWO_FOLDERS } from '../../support/workspaces';

const single = SINGLE_FOLDER;
const multi = TWO_FOLDERS;

describe('guard/workspacePaths', () => {
  describe('resolveWorkspacePath', () => {
    it('resolves a relative path against the first folder', () => {
      assert.equal(resolveWorkspacePath('src/a.ts', single).path, '/work/app/src/a.ts');
    });

    it('normalises .. segments before any rule sees the path', () => {
      assert.equal(resolveWorkspacePath('src/../../etc/passwd', single).path, '/work/etc/passwd');
    });

    it('keeps absolute paths', () => {
      assert.equal(resolveWorkspacePath('/etc/hosts', single).path, '/etc/hosts');
    });

    it('expands ~ to the home folder', () => {
      assert.equal(resolveWorkspacePath('~/.ssh/id_rsa', single).path, '/home/dev/.ssh/id_rsa');
      assert.equal(resolveWorkspacePath('~', single).path, '/home/dev');
    });

    it('addresses a folder by name in a multi-root workspace', () => {
      assert.equal(resolveWorkspacePath('lib/index.ts', multi).path, '/src/lib/index.ts');
      assert.equal(resolveWorkspacePath('app/main.ts', multi).path, '/work/app/main.ts');
    });

    it('resolves a path that names no folder against the first folder of a multi-root workspace', () => {
      assert.equal(resolveWorkspacePath('other/x.ts', multi).path, '/work/app/other/x.ts');
    });

    it('treats a folder-name prefix as an ordinary folder in a single-root workspace', () => {
      assert.equal(resolveWorkspacePath('app/main.ts', single).path, '/work/app/app/main.ts');
    });

    it('accepts URIs of other schemes', () => {
      const location = resolveWorkspacePath('memfs://host/ws/a.txt', single);
      assert.deepEqual(location, { scheme: 'memfs', authority: 'host', path: '/ws/a.txt' });
    });

    describe('in a virtual workspace', () => {
      const virtual: WorkspaceInfo = { folders: [{ name: 'ws', location: { scheme: 'memfs', authority: '', path: '/ws' } }], trusted: true, home: '/h' };

      it('gives absolute paths the scheme of the workspace', () => {
        assert.deepEqual(resolveWorkspacePath('/ws/a.txt', virtual), { scheme: 'memfs', authority: '', path: '/ws/a.txt' });
      });

      it('gives relative paths the scheme of the workspace', () => {
        assert.deepEqual(resolveWorkspacePath('a.txt', virtual), { scheme: 'memfs', authority: '', path: '/ws/a.txt' });
      });
    });

    it('refuses NUL bytes with a sentence', () => {
      assert.throws(() => resolveWorkspacePath('a\0b', single), /NUL byte/);
    });

    it('refuses an empty path with a sentence', () => {
      assert.throws(() => resolveWorkspacePath('  ', single), /empty/);
    });
  });
});
