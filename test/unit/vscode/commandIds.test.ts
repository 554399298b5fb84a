import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOLS } from '../../../src/core/tools';
import { toolCommandId } from '../../../src/core/tools/manifest';
import { CommandId, ContextKey, UNLISTED_COMMANDS, UriScheme, ViewId } from '../../../src/vscode/commandIds';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views: Record<string, { id: string }[]>;
  };
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as Manifest;

describe('vscode/commandIds', () => {
  it('declares exactly the commands package.json contributes, besides the per-tool ones', () => {
    const contributed = manifest.contributes.commands.map((entry) => entry.command).filter((id) => !TOOLS.some((tool) => toolCommandId(tool) === id));
    const declared = Object.values(CommandId).filter((id) => !UNLISTED_COMMANDS.includes(id));
    assert.deepEqual([...contributed].sort(), [...declared].sort());
  });

  it('names the context key the menus use', () => {
    const whens = Object.values(manifest.contributes.menus).flat().map((entry) => entry.when ?? '');
    assert.ok(whens.some((when) => when.includes(ContextKey.approvalPending)));
  });

  it('names the Activity view package.json contributes', () => {
    assert.ok(Object.values(manifest.contributes.views).flat().some((view) => view.id === ViewId.activity));
  });

  it('names the proposal scheme the diff title bar buttons are shown for', () => {
    const titleBar = manifest.contributes.menus['editor/title'] ?? [];
    assert.ok(titleBar.some((entry) => entry.command === CommandId.approve && (entry.when ?? '').includes(`resourceScheme == ${UriScheme.proposal}`)));
  });
});
