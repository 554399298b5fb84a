import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint as ESLintClass } from 'eslint';

const REPO = path.resolve(__dirname, '../../../..');

// A real dynamic import: the lint config and its rule are ES modules, and tsc would turn import() into require().
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

type Floors = readonly { floor: string; nodes: Record<string, readonly string[]> }[];

interface LayeringModule {
  LAYERS: Record<string, Floors>;
  ROOTS: Floors;
}

/** The messages ESLint (with the project's own config) gives for `text` as the content of `file`. */
async function lint(eslint: ESLintClass, file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(REPO, file) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('eslint/layering.mjs: the floors of src, src/core and src/vscode', function () {
  this.timeout(60_000);
  let eslint: ESLintClass;
  let layering: LayeringModule;
  before(async () => {
    const { ESLint } = (await importModule('eslint')) as { ESLint: typeof ESLintClass };
    eslint = new ESLint({ cwd: REPO });
    layering = (await importModule(pathToFileURL(path.join(REPO, 'eslint/layering.mjs')).href)) as LayeringModule;
  });

  /** A real file of the node with one import planted on top. */
  const planted = (file: string, specifier: string): { file: string; text: string } => plantedLine(file, `import '${specifier}';`);
  /** A real file of the node with one line planted on top. */
  const plantedLine = (file: string, line: string): { file: string; text: string } => ({
    file,
    text: `${line}\n${fs.readFileSync(path.join(REPO, file), 'utf8')}`,
  });

  for (const root of ['src', 'src/core', 'src/vscode']) {
    it(`gives every folder and top-level file of ${root} a floor`, () => {
      const floors = root === 'src' ? layering.ROOTS : layering.LAYERS[root];
      const placed = new Set(floors.flatMap((entry) => Object.keys(entry.nodes)));
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

  it('refuses node:fs and node:child_process outside node/ folders, and allows them in one', async () => {
    const io = "import { readFileSync } from 'node:fs';\nimport { spawn } from 'node:child_process';\nexport const io = [readFileSync, spawn];\n";
    const outside = await lint(eslint, 'src/core/read/fileType.ts', io);
    assert.equal(outside.filter((message) => message.startsWith('layering/modules:') && /FileSystem port/.test(message)).length, 2);
    const adapter = await lint(eslint, 'src/core/fs/node/nodeFileSystem.ts', io);
    assert.deepEqual(adapter.filter((message) => message.startsWith('layering/modules:')), []);
  });

  // Every Node built-in but a few pure ones is banned in src/core, in both spellings, and lifted by folder (node/).

  for (const name of ['node:os', 'os', 'node:net', 'net', 'node:http', 'node:worker_threads', 'events', 'node:stream', 'node:test']) {
    it(`refuses '${name}' in a pure file of src/core`, async () => {
      const { file, text } = plantedLine('src/core/text/format.ts', `import '${name}';`);
      assert.match((await lint(eslint, file, text)).join('\n'), new RegExp(`layering/modules: '${name}' may not be loaded here \\(import\\): Node I/O in src/core lives in a node/ folder`));
    });
  }

  it("refuses import('node:child_process') and export-from 'node:os' in a pure file of src/core", async () => {
    const { file, text } = plantedLine('src/core/search/globPattern.ts', "void import('node:child_process');\nexport { cpus } from 'node:os';");
    const messages = (await lint(eslint, file, text)).join('\n');
    assert.match(messages, /'node:child_process' may not be loaded here \(import\(\)\)/);
    assert.match(messages, /'node:os' may not be loaded here \(export from\)/);
  });

  it('accepts the pure built-ins (path, string_decoder, url, util, crypto) in a pure file of src/core', async () => {
    const pure = ['node:path', 'path', 'node:string_decoder', 'node:url', 'node:util', 'util', 'node:crypto', 'crypto'].map((name) => `import '${name}';`).join('\n');
    const { file, text } = plantedLine('src/core/text/format.ts', pure);
    assert.deepEqual((await lint(eslint, file, text)).filter((message) => message.startsWith('layering/')), []);
  });

  for (const file of ['src/core/process/node/processGroup.ts', 'src/core/checkpoints/node/git/gitCheckpointStore.ts', 'src/core/guard/command/shell/node/wasmGrammar.ts']) {
    it(`accepts Node I/O, by import and import(), in ${file} (a node/ folder, at any depth)`, async () => {
      const planted = plantedLine(file, "import 'node:os';\nimport 'net';\nvoid import('node:child_process');");
      assert.deepEqual((await lint(eslint, planted.file, planted.text)).filter((message) => message.startsWith('layering/')), []);
    });
  }

  it("places a node/ folder on its parent's floor: it may not import up, and its parent may import it", async () => {
    const up = planted('src/core/fs/node/nodeFileSystem.ts', '../../tools/index');
    assert.match((await lint(eslint, up.file, up.text)).join('\n'), /Bad layering: src\/core\/fs \(floor 3 domains\) may not import src\/core\/tools \(floor 6 tools\)/);
    const sibling = planted('src/core/process/node/processGroup.ts', '../../search/globPattern');
    assert.match((await lint(eslint, sibling.file, sibling.text)).join('\n'), /Bad layering: src\/core\/process \(floor 3 domains\) may not import src\/core\/search/);
    const own = planted('src/core/read/pdfText.ts', './node/pdfJs');
    assert.deepEqual((await lint(eslint, own.file, own.text)).filter((message) => message.startsWith('layering/')), []);
  });

  it('refuses vscode in src/core, adapters included', async () => {
    const messages = await lint(eslint, 'src/core/fs/node/nodeFileSystem.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n");
    assert.match(messages.join('\n'), /layering\/modules: .*src\/core must not import vscode/);
  });

  // The plants the review of 2026-11-24 found accepted (/work/shared/reviews/architecture-2026-11-24.md, section 0).

  it('refuses src/core importing src/vscode', async () => {
    const { file, text } = planted('src/core/text/format.ts', '../../vscode/commandIds');
    assert.match((await lint(eslint, file, text)).join('\n'), /layering\/layers: Bad layering: src\/core\/text\/format \(in src\/core, floor 1 plain Node of src\) may not import src\/vscode\/commandIds \(in src\/vscode, floor 2 VS Code adapters of src\)\. src\/core may import: nothing outside src\/core/);
  });

  it('refuses src/core importing a src/vscode file that loads vscode at run time', async () => {
    const { file, text } = planted('src/core/text/format.ts', '../../vscode/host/settings');
    assert.match((await lint(eslint, file, text)).join('\n'), /Bad layering: src\/core\/text\/format .* may not import src\/vscode\/host\/settings \(in src\/vscode/);
  });

  it('refuses src/core importing src/mcp, its neighbour on the floor', async () => {
    const { file, text } = planted('src/core/read/fileType.ts', '../../mcp/serverInfo');
    assert.match((await lint(eslint, file, text)).join('\n'), /Bad layering: src\/core\/read\/fileType .* may not import src\/mcp\/serverInfo \(in src\/mcp, floor 1 plain Node of src\)/);
  });

  it('refuses src/core importing extension.ts', async () => {
    const { file, text } = planted('src/core/tools/glob.ts', '../../extension');
    assert.match((await lint(eslint, file, text)).join('\n'), /Bad layering: src\/core\/tools\/glob .* may not import src\/extension \(in src\/extension, floor 3 activation of src\)/);
  });

  it('resolves a .js specifier to its .ts file and refuses it up a floor', async () => {
    const { file, text } = planted('src/core/text/format.ts', '../tools/index.js');
    assert.match((await lint(eslint, file, text)).join('\n'), /layering\/layers: Bad layering: src\/core\/text \(floor 1 vocabulary\) may not import src\/core\/tools \(floor 6 tools\)/);
  });

  it('refuses a relative import in src that lands on no file', async () => {
    const { file, text } = planted('src/core/text/format.ts', '../tools/nowhere.js');
    assert.match((await lint(eslint, file, text)).join('\n'), /layering\/layers: '\.\.\/tools\/nowhere\.js' lands on no file/);
  });

  it('accepts a .js specifier down the floors', async () => {
    const { file, text } = planted('src/core/tools/glob.ts', '../guard/rules.js');
    assert.deepEqual((await lint(eslint, file, text)).filter((message) => message.startsWith('layering/')), []);
  });

  it('refuses import() of node:fs in src/core outside node/ folders, and allows it in one', async () => {
    const outside = plantedLine('src/core/text/format.ts', "void import('node:fs');");
    assert.match((await lint(eslint, outside.file, outside.text)).join('\n'), /layering\/modules: 'node:fs' may not be loaded here \(import\(\)\): Node I\/O in src\/core lives in a node\/ folder/);
    const adapter = plantedLine('src/core/fs/node/nodeFileSystem.ts', "void import('node:fs');");
    assert.deepEqual((await lint(eslint, adapter.file, adapter.text)).filter((message) => message.startsWith('layering/')), []);
  });

  it('refuses src/mcp importing src/core, and accepts src/vscode importing src/mcp', async () => {
    const { file, text } = planted('src/mcp/serverInfo.ts', '../core/text/format');
    assert.match((await lint(eslint, file, text)).join('\n'), /layering\/layers: Bad layering: src\/mcp\/serverInfo \(in src\/mcp, floor 1 plain Node of src\) may not import src\/core\/text\/format/);
    const down = planted('src/vscode/host/documents.ts', '../../mcp/serverInfo.js');
    assert.deepEqual((await lint(eslint, down.file, down.text)).filter((message) => message.startsWith('layering/')), []);
  });
});
