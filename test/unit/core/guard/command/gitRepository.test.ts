// Which repository git would use, over a disk held in memory: where git's walk up from a folder ends.
import * as assert from 'node:assert/strict';
import { findRepository, type EntryFacts, type RepositoryView } from '../../../../../src/core/guard/command/gitRepository';

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
});
