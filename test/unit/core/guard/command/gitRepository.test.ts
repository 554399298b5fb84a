// Which repository git would use, over a disk held in memory: where git's walk up from a folder ends.
import * as assert from 'node:assert/strict';
import { filterDriverNames, findRepository, type EntryFacts, type RepositoryView } from '../../../../../src/core/guard/command/gitRepository';

/** A view of a disk that has only these entries (Location paths), every path its own real path. */
function viewOf(entries: Readonly<Record<string, EntryFacts>>, windows: boolean): RepositoryView {
  return {
    workspaceFolders: ['/C:/work/ws'],
    home: '/C:/users/u',
    windows,
    entry: async (absolutePath) => entries[absolutePath],
    readText: async () => undefined,
    readWhole: async () => ({ kind: 'absent' }),
    realPath: async (absolutePath) => absolutePath,
  };
}

describe('guard/command/gitRepository', () => {
  const rootRepository = { '/.git': { kind: 'directory', isSymlink: false } } as const;

  it('on Windows, ends the walk at the drive\'s root: the / above /C: is no folder of that disk', async () => {
    assert.deepEqual(await findRepository('/C:/work/ws/src', viewOf(rootRepository, true)), { kind: 'none' });
  });

  it('asks on a network share (//server/share), whose server a walk in POSIX paths would drop', async () => {
    const found = await findRepository('//server/share/ws/src', viewOf(rootRepository, true));
    assert.equal(found.kind === 'other' && /network share/.test(found.reason), true, JSON.stringify(found));
    const linked = await findRepository('/C:/work/ws', { ...viewOf({}, true), realPath: async () => '//server/share/ws' });
    assert.equal(linked.kind === 'other' && /network share/.test(linked.reason), true, JSON.stringify(linked));
  });

  it('elsewhere, walks past a folder named C: up to /, as git does', async () => {
    const found = await findRepository('/C:/work/ws/src', viewOf(rootRepository, false));
    assert.equal(found.kind, 'other');
  });

  it('on Windows, still finds a repository at the drive\'s root', async () => {
    const found = await findRepository('/C:/work/ws', viewOf({ '/C:/.git': { kind: 'directory', isSymlink: false } }, true));
    assert.equal(found.kind === 'other' && found.reason.startsWith('git would use the repository of /C:'), true, JSON.stringify(found));
  });

  describe('the user\'s filter drivers', () => {
    /** A view whose only files are these config files (Location paths), home /C:/users/u. */
    const withFiles = (files: Readonly<Record<string, string>>, windows: boolean): RepositoryView => ({
      ...viewOf({}, windows),
      readWhole: async (absolutePath) => (absolutePath in files ? { kind: 'bytes', bytes: new TextEncoder().encode(files[absolutePath]) } : { kind: 'absent' }),
    });

    it('on Windows, follows includes written with Windows paths: C:\\x, C:/x, relative with \\ (each \\\\ in the file, as git escapes it), and ~\\x as ~/x (git would fail on it: reading more only switches off more drivers)', async () => {
      const files = {
        '/C:/users/u/.gitconfig': '[filter "home"]\n\tclean = x\n[include]\n\tpath = ~\\\\tilde.cfg\n\tpath = C:\\\\cfg\\\\back.cfg\n\tpath = C:/cfg/forward.cfg\n\tpath = sub\\\\relative.cfg\n',
        '/C:/users/u/tilde.cfg': '[filter "tilde"]\n\tclean = x\n',
        '/C:/cfg/back.cfg': '[filter "back"]\n\tclean = x\n',
        '/C:/cfg/forward.cfg': '[filter "forward"]\n\tclean = x\n',
        '/C:/users/u/sub/relative.cfg': '[filter "relative"]\n\tclean = x\n',
      };
      assert.deepEqual(await filterDriverNames(withFiles(files, true)), { drivers: ['back', 'forward', 'home', 'relative', 'tilde'] });
    });

    it('on Windows, asks for an include on a network share, which it does not read', async () => {
      const found = await filterDriverNames(withFiles({ '/C:/users/u/.gitconfig': '[include]\n\tpath = \\\\\\\\server\\\\share\\\\x.cfg\n' }, true));
      assert.equal('problem' in found && /on a network share/.test(found.problem), true, JSON.stringify(found));
    });

    it('elsewhere, a backslash is part of the include\'s name, as git reads it', async () => {
      const files = { '/C:/users/u/.gitconfig': '[include]\n\tpath = ~\\\\tilde.cfg\n', '/C:/users/u/tilde.cfg': '[filter "tilde"]\n\tclean = x\n' };
      assert.deepEqual(await filterDriverNames(withFiles(files, false)), { drivers: [] });
    });
  });
});
