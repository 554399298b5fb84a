// dist/mcp.js, the stdio MCP server an agent in a terminal starts. It finds the VS Code window
// whose workspace holds its working folder (or --workspace) through the lock files, checks the
// private folder and the socket, authenticates with the window's nonce and then passes MCP
// messages both ways between the agent (the SDK's StdioServerTransport) and the window (the SDK's
// framing over the socket); the window's MCP server answers. When no window can be used it still
// answers initialize and tools/list, and fails each call with a message that says why.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { connectWithNonce } from './handshake';
import { chooseWindow, readLiveLocks } from './lockFiles';
import { runtimeFolders, verifyEndpointSocket } from './privateFolder';
import { MCP_SERVER_NAME, MCP_SERVER_TITLE } from './serverInfo';
import { SocketTransport } from './socketTransport';

/** The extension's package name, to find its package.json from the relay's folder. */
const EXTENSION_PACKAGE = 'workspace-agent-tools';

/** The folder to serve: --workspace <folder>, else the working folder. */
export function wantedFolder(argv: readonly string[], cwd: string): string {
  const index = argv.indexOf('--workspace');
  const given = index !== -1 ? argv[index + 1] : argv.find((arg) => arg.startsWith('--workspace='))?.slice('--workspace='.length);
  return path.resolve(cwd, given ?? '.');
}

/** A window to relay to, or why there is none. */
export type RelayTarget = { readonly kind: 'window'; readonly transport: SocketTransport; readonly app: string } | { readonly kind: 'none'; readonly reason: string };

/**
 * Finds and authenticates with the window for `folder`; never throws. Looks in every folder a
 * window may have announced itself in (runtimeFolders); a folder that is not private is skipped,
 * and named when no window was found.
 */
export async function connectToWindow(folder: string, dirs: readonly string[] = runtimeFolders()): Promise<RelayTarget> {
  const noWindow = `No VS Code window with Workspace Agent Tools has ${folder} open`;
  const present = dirs.filter((dir) => fs.existsSync(dir));
  if (present.length === 0) {
    return { kind: 'none', reason: `${noWindow} (no window has announced itself in ${dirs.join(' or ')}; is VS Code running?). Open the folder in VS Code, then restart this MCP server.` };
  }
  const problems: string[] = [];
  const locks = present.flatMap((dir) => {
    try {
      return readLiveLocks(dir);
    } catch (error) {
      problems.push((error as Error).message);
      return [];
    }
  });
  const found = chooseWindow(locks, folder);
  if (!found) {
    return problems.length
      ? { kind: 'none', reason: `Cannot reach the VS Code window for ${folder}: ${problems.join(' ')}` }
      : { kind: 'none', reason: `${noWindow}. Open it in VS Code (with workspaceAgentTools.mcp.enabled on), or pass --workspace <folder> for a folder that is open, then restart this MCP server.` };
  }
  try {
    verifyEndpointSocket(path.dirname(found.file), found.lock.endpoint);
    const { socket, rest } = await connectWithNonce(found.lock.endpoint, found.lock.nonce);
    return { kind: 'window', transport: new SocketTransport(socket, rest), app: found.lock.app };
  } catch (error) {
    return { kind: 'none', reason: `Cannot reach the VS Code window for ${folder}: ${(error as Error).message}` };
  }
}

/** The tools the extension's manifest lists, for answering tools/list when no window can be reached. */
function manifestTools(): McpTool[] {
  for (let dir = __dirname, i = 0; i < 4; dir = path.dirname(dir), i++) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        contributes?: { languageModelTools?: { name: string; displayName: string; modelDescription: string; inputSchema: McpTool['inputSchema']; tags?: string[] }[] };
      };
      if (manifest.name === EXTENSION_PACKAGE) {
        return (manifest.contributes?.languageModelTools ?? []).map((tool) => ({
          name: tool.name,
          title: tool.displayName,
          description: tool.modelDescription,
          inputSchema: tool.inputSchema,
          annotations: { title: tool.displayName, readOnlyHint: tool.tags?.includes('read') ?? false, destructiveHint: !(tool.tags?.includes('read') ?? false) },
        }));
      }
    } catch {
      // Not here; look one folder up.
    }
  }
  return [];
}

/** Answers as an MCP server with no window behind it: the tools are listed, every call fails with `reason`. */
export function unavailableServer(reason: string, version: string): Server {
  const server = new Server({ name: MCP_SERVER_NAME, title: MCP_SERVER_TITLE, version }, { capabilities: { tools: {} }, instructions: reason });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: manifestTools() }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: `${request.params.name} cannot run: ${reason}` }], isError: true }));
  return server;
}

/** Runs the relay on this process's stdio until the agent or the window goes away. */
export async function runRelay(argv: readonly string[], version: string): Promise<void> {
  const folder = wantedFolder(argv, process.cwd());
  const target = await connectToWindow(folder);
  const stdio = new StdioServerTransport();
  process.stdin.on('end', () => process.exit(0));
  if (target.kind === 'none') {
    process.stderr.write(`workspace-agent-tools: ${target.reason}\n`);
    await unavailableServer(target.reason, version).connect(stdio);
    return;
  }
  const window = target.transport;
  // Messages pass through unchanged: the window's MCP server sees the agent's own initialize (its
  // clientInfo names the agent in approvals and the activity log) and its cancellations.
  window.onmessage = (message) => void stdio.send(message).catch(() => process.exit(1));
  stdio.onmessage = (message) => void window.send(message).catch(() => process.exit(1));
  window.onclose = () => {
    process.stderr.write(`workspace-agent-tools: the ${target.app} window for ${folder} closed the connection.\n`);
    process.exit(1);
  };
  stdio.onerror = (error) => process.stderr.write(`workspace-agent-tools: ${error.message}\n`);
  await window.start();
  await stdio.start();
}
