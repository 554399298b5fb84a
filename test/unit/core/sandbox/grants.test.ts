import * as assert from 'node:assert/strict';
import { deniedWritePath, grantFor, refusedGrant } from '../../../../src/core/sandbox/grants';

describe('sandbox/grants', () => {
  it('finds the path a write was refused to in what common tools print, outside the writable folders', () => {
    const ws = ['/work/ws'];
    assert.deepEqual(deniedWritePath("touch: cannot touch '/home/u/x': Read-only file system", ws), { path: '/home/u/x', folder: false });
    assert.deepEqual(deniedWritePath("mkdir: cannot create directory ‘/home/u/.local’: Read-only file system", ws), { path: '/home/u/.local', folder: true });
    assert.deepEqual(deniedWritePath("npm ERR! EROFS: read-only file system, mkdir '/usr/lib/node_modules/wat-tiny'", ws), { path: '/usr/lib/node_modules/wat-tiny', folder: true });
    assert.deepEqual(deniedWritePath("ERROR: Could not install packages due to an OSError: [Errno 30] Read-only file system: '/home/u/.local'", ws), { path: '/home/u/.local', folder: true });
    assert.deepEqual(deniedWritePath('sh: 1: cannot create /home/u/out.txt: Read-only file system', ws), { path: '/home/u/out.txt', folder: false });
    assert.equal(deniedWritePath("error: could not lock config file /work/ws/.git/config: Read-only file system", ws), undefined, 'protected config inside the workspace is not a grant');
    assert.equal(deniedWritePath('all good', ws), undefined);
  });

  it('offers the folder itself, else the nearest folder above it that may be granted, else the path as a new folder', async () => {
    const tree: Record<string, 'directory' | 'file'> = { '/home/u': 'directory', '/home/u/.local': 'directory', '/srv/data': 'directory' };
    const kind = async (p: string) => tree[p];
    const folder = (p: string) => ({ path: p, folder: true });
    assert.equal(await grantFor(folder('/srv/data'), '/home/u', [], [], kind), '/srv/data');
    assert.equal(await grantFor(folder('/home/u/.local/lib/python3'), '/home/u', [], [], kind), '/home/u/.local');
    assert.equal(await grantFor(folder('/home/u/.cargo-new'), '/home/u', [], [], kind), '/home/u/.cargo-new', 'home itself is never offered');
    assert.equal(await grantFor({ path: '/home/u/out.txt', folder: false }, '/home/u', [], [], kind), undefined, 'a file in the home folder: no folder to offer');
    assert.equal(await grantFor(folder('/usr/lib/node_modules/x'), '/home/u', [], [], kind), undefined);
  });

  it('never grants the home folder or what holds it, a system folder, or a folder inside a secret one', () => {
    assert.match(refusedGrant('/home/u', '/home/u', []) ?? '', /home folder/);
    assert.match(refusedGrant('/home', '/home/u', []) ?? '', /home folder/);
    assert.match(refusedGrant('/', '/home/u', []) ?? '', /home folder/);
    assert.match(refusedGrant('/usr/local/lib', '/home/u', []) ?? '', /system folder/);
    assert.match(refusedGrant('/etc', '/home/u', []) ?? '', /system folder/);
    assert.match(refusedGrant('/home/u/.ssh/keys', '/home/u', ['/home/u/.ssh']) ?? '', /cannot read/);
    assert.match(refusedGrant('/home/u/../x', '/home/u', []) ?? '', /normalised/);
    assert.equal(refusedGrant('/home/u/.local', '/home/u', ['/home/u/.local/share/keyrings']), undefined, 'a secret inside stays hidden');
    assert.equal(refusedGrant('/var/tmp/build', '/home/u', []), undefined);
    // The user's own mounts under /run (a removable drive, a GVFS share) are no system folders; /run/user/<uid> itself is.
    assert.equal(refusedGrant('/run/media/u/stick/project', '/home/u', []), undefined);
    assert.equal(refusedGrant('/run/user/1000/gvfs/smb-share:server=nas,share=src', '/home/u', []), undefined);
    for (const folder of ['/run/media/u', '/run/media', '/run/user/1000', '/run/user/1000/bus', '/run/user/1000/gvfs']) {
      assert.match(refusedGrant(folder, '/home/u', []) ?? '', /system folder/, folder);
    }
    assert.match(refusedGrant('/home/u/.pyenv/shims', '/home/u', [], ['/home/u/.pyenv/shims', '/usr/bin']) ?? '', /on your PATH/);
    assert.match(refusedGrant('/home/u/.local/bin/sub', '/home/u', [], ['/home/u/.local/bin']) ?? '', /on your PATH/);
    assert.equal(refusedGrant('/home/u/.local', '/home/u', [], ['/home/u/.local/bin']), undefined, 'one that holds a PATH folder is asked with a warning');
  });
});
