import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOLS } from '../../../../src/core/tools';
import { manifestCommand, manifestEntry, paletteWhen, toolCommandId } from '../../../../src/core/tools/manifest';
import { describeBounds } from '../../../../src/core/tools/toolSpec';
import { REPO_ROOT } from '../../support/paths';

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

describe('tools/manifest', () => {
  it('contributes exactly the tools of the contract, in spec order', () => {
    assert.deepEqual(
      manifest.contributes.languageModelTools.map((tool: { name: string }) => tool.name),
      ['workspace_read_file', 'workspace_write_file', 'workspace_edit_file', 'workspace_list_directory', 'workspace_glob', 'workspace_grep', 'workspace_run_command', 'workspace_command_output', 'workspace_send_input', 'workspace_stop_command', 'workspace_apply_patch', 'workspace_review_status', 'workspace_diagnostics', 'workspace_symbols', 'workspace_find', 'workspace_rename_symbol'],
    );
  });

  for (const spec of TOOLS) {
    it(`${spec.name}: manifest entry equals the spec (name, schema, required, descriptions)`, () => {
      const entry = manifest.contributes.languageModelTools.find((tool: { name: string }) => tool.name === spec.name);
      assert.deepEqual(entry, manifestEntry(spec));
    });
  }

  // The reference names and tool sets GitHub Copilot Chat (0.38) and VS Code core contribute. A
  // prompt file or custom agent that lists a name resolves it to the built-in tool first.
  const BUILT_IN_NAMES = [
    ...['codebase', 'searchSubagent', 'symbols', 'usages', 'vscodeAPI', 'fileSearch', 'textSearch', 'applyPatch', 'readFile', 'listDirectory', 'problems', 'changes'],
    ...['testFailure', 'memory', 'newWorkspace', 'getProjectSetupInfo', 'installExtension', 'runCommand', 'runVscodeCommand', 'createJupyterNotebook', 'newJupyterNotebook'],
    ...['insertEdit', 'createFile', 'createDirectory', 'openSimpleBrowser', 'replaceString', 'multiReplaceString', 'editNotebook', 'runNotebookCell', 'runCell'],
    ...['getNotebookSummary', 'readNotebookCellOutput', 'fetch', 'findTestFiles', 'docInfo', 'searchResults', 'githubRepo', 'askQuestions', 'switchAgent', 'editFiles'],
    ...['runInTerminal', 'getTerminalOutput', 'terminalSelection', 'terminalLastCommand', 'killTerminal', 'awaitTerminal', 'sendToTerminal', 'runTask', 'getTaskOutput'],
    ...['createAndRunTask', 'todo', 'todos', 'runSubagent', 'runTests', 'extensions', 'installExtensions', 'openBrowserPage', 'readPage', 'screenshotPage'],
    // Tool sets and their aliases.
    ...['edit', 'execute', 'read', 'search', 'vscode', 'web', 'agent', 'browser', 'shell', 'runCommands', 'runTasks', 'runNotebooks', 'new', 'agents', 'launch'],
  ];

  it('gives every tool a reference name of its own, clear of the built-in tools and tool sets', () => {
    const builtIn = new Set(BUILT_IN_NAMES.map((name) => name.toLowerCase()));
    const ours = TOOLS.map((spec) => spec.toolReferenceName);
    assert.equal(new Set(ours.map((name) => name.toLowerCase())).size, ours.length, 'two tools share a reference name');
    for (const name of ours) {
      assert.ok(!builtIn.has(name.toLowerCase()), `${name} is also a built-in tool or tool set name`);
    }
  });

  it('keeps minimum and maximum out of every schema, and states each enforced range in its field description', () => {
    const keys = (value: unknown): string[] => (value && typeof value === 'object' ? Object.entries(value).flatMap(([key, inner]) => [key, ...keys(inner)]) : []);
    for (const entry of manifest.contributes.languageModelTools) {
      const found = keys(entry.inputSchema).filter((key) => /^(exclusiveM|m)(inimum|aximum)$/.test(key));
      assert.deepEqual(found, [], entry.name);
    }
    for (const spec of TOOLS) {
      for (const [field, range] of Object.entries(spec.bounds)) {
        const description = spec.inputSchema.properties?.[field]?.description ?? '';
        assert.ok(description.includes(describeBounds(range)), `${spec.name}.${field}: "${description}" does not say "${describeBounds(range)}"`);
      }
    }
  });

  it('has a first-run walkthrough whose pages ship and whose links name real commands', () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    const contributed = new Set(manifest.contributes.commands.map((entry: { command: string }) => entry.command));
    // A view's focus command is made by VS Code; chat's open command comes with chat.
    const fromVsCode = new Set([`${manifest.contributes.views.workspaceAgentTools[0].id}.focus`, 'workbench.action.chat.open']);
    assert.deepEqual(walkthrough.steps.map((step: { id: string }) => step.id), ['palette', 'review', 'activity', 'copilot', 'terminalAgent']);
    for (const step of walkthrough.steps as { description: string; media: { markdown: string }; completionEvents: string[] }[]) {
      assert.ok(fs.existsSync(path.join(REPO_ROOT, step.media.markdown)), step.media.markdown);
      const commands = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((match) => match[1]);
      assert.ok(commands.length > 0, step.description);
      for (const command of commands) {
        assert.ok(contributed.has(command) || fromVsCode.has(command), command);
      }
    }
  });

  it('ships a custom agent that lists every tool by its full reference name, and only those', () => {
    // VS Code 1.139 reads contributes.chatAgents; an extension tool's full reference name is
    // `<publisher>.<name>/<toolReferenceName>` (older versions ignore the contribution point).
    const [agent] = manifest.contributes.chatAgents as { path: string }[];
    const text = fs.readFileSync(path.join(REPO_ROOT, agent.path), 'utf8');
    const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
    const toolsLine = /^tools: \[(.*)\]$/m.exec(frontMatter)?.[1] ?? '';
    const listed = [...toolsLine.matchAll(/'([^']+)'/g)].map((match) => match[1]);
    const extensionId = `${manifest.publisher}.${manifest.name}`;
    assert.deepEqual([...listed].sort(), TOOLS.map((spec) => `${extensionId}/${spec.toolReferenceName}`).sort());
    assert.match(frontMatter, /^name: .+$/m);
    assert.match(frontMatter, /^description: .+$/m);
    for (const spec of TOOLS) assert.ok(text.includes(`\`${spec.name}\``), `the agent's instructions never mention ${spec.name}`);
  });

  it('rejects unknown input fields in every schema', () => {
    for (const spec of TOOLS) {
      assert.equal(spec.inputSchema.additionalProperties, false, spec.name);
    }
  });

  it('declares the lowest VS Code engine it supports', () => {
    assert.equal(manifest.engines.vscode, '^1.100.0');
  });

  it('declares limited support for untrusted workspaces, with a description', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(manifest.capabilities.untrustedWorkspaces.description.length > 20);
  });

  it('declares the virtual workspace capability', () => {
    assert.ok(manifest.capabilities.virtualWorkspaces);
  });

  it('contributes a palette command per tool, hidden where the tool cannot work', () => {
    for (const spec of TOOLS) {
      const command = manifest.contributes.commands.find((entry: { command: string }) => entry.command === toolCommandId(spec));
      assert.deepEqual(command, manifestCommand(spec));
      const menu = manifest.contributes.menus.commandPalette.find((entry: { command: string }) => entry.command === toolCommandId(spec));
      assert.deepEqual(menu, paletteWhen(spec));
    }
    assert.equal(paletteWhen(TOOLS.find((spec) => spec.name === 'workspace_run_command')!).when, 'isWorkspaceTrusted && !virtualWorkspace');
    assert.equal(paletteWhen(TOOLS.find((spec) => spec.name === 'workspace_write_file')!).when, 'isWorkspaceTrusted');
  });
});
