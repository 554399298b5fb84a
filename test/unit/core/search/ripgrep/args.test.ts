import * as assert from 'node:assert/strict';
import { fileLocation, joinLocation } from '../../../../../src/core/location';
import type { SearchScope } from '../../../../../src/core/ports/search';
import { pathArgument } from '../../../../../src/core/search/ripgrep/args';

const ignoreRoot = fileLocation('/ws');
const scope = (rootFromIgnoreRoot: string): SearchScope => ({
  root: rootFromIgnoreRoot === '' ? ignoreRoot : joinLocation(ignoreRoot, rootFromIgnoreRoot),
  rootKind: 'directory',
  ignoreRoot,
  rootFromIgnoreRoot,
  parentRules: true,
  excludes: { names: [], paths: [], matchesEntry: () => false, isExcluded: () => false },
});

describe('search/ripgrep/args pathArgument', () => {
  it('reads the paths ripgrep prints on Linux as relative to the searched folder', () => {
    assert.equal(pathArgument(scope(''), 'linux').toRelative('./src/main.ts'), 'src/main.ts');
    assert.equal(pathArgument(scope('src/nested'), 'linux').toRelative('src/nested/deep.ts'), 'deep.ts');
  });

  it("reads ripgrep's backslashes on Windows as separators, giving the same relative paths", () => {
    // As ripgrep 15's rg.exe prints them: the argument as given, joined with backslashes.
    assert.equal(pathArgument(scope(''), 'win32').toRelative('.\\src\\nested\\deep.ts'), 'src/nested/deep.ts');
    assert.equal(pathArgument(scope('src'), 'win32').toRelative('src\\main.ts'), 'main.ts');
    assert.equal(pathArgument(scope('src/nested'), 'win32').toRelative('src/nested\\deep.ts'), 'deep.ts');
  });

  it('keeps a backslash in a name on Linux, where it is no separator', () => {
    assert.equal(pathArgument(scope(''), 'linux').toRelative('./odd\\name.ts'), 'odd\\name.ts');
  });
});
