import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileLocation } from '../../../../../src/core/location';
import { NodeFileSystem } from '../../../../../src/core/fs/node/nodeFileSystem';
import { localMtime } from '../../../../../src/core/search/ripgrep/node/localFiles';
import { RipgrepSearchEngine } from '../../../../../src/core/search/ripgrep/node/ripgrepEngine';
import { compileExcludes } from '../../../../../src/core/search/globPattern';
import type { FileListing, SearchScope } from '../../../../../src/core/ports/search';
import { makeSearchTree, RIPGREP, type SearchTree } from '../../../support/searchTree';
import { systemClock } from '../../../../../src/core/time';
import { needsSymlinks } from '../../../support/platforms';

describe('search/ripgrep: dated listings', () => {
  let tree: SearchTree;
  const fsPort = new NodeFileSystem();
  before(() => {
    tree = makeSearchTree();
  });
  after(() => tree.remove());

  const scope = (): SearchScope => {
    const root = fileLocation(tree.root);
    return { root, rootKind: 'directory', ignoreRoot: root, rootFromIgnoreRoot: '', parentRules: true, excludes: compileExcludes([]) };
  };
  // A deadline far from each call: a listing that ran out of time would list less, and these tests compare listings.
  const limits = () => ({ token: { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) }, clock: systemClock, deadline: Date.now() + 600_000 });
  const list = (basename: string | undefined, options: { dated?: boolean; accept?: (relative: string) => boolean }): Promise<FileListing> =>
    new RipgrepSearchEngine(RIPGREP, fsPort).listFiles(scope(), { basename }, limits(), options);

  /** Each listed file's time as the FileSystem port states it. */
  async function portTimes(listing: FileListing): Promise<number[]> {
    return Promise.all(listing.files.map(async (relative) => (await fsPort.stat(fileLocation(path.join(tree.root, relative))))!.mtime));
  }

  it('gives every listed file the time the FileSystem port states for it', async () => {
    const listing = await list(undefined, { dated: true });
    assert.ok(listing.files.length > 10);
    assert.deepEqual(listing.mtimes, await portTimes(listing));
  });

  it('gives the time of every file a name glob lists, checked against .gitignore in process', async () => {
    const listing = await list('*.ts', { dated: true });
    assert.ok(listing.files.includes('src/main.ts'));
    assert.deepEqual(listing.mtimes, await portTimes(listing));
  });

  it('lists the same files dated as undated', async () => {
    const [dated, plain] = await Promise.all([list(undefined, { dated: true }), list(undefined, {})]);
    assert.deepEqual([...dated.files].sort(), [...plain.files].sort());
    assert.equal(plain.mtimes, undefined);
  });

  it('leaves out what accept rules out', async () => {
    const listing = await list(undefined, { dated: true, accept: (relative) => relative.endsWith('.ts') });
    assert.ok(listing.files.length > 0);
    assert.ok(listing.files.every((relative) => relative.endsWith('.ts')));
    assert.equal(listing.mtimes?.length, listing.files.length);
  });

  describe('localMtime', () => {
    it("gives a symlink's target's time", function () {
      needsSymlinks(this);
      const target = fs.statSync(path.join(tree.root, 'src/main.ts')).mtimeMs;
      assert.equal(localMtime(path.join(tree.root, 'src/main-link.ts')), target);
    });

    it('gives nothing for a file that is gone', () => {
      assert.equal(localMtime(path.join(tree.root, 'no-such-file')), undefined);
    });

    it("gives a dangling symlink's own time", function () {
      needsSymlinks(this);
      const link = path.join(tree.outside, 'dangling');
      fs.symlinkSync('missing-target', link);
      assert.equal(localMtime(link), fs.lstatSync(link).mtimeMs);
    });
  });
});
