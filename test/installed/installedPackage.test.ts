// The .vsix users install (docs/design.md section 7): installed into code-server with --install-extension,
// it holds only what users need, registers every tool of the tool list and answers a read.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from '../../src/core/tools';
import { CommandId } from '../../src/vscode/commandIds';
import { invoke, REPO, until, workspaceRoot } from '../integration/support/tools';

const EXTENSION_ID = 'workspace-agent-tools.workspace-agent-tools';

/** Every file under `dir`, relative, with `/` separators. */
function filesUnder(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix + entry.name;
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), `${relative}/`) : [relative];
  });
}

function installedExtension(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  return extension;
}

describe('the installed .vsix', () => {
  before(async () => {
    await installedExtension().activate();
  });

  it('is loaded from the extensions folder, not from this repository', () => {
    const extension = installedExtension();
    const version = (extension.packageJSON as { version: string }).version;
    assert.strictEqual(path.basename(extension.extensionPath), `${EXTENSION_ID}-${version}`);
    assert.notStrictEqual(path.resolve(extension.extensionPath), REPO);
    assert.ok(!path.resolve(extension.extensionPath).startsWith(REPO + path.sep), extension.extensionPath);
  });

  it('holds the bundle, its run-time files and the docs, and no sources, tests or node_modules', () => {
    const files = filesUnder(installedExtension().extensionPath);
    // vsce stores the readme as readme.md and the licence as LICENSE.txt.
    const names = new Set(files.map((file) => file.toLowerCase().replace(/^license\.txt$/, 'license')));
    for (const needed of ['package.json', 'readme.md', 'license', 'dist/extension.js', 'dist/mcp.js', 'dist/tree-sitter.wasm', 'dist/tree-sitter-bash.wasm', 'dist/pdfjs/pdf.mjs', 'dist/pdfjs/pdf.worker.mjs']) {
      assert.ok(names.has(needed), `${needed} is missing from the package: ${files.join(', ')}`);
    }
    const unwanted = files.filter((file) => /^(src|out|test|scripts|node_modules|demo|\.cache)\//.test(file) || /\.(ts|map)$/.test(file));
    assert.deepStrictEqual(unwanted, []);
  });

  it('registers every tool of the tool list with vscode.lm', () => {
    const registered = new Set(vscode.lm.tools.map((tool) => tool.name));
    const missing = TOOLS.map((tool) => tool.name).filter((name) => !registered.has(name));
    assert.deepStrictEqual(missing, []);
  });

  it('gives chat its custom agent where VS Code reads contributes.chatAgents', async function () {
    // VS Code 1.100 has no such contribution point (nor this internal listing command) and ignores it.
    if (!(await vscode.commands.getCommands(false)).includes('_listExtensionPromptFiles')) this.skip();
    const files = await vscode.commands.executeCommand<{ uri: { path: string }; type: string; extensionId: string }[]>('_listExtensionPromptFiles');
    const ours = files.filter((file) => file.extensionId.toLowerCase() === EXTENSION_ID);
    assert.deepStrictEqual(
      ours.map((file) => [file.type, path.posix.basename(file.uri.path)]),
      [['agent', 'workspace-tools.agent.md']],
    );
  });

  it('serves a terminal agent through the dist/mcp.js that mcpServerConfig names', async () => {
    const config = await vscode.commands.executeCommand<{ command: string; args: string[] }>(CommandId.mcpServerConfig);
    assert.strictEqual(config.args[0], path.join(installedExtension().extensionPath, 'dist', 'mcp.js'));
    await until(async () => Boolean((await vscode.commands.executeCommand<{ lockFile?: string }>(CommandId.mcpStatus)).lockFile), 'the MCP endpoint to announce itself', 10_000);
    const client = new Client({ name: 'installed-package-test', version: '1.0.0' });
    // The host's own Node runs the relay (config.command is `node` from the user's PATH).
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' } as Record<string, string>;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: config.args, cwd: workspaceRoot(), env, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      assert.deepStrictEqual(tools.map((tool) => tool.name), TOOLS.map((tool) => tool.name));
      const result = (await client.callTool({ name: 'workspace_read_file', arguments: { file_path: 'notes.txt' } })) as CallToolResult;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      assert.ok(!result.isError && text.startsWith('     1\talpha'), text.slice(0, 200));
    } finally {
      await client.close();
    }
  });

  it('reads a workspace file through vscode.lm.invokeTool', async () => {
    const expected = fs.readFileSync(path.join(workspaceRoot(), 'notes.txt'), 'utf8').split('\n')[0];
    const { text } = await invoke('workspace_read_file', { file_path: 'notes.txt' });
    assert.ok(text.startsWith(`     1\t${expected}`), text.slice(0, 200));
  });
});
