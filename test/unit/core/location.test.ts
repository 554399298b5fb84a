import * as assert from 'node:assert/strict';
import { displayPath, fileLocation, isInside } from '../../../src/core/location';
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
