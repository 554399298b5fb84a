// The language tools in the real extension host, through vscode.lm.invokeTool and through the MCP
// front: VS Code's own TypeScript, JSON and CSS language features answer (all built in, nothing
// downloaded). Language servers start slowly on a loaded machine, so every first answer is polled
// for with `until`, never waited for by time.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ActivityRecord } from '../../src/core/activity/activityRecord';
import type { RestoreOutcome } from '../../src/core/calls/restore';
import { fileLocation } from '../../src/core/location';
import type { ChangePlan } from '../../src/core/ports/changes';
import { restoreOnFailure, snapshot } from '../../src/vscode/changes/restoreOnFailure';
import { resolveTargets } from '../../src/vscode/changes/writeTargets';
import { CommandId } from '../../src/vscode/commandIds';
import { answerNextApproval, invoke, invokeError, pendingApprovals, REPO, until, workspaceRoot } from './support/tools';

const abs = (relative: string): string => path.join(workspaceRoot(), relative);
const read = (relative: string): string => fs.readFileSync(abs(relative), 'utf8');

const GREET = 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n';
const MAIN = "import { greet } from './greet';\n\nconsole.log(greet('main'));\n";
const OTHER = "import { greet } from './greet';\n\nexport function helper(): string {\n  return greet('other');\n}\n";

let counter = 0;
/** A fresh TypeScript project of three files: greet.ts defines greet, main.ts and other.ts use it. */
function typeScriptProject(): string {
  counter += 1;
  const dir = `lang-run/ts${counter}`;
  fs.mkdirSync(abs(dir), { recursive: true });
  fs.writeFileSync(abs(`${dir}/tsconfig.json`), '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["*.ts"] }\n');
  fs.writeFileSync(abs(`${dir}/greet.ts`), GREET);
  fs.writeFileSync(abs(`${dir}/main.ts`), MAIN);
  fs.writeFileSync(abs(`${dir}/other.ts`), OTHER);
  return dir;
}

/** Polls a tool until its text matches (a language server may still be starting), and returns that text. */
async function invokeUntil(name: string, input: object, pattern: RegExp, what: string): Promise<string> {
  let last = '';
  try {
    await until(
      async () => {
        try {
          last = (await invoke(name, input)).text;
        } catch (error) {
          last = error instanceof Error ? error.message : String(error);
        }
        return pattern.test(last);
      },
      what,
      90_000,
    );
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the last answer was:\n${last.slice(0, 1000)}`);
  }
  return last;
}

async function latestRecord(): Promise<ActivityRecord> {
  return ((await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity)) ?? [])[0];
}

async function pendingQuestions(): Promise<unknown[]> {
  return (await vscode.commands.executeCommand<unknown[]>(CommandId.listPendingApprovals)) ?? [];
}

/** A copy of the fixture notebook (cells, outputs) at `relative`, and the fixture's text. */
function notebookCopy(relative: string): string {
  fs.mkdirSync(path.dirname(abs(relative)), { recursive: true });
  const original = fs.readFileSync(path.join(REPO, 'test/fixtures/files/cells.ipynb'), 'utf8');
  fs.writeFileSync(abs(relative), original);
  return original;
}

/** The copy at `relative` opened in a notebook editor. */
async function openNotebookCopy(relative: string): Promise<{ original: string; notebook: vscode.NotebookDocument }> {
  const original = notebookCopy(relative);
  const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(abs(relative)));
  await vscode.window.showNotebookDocument(notebook);
  return { original, notebook };
}

/** The user types " (typed)" after the title in cell 0 and does not save. */
async function typeInTitleCell(notebook: vscode.NotebookDocument): Promise<void> {
  const typing = new vscode.WorkspaceEdit();
  typing.insert(notebook.cellAt(0).document.uri, new vscode.Position(0, 7), ' (typed)');
  assert.ok(await vscode.workspace.applyEdit(typing));
  // The typed text reaches this extension host's copy of the cell in its own message, which may come after the notebook's dirty state.
  await until(() => notebook.isDirty && notebook.cellAt(0).document.getText() === '# Title (typed)\nSome text', 'the extension host to see the typed cell and the unsaved notebook');
}

/** Closes the notebook's editor, dropping unsaved cells, whichever editor has the focus now (a retry opens the same file). */
async function revertAndClose(notebook: vscode.NotebookDocument): Promise<void> {
  await vscode.window.showNotebookDocument(notebook);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

describe('language tools (extension host)', function () {
  this.timeout(240_000);
  before(function () {
    // The rename writes, and TypeScript's full language features need a trusted workspace.
    if (!vscode.workspace.isTrusted) this.skip();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('TypeScript: a type error introduced by workspace_edit_file shows in workspace_diagnostics', async () => {
    const dir = typeScriptProject();
    await invokeUntil('workspace_diagnostics', { path: `${dir}/main.ts` }, /^No errors reported/, 'a clean main.ts');
    await invoke('workspace_read_file', { file_path: `${dir}/main.ts` });
    const edit = invoke('workspace_edit_file', { file_path: `${dir}/main.ts`, old_string: "console.log(greet('main'));", new_string: "const count: number = greet('main');" });
    await answerNextApproval(true);
    assert.match((await edit).text, /^Edited /);
    const text = await invokeUntil('workspace_diagnostics', { path: dir }, /main\.ts:3:7 error ts\(2322\)/, 'the type error in main.ts');
    assert.match(text, new RegExp(`^${dir}/main\\.ts:3:7 error ts\\(2322\\): Type 'string' is not assignable to type 'number'\\.`, 'm'));
  });

  it('TypeScript: definition and references of a function used in 3 files find all 3, with their lines', async () => {
    const dir = typeScriptProject();
    const definition = await invokeUntil('workspace_find', { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'definition' }, /greet\.ts/, 'the definition');
    assert.equal(definition, `${dir}/greet.ts\n  1: export function greet(name: string): string {\n1 location in 1 file.`);
    const references = await invokeUntil('workspace_find', { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'references' }, /other\.ts/, 'references in other.ts');
    for (const file of ['greet.ts', 'main.ts', 'other.ts']) {
      assert.match(references, new RegExp(`^${dir}/${file.replace('.', '\\.')}$`, 'm'), `${file} is among the references:\n${references}`);
    }
    assert.match(references, /^ {2}3: console\.log\(greet\('main'\)\);$/m);
    assert.match(references, / in 3 files\.$/);
    const hover = await invoke('workspace_find', { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'hover' });
    assert.match(hover.text, /greet\(name: string\): string/);
  });

  it('TypeScript: workspace_symbols lists a file outline and finds a function by name', async () => {
    const dir = typeScriptProject();
    const outline = await invokeUntil('workspace_symbols', { file_path: `${dir}/other.ts` }, /function helper/, 'the outline of other.ts');
    assert.match(outline, new RegExp(`^function helper ${dir}/other\\.ts:3$`, 'm'));
    const found = await invokeUntil('workspace_symbols', { query: 'helper' }, new RegExp(`${dir}/other\\.ts:3`), 'helper in the workspace symbol search');
    assert.match(found, new RegExp(`^function helper(\\(\\))? ${dir}/other\\.ts:3$`, 'm'));
  });

  it('TypeScript: a rename across 3 files is reviewed once, applied, checkpointed, and undone by Restore', async () => {
    const dir = typeScriptProject();
    await invokeUntil('workspace_find', { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'references' }, /other\.ts/, 'the project loaded');
    const call = invoke('workspace_rename_symbol', { file_path: `${dir}/greet.ts`, line: 1, symbol: 'greet', new_name: 'welcome' });
    await answerNextApproval(true, 60_000);
    const result = (await call).text;
    assert.match(result, /^Renamed greet to welcome: 5 replacements in 3 files:$/m);
    for (const line of [`M ${dir}/greet.ts (1 replacement)`, `M ${dir}/main.ts (2 replacements)`, `M ${dir}/other.ts (2 replacements)`]) {
      assert.ok(result.split('\n').includes(line), `${line} in:\n${result}`);
    }
    assert.deepEqual(await pendingQuestions(), [], 'one review for the three files');
    assert.equal(read(`${dir}/main.ts`), "import { welcome } from './greet';\n\nconsole.log(welcome('main'));\n");
    assert.equal(read(`${dir}/greet.ts`), GREET.replace('greet', 'welcome'));

    const record = await latestRecord();
    assert.equal(record.tool, 'workspace_rename_symbol');
    assert.ok(record.checkpoint?.before && record.checkpoint.after, JSON.stringify(record));
    assert.deepEqual(record.changedPaths.map((file) => file.path).sort(), [`${dir}/greet.ts`, `${dir}/main.ts`, `${dir}/other.ts`]);
    const restore = Promise.resolve(vscode.commands.executeCommand<RestoreOutcome>(CommandId.restoreCheckpoint, record.id));
    await answerNextApproval(true);
    const outcome = await restore;
    assert.equal(outcome.restored, true, outcome.message);
    assert.equal(read(`${dir}/greet.ts`), GREET);
    assert.equal(read(`${dir}/main.ts`), MAIN);
    assert.equal(read(`${dir}/other.ts`), OTHER);
  });

  it('TypeScript: a rename to a name already declared is refused and nothing changes', async () => {
    const dir = typeScriptProject();
    await invokeUntil('workspace_find', { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'references' }, /other\.ts/, 'the project loaded');
    const message = await invokeError('workspace_rename_symbol', { file_path: `${dir}/other.ts`, line: 1, symbol: 'greet', new_name: 'helper' });
    assert.match(message, new RegExp(`"helper" is already declared \\(function helper at ${dir}/other\\.ts:3\\); renaming "greet" to it would clash\\. Choose another name\\. Nothing was changed\\.`));
    assert.deepEqual(await pendingQuestions(), []);
    assert.equal(read(`${dir}/greet.ts`), GREET);
    assert.equal(read(`${dir}/other.ts`), OTHER);
  });

  it("TypeScript: a rename the provider refuses fails with the provider's message and nothing changes", async () => {
    const dir = typeScriptProject();
    await invokeUntil('workspace_find', { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'references' }, /other\.ts/, 'the project loaded');
    const message = await invokeError('workspace_rename_symbol', { file_path: `${dir}/main.ts`, line: 3, symbol: 'log', new_name: 'print' });
    assert.match(message, /The typescript rename provider refused to rename "log" to "print": You cannot rename elements that are defined in the standard TypeScript library\. Nothing was changed\./);
    assert.equal(read(`${dir}/main.ts`), MAIN);
  });

  it('JSON: invalid JSON shows in workspace_diagnostics, and its keys in workspace_symbols', async () => {
    fs.mkdirSync(abs('lang-run'), { recursive: true });
    fs.writeFileSync(abs('lang-run/broken.json'), '{\n  "name": "x",\n  "version": 1,,\n}\n');
    const text = await invokeUntil('workspace_diagnostics', { path: 'lang-run/broken.json' }, /error json/, 'a JSON error');
    assert.match(text, /^lang-run\/broken\.json:3:\d+ error json\(\d+\): /m);
    const outline = await invokeUntil('workspace_symbols', { file_path: 'lang-run/broken.json' }, /version/, 'the JSON outline');
    assert.match(outline, /^\S+ name lang-run\/broken\.json:2$/m);
  });

  it('CSS: an unknown property shows as a warning in workspace_diagnostics, and selectors in workspace_symbols', async () => {
    fs.mkdirSync(abs('lang-run'), { recursive: true });
    fs.writeFileSync(abs('lang-run/style.css'), '.card {\n  colr: red;\n}\n');
    const text = await invokeUntil('workspace_diagnostics', { path: 'lang-run/style.css', severity: 'warning' }, /warning css/, 'a CSS warning');
    assert.match(text, /^lang-run\/style\.css:2:3 warning css\(unknownProperties\): Unknown property: 'colr'/m);
    assert.match((await invoke('workspace_diagnostics', { path: 'lang-run/style.css' })).text, /^No errors reported/, 'severity error leaves the warning out');
    const outline = await invokeUntil('workspace_symbols', { file_path: 'lang-run/style.css' }, /\.card/, 'the CSS outline');
    assert.match(outline, /^class \.card lang-run\/style\.css:1$/m);
  });

  it('plain text has no provider: workspace_find says so and names the language', async () => {
    const text = (await invoke('workspace_find', { file_path: 'notes.txt', line: 1, symbol: read('notes.txt').split(/\W+/).find((word) => word.length > 2) ?? 'x', what: 'definition' })).text;
    assert.match(text, /\(language plaintext\)\. No language extension provides language features for plain text files/);
  });

  it('through the MCP front (SDK client over dist/mcp.js): workspace_find and workspace_diagnostics answer as invokeTool does', async () => {
    const dir = typeScriptProject();
    await invokeUntil('workspace_find', { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'references' }, /other\.ts/, 'the project loaded');
    await until(async () => Boolean((await vscode.commands.executeCommand<{ lockFile?: string }>(CommandId.mcpStatus)).lockFile), 'the MCP endpoint');
    const client = new Client({ name: 'claude-code', version: '1.0.0' });
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' } as Record<string, string>;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(REPO, 'dist/mcp.js')], cwd: workspaceRoot(), env, stderr: 'pipe' }));
    try {
      const text = (result: unknown): string => ((result as CallToolResult).content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
      const input = { file_path: `${dir}/main.ts`, line: 3, symbol: 'greet', what: 'references' };
      const references = await client.callTool({ name: 'workspace_find', arguments: input });
      assert.notStrictEqual(references.isError, true, text(references));
      assert.strictEqual(text(references), (await invoke('workspace_find', input)).text);
      assert.match(text(references), / in 3 files\.$/);
      const symbols = await client.callTool({ name: 'workspace_symbols', arguments: { file_path: `${dir}/other.ts` } });
      assert.match(text(symbols), new RegExp(`^function helper ${dir}/other\\.ts:3$`, 'm'));
      const rename = client.callTool({ name: 'workspace_rename_symbol', arguments: { file_path: `${dir}/greet.ts`, line: 1, symbol: 'greet', new_name: 'salute' } });
      await answerNextApproval(true, 60_000);
      assert.match(text(await rename), /^Renamed greet to salute: 5 replacements in 3 files:/);
      assert.equal(read(`${dir}/greet.ts`), GREET.replace('greet', 'salute'));
    } finally {
      await client.close();
    }
  });
});

describe('language tools: notebook cells (extension host)', function () {
  this.timeout(60_000);
  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });

  it('reads a .ipynb as cells with outputs, edits one cell, and keeps every other byte (outputs included)', async () => {
    const original = notebookCopy('lang-run/cells.ipynb');
    const shown = (await invoke('workspace_read_file', { file_path: 'lang-run/cells.ipynb' })).text;
    assert.match(shown, /^\[cell 1\] code python\n {5}1\tvalue = 42\n {5}2\tprint\(f"hello \{value\}"\)\n {2}output:\n {4}hello 42$/m);
    const edit = invoke('workspace_edit_file', { file_path: 'lang-run/cells.ipynb', cell: 1, old_string: 'value = 42', new_string: 'value = 43' });
    await answerNextApproval(true);
    assert.match((await edit).text, /^Edited lang-run\/cells\.ipynb cell 1: 1 replacement\(s\)/);
    assert.equal(read('lang-run/cells.ipynb'), original.replace('"value = 42\\n"', '"value = 43\\n"'));
    assert.match((await invoke('workspace_read_file', { file_path: 'lang-run/cells.ipynb' })).text, /^ {5}1\tvalue = 43$/m);
  });

  it("edits a cell of a notebook open with unsaved changes through the notebook editor, keeping the user's unsaved cell and every output", async () => {
    const { original, notebook } = await openNotebookCopy('lang-run/open.ipynb');
    try {
      await typeInTitleCell(notebook);
      const shown = (await invoke('workspace_read_file', { file_path: 'lang-run/open.ipynb' })).text;
      assert.match(shown, /unsaved changes in the notebook editor/);
      assert.match(shown, /^ {5}1\t# Title \(typed\)$/m);
      const edit = invoke('workspace_edit_file', { file_path: 'lang-run/open.ipynb', cell: 1, old_string: 'value = 42', new_string: 'value = 43' });
      await answerNextApproval(true);
      assert.match((await edit).text, /^Edited lang-run\/open\.ipynb cell 1: 1 replacement\(s\)/);
      // Changed through the notebook's cell: the editor holds both texts and has saved them.
      assert.equal(notebook.cellAt(0).document.getText(), '# Title (typed)\nSome text');
      assert.equal(notebook.cellAt(1).document.getText(), 'value = 43\nprint(f"hello {value}")');
      assert.equal(notebook.isDirty, false);
      const saved = JSON.parse(read('lang-run/open.ipynb')) as { cells: { source: string[]; outputs?: unknown[] }[] };
      assert.deepEqual(saved.cells.map((cell) => cell.source.join('')), ['# Title (typed)\nSome text', 'value = 43\nprint(f"hello {value}")']);
      assert.deepEqual(saved.cells[1].outputs, (JSON.parse(original) as { cells: { outputs?: unknown[] }[] }).cells[1].outputs);
    } finally {
      await revertAndClose(notebook);
    }
  });

  it('edits a notebook whose unsaved cells were saved while the edit was reviewed (auto save, or the person pressed Save)', async () => {
    const { notebook } = await openNotebookCopy('lang-run/saved-in-review.ipynb');
    try {
      await typeInTitleCell(notebook);
      const edit = invoke('workspace_edit_file', { file_path: 'lang-run/saved-in-review.ipynb', cell: 1, old_string: 'value = 42', new_string: 'value = 43' });
      await until(async () => (await pendingApprovals()).length > 0, 'the review');
      assert.ok(await notebook.save());
      await answerNextApproval(true);
      assert.match((await edit).text, /^Edited lang-run\/saved-in-review\.ipynb cell 1: 1 replacement\(s\)/);
      const saved = JSON.parse(read('lang-run/saved-in-review.ipynb')) as { cells: { source: string[] }[] };
      assert.deepEqual(saved.cells.map((cell) => cell.source.join('')), ['# Title (typed)\nSome text', 'value = 43\nprint(f"hello {value}")']);
    } finally {
      await revertAndClose(notebook);
    }
  });

  it('refuses the edit of a notebook whose cells the person changed while the edit was reviewed, and keeps what they typed', async () => {
    const { notebook } = await openNotebookCopy('lang-run/typed-in-review.ipynb');
    try {
      await typeInTitleCell(notebook);
      const edit = invoke('workspace_edit_file', { file_path: 'lang-run/typed-in-review.ipynb', cell: 1, old_string: 'value = 42', new_string: 'value = 43' });
      await until(async () => (await pendingApprovals()).length > 0, 'the review');
      const typing = new vscode.WorkspaceEdit();
      typing.insert(notebook.cellAt(0).document.uri, new vscode.Position(1, 9), ' and more');
      assert.ok(await vscode.workspace.applyEdit(typing));
      await until(() => notebook.cellAt(0).document.getText() === '# Title (typed)\nSome text and more', 'the second typing');
      await answerNextApproval(true);
      await assert.rejects(edit, /typed-in-review\.ipynb changed while the change was being reviewed; nothing was written/);
      // The file holds the original cells, or the person's if VS Code's auto save (on by default in 1.139) saved them: never the agent's edit.
      const onDisk = JSON.parse(read('lang-run/typed-in-review.ipynb')) as { cells: { source: string[] }[] };
      assert.equal(onDisk.cells[1].source.join(''), 'value = 42\nprint(f"hello {value}")');
      assert.ok(['# Title\nSome text', '# Title (typed)\nSome text', '# Title (typed)\nSome text and more'].includes(onDisk.cells[0].source.join('')), read('lang-run/typed-in-review.ipynb'));
      assert.equal(notebook.cellAt(0).document.getText(), '# Title (typed)\nSome text and more');
      assert.equal(notebook.cellAt(1).document.getText(), 'value = 42\nprint(f"hello {value}")');
    } finally {
      await revertAndClose(notebook);
    }
  });

  it('edits a cell of a notebook open without unsaved changes through the notebook editor, and the file holds exactly the reviewed bytes', async () => {
    const { original, notebook } = await openNotebookCopy('lang-run/clean.ipynb');
    try {
      const edit = invoke('workspace_edit_file', { file_path: 'lang-run/clean.ipynb', cell: 0, old_string: 'Some text', new_string: 'Other text' });
      await answerNextApproval(true);
      assert.match((await edit).text, /^Edited lang-run\/clean\.ipynb cell 0: 1 replacement\(s\)/);
      assert.equal(read('lang-run/clean.ipynb'), original.replace('"Some text"', '"Other text"'));
      await until(() => notebook.cellAt(0).document.getText() === '# Title\nOther text' && !notebook.isDirty, 'the notebook editor to show the edited cell, saved');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });
});

describe('a failed write of a notebook open in a notebook editor (extension host)', function () {
  this.timeout(60_000);
  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });
  const VALUE = 'value = 42\nprint(f"hello {value}")';

  /**
   * Takes the write's snapshot of a plan that edits cell 1, applies the agent's cell edit as the
   * write does, then fails as a save that did not happen would (a save cannot be made to fail here:
   * root, which CI was, writes a read-only file), and returns the error the model gets.
   */
  async function failAfterCellEdit(relative: string, notebook: vscode.NotebookDocument): Promise<string> {
    const plan: ChangePlan = {
      tool: { name: 'workspace_edit_file', displayName: 'Edit File' },
      summary: `Edit ${relative}`,
      files: [{ kind: 'modify', location: fileLocation(abs(relative)), shownPath: relative, notebookCell: { index: 1, text: VALUE.replace('42', '43') } }],
    };
    const before = await snapshot(await resolveTargets(plan));
    const cell = notebook.cellAt(1).document;
    const agentEdit = new vscode.WorkspaceEdit();
    agentEdit.replace(cell.uri, new vscode.Range(0, 8, 0, 10), '43');
    assert.ok(await vscode.workspace.applyEdit(agentEdit));
    await until(() => notebook.isDirty && cell.getText() === VALUE.replace('42', '43'), 'the agent\'s cell edit in the notebook editor');
    return (await restoreOnFailure(new Error('disk full'), { createdFolders: [], writing: true }, before)).message;
  }

  it('puts the cell back and leaves a notebook that had no unsaved changes saved, as the file on disk', async () => {
    const { original, notebook } = await openNotebookCopy('lang-run/failed-clean.ipynb');
    try {
      assert.equal(await failAfterCellEdit('lang-run/failed-clean.ipynb', notebook), 'Writing the change failed (disk full). Every file was restored to its previous content.');
      await until(() => !notebook.isDirty && notebook.cellAt(1).document.getText() === VALUE, 'the notebook editor to hold cell 1 as before, with nothing unsaved');
      assert.equal(read('lang-run/failed-clean.ipynb'), original);
    } finally {
      await revertAndClose(notebook);
    }
  });

  it("puts the cell back and keeps the user's unsaved cell, still unsaved", async () => {
    const { original, notebook } = await openNotebookCopy('lang-run/failed-dirty.ipynb');
    try {
      await typeInTitleCell(notebook);
      assert.equal(await failAfterCellEdit('lang-run/failed-dirty.ipynb', notebook), 'Writing the change failed (disk full). Every file was restored to its previous content.');
      await until(() => notebook.cellAt(1).document.getText() === VALUE, 'cell 1 as before in this extension host');
      assert.equal(notebook.cellAt(0).document.getText(), '# Title (typed)\nSome text');
      assert.equal(notebook.isDirty, true);
      assert.equal(read('lang-run/failed-dirty.ipynb'), original);
    } finally {
      await revertAndClose(notebook);
    }
  });
});

describe('language tools in an untrusted workspace (extension host)', function () {
  this.timeout(120_000);
  before(function () {
    if (vscode.workspace.isTrusted) this.skip();
  });

  it('reads (JSON problems and outline) but refuses the rename, changing nothing', async () => {
    // The tools may not write here, so the test writes the file itself.
    fs.mkdirSync(abs('lang-untrusted'), { recursive: true });
    fs.writeFileSync(abs('lang-untrusted/broken.json'), '{\n  "name": "x",,\n}\n');
    assert.match(await invokeUntil('workspace_diagnostics', { path: 'lang-untrusted/broken.json' }, /error json/, 'a JSON error'), /^lang-untrusted\/broken\.json:2:\d+ error json/m);
    assert.match(await invokeUntil('workspace_symbols', { file_path: 'lang-untrusted/broken.json' }, /name/, 'the JSON outline'), /^\S+ name lang-untrusted\/broken\.json:2$/m);
    const message = await invokeError('workspace_rename_symbol', { file_path: 'lang-untrusted/broken.json', line: 2, symbol: 'name', new_name: 'title' });
    assert.match(message, /workspace_rename_symbol is not available because this workspace is not trusted \(Restricted Mode\)/);
    assert.equal(read('lang-untrusted/broken.json'), '{\n  "name": "x",,\n}\n');
  });
});
