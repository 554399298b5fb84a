import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileLocation, locationKey } from '../../../../../src/core/location';
import type { ReportedDiagnostic } from '../../../../../src/core/ports/language';
import { invokeTool } from '../../../../../src/core/tools/invoke';
import { diagnosticsTool } from '../../../../../src/core/tools/language/diagnostics';
import { findTool } from '../../../../../src/core/tools/language/find';
import { renameSymbolTool } from '../../../../../src/core/tools/language/renameSymbol';
import { symbolsTool } from '../../../../../src/core/tools/language/symbols';
import type { Tool } from '../../../../../src/core/tools/toolSpec';
import { RecordingChangeApplier } from '../../../support/changeApplier';
import { resultText, testContext } from '../../../support/context';
import { FakeLanguageFeatures, span } from '../../../support/language';

describe('tools/language', () => {
  let root: string;
  let language: FakeLanguageFeatures;
  let applier: RecordingChangeApplier;
  const file = (relative: string): string => path.join(root, relative);
  const at = (relative: string) => fileLocation(file(relative));
  const write = (relative: string, text: string, mtimeSeconds: number): void => {
    fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
    fs.writeFileSync(file(relative), text);
    fs.utimesSync(file(relative), mtimeSeconds, mtimeSeconds);
  };
  const run = async (tool: Tool, input: object): Promise<string> => resultText(await invokeTool(tool, input, testContext({ root, language, changes: applier })));
  const problem = (relative: string, line: number, message: string, severity: ReportedDiagnostic['severity'] = 'error'): ReportedDiagnostic => ({ location: at(relative), range: span(line, 0, 1), severity, source: 'ts', code: '2322', message });

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-lang-')));
    language = new FakeLanguageFeatures();
    applier = new RecordingChangeApplier();
    write('src/greet.ts', 'export function greet(name: string) {\n  return `hi ${name}`;\n}\n', 1000);
    write('src/main.ts', "import { greet } from './greet';\ngreet('a');\n", 3000);
    write('src/other.ts', "import { greet } from './greet';\nexport const g = greet('b');\n", 2000);
    write('.env', 'SECRET=1\n', 4000);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  describe('workspace_diagnostics', () => {
    it('lists errors newest-touched file first, by place within a file, and leaves out warnings', async () => {
      language.problems = [problem('src/greet.ts', 1, 'in greet'), problem('src/main.ts', 1, 'second in main'), problem('src/main.ts', 0, 'first in main'), problem('src/other.ts', 0, 'a warning', 'warning')];
      assert.equal(await run(diagnosticsTool, {}), ['src/main.ts:1:1 error ts(2322): first in main', 'src/main.ts:2:1 error ts(2322): second in main', 'src/greet.ts:2:1 error ts(2322): in greet', '3 problems in 2 files.'].join('\n'));
    });

    it('shows warnings with severity warning, and narrows to a path', async () => {
      language.problems = [problem('src/greet.ts', 1, 'in greet'), problem('src/other.ts', 0, 'a warning', 'warning')];
      assert.equal(await run(diagnosticsTool, { path: 'src/other.ts', severity: 'warning' }), 'src/other.ts:1:1 warning ts(2322): a warning\n1 problem in 1 file.');
      assert.ok(language.asked.includes(`show ${at('src/other.ts').path}`), 'a file named as path is shown for its language service');
    });

    it('leaves out files the guard does not let the model read, and counts them', async () => {
      language.problems = [problem('.env', 0, 'secret text'), problem('src/main.ts', 0, 'visible')];
      const text = await run(diagnosticsTool, {});
      assert.ok(!text.includes('secret text'));
      assert.match(text, /\[1 problem in 1 file the workspace guard does not let you read was left out\]/);
      assert.match(text, /^src\/main\.ts:1:1 error/);
    });

    it('says when there are none, and why files not opened may not be checked', async () => {
      assert.match(await run(diagnosticsTool, {}), /^No errors reported in the workspace\. Language servers that only check open files/);
    });

    it('refuses a wait out of range, naming the field', async () => {
      await assert.rejects(run(diagnosticsTool, { wait: 600 }), /wait must be from 0 to 60/);
    });
  });

  describe('workspace_find', () => {
    it('finds the column of the symbol and lists references grouped by file with their lines', async () => {
      language.answers.set(`references@${at('src/main.ts').path}:1:0`, [
        { location: at('src/greet.ts'), range: span(0, 16, 5) },
        { location: at('src/main.ts'), range: span(0, 9, 5) },
        { location: at('src/main.ts'), range: span(1, 0, 5) },
        { location: at('src/other.ts'), range: span(1, 17, 5) },
      ]);
      const text = await run(findTool, { file_path: 'src/main.ts', line: 2, symbol: 'greet', what: 'references' });
      assert.equal(
        text,
        ['src/greet.ts', '  1: export function greet(name: string) {', 'src/main.ts', "  1: import { greet } from './greet';", "  2: greet('a');", 'src/other.ts', "  2: export const g = greet('b');", '4 locations in 3 files.'].join('\n'),
      );
    });

    it('names the language when nothing is found', async () => {
      language.languageId = 'plaintext';
      assert.match(await run(findTool, { file_path: 'src/main.ts', line: 2, symbol: 'greet', what: 'definition' }), /No definition found for "greet" at src\/main\.ts:2 \(language plaintext\)\. No language extension provides language features for plain text files/);
    });

    it('returns the hover text', async () => {
      language.hovers.set(`${at('src/main.ts').path}:1:0`, ['```typescript\nfunction greet(name: string): string\n```']);
      assert.equal(await run(findTool, { file_path: 'src/main.ts', line: 2, symbol: 'greet', what: 'hover' }), '```typescript\nfunction greet(name: string): string\n```');
    });

    it('refuses a line past the end of the file', async () => {
      await assert.rejects(run(findTool, { file_path: 'src/main.ts', line: 9, symbol: 'greet', what: 'definition' }), /line 9 is past the end of src\/main\.ts, which has 2 lines/);
    });
  });

  describe('workspace_symbols', () => {
    it("lists a file's outline, nested by indentation", async () => {
      language.outlines.set(locationKey(at('src/greet.ts')), [
        { name: 'greet', kind: 'function', location: at('src/greet.ts'), range: span(0, 16, 5), depth: 0 },
        { name: 'name', kind: 'variable', container: 'greet', location: at('src/greet.ts'), range: span(0, 22, 4), depth: 1 },
      ]);
      assert.equal(await run(symbolsTool, { file_path: 'src/greet.ts' }), 'function greet src/greet.ts:1\n  variable name src/greet.ts:1');
    });

    it('searches the workspace, exact names first, and leaves out unreadable files', async () => {
      language.searchResults = [
        { name: 'greeting', kind: 'constant', location: at('src/other.ts'), range: span(1, 13, 1), depth: 0 },
        { name: 'greet', kind: 'function', location: at('src/greet.ts'), range: span(0, 16, 5), depth: 0 },
        { name: 'greet', kind: 'variable', location: at('.env'), range: span(0, 0, 1), depth: 0 },
      ];
      assert.equal(await run(symbolsTool, { query: 'greet' }), 'function greet src/greet.ts:1\nconstant greeting src/other.ts:2\n[1 symbol in 1 file the workspace guard does not let you read was left out]');
    });

    it('wants exactly one of query and file_path', async () => {
      await assert.rejects(run(symbolsTool, {}), /Pass either query/);
    });
  });

  describe('workspace_rename_symbol', () => {
    const renameEdits = () => ({
      files: [
        { location: at('src/greet.ts'), edits: [{ range: span(0, 16, 5), newText: 'welcome' }] },
        { location: at('src/main.ts'), edits: [{ range: span(0, 9, 5), newText: 'welcome' }, { range: span(1, 0, 5), newText: 'welcome' }] },
        { location: at('src/other.ts'), edits: [{ range: span(0, 9, 5), newText: 'welcome' }, { range: span(1, 17, 5), newText: 'welcome' }] },
      ],
      otherOperations: [],
    });

    it('plans every file of the edit as one reviewed change and lists M lines with counts', async () => {
      language.renameAnswer = renameEdits();
      const text = await run(renameSymbolTool, { file_path: 'src/main.ts', line: 2, symbol: 'greet', new_name: 'welcome' });
      assert.equal(text, 'Renamed greet to welcome: 5 replacements in 3 files:\nM src/greet.ts (1 replacement)\nM src/main.ts (2 replacements)\nM src/other.ts (2 replacements)');
      assert.equal(applier.reviewed.length, 1);
      assert.equal(applier.reviewed[0].files.length, 3);
      assert.equal(fs.readFileSync(file('src/main.ts'), 'utf8'), "import { welcome } from './greet';\nwelcome('a');\n");
      assert.equal(fs.readFileSync(file('src/other.ts'), 'utf8'), "import { welcome } from './greet';\nexport const g = welcome('b');\n");
    });

    it("refuses with the provider's message and changes nothing", async () => {
      language.renameAnswer = { refused: 'You cannot rename this element.' };
      await assert.rejects(run(renameSymbolTool, { file_path: 'src/main.ts', line: 2, symbol: 'greet', new_name: 'x' }), /refused to rename "greet" to "x": You cannot rename this element\. Nothing was changed\./);
      assert.equal(applier.reviewed.length, 0);
    });

    it('refuses a new name already declared at the top of a file the rename edits, and changes nothing', async () => {
      language.renameAnswer = renameEdits();
      language.outlines.set(locationKey(at('src/other.ts')), [{ name: 'g', kind: 'constant', location: at('src/other.ts'), range: span(1, 13, 1), depth: 0 }]);
      await assert.rejects(run(renameSymbolTool, { file_path: 'src/main.ts', line: 2, symbol: 'greet', new_name: 'g' }), /"g" is already declared \(constant g at src\/other\.ts:2\); renaming "greet" to it would clash\. Choose another name\. Nothing was changed\./);
      assert.equal(applier.reviewed.length, 0);
      assert.equal(fs.readFileSync(file('src/other.ts'), 'utf8'), "import { greet } from './greet';\nexport const g = greet('b');\n");
    });

    it('refuses an edit that touches a file the guard denies, and changes nothing', async () => {
      language.renameAnswer = { files: [...renameEdits().files, { location: at('.env'), edits: [{ range: span(0, 0, 6), newText: 'x' }] }], otherOperations: [] };
      await assert.rejects(run(renameSymbolTool, { file_path: 'src/main.ts', line: 2, symbol: 'greet', new_name: 'welcome' }), /Denied by file\.sensitive_path_write.*\(A file the rename changes\.\) Nothing was changed\./s);
      assert.equal(applier.reviewed.length, 0);
      assert.equal(fs.readFileSync(file('src/main.ts'), 'utf8'), "import { greet } from './greet';\ngreet('a');\n");
    });
  });
});
