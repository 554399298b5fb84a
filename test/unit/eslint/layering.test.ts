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

/** The messages of the fence rules: the layering plugin's and the banned globals. */
const fenced = (messages: string[]): string[] => messages.filter((message) => /^(layering\/|no-restricted-globals|no-restricted-properties)/.test(message));

/**
 * The project's config with TypeScript's type information off: every rule these plants meet reads
 * only the syntax (layering/*, no-restricted-*, noInlineConfig), while building the type-checked
 * program for a planted text took most of this file's time (36 s of its first lint at load 12).
 */
const SYNTAX_ONLY: ESLintClass.Options['overrideConfig'] = {
  languageOptions: { parserOptions: { projectService: false, project: null } },
  rules: { '@typescript-eslint/no-floating-promises': 'off' },
};

describe('eslint/layering.mjs: the floors of src, src/core and src/vscode', function () {
  this.timeout(60_000);
  let eslint: ESLintClass;
  let layering: LayeringModule;
  before(async () => {
    const { ESLint } = (await importModule('eslint')) as { ESLint: typeof ESLintClass };
    eslint = new ESLint({ cwd: REPO, overrideConfig: SYNTAX_ONLY });
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

  it("places a node/ folder on its parent's floor: it may not import up, and its parent may take its types", async () => {
    const up = planted('src/core/fs/node/nodeFileSystem.ts', '../../tools/index');
    assert.match((await lint(eslint, up.file, up.text)).join('\n'), /Bad layering: src\/core\/fs \(floor 3 domains\) may not import src\/core\/tools \(floor 6 tools\)/);
    const sibling = planted('src/core/process/node/processGroup.ts', '../../search/globPattern');
    assert.match((await lint(eslint, sibling.file, sibling.text)).join('\n'), /Bad layering: src\/core\/process \(floor 3 domains\) may not import src\/core\/search/);
    const own = plantedLine('src/core/read/pdfText.ts', "import type * as PdfJsLoader from './node/pdfJs';\nexport type Loader = typeof PdfJsLoader;");
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

  // The plants the review of 2026-11-28 found accepted (/work/shared/reviews/architecture-2026-11-28.md, section 0).

  for (const specifier of ['../process/node/processRunner', '../fs/node/nodeFileSystem', '../search/ripgrep/node/run']) {
    it(`refuses a pure file of src/core loading the node/ file ${specifier}`, async () => {
      const { file, text } = planted('src/core/tools/glob.ts', specifier);
      assert.match((await lint(eslint, file, text)).join('\n'), new RegExp(`layering/node-zone: src/core/tools/glob\\.ts is pure code and may not load the node/ file src/core/${specifier.slice(3)}\\.ts: import only its types`));
    });
  }

  it('refuses the value half of a mixed import, and import() and export-from of a node/ file, in pure code', async () => {
    const { file, text } = plantedLine('src/core/tools/glob.ts', "import { type ProcessRunner, nodeProcessRunner } from '../process/node/processRunner';\nvoid import('../fs/node/nodeFileSystem');\nexport { runRipgrep } from '../search/ripgrep/node/run';");
    assert.equal((await lint(eslint, file, text)).filter((message) => message.startsWith('layering/node-zone:')).length, 3);
  });

  it('accepts import type and export type from a node/ file in pure code', async () => {
    const { file, text } = plantedLine('src/core/tools/glob.ts', "import type { NodeFileSystem } from '../fs/node/nodeFileSystem';\nexport type { RipgrepRun } from '../search/ripgrep/node/run';\nexport type Adapter = NodeFileSystem;");
    assert.deepEqual(fenced(await lint(eslint, file, text)), []);
  });

  it('accepts a node/ file loading another node/ file, of its own folder or of a folder below', async () => {
    const { file, text } = plantedLine('src/core/sandbox/node/machineSandbox.ts', "import '../../process/node/processRunner';\nimport '../../fs/node/nodeFileSystem';\nimport './inotifyWatch';");
    assert.deepEqual(fenced(await lint(eslint, file, text)), []);
  });

  it('refuses an inline eslint-disable comment: ignored with a warning, which npm run lint does not let through, and the rule it aimed at still fires', async () => {
    const { file, text } = plantedLine('src/core/text/format.ts', "// eslint-disable-next-line\nconst loaded = require('node:fs');\nexport const fsModule = loaded;");
    const [result] = await eslint.lintText(text, { filePath: path.join(REPO, file) });
    const messages = result.messages.map((message) => `${message.severity} ${message.ruleId}: ${message.message}`);
    assert.ok(messages.includes("1 null: '// eslint-disable-next-line' has no effect because you have 'noInlineConfig' setting in your config."), messages.join('\n'));
    assert.ok(messages.some((message) => message.startsWith("2 no-restricted-globals: Unexpected use of 'require'.")), messages.join('\n'));
    const scripts = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.match(scripts.lint, /^eslint --max-warnings 0 \. /);
  });

  it('refuses a file-wide /* eslint-disable */ in any linted file (scripts and tests too)', async () => {
    for (const file of ['src/core/text/format.ts', 'src/vscode/host/documents.ts', 'test/unit/eslint/floors.test.ts']) {
      const { text } = plantedLine(file, '/* eslint-disable */');
      assert.match((await lint(eslint, file, text)).join('\n'), /null: '\/\* eslint-disable \*\/' has no effect because you have 'noInlineConfig'/, file);
    }
  });

  for (const [global, use] of [['process', 'process.pid'], ['fetch', "fetch('https://example.com')"], ['require', "require('node:os')"], ['__dirname', '__dirname']] as const) {
    it(`refuses the global ${global} in a pure file of src/core, and allows it in a node/ folder`, async () => {
      const line = `export const planted = ${use};`;
      const pure = plantedLine('src/core/process/commandLogs.ts', line);
      assert.match((await lint(eslint, pure.file, pure.text)).join('\n'), new RegExp(`no-restricted-globals: Unexpected use of '${global}'\\. Pure core`));
      const adapter = plantedLine('src/core/process/node/pruneCommandLogs.ts', line);
      assert.deepEqual(fenced(await lint(eslint, adapter.file, adapter.text)), []);
    });
  }

  it('refuses globalThis.process in a pure file of src/core', async () => {
    const { file, text } = plantedLine('src/core/text/format.ts', 'export const planted = globalThis.process.pid;');
    assert.match((await lint(eslint, file, text)).join('\n'), /no-restricted-properties: 'globalThis\.process' is restricted from being used\. Pure core does not read the process/);
  });

  it('refuses a cycle of type imports between two files of one folder (the one policyOptions.ts ended)', async () => {
    // policy.ts imports linePaths.ts; a type from policy.ts back in linePaths.ts closes the circle.
    const { file, text } = plantedLine('src/core/guard/command/linePaths.ts', "import type { CommandPolicyOptions } from './policy';\nexport type Planted = CommandPolicyOptions;");
    assert.match((await lint(eslint, file, text)).join('\n'), /layering\/cycles: Import cycle: src\/core\/guard\/command\/linePaths\.ts → src\/core\/guard\/command\/policy\.ts → src\/core\/guard\/command\/linePaths\.ts\. Type imports count too/);
  });

  it('refuses a cycle of value imports too, and a file importing itself', async () => {
    // shell/words.ts takes its types from shell/bashParser.ts; bashParser.ts loading words.ts closes the circle.
    const through = planted('src/core/guard/command/shell/bashParser.ts', './words');
    assert.match((await lint(eslint, through.file, through.text)).join('\n'), /layering\/cycles: Import cycle: src\/core\/guard\/command\/shell\/bashParser\.ts → src\/core\/guard\/command\/shell\/words\.ts → src\/core\/guard\/command\/shell\/bashParser\.ts/);
    const self = planted('src/core/text/format.ts', './format');
    assert.match((await lint(eslint, self.file, self.text)).join('\n'), /layering\/cycles: Import cycle: src\/core\/text\/format\.ts → src\/core\/text\/format\.ts/);
  });

  it('accepts a file of src as it is, with its imports down one folder and no way back', async () => {
    const file = 'src/core/guard/command/policy.ts';
    assert.deepEqual(fenced(await lint(eslint, file, fs.readFileSync(path.join(REPO, file), 'utf8'))), []);
  });

  it('refuses src/mcp importing src/core, and accepts src/vscode importing src/mcp', async () => {
    const { file, text } = planted('src/mcp/serverInfo.ts', '../core/text/format');
    assert.match((await lint(eslint, file, text)).join('\n'), /layering\/layers: Bad layering: src\/mcp\/serverInfo \(in src\/mcp, floor 1 plain Node of src\) may not import src\/core\/text\/format/);
    const down = planted('src/vscode/host/documents.ts', '../../mcp/serverInfo.js');
    assert.deepEqual((await lint(eslint, down.file, down.text)).filter((message) => message.startsWith('layering/')), []);
  });
});
