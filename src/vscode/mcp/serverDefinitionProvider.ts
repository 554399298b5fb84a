// VS Code knows this window's MCP server: a definition provider (package.json's
// contributes.mcpServerDefinitionProviders) offering serverDefinition.ts's stdio definition, so
// VS Code's MCP client, the Agent Host's harnesses that take VS Code's servers and anything that
// reads VS Code's server list get the tools. The API came after our engines floor (1.100 has it
// only as a proposal it refuses to us), so it is typed here and feature-detected at runtime.
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { readMcpSettings } from '../host/settings';
import type { McpFront } from './mcpFront';
import { MCP_DEFINITION_PROVIDER_ID, serverDefinition } from './serverDefinition';

/** vscode.McpStdioServerDefinition (1.101+). */
type StdioDefinitionClass = new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => object;

/** The part of vscode.lm (1.101+) used here. */
interface McpDefinitionApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: { readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<object[]> },
  ): vscode.Disposable;
}

/**
 * Registers the provider where VS Code has the API; returns undefined where it has not (the reason
 * goes to the front's status and the log). The definitions follow the front: its onDidChange
 * (endpoint started or stopped, trust granted, MCP settings changed) makes VS Code ask again.
 */
export function registerMcpServerDefinitionProvider(front: McpFront, extensionPath: string, log: { appendLine(line: string): void }): vscode.Disposable | undefined {
  const lm = vscode.lm as unknown as Partial<McpDefinitionApi>;
  const StdioDefinition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinitionClass }).McpStdioServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof StdioDefinition !== 'function') {
    front.definition = { state: `not registered: VS Code ${vscode.version} has no MCP server definition API` };
    return undefined;
  }
  try {
    const disposable = lm.registerMcpServerDefinitionProvider(MCP_DEFINITION_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: front.onDidChange,
      async provideMcpServerDefinitions() {
        await front.ready();
        const settings = readMcpSettings();
        const definition = serverDefinition({
          extensionPath,
          execPath: process.execPath,
          enabled: settings.enabled,
          windowId: front.windowId,
          trusted: vscode.workspace.isTrusted,
          vscodeClientTools: settings.vscodeClientTools,
        });
        front.definition = { state: 'registered', ...(definition ? { offered: definition } : {}) };
        return definition ? [new StdioDefinition(definition.label, definition.command, [...definition.args], { ...definition.env }, definition.version)] : [];
      },
    });
    front.definition = { state: 'registered' };
    return disposable;
  } catch (error) {
    // VS Code 1.100 has the function, but only as the proposal mcpConfigurationProvider, which it refuses to extensions.
    front.definition = { state: `not registered: ${errorMessage(error)}` };
    log.appendLine(`MCP: VS Code ${vscode.version} cannot take this window's MCP server definition (${errorMessage(error)}); agents still reach the tools as Language Model Tools and through dist/mcp.js.`);
    return undefined;
  }
}
