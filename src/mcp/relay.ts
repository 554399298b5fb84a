// dist/mcp.js, the stdio MCP server an agent in a terminal starts. It finds the VS Code window
// whose workspace holds its working folder (or --workspace; or the window --window names, as the
// window's own MCP server definition does) through the lock files, checks the
// private folder and the socket, authenticates with the window's nonce and then pipes bytes both
// ways between its stdio and the socket: both carry MCP's stdio framing (a JSON-RPC message per
// line), so the relay neither parses nor writes a message, and the window's MCP server, which
// checks every message (socketTransport.ts), answers. When no window can be used it still answers
// initialize and tools/list (the SDK's stdio server), and fails each call with a message that says why.
import * as fs from 'node:fs';
import type * as net from 'node:net';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { connectWithNonce, DEFINITION_ORIGIN, type ConnectionOrigin } from './handshake';
import { chooseWindow, chooseWindowById, readLiveLocks } from './lockFiles';
import { runtimeFolders, verifyEndpointSocket } from './privateFolder';
import { MCP_SERVER_NAME, MCP_SERVER_TITLE } from './serverInfo';

/** The extension's package name, to find its package.json from the relay's folder. */
const EXTENSION_PACKAGE = 'workspace-agent-tools';

/** The folder to serve: --workspace <folder>, else the working folder. */
export function wantedFolder(argv: readonly string[], cwd: string): string {
  return path.resolve(cwd, option(argv, '--workspace') ?? '.');
}

/** The value of `--name <value>` or `--name=<value>`, if given. */
function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index !== -1 ? argv[index + 1] : argv.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
}

/**
 * What the window's own MCP server definition adds (serverDefinition.ts): `--window <id>` names the
 * window's endpoint, and `--vscode-definition` tells that window the connection comes from its
 * definition, so it can leave out what VS Code's own client already has as Language Model Tools.
 */
export function definitionOptions(argv: readonly string[]): { window?: string; origin: ConnectionOrigin } {
  const window = option(argv, '--window');
  return { ...(window === undefined ? {} : { window }), origin: argv.includes(`--${DEFINITION_ORIGIN}`) ? DEFINITION_ORIGIN : 'agent' };
}

/** A window to relay to, or why there is none. */
export type RelayTarget = { readonly kind: 'window'; readonly connection: WindowConnection; readonly app: string } | { readonly kind: 'none'; readonly reason: string };

/** An authenticated connection to a window's endpoint: the socket, and what it sent after the handshake line. */
export interface WindowConnection {
  readonly socket: net.Socket;
  readonly rest: Buffer;
}

/**
 * Finds and authenticates with the window for `folder` (or, with `window`, the window whose
 * endpoint has that id); never throws. Looks in every folder a window may have announced itself in
 * (runtimeFolders); a folder that is not private is skipped, and named when no window was found.
 */
export async function connectToWindow(folder: string, dirs: readonly string[] = runtimeFolders(), options: { window?: string; origin?: ConnectionOrigin } = {}): Promise<RelayTarget> {
  const noWindow = options.window === undefined ? `No VS Code window with Workspace Agent Tools has ${folder} open` : `The VS Code window that started this MCP server (endpoint ${options.window}) is not serving it any more`;
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
  const found = options.window === undefined ? chooseWindow(locks, folder) : chooseWindowById(locks, options.window);
  if (!found) {
    const advice =
      options.window === undefined
        ? 'Open it in VS Code (with workspaceAgentTools.mcp.enabled on), or pass --workspace <folder> for a folder that is open, then restart this MCP server.'
        : 'VS Code restarts this server from the window\'s new definition; in the MCP server list, restart it if it stays stopped.';
    return problems.length ? { kind: 'none', reason: `Cannot reach the VS Code window for ${folder}: ${problems.join(' ')}` } : { kind: 'none', reason: `${noWindow}. ${advice}` };
  }
  try {
    verifyEndpointSocket(path.dirname(found.file), found.lock.endpoint);
    return { kind: 'window', connection: await connectWithNonce(found.lock.endpoint, found.lock.nonce, undefined, options.origin), app: found.lock.app };
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
  const target = await connectToWindow(folder, runtimeFolders(), definitionOptions(argv));
  process.stdin.on('end', () => process.exit(0));
  if (target.kind === 'none') {
    process.stderr.write(`workspace-agent-tools: ${target.reason}\n`);
    await unavailableServer(target.reason, version).connect(new StdioServerTransport());
    return;
  }
  // Bytes pass through unchanged: the window's MCP server sees the agent's own initialize (its
  // clientInfo names the agent in approvals and the activity log) and its cancellations.
  const { socket, rest } = target.connection;
  socket.on('close', () => {
    process.stderr.write(`workspace-agent-tools: the ${target.app} window for ${folder} closed the connection.\n`);
    process.exit(1);
  });
  socket.on('error', (error) => process.stderr.write(`workspace-agent-tools: ${error.message}\n`));
  process.stdout.on('error', () => process.exit(1));
  if (rest.length) {
    process.stdout.write(rest);
  }
  socket.pipe(process.stdout, { end: false });
  process.stdin.pipe(socket);
}
