import * as os from 'node:os';
import * as vscode from 'vscode';
import { DEFAULT_MCP_SETTINGS, DEFAULT_SETTINGS, MCP_ANSWER_WITHIN_BOUNDS, MCP_HTTP_PORT_BOUNDS, MCP_SETTING_KEYS, RISK_LEVELS, VSCODE_CLIENT_TOOLS, SANDBOX_MODES, SETTING_BOUNDS, SETTING_KEYS, SETTINGS_SECTION, type McpSettings, type TerminalAskRule, type ToolSettings } from '../../core/settings';
import type { WorkspaceInfo } from '../../core/ports/workspace';
import { terminalAskRules } from '../../core/guard/command/settingsPatterns';
import { toLocation } from './uris';

/** The settings as they are now; read at every call so changes apply at once. The only reader of them. */
export function readToolSettings(): ToolSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const read = <K extends keyof typeof SETTING_KEYS>(field: K): ToolSettings[K] => config.get<ToolSettings[K]>(SETTING_KEYS[field], DEFAULT_SETTINGS[field]);
  const risk = read('riskLevel');
  const sandbox = read('runCommandSandbox');
  return {
    riskLevel: RISK_LEVELS.includes(risk) ? risk : DEFAULT_SETTINGS.riskLevel,
    planMode: read('planMode'),
    allowedReadPaths: read('allowedReadPaths'),
    allowedWritePaths: read('allowedWritePaths'),
    redactSecrets: read('redactSecrets'),
    runCommandAllow: read('runCommandAllow'),
    runCommandDeny: read('runCommandDeny'),
    // Application-scoped in package.json: a repository cannot let secrets through for itself.
    runCommandPassEnvironment: stringEntries(read('runCommandPassEnvironment')),
    runCommandAllowedDomains: stringEntries(read('runCommandAllowedDomains')),
    runCommandDeniedDomains: stringEntries(read('runCommandDeniedDomains')),
    terminalAskRules: vscodeTerminalAskRules(),
    // Both are machine-scoped in package.json: VS Code ignores workspace values of them.
    runCommandSandbox: SANDBOX_MODES.includes(sandbox) ? sandbox : DEFAULT_SETTINGS.runCommandSandbox,
    bubblewrapPath: typeof read('bubblewrapPath') === 'string' ? read('bubblewrapPath') : '',
    // Machine-scoped too: a repository cannot point the sandbox at the user's real caches.
    runCommandRealCaches: stringEntries(read('runCommandRealCaches')),
    autoApprove: booleanEntries(read('autoApprove')),
    maxResultChars: within(read('maxResultChars'), SETTING_BOUNDS.maxResultChars),
    commandOutputChars: within(read('commandOutputChars'), SETTING_BOUNDS.commandOutputChars),
    runCommandMaxBackground: within(read('runCommandMaxBackground'), SETTING_BOUNDS.runCommandMaxBackground),
    filesExclude: filesExclude(),
    checkpointsEnabled: read('checkpointsEnabled') !== false,
    checkpointMaxFileMB: within(read('checkpointMaxFileMB'), SETTING_BOUNDS.checkpointMaxFileMB),
    checkpointMaxTotalMB: within(read('checkpointMaxTotalMB'), SETTING_BOUNDS.checkpointMaxTotalMB),
  };
}

/**
 * The entries of VS Code's own chat.tools.terminal.autoApprove that a person wrote and that ask: the
 * user's, the workspace's and the folder's. Those count here although VS Code ignores workspace
 * entries in Restricted Mode, as they can only make a command ask. VS Code's defaults are not a
 * floor: they are its terminal tool's coarse stand-in for a policy (`ps`, `jq` and `top` ask there),
 * and the closed policy here already asks for every default that denies something that writes, kills
 * or reaches the network (`rm`, `kill`, `curl`, `chmod`, `xargs`, `eval`, `sed -i`, `find -exec`).
 */
function vscodeTerminalAskRules(): TerminalAskRule[] {
  const inspected = vscode.workspace.getConfiguration('chat.tools.terminal').inspect<Record<string, unknown>>('autoApprove');
  return [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].flatMap((layer) => terminalAskRules(layer));
}

/** The MCP front's settings as they are now. */
export function readMcpSettings(): McpSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const read = <K extends keyof McpSettings>(field: K): McpSettings[K] => config.get<McpSettings[K]>(MCP_SETTING_KEYS[field], DEFAULT_MCP_SETTINGS[field]);
  const vscodeClientTools = read('vscodeClientTools');
  return {
    enabled: read('enabled') !== false,
    http: read('http') === true,
    httpPort: within(read('httpPort'), MCP_HTTP_PORT_BOUNDS),
    answerWithinSeconds: within(read('answerWithinSeconds'), MCP_ANSWER_WITHIN_BOUNDS),
    vscodeClientTools: VSCODE_CLIENT_TOOLS.includes(vscodeClientTools) ? vscodeClientTools : DEFAULT_MCP_SETTINGS.vscodeClientTools,
  };
}

/** A numeric setting held to the bounds its schema declares (settings.json is not checked against them). */
function within(value: number, bounds: { readonly min: number; readonly max: number }): number {
  return Number.isFinite(value) ? Math.min(bounds.max, Math.max(bounds.min, Math.floor(value))) : bounds.min;
}

/** The entries of a glob-to-boolean setting whose value really is a boolean. */
function booleanEntries(setting: unknown): Record<string, boolean> {
  const entries = setting !== null && typeof setting === 'object' ? Object.entries(setting) : [];
  return Object.fromEntries(entries.filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
}

/**
 * files.exclude is resource-scoped: it is read for each workspace folder (which gives the user's,
 * the workspace's and that folder's globs), and the search tools hide the union.
 */
function filesExclude(): string[] {
  const globs = (vscode.workspace.workspaceFolders ?? []).flatMap((folder) => enabledGlobs(vscode.workspace.getConfiguration('files', folder.uri).get<Record<string, unknown>>('exclude', {})));
  return [...new Set(globs)];
}

/** The globs of a glob-to-boolean setting such as files.exclude that are switched on (conditional entries are skipped). */
function enabledGlobs(setting: Record<string, unknown>): string[] {
  return Object.entries(setting)
    .filter(([, enabled]) => enabled === true)
    .map(([glob]) => glob);
}

/** Changes a setting where its current value comes from: the workspace's when it sets it, else the user's. */
export async function updateSetting<K extends keyof typeof SETTING_KEYS>(field: K, value: ToolSettings[K]): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const key = SETTING_KEYS[field];
  const inspected = config.inspect(key);
  const target = inspected?.workspaceFolderValue !== undefined
    ? vscode.ConfigurationTarget.WorkspaceFolder
    : inspected?.workspaceValue !== undefined
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  await config.update(key, value, target);
}

export function readWorkspaceInfo(): WorkspaceInfo {
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ name: folder.name, location: toLocation(folder.uri) })),
    trusted: vscode.workspace.isTrusted,
    home: os.homedir(),
  };
}

/** The strings of an array setting; anything else in it is ignored. */
function stringEntries(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}
