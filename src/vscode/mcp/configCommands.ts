// How an agent is told to start the relay: the command that returns { command, args }, and palette
// commands that copy ready configuration for Claude Code, Codex CLI and Gemini CLI (and for the
// loopback HTTP mode, when it is on) to the clipboard.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CommandId } from '../commandIds';
import type { McpFront } from './mcpFront';
import { MCP_SERVER_NAME } from '../../mcp/serverInfo';

/** How to start the relay: Node with dist/mcp.js of this installation. */
export interface McpServerConfig {
  readonly command: string;
  readonly args: readonly string[];
}

export function mcpServerConfig(extensionPath: string): McpServerConfig {
  return { command: 'node', args: [path.join(extensionPath, 'dist', 'mcp.js')] };
}

/** A word for a POSIX shell command line, quoted when needed. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `claude mcp add` for the user scope: the relay picks the window by the folder Claude Code runs in. */
export function claudeCodeConfig(config: McpServerConfig): string {
  return ['claude', 'mcp', 'add', '--scope', 'user', MCP_SERVER_NAME, '--', config.command, ...config.args].map(shellWord).join(' ');
}

/** A table for ~/.codex/config.toml (TOML basic strings take JSON's escapes). */
export function codexConfig(config: McpServerConfig): string {
  return [`[mcp_servers.${MCP_SERVER_NAME}]`, `command = ${JSON.stringify(config.command)}`, `args = [${config.args.map((arg) => JSON.stringify(arg)).join(', ')}]`, ''].join('\n');
}

/** The mcpServers entry of ~/.gemini/settings.json. */
export function geminiConfig(config: McpServerConfig): string {
  return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { command: config.command, args: config.args } } }, null, 2);
}

async function copy(text: string, what: string): Promise<string> {
  await vscode.env.clipboard.writeText(text);
  void vscode.window.showInformationMessage(`Copied the MCP configuration for ${what} to the clipboard.`);
  return text;
}

export function registerMcpConfigCommands(extensionPath: string, front: McpFront): vscode.Disposable[] {
  const config = mcpServerConfig(extensionPath);
  return [
    vscode.commands.registerCommand(CommandId.mcpServerConfig, () => config),
    vscode.commands.registerCommand(CommandId.copyMcpConfigClaudeCode, () => copy(claudeCodeConfig(config), 'Claude Code (run it in a terminal)')),
    vscode.commands.registerCommand(CommandId.copyMcpConfigCodex, () => copy(codexConfig(config), 'Codex CLI (add it to ~/.codex/config.toml)')),
    vscode.commands.registerCommand(CommandId.copyMcpConfigGemini, () => copy(geminiConfig(config), 'Gemini CLI (merge it into ~/.gemini/settings.json)')),
    vscode.commands.registerCommand(CommandId.copyMcpHttpConfig, async () => {
      const http = front.status.http;
      if (!http) {
        void vscode.window.showWarningMessage('The MCP HTTP mode is off: turn on workspaceAgentTools.mcp.http first.');
        return undefined;
      }
      const text = JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url: http.url, headers: { Authorization: `Bearer ${http.token}` } } } }, null, 2);
      return copy(text, 'an HTTP client (the token changes when VS Code restarts)');
    }),
    vscode.commands.registerCommand(CommandId.mcpStatus, () => front.status),
  ];
}
