// VS Code knows the window's MCP server (contributes.mcpServerDefinitionProviders): on a VS Code
// with the API (1.101+; the runner's newest, 1.139.1) VS Code's own MCP client starts it from the
// definition, and chat's Local harness, which also has the Language Model Tools, still sees each
// tool once; the same definition's command serves every tool to any other client (the Agent
// Host's Copilot harness starts it that way). On the floor (1.100.3) nothing is registered and
// nothing fails.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from '../../src/core/tools';
import { CommandId } from '../../src/vscode/commandIds';
import type { McpSessionStatus } from '../../src/vscode/mcp/mcpFront';
import type { ServerDefinition } from '../../src/vscode/mcp/serverDefinition';
import { until, withSettings, workspaceRoot } from './support/tools';

interface Status {
  readonly lockFile?: string;
  readonly definition: { readonly state: string; readonly offered?: ServerDefinition };
  readonly sessions: readonly McpSessionStatus[];
}

const status = (): Thenable<Status> => vscode.commands.executeCommand<Status>(CommandId.mcpStatus);
const NAMES = TOOLS.map((tool) => tool.name);

/** VS Code 1.101 made the MCP server definition API stable; 1.100 has it only as a proposal. */
function hasDefinitionApi(): boolean {
  const [major, minor] = vscode.version.split('.').map(Number);
  return major > 1 || minor >= 101;
}

/** VS Code's id of the server: `<extension id, lower case>/<label>`. */
function serverId(definition: ServerDefinition): string {
  const extension = vscode.extensions.all.find((candidate) => (candidate.packageJSON as { name?: string }).name === 'workspace-agent-tools');
  assert.ok(extension, 'the extension is not loaded');
  return `${extension.id.toLowerCase()}/${definition.label}`;
}

/** The entries of vscode.lm.tools that are `name`: our Language Model Tool, and MCP tools VS Code named after it (`mcp_<server>_<name>`). */
function lmToolsNamed(name: string): vscode.LanguageModelToolInformation[] {
  return vscode.lm.tools.filter((tool) => tool.name === name || (tool.tags.includes('mcp') && tool.name.endsWith(`_${name}`)));
}

/** The connection VS Code's own MCP client made from the definition, once it listed the tools. */
async function vscodeSession(): Promise<McpSessionStatus> {
  const own = `mcp:${vscode.env.appName}`;
  let found: McpSessionStatus | undefined;
  await until(async () => {
    found = (await status()).sessions.find((session) => session.origin === 'vscode-definition' && session.client === own && session.listed !== undefined);
    return found !== undefined;
  }, "VS Code's own MCP client to list the tools over the definition's relay");
  return found!;
}

/** Stops and starts the server in VS Code's MCP client, waiting for its tools to be live. */
async function restartInVsCode(id: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.mcp.stopServer', id);
  await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
}

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('MCP server definition (VS Code knows the server)', function () {
  this.timeout(120_000);

  it('is not registered where VS Code has no definition API (the floor), and the front serves all the same', async function () {
    if (hasDefinitionApi()) this.skip();
    await until(async () => (await status()).lockFile !== undefined, 'the MCP endpoint');
    const { definition } = await status();
    assert.match(definition.state, /^not registered: /);
    assert.strictEqual(definition.offered, undefined);
  });

  describe('on a VS Code with the API', function () {
    let definition: ServerDefinition;
    let id: string;

    before(async function () {
      // VS Code starts no MCP server in Restricted Mode (its client waits for trust), so there is
      // nothing of its own client to test in the untrusted pass; the reading tools a trusted
      // window's relay serves an untrusted one are the MCP front's tests (mcp.test.ts).
      if (!hasDefinitionApi() || !vscode.workspace.isTrusted) this.skip();
      await until(async () => (await status()).definition.offered !== undefined, 'the definition to be offered');
      const current = await status();
      assert.strictEqual(current.definition.state, 'registered');
      definition = current.definition.offered!;
      id = serverId(definition);
    });

    it("VS Code's own MCP client starts the server from the definition, and chat's Local harness sees each tool once", async () => {
      // Soon after the window opens VS Code's MCP registry may not have taken the definition yet:
      // start it until its client has connected and listed (a start of a running server does nothing).
      await until(async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
        return (await status()).sessions.some((session) => session.origin === 'vscode-definition' && session.listed !== undefined);
      }, "VS Code's MCP client to start the server from the definition", 90_000);
      const session = await vscodeSession();
      // It came through the definition's relay, and was listed none of the tools it has as Language Model Tools.
      assert.strictEqual(session.listed, 0);
      for (const name of NAMES) {
        assert.deepStrictEqual(
          lmToolsNamed(name).map((tool) => tool.name),
          [name],
          `${name} in vscode.lm.tools`,
        );
      }
    });

    it("with mcp.vscodeClientTools 'all', VS Code's MCP client lists and calls the tools (and chat would see each twice)", async () => {
      const file = path.join(workspaceRoot(), 'mcp-definition.txt');
      fs.writeFileSync(file, 'served over the definition\n');
      try {
        await withSettings({ 'mcp.vscodeClientTools': 'all' }, async () => {
          await restartInVsCode(id);
          await until(() => lmToolsNamed('workspace_read_file').length === 2, 'VS Code to register the MCP tools of the server');
          const session = (await status()).sessions.find((each) => each.origin === 'vscode-definition' && each.listed === NAMES.length);
          assert.ok(session, 'no connection from the definition was listed every tool');
          for (const name of NAMES) {
            assert.strictEqual(lmToolsNamed(name).length, 2, `${name}: the Language Model Tool and VS Code's MCP tool`);
          }
          // VS Code's MCP tool, called as chat would call it: through VS Code's MCP client, the relay and this window.
          const mcpTool = lmToolsNamed('workspace_read_file').find((tool) => tool.name !== 'workspace_read_file')!;
          const result = await vscode.lm.invokeTool(mcpTool.name, { input: { file_path: 'mcp-definition.txt' }, toolInvocationToken: undefined });
          const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
          assert.match(text, /served over the definition/);
        });
      } finally {
        fs.rmSync(file, { force: true });
        // Back to what the default lists, so chat's tools are each there once again.
        await restartInVsCode(id);
        await until(() => lmToolsNamed('workspace_read_file').length === 1, 'VS Code to drop the MCP tools of the server');
      }
    });

    it('the definition\'s own command serves another client (as the Agent Host\'s Copilot harness starts it) every tool, and VS Code\'s name none', async () => {
      const file = path.join(workspaceRoot(), 'mcp-definition-agent-host.txt');
      fs.writeFileSync(file, 'read by the agent host\n');
      const start = async (name: string): Promise<Client> => {
        const client = new Client({ name, version: '1.0.0' });
        const env = { ...process.env, ...definition.env } as Record<string, string>;
        await client.connect(new StdioClientTransport({ command: definition.command, args: [...definition.args], env, stderr: 'pipe' }));
        return client;
      };
      const harness = await start('copilot-agent-host-harness');
      try {
        const listed = (await harness.listTools()).tools.map((tool) => tool.name);
        const expected = vscode.workspace.isTrusted ? NAMES : TOOLS.filter((tool) => tool.access === 'read').map((tool) => tool.name);
        assert.deepStrictEqual([...listed].sort(), [...expected].sort());
        assert.match(textOf(await harness.callTool({ name: 'workspace_read_file', arguments: { file_path: 'mcp-definition-agent-host.txt' } })), /read by the agent host/);
      } finally {
        await harness.close();
        fs.rmSync(file, { force: true });
      }
      const vscodeNamed = await start(vscode.env.appName);
      try {
        assert.deepStrictEqual((await vscodeNamed.listTools()).tools, []);
      } finally {
        await vscodeNamed.close();
      }
    });
  });
});
