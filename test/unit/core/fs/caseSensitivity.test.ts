import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ignoresCase } from '../../../../src/core/fs/node/caseSensitivity';
import { judgeLocation } from '../../../../src/core/guard/judgeLocation';
import { fileLocation } from '../../../../src/core/location';
import { CASE_INSENSITIVE_VOLUME, mountCaseInsensitiveVolume, type CaseInsensitiveVolume } from '../../support/caseInsensitiveVolume';
import { testContext } from '../../support/context';
import { describeOnlyOn, skipUnlessOn } from '../../support/platforms';

function listing(folder: string): string[] {
  return fs.readdirSync(folder).sort();
}

describe('fs/caseSensitivity', () => {
  // Windows' temporary folder ignores case (a folder keeps case there only by fsutil's per-folder flag, which needs an administrator).
  describeOnlyOn(['linux', 'darwin'], 'a case-sensitive temporary folder')('on a case-sensitive volume', () => {
    let root: string;
    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-case-'));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('says the folder keeps case, by its entries, creating nothing', async () => {
      fs.writeFileSync(path.join(root, 'Readme.md'), '');
      assert.equal(await ignoresCase(root), false);
      assert.deepEqual(listing(root), ['Readme.md']);
    });

    it('is not fooled by two spellings that are both there', async () => {
      fs.writeFileSync(path.join(root, 'a'), '');
      fs.writeFileSync(path.join(root, 'A'), '');
      assert.equal(await ignoresCase(root), false);
    });

    it('decides an empty folder by its own name in its parent', async () => {
      const empty = path.join(root, 'Empty');
      fs.mkdirSync(empty);
      assert.equal(await ignoresCase(empty), false);
      assert.deepEqual(listing(empty), []);
    });
  });

  describe('on a real case-insensitive volume (exFAT)', function () {
    this.timeout(60_000);
    let volume: CaseInsensitiveVolume | undefined;
    before(function () {
      skipUnlessOn(this, 'linux', CASE_INSENSITIVE_VOLUME);
      volume = mountCaseInsensitiveVolume();
    });
    after(() => volume?.unmount());
    const on = (...names: string[]): string => path.join((volume as CaseInsensitiveVolume).root, ...names);

    it('says a folder ignores case, by its entries, creating nothing', async () => {
      fs.mkdirSync(on('proj'), { recursive: true });
      fs.writeFileSync(on('proj', 'Readme.md'), '');
      assert.equal(await ignoresCase(on('proj')), true);
      assert.deepEqual(listing(on('proj')), ['Readme.md']);
    });

    it('decides an empty folder by its own name, looked up on the same volume', async () => {
      fs.mkdirSync(on('Empty'), { recursive: true });
      assert.equal(await ignoresCase(on('Empty')), true);
      assert.deepEqual(listing(on('Empty')), []);
    });

    it('judges another spelling of the folder inside it, and its protected names stay protected', async () => {
      const folder = on('work');
      fs.mkdirSync(path.join(folder, '.git'), { recursive: true });
      for (const inside of ['plainbare/objects', 'plainbare/refs']) {
        fs.mkdirSync(path.join(folder, inside), { recursive: true });
      }
      fs.writeFileSync(path.join(folder, 'plainbare', 'HEAD'), 'ref: refs/heads/main\n');
      fs.writeFileSync(path.join(folder, 'a.txt'), '');
      const caseInsensitive = await ignoresCase(folder);
      const ctx = testContext({ root: folder, settings: { riskLevel: 'low' }, workspace: { folders: [{ name: 'ws', location: fileLocation(folder), caseInsensitive }] } });
      const judge = async (name: string, access: 'read' | 'write') => (await judgeLocation(fileLocation(on('WORK', name)), access, ctx)).verdict;
      assert.equal((await judge('a.txt', 'write')).decision, 'allow');
      assert.equal((await judge('new.txt', 'write')).decision, 'allow');
      assert.equal((await judge('.GIT/config', 'write')).rule, 'file.protected_file_overwrite');
      assert.equal((await judge('.ENV.', 'read')).rule, 'file.sensitive_path_read');
      // A bare repository found by its contents under another spelling of the folder.
      assert.equal((await judge('PlainBare/CONFIG', 'write')).rule, 'file.execution_config_write');
    });
  });
});
