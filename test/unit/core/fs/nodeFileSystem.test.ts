// The local disk's file system port: where a path leads once its links are resolved, for paths
// that exist only in part.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from '../../../../src/core/fs/node/nodeFileSystem';
import { fileLocation } from '../../../../src/core/location';

describe('fs/NodeFileSystem.realpath', () => {
  const disk = new NodeFileSystem();

  it('resolves the existing folders of a path and keeps the missing rest', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-realpath-'));
    try {
      const resolved = await disk.realpath(fileLocation(path.join(folder, 'missing', 'file.txt')));
      assert.equal(resolved.path, `${fileLocation(fs.realpathSync(folder)).path}/missing/file.txt`);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keeps a path none of whose folders exist as it is (on Windows, / is no folder of the current drive)', async () => {
    const resolved = await disk.realpath({ scheme: 'file', authority: '', path: '/no-such-folder-wat/etc/shadow' });
    assert.equal(resolved.path, '/no-such-folder-wat/etc/shadow');
  });

  it('keeps a drive path none of whose folders exist on that drive (never the drive\'s current folder)', async () => {
    const resolved = await disk.realpath({ scheme: 'file', authority: '', path: '/C:/no-such-folder-wat/x' });
    assert.equal(resolved.path, '/C:/no-such-folder-wat/x');
  });
});
