// The cut of the unit tier into mocha processes (scripts/test-host/unitGroups.mjs): every test
// file runs once, the slow files named first exist, and they start first.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = path.resolve(__dirname, '../../../..');
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;
type Entry = string | readonly [string, number];
interface UnitGroupsModule {
  SLOW_FIRST: readonly Entry[];
  unitGroups(files: readonly string[]): { name: string; files: string[] }[];
}

/** The unit test files as the runner sees them: compiled names relative to out/test/unit, from the sources. */
function unitTestFiles(): string[] {
  const root = path.join(REPO, 'test', 'unit');
  return fs.readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => name.split(path.sep).join('/').replace(/\.ts$/, '.js'));
}

describe('testHost/unitGroups: the unit tier cut into mocha processes', () => {
  let groups: UnitGroupsModule;
  before(async () => {
    groups = (await importModule(pathToFileURL(path.join(REPO, 'scripts/test-host/unitGroups.mjs')).href)) as UnitGroupsModule;
  });

  it('runs every unit test file exactly once', () => {
    const files = unitTestFiles();
    const grouped = groups.unitGroups(files).flatMap((group) => group.files);
    assert.deepEqual([...grouped].sort(), [...files].sort());
  });

  it('names in SLOW_FIRST only test files and folders that exist, so none loses its early start to a rename', () => {
    const files = unitTestFiles();
    for (const entry of groups.SLOW_FIRST) {
      const name = typeof entry === 'string' ? entry : entry[0];
      const found = name.endsWith('.js') ? files.includes(name) : files.some((file) => file.startsWith(`${name}/`) && !file.slice(name.length + 1).includes('/'));
      assert.ok(found, `${name} in SLOW_FIRST names no unit test file or folder of test files`);
    }
  });

  it('starts the slow files first, in the listed order, a folder dealt into its count of groups, and the rest after in path order', () => {
    const files = ['a/x.test.js', 'core/tools/command/b.test.js', 'core/tools/command/a.test.js', 'core/tools/command/c.test.js', 'core/checkpoints/node/git/gitCheckpointStore.test.js', 'b/y.test.js'];
    assert.deepEqual(groups.unitGroups(files), [
      { name: 'core/checkpoints/node/git/gitCheckpointStore.test.js', files: ['core/checkpoints/node/git/gitCheckpointStore.test.js'] },
      { name: 'core/tools/command (1/2)', files: ['core/tools/command/a.test.js', 'core/tools/command/c.test.js'] },
      { name: 'core/tools/command (2/2)', files: ['core/tools/command/b.test.js'] },
      { name: 'a … b', files: ['a/x.test.js', 'b/y.test.js'] },
    ]);
  });
});
