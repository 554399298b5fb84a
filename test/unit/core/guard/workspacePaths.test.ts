import * as assert from 'node:assert/strict';
import type { WorkspaceInfo } from '../../../../src/core/ports/workspace';
import { fileLocation, isInside, type Location } from '../../../../src/core/location';
import { resolveWorkspacePath } from '../../../../src/core/guard/workspacePaths';
import { SINGLE_FOLDER, TWO_FOLDERS } from '../../support/workspaces';

const single = SINGLE_FOLDER;
const multi = TWO_FOLDERS;

describe('guard/workspacePaths', () => {
  describe('on a Windows host', () => {
    const windows: WorkspaceInfo = {
      folders: [{ name: 'app', location: fileLocation('/c:/work/app') }, { name: 'share', location: { scheme: 'file', authority: 'server', path: '/share/proj' } }],
      trusted: true,
      home: '/c:/Users/dev',
      platform: 'win32',
    };
    const resolved = (input: string): Location => resolveWorkspacePath(input, windows);

    it('takes backslashes and slashes alike as separators, mixed, so the path stays inside its folder', () => {
      assert.deepEqual(resolved('src\\a.ts'), fileLocation('/c:/work/app/src/a.ts'));
      assert.deepEqual(resolved('C:\\work\\app/src\\a.ts'), fileLocation('/C:/work/app/src/a.ts'));
      assert.ok(isInside(resolved('C:\\work/app\\src/a.ts'), windows.folders[0].location));
      assert.deepEqual(resolved('src\\..\\..\\x'), fileLocation('/c:/work/x'));
    });

    it('gives a drive path, in every spelling, the form VS Code\'s Uri.file gives it', () => {
      for (const input of ['c:/work/app/a.ts', 'c:\\work\\app\\a.ts', '/c:/work/app/a.ts', '\\\\?\\c:\\work\\app\\a.ts', 'file:///c:/work/app/a.ts']) {
        assert.deepEqual(resolved(input), fileLocation('/c:/work/app/a.ts'), input);
      }
      assert.deepEqual(resolved('D:'), fileLocation('/D:/'));
    });

    it('takes a UNC path as the file: URI of its server, reachable when a folder is on that share', () => {
      assert.deepEqual(resolved('\\\\server\\share\\proj\\a b%.txt'), { scheme: 'file', authority: 'server', path: '/share/proj/a b%.txt' });
      assert.throws(() => resolved('\\\\other\\share\\x'), /network \(UNC\) path/);
    });

    it('refuses device paths, long UNC paths and drive-relative paths with a sentence', () => {
      assert.throws(() => resolved('\\\\.\\PhysicalDrive0'), /Windows device or long UNC path/);
      assert.throws(() => resolved('\\\\?\\UNC\\server\\share\\x'), /Windows device or long UNC path/);
      assert.throws(() => resolved('C:work\\a.ts'), /relative to the current folder of drive C:/);
    });

    it('refuses a reserved device name in any component, with an extension, in any case, with trailing dots or spaces', () => {
      for (const input of ['CON', 'src/nul.txt', 'Aux', 'COM1.log', 'lpt3 ', 'NUL.', 'CONOUT$', 'c:\\work\\con\\x.txt']) {
        assert.throws(() => resolved(input), /a Windows device/, input);
      }
      assert.equal(resolved('console.ts').path, '/c:/work/app/console.ts');
    });
  });

  describe('on a POSIX host', () => {
    it('keeps a backslash as part of a name and device names as ordinary names', () => {
      assert.equal(resolveWorkspacePath('a\\b.txt', single).path, '/work/app/a\\b.txt');
      assert.equal(resolveWorkspacePath('C:\\x', single).path, '/work/app/C:\\x');
      assert.equal(resolveWorkspacePath('nul', single).path, '/work/app/nul');
      assert.equal(resolveWorkspacePath('CON.txt', { ...single, platform: 'linux' }).path, '/work/app/CON.txt');
    });
  });

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

    describe('URIs', () => {
      const remote: WorkspaceInfo = { folders: [{ name: 'proj', location: { scheme: 'vscode-remote', authority: 'ssh-remote+h', path: '/home/u/proj' } }], trusted: true, home: '/home/dev' };
      const reach = /the tools only reach the local disk, the workspace folders' own file systems and those of the user's allowed-paths settings\. Pass a workspace-relative path\./;

      it('refuses a scheme that is neither file nor a workspace folder\'s own, naming it', () => {
        assert.throws(() => resolveWorkspacePath('vscode-userdata:/home/u/.ssh/id_rsa', single), { message: new RegExp(`^vscode-userdata:/home/u/\\.ssh/id_rsa is a vscode-userdata: URI; ${reach.source}$`) });
        assert.throws(() => resolveWorkspacePath('memfs://host/ws/a.txt', single), /is a memfs: URI on host; the tools only reach/);
        assert.throws(() => resolveWorkspacePath('vscode-remote://x/etc/passwd', single), /is a vscode-remote: URI on x; the tools only reach/);
      });

      it('refuses the scheme of a workspace folder with another authority', () => {
        assert.throws(() => resolveWorkspacePath('vscode-remote://ssh-remote+other/etc/passwd', remote), /is a vscode-remote: URI on ssh-remote\+other, which no workspace folder or allowed path is on; the tools only reach/);
        assert.throws(() => resolveWorkspacePath('vscode-remote:/etc/passwd', remote), /is a vscode-remote: URI, which no workspace folder or allowed path is on; the tools only reach/);
      });

      it('takes the scheme and authority of a URI among the allowed roots (the user\'s settings), and no other', () => {
        const allowed = ['watmem:/tree', 'Vault://Team/shared', '~/notes', 'broken:/%zz', 'relative:x'];
        assert.deepEqual(resolveWorkspacePath('watmem:/tree/notes.txt', single, allowed), { scheme: 'watmem', authority: '', path: '/tree/notes.txt' });
        assert.deepEqual(resolveWorkspacePath('watmem:/elsewhere/x', single, allowed), { scheme: 'watmem', authority: '', path: '/elsewhere/x' }, 'the rules, not the resolution, judge where on it');
        assert.deepEqual(resolveWorkspacePath('vault://team/shared/a', single, allowed), { scheme: 'vault', authority: 'Team', path: '/shared/a' });
        assert.throws(() => resolveWorkspacePath('watmem://other/tree/notes.txt', single, allowed), /is a watmem: URI on other, which no workspace folder or allowed path is on/);
        assert.throws(() => resolveWorkspacePath('broken:/x', single, allowed), /is a broken: URI; the tools only reach/);
        assert.throws(() => resolveWorkspacePath('relative:/x', single, allowed), /is a relative: URI; the tools only reach/);
      });

      it('takes a workspace folder\'s own scheme and authority in any case, spelled as the folder spells them', () => {
        assert.deepEqual(resolveWorkspacePath('VSCODE-Remote://SSH-Remote+H/home/u/proj/a.txt', remote), { scheme: 'vscode-remote', authority: 'ssh-remote+h', path: '/home/u/proj/a.txt' });
        assert.deepEqual(resolveWorkspacePath('vscode-remote://ssh-remote%2Bh/etc/passwd', remote), { scheme: 'vscode-remote', authority: 'ssh-remote+h', path: '/etc/passwd' });
      });

      it('takes file: with no authority in its every form as the local disk', () => {
        for (const input of ['file:///etc/hosts', 'FILE:///etc/hosts', 'File:/etc/hosts', 'file:////etc//hosts', 'file:///etc/./x/../hosts']) {
          assert.deepEqual(resolveWorkspacePath(input, remote), { scheme: 'file', authority: '', path: '/etc/hosts' }, input);
        }
      });

      it('decodes percent-escapes before normalising, so an escaped .. or slash is judged where it leads', () => {
        assert.deepEqual(resolveWorkspacePath('file:///work/%2e%2e/etc/shadow', single), { scheme: 'file', authority: '', path: '/etc/shadow' });
        assert.deepEqual(resolveWorkspacePath('file:///work/app%2F..%2F..%2Fetc/shadow', single), { scheme: 'file', authority: '', path: '/etc/shadow' });
        assert.deepEqual(resolveWorkspacePath('vscode-remote://ssh-remote+h/home/u/proj/%2E%2E/.ssh/id_rsa', remote).path, '/home/u/.ssh/id_rsa');
      });

      it('refuses a file: URI with a host (a UNC path)', () => {
        assert.throws(() => resolveWorkspacePath('file://server/share/x', single), /file:\/\/server\/share\/x is a file: URI with the host server, a network \(UNC\) path; the tools only reach/);
        assert.throws(() => resolveWorkspacePath('file://localhost/etc/passwd', single), /with the host localhost/);
      });

      it('refuses a URI whose path is not absolute', () => {
        for (const input of ['file:etc/passwd', 'file:', 'vscode-userdata:settings.json', 'file:%2Fetc/passwd']) {
          assert.throws(() => resolveWorkspacePath(input, single), /URI whose path is not absolute[\s\S]*start it with \.\//, input);
        }
        assert.equal(resolveWorkspacePath('./notes:draft.md', single).path, '/work/app/notes:draft.md');
      });

      it('refuses a broken percent-escape and an escaped NUL', () => {
        assert.throws(() => resolveWorkspacePath('file:///work/app/a%zz', single), /broken percent-escape/);
        assert.throws(() => resolveWorkspacePath('file:///work/app/a%00.txt', single), /NUL byte/);
      });
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
