// The MCP server this window offers VS Code (pure, no vscode: unit-tested in test/unit/vscode/mcp).
// VS Code starts it as a stdio server: the bundled relay, run by the extension host's own
// executable as Node, told which window's endpoint to use (--window <id>) and that VS Code started
// it from this window's definition (--vscode-definition). Who else starts the same command: the
// Agent Host, which runs the definitions VS Code knows for its Copilot harness with its own MCP
// client. So the window tells VS Code's own client (the one that also has the Language Model
// Tools) from the others by the pair: the definition's origin and the client's name.
import * as path from 'node:path';
import { DEFINITION_ORIGIN, type ConnectionOrigin } from '../../mcp/handshake';
import { MCP_SERVER_TITLE } from '../../mcp/serverInfo';
import type { VsCodeClientTools } from '../../core/settings';

/** The provider id, as package.json's contributes.mcpServerDefinitionProviders declares it. */
export const MCP_DEFINITION_PROVIDER_ID = 'workspace-agent-tools';

/** What the definition is made from, as the window has it now. */
export interface DefinitionFacts {
  readonly extensionPath: string;
  /** The extension host's executable: Node, or Electron run as Node (ELECTRON_RUN_AS_NODE). */
  readonly execPath: string;
  /** workspaceAgentTools.mcp.enabled. */
  readonly enabled: boolean;
  /** The window's endpoint id; undefined while the endpoint is not serving. */
  readonly windowId: string | undefined;
  readonly trusted: boolean;
  readonly vscodeClientTools: VsCodeClientTools;
}

/** A stdio server definition, the fields of vscode.McpStdioServerDefinition. */
export interface ServerDefinition {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /**
   * Changes whenever what the server lists changes (another endpoint, trust, the listing setting):
   * VS Code then takes its cached tools as outdated and starts the server again.
   */
  readonly version: string;
}

/** The definition to offer, or none: the front is off or its endpoint is not serving. */
export function serverDefinition(facts: DefinitionFacts): ServerDefinition | undefined {
  if (!facts.enabled || facts.windowId === undefined) {
    return undefined;
  }
  return {
    label: MCP_SERVER_TITLE,
    command: facts.execPath,
    args: [path.join(facts.extensionPath, 'dist', 'mcp.js'), '--window', facts.windowId, `--${DEFINITION_ORIGIN}`],
    // Harmless under Node; makes an Electron extension host's executable run the script as Node.
    env: { ELECTRON_RUN_AS_NODE: '1' },
    version: `${facts.windowId};${facts.trusted ? 'trusted' : 'restricted'};${facts.vscodeClientTools}`,
  };
}

/** Who is asking for the tool list, and the window's side of it. */
export interface ListingCaller {
  readonly origin: ConnectionOrigin;
  /** The client's own name from its initialize (clientInfo.name). */
  readonly clientName: string | undefined;
}

export interface ListingWindow {
  /** vscode.env.appName: what VS Code's own MCP client calls itself (its product's long name). */
  readonly appName: string;
  /** The tools this window registers as Language Model Tools. */
  readonly languageModelTools: ReadonlySet<string>;
  readonly vscodeClientTools: VsCodeClientTools;
}

/** Whether the caller is VS Code's own MCP client of this window, started from this window's definition. */
export function isVsCodeOwnClient(caller: ListingCaller, window: ListingWindow): boolean {
  return caller.origin === DEFINITION_ORIGIN && caller.clientName === window.appName;
}

/**
 * The tools to list to a caller: every tool the window serves, except that VS Code's own client
 * (which already has them as Language Model Tools, and would show them to chat a second time as
 * MCP tools) gets only the ones it does not have, unless the setting asks for all.
 */
export function toolsForCaller<T extends { readonly name: string }>(served: readonly T[], caller: ListingCaller, window: ListingWindow): readonly T[] {
  if (window.vscodeClientTools === 'all' || !isVsCodeOwnClient(caller, window)) {
    return served;
  }
  return served.filter((tool) => !window.languageModelTools.has(tool.name));
}
