import * as assert from 'node:assert/strict';
import { containingFolder, displayPath, fileLocation, hostPath, isInside } from '../../../src/core/location';
import { SINGLE_FOLDER, TWO_FOLDERS } from '../support/workspaces';

const single = SINGLE_FOLDER;
const multi = TWO_FOLDERS;

describe('location', () => {
  describe('isInside', () => {
    it('compares whole path components, not string prefixes', () => {
      assert.ok(isInside(fileLocation('/work/app/x'), fileLocation('/work/app')));
      assert.ok(isInside(fileLocation('/work/app'), fileLocation('/work/app')));
      assert.ok(!isInside(fileLocation('/work/app-sibling/x'), fileLocation('/work/app')));
      assert.ok(!isInside(fileLocation('/work/ap'), fileLocation('/work/app')));
    });

    it('never puts a location of another scheme inside a root', () => {
      assert.ok(!isInside({ scheme: 'memfs', authority: '', path: '/work/app/x' }, fileLocation('/work/app')));
    });

    it('folds letter case for a root on a volume that ignores it, and only then', () => {
      assert.ok(isInside(fileLocation('/work/PROJ/x'), fileLocation('/work/proj'), true));
      assert.ok(isInside(fileLocation('/WORK/Proj'), fileLocation('/work/proj'), true));
      assert.ok(isInside(fileLocation('/work/pro\u017Fe/x'), fileLocation('/work/prose'), true));
      assert.ok(!isInside(fileLocation('/work/PROJ/x'), fileLocation('/work/proj')));
      assert.ok(!isInside(fileLocation('/work/proj-other/x'), fileLocation('/work/proj'), true));
      // Only case: a trailing dot or another normalisation may be a sibling on NTFS, and outside is the safe side.
      assert.ok(!isInside(fileLocation('/work/proj./x'), fileLocation('/work/proj'), true));
      assert.ok(!isInside(fileLocation('/work/stra\u00DFe/x'), fileLocation('/work/strasse'), true));
    });

    it('compares a Windows drive letter in any case', () => {
      assert.ok(isInside(fileLocation('/C:/work/x'), fileLocation('/c:/work')));
      assert.ok(!isInside(fileLocation('/C:/WORK/x'), fileLocation('/c:/work')));
    });
  });

  describe('containingFolder', () => {
    const folders = [
      { name: 'ci', location: fileLocation('/vol/proj'), caseInsensitive: true },
      { name: 'cs', location: fileLocation('/work/app') },
    ];

    it('finds a location in a folder on a volume that ignores case under any spelling, and shows it relative', () => {
      assert.equal(containingFolder(fileLocation('/VOL/Proj/src/a.ts'), folders)?.name, 'ci');
      assert.equal(displayPath(fileLocation('/VOL/Proj/src/a.ts'), { folders }), 'ci/src/a.ts');
    });

    it('finds a location in a case-sensitive folder only as the folder spells it', () => {
      assert.equal(containingFolder(fileLocation('/work/APP/a.ts'), folders), undefined);
      assert.equal(containingFolder(fileLocation('/work/app/a.ts'), folders)?.name, 'cs');
    });
  });

  describe('displayPath', () => {
    it('is workspace-relative with / separators', () => {
      assert.equal(displayPath(fileLocation('/work/app/src/a.ts'), single), 'src/a.ts');
    });

    it('shows the workspace folder itself as .', () => {
      assert.equal(displayPath(fileLocation('/work/app'), single), '.');
    });

    it('prefixes the folder name in a multi-root workspace', () => {
      assert.equal(displayPath(fileLocation('/src/lib/index.ts'), multi), 'lib/index.ts');
    });

    it('keeps outside paths absolute in a multi-root workspace', () => {
      assert.equal(displayPath(fileLocation('/tmp/x'), multi), '/tmp/x');
    });
  });
});

describe('location: paths of a Windows host', () => {
  it('gives a drive path from Node or VS Code, in any separators, the /C:/x form of VS Code\'s Uri.path', () => {
    assert.deepEqual(fileLocation('C:\\work\\app\\a.ts'), fileLocation('/C:/work/app/a.ts'));
    assert.deepEqual(fileLocation('c:\\work/app\\a.ts').path, '/c:/work/app/a.ts');
    assert.deepEqual(fileLocation('D:'), fileLocation('/D:'));
  });

  it('gives a UNC path its server as the authority', () => {
    assert.deepEqual(fileLocation('\\\\server\\share\\x'), { scheme: 'file', authority: 'server', path: '/share/x' });
  });

  it('keeps every POSIX absolute path as it is, // included', () => {
    assert.deepEqual(fileLocation('/etc/hosts'), { scheme: 'file', authority: '', path: '/etc/hosts' });
    assert.deepEqual(fileLocation('//etc/hosts'), { scheme: 'file', authority: '', path: '//etc/hosts' });
  });

  it('judges a realpath in backslashes inside the folder VS Code gave in its own form, so it is no link leading out', () => {
    const folder = fileLocation('c:\\work\\app');
    assert.ok(isInside(fileLocation('C:\\work\\app\\src/a.ts'), folder));
    assert.deepEqual(fileLocation('c:\\work\\app\\a.ts'), fileLocation('c:/work/app/a.ts'));
  });

  it('gives the host the path Node opens: C:/x and //server/share/x on Windows, the POSIX path elsewhere', () => {
    assert.equal(hostPath(fileLocation('C:\\work\\a.ts'), 'win32'), 'C:/work/a.ts');
    assert.equal(hostPath(fileLocation('\\\\server\\share\\x'), 'win32'), '//server/share/x');
    assert.equal(hostPath(fileLocation('/work/a.ts'), 'linux'), '/work/a.ts');
  });

  it('gives a drive\'s root as C:/, never C: (the drive\'s current folder to Windows)', () => {
    assert.equal(hostPath({ scheme: 'file', authority: '', path: '/C:' }, 'win32'), 'C:/');
    assert.equal(hostPath(fileLocation('C:\\'), 'win32'), 'C:/');
  });
});
