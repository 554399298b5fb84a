import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isVsCodeOwnClient, serverDefinition, toolsForCaller, type DefinitionFacts, type ListingWindow } from '../../../../src/vscode/mcp/serverDefinition';
import { definitionOptions } from '../../../../src/mcp/relay';
import { TOOLS } from '../../../../src/core/tools';

const facts: DefinitionFacts = { extensionPath: '/ext', execPath: '/usr/bin/node', enabled: true, windowId: '42-abcdef', trusted: true, vscodeClientTools: 'deduplicated' };
const names = TOOLS.map((tool) => tool.name);
const window: ListingWindow = { appName: 'Visual Studio Code', languageModelTools: new Set(names), vscodeClientTools: 'deduplicated' };

describe('vscode/mcp/serverDefinition', () => {
  describe('serverDefinition', () => {
    it('starts the bundled relay with the extension host\'s executable as Node, for this window, from the definition', () => {
      const definition = serverDefinition(facts);
      assert.deepEqual(definition && { ...definition }, {
        label: 'Workspace Agent Tools',
        command: '/usr/bin/node',
        args: [path.join('/ext', 'dist', 'mcp.js'), '--window', '42-abcdef', '--vscode-definition'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
        version: '42-abcdef;trusted;deduplicated',
      });
    });

    it('gives the relay the options it reads', () => {
      assert.deepEqual(definitionOptions(serverDefinition(facts)!.args.slice(1)), { window: '42-abcdef', origin: 'vscode-definition' });
      assert.deepEqual(definitionOptions(['--workspace', '/w']), { origin: 'agent' });
    });

    it('offers nothing while the front is off or its endpoint is not serving', () => {
      assert.equal(serverDefinition({ ...facts, enabled: false }), undefined);
      assert.equal(serverDefinition({ ...facts, windowId: undefined }), undefined);
    });

    it('changes its version when the endpoint, trust or the listing setting changes, so VS Code lists the tools again', () => {
      const versions = [facts, { ...facts, windowId: '43-abcdef' }, { ...facts, trusted: false }, { ...facts, vscodeClientTools: 'all' as const }].map((each) => serverDefinition(each)!.version);
      assert.equal(new Set(versions).size, versions.length);
    });
  });

  describe('toolsForCaller', () => {
    const vscodeClient = { origin: 'vscode-definition' as const, clientName: 'Visual Studio Code' };

    it('lists VS Code\'s own client none of the tools it has as Language Model Tools', () => {
      assert.ok(isVsCodeOwnClient(vscodeClient, window));
      assert.deepEqual(toolsForCaller(TOOLS, vscodeClient, window), []);
      // A tool that were not a Language Model Tool would still be listed.
      assert.deepEqual(toolsForCaller([...TOOLS, { name: 'only_over_mcp' }], vscodeClient, window).map((tool) => tool.name), ['only_over_mcp']);
    });

    it('lists every tool to any other client of the same definition (the Agent Host\'s harness) and to terminal agents', () => {
      assert.deepEqual(toolsForCaller(TOOLS, { origin: 'vscode-definition', clientName: 'github-copilot-developer' }, window).map((tool) => tool.name), names);
      assert.deepEqual(toolsForCaller(TOOLS, { origin: 'vscode-definition', clientName: undefined }, window).length, names.length);
      // A client that calls itself VS Code but did not come through the window's definition (a terminal agent, another window).
      assert.deepEqual(toolsForCaller(TOOLS, { origin: 'agent', clientName: 'Visual Studio Code' }, window).length, names.length);
    });

    it('lists VS Code\'s own client every tool when the setting asks for all', () => {
      assert.deepEqual(toolsForCaller(TOOLS, vscodeClient, { ...window, vscodeClientTools: 'all' }).length, names.length);
    });
  });
});
