// Which integration files each VS Code version runs (test/integration/versions.ts): the floor leaves
// out only the version-independent suites listed there, keeps every suite of VS Code's side, and
// loses nothing of its untrusted pass; the newest runs everything.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FLOOR_HOST, filesForHost, NEWEST_ONLY, NEWEST_ONLY_TESTS, onTheNewestOnly, testFileName } from '../../integration/versions';

const root = path.resolve(__dirname, '../../../..');
const integrationDir = path.join(root, 'test', 'integration');
/** The integration test files of the checkout, as the in-host runner finds them compiled. */
const files = fs
  .readdirSync(integrationDir)
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => path.join(integrationDir, name.replace(/\.ts$/, '.js')));

describe('integration files per VS Code version (test/integration/versions.ts)', () => {
  it('runs every file on the newest, on a host the runner did not name (desktop VS Code) and on the floor with --full-floor', () => {
    for (const [hostId, fullFloor] of [['newest', false], [undefined, false], [FLOOR_HOST, true]] as const) {
      assert.deepEqual(filesForHost(files, hostId, fullFloor), { run: files, leftOut: [] }, `${hostId} ${fullFloor}`);
    }
  });

  it('leaves out on the floor exactly the files it names, and keeps every suite of VS Code\'s side there', () => {
    const { run, leftOut } = filesForHost(files, FLOOR_HOST, false);
    assert.deepEqual(leftOut.map(testFileName).sort(), Object.keys(NEWEST_ONLY).sort());
    assert.deepEqual([...run, ...leftOut].sort(), [...files].sort());
    const onTheFloor = new Set(run.map(testFileName));
    // The lm API and the registration, the diff editor, editors and notebooks, terminals and views,
    // configuration and trust, the language servers, the MCP definition API, the sandbox from the host.
    for (const name of ['host', 'trust', 'writing', 'readFile', 'checkpoints', 'languageTools', 'backgroundCommands', 'runCommand', 'sandbox', 'hostileRepository', 'mcp', 'mcpDefinition', 'virtualFileSystem', 'palette', 'controlSurface', 'search']) {
      assert.ok(onTheFloor.has(name), `${name}.test.ts runs on the floor`);
    }
  });

  it('leaves out on the floor no test of its untrusted pass: every suite of a file it leaves out skips itself when untrusted', () => {
    for (const name of Object.keys(NEWEST_ONLY)) {
      const source = fs.readFileSync(path.join(integrationDir, `${name}.test.ts`), 'utf8');
      const suites = source.match(/^describe\(/gm)?.length ?? 0;
      const skippedWhenUntrusted = source.match(/if \([^)]*!vscode\.workspace\.isTrusted\b[^)]*\) this\.skip\(\)/g)?.length ?? 0;
      assert.ok(suites > 0 && skippedWhenUntrusted >= suites, `${name}.test.ts: ${suites} suites, ${skippedWhenUntrusted} skip when untrusted`);
    }
  });

  it('gives every file it leaves out a reason', () => {
    for (const [name, why] of Object.entries(NEWEST_ONLY)) assert.ok(why.length > 40, `${name}: ${why}`);
  });

  it('refuses a list that names a file there is not, naming it, on every host', () => {
    const renamed = files.filter((file) => testFileName(file) !== 'network');
    for (const hostId of [FLOOR_HOST, 'newest']) {
      assert.throws(() => filesForHost(renamed, hostId, false), /lists network\.test\.ts, which no test file is/);
    }
  });

  it('skips on the floor each test it lists, and nowhere else, not with --full-floor', () => {
    const [title] = Object.keys(NEWEST_ONLY_TESTS);
    const skipped = (env: NodeJS.ProcessEnv): boolean => {
      let skips = 0;
      onTheNewestOnly({ test: { title }, skip: () => (skips += 1) }, env);
      return skips === 1;
    };
    assert.equal(skipped({ WAT_TEST_HOST_ID: FLOOR_HOST }), true);
    assert.equal(skipped({ WAT_TEST_HOST_ID: FLOOR_HOST, WAT_TEST_FULL_FLOOR: '1' }), false);
    assert.equal(skipped({ WAT_TEST_HOST_ID: 'newest' }), false);
    assert.equal(skipped({}), false);
  });

  it('refuses to skip a test it does not list, naming it, on every host', () => {
    for (const env of [{ WAT_TEST_HOST_ID: FLOOR_HOST }, { WAT_TEST_HOST_ID: 'newest' }]) {
      assert.throws(() => onTheNewestOnly({ test: { title: 'an unlisted test' }, skip: () => undefined }, env), /does not list the test "an unlisted test"/);
    }
  });

  it('names, for each test it lists, a file the floor runs that has that test calling onTheNewestOnly first, with a reason', () => {
    const calls = new Map<string, number>();
    for (const [title, { file, why }] of Object.entries(NEWEST_ONLY_TESTS)) {
      assert.ok(!Object.hasOwn(NEWEST_ONLY, file), `${file}.test.ts runs on the floor`);
      assert.ok(why.length > 40, `${title}: ${why}`);
      const source = fs.readFileSync(path.join(integrationDir, `${file}.test.ts`), 'utf8').replace(/\\'/g, "'");
      const at = source.indexOf(`it('${title}', async function () {`);
      assert.ok(at >= 0, `${file}.test.ts has the test "${title}"`);
      assert.match(source.slice(at).split('\n')[1] ?? '', /^\s*onTheNewestOnly\(this\);$/, `"${title}" calls onTheNewestOnly(this) first`);
      calls.set(file, (calls.get(file) ?? 0) + 1);
    }
    for (const name of files.map(testFileName)) {
      const source = fs.readFileSync(path.join(integrationDir, `${name}.test.ts`), 'utf8');
      assert.equal(source.match(/onTheNewestOnly\(this\)/g)?.length ?? 0, calls.get(name) ?? 0, `${name}.test.ts calls onTheNewestOnly only in the tests the list names`);
    }
  });

  it('reads a file\'s name from a compiled or a source path, on either separator', () => {
    assert.equal(testFileName('/x/out/test/integration/devWorkflow.test.js'), 'devWorkflow');
    assert.equal(testFileName('C:\\x\\test\\integration\\network.test.ts'), 'network');
  });
});
