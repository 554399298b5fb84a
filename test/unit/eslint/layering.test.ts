import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint as ESLintClass } from 'eslint';

const REPO = path.resolve(__dirname, '../../../..');

// A real dynamic import: the lint config and its rule are ES modules, and tsc would turn import() into require().
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

interface LayeringModule {
  LAYERS: Record<string, readonly { floor: string; nodes: Record<string, readonly string[]> }[]>;
}

/** The messages ESLint (with the project's own config) gives for `text` as the content of `file`. */
async function lint(eslint: ESLintClass, file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(REPO, file) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('eslint/layering.mjs: the floors of src/core and src/vscode', function () {
  this.timeout(60_000);
  let eslint: ESLintClass;
  let layering: LayeringModule;
  before(async () => {
    const { ESLint } = (await importModule('eslint')) as { ESLint: typeof ESLintClass };
    eslint = new ESLint({ cwd: REPO });
    layering = (await importModule(pathToFileURL(path.join(REPO, 'eslint/layering.mjs')).href)) as LayeringModule;
  });

  /** A real file of the node with one import planted on top. */
  const planted = (file: string, specifier: string): { file: string; text: string } => ({
    file,
    text: `import '${specifier}';\n${fs.readFileSync(path.join(REPO, file), 'utf8')}`,
  });

  for (const root of ['src/core', 'src/vscode']) {
    it(`gives every folder and top-level file of ${root} a floor`, () => {
      const placed = new Set(layering.LAYERS[root].flatMap((entry) => Object.keys(entry.nodes)));
      const nodes = fs.readdirSync(path.join(REPO, root), { withFileTypes: true }).map((entry) => (entry.isDirectory() ? entry.name : entry.name.replace(/\.ts$/, '')));
      assert.deepEqual(nodes.filter((node) => !placed.has(node)), []);
    });
  }

  it('refuses an import that runs up a floor of the vscode layer', async () => {
    const { file, text } = planted('src/vscode/host/documents.ts', '../tools/registration');
    assert.match((await lint(eslint, file, text)).join('\n'), /Bad layering: src\/vscode\/host \(floor 2 host adapters\) may not import src\/vscode\/tools/);
  });

  it('refuses an import that runs up a floor', async () => {
    const { file, text } = planted('src/core/read/fileType.ts', '../tools/index');
    assert.match((await lint(eslint, file, text)).join('\n'), /layering\/layers: Bad layering: src\/core\/read \(floor 3 domains\) may not import src\/core\/tools \(floor 6 tools\)/);
  });

  it('refuses an import that would close a cycle between folders', async () => {
    // changes/ imports guard/ (a write target); guard/ importing changes/ back would close the circle.
    const { file, text } = planted('src/core/guard/pathGuard.ts', '../changes/reviewAndApply');
    assert.match((await lint(eslint, file, text)).join('\n'), /Bad layering: src\/core\/guard \(floor 4 guard\) may not import src\/core\/changes/);
  });

  it('refuses an import between siblings of a floor that the table does not list', async () => {
    const { file, text } = planted('src/core/search/globPattern.ts', '../read/fileType');
    assert.match((await lint(eslint, file, text)).join('\n'), /Bad layering: src\/core\/search \(floor 3 domains\) may not import src\/core\/read/);
  });

  it('accepts an import down the floors', async () => {
    const { file, text } = planted('src/core/tools/glob.ts', '../guard/rules');
    assert.deepEqual((await lint(eslint, file, text)).filter((message) => message.startsWith('layering/')), []);
  });

  it("refuses node:fs and node:child_process outside the named adapters, and allows them in one", async () => {
    const io = "import { readFileSync } from 'node:fs';\nimport { spawn } from 'node:child_process';\nexport const io = [readFileSync, spawn];\n";
    const outside = await lint(eslint, 'src/core/read/fileType.ts', io);
    assert.equal(outside.filter((message) => message.startsWith('no-restricted-imports:') && /FileSystem port/.test(message)).length, 2);
    const adapter = await lint(eslint, 'src/core/fs/nodeFileSystem.ts', io);
    assert.deepEqual(adapter.filter((message) => message.startsWith('no-restricted-imports:')), []);
  });

  it('refuses vscode in src/core, adapters included', async () => {
    const messages = await lint(eslint, 'src/core/fs/nodeFileSystem.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n");
    assert.match(messages.join('\n'), /no-restricted-imports: .*src\/core must not import vscode/);
  });
});
