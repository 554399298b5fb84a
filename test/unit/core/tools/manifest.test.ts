import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOLS } from '../../../../src/core/tools';
import { manifestCommand, manifestEntry, paletteWhen, toolCommandId } from '../../../../src/core/tools/manifest';
import { REPO_ROOT } from '../../support/paths';

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

describe('tools/manifest', () => {
  it('contributes exactly the eight tools of the contract, in spec order', () => {
    assert.deepEqual(
      manifest.contributes.languageModelTools.map((tool: { name: string }) => tool.name),
      ['workspace_read_file', 'workspace_write_file', 'workspace_edit_file', 'workspace_list_directory', 'workspace_glob', 'workspace_grep', 'workspace_run_command', 'workspace_apply_patch'],
    );
  });

  for (const spec of TOOLS) {
    it(`${spec.name}: manifest entry equals the spec (name, schema, required, descriptions)`, () => {
      const entry = manifest.contributes.languageModelTools.find((tool: { name: string }) => tool.name === spec.name);
      assert.deepEqual(entry, manifestEntry(spec));
    });
  }

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
