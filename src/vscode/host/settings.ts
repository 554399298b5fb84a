import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_MCP_SETTINGS, MCP_ANSWER_WITHIN_BOUNDS, MCP_HTTP_PORT_BOUNDS, MCP_SETTING_KEYS, VSCODE_CLIENT_TOOLS, SETTING_KEYS, SETTINGS_SECTION, type McpSettings, type TerminalAskRule, type ToolSettings } from '../../core/settings';
import { boundedNumber, FOLDER_SETTINGS_KEY, layeredSettings, mergeLayer, type IgnoredSetting, type RawSettings, type SettingField, type SettingLayers } from '../../core/settingLayers';
import type { WorkspaceInfo } from '../../core/ports/workspace';
import { terminalAskRules } from '../../core/guard/command/settingsPatterns';
import { ignoresCase } from '../../core/fs/node/caseSensitivity';
import { toLocation } from './uris';

/** The settings as they are now; read at every call so changes apply at once. The only reader of them. */
export function readToolSettings(): ToolSettings {
  return { ...layeredSettings(readSettingLayers()).settings, terminalAskRules: vscodeTerminalAskRules(), filesExclude: filesExclude() };
}

/** The workspace values of the extension's settings that were not honoured, and why. */
export function readIgnoredSettings(): IgnoredSetting[] {
  return layeredSettings(readSettingLayers()).ignored;
}

/**
 * Each layer of the extension's settings apart, so a workspace's values can only narrow
 * (core/settingLayers.ts). The user layer is VS Code's global value: the user's settings with a
 * remote's machine settings over them. The workspace layer is the `*.code-workspace` file, or the
 * folder's `.vscode/settings.json`; each folder of a multi-root workspace is a layer of its own.
 */
function readSettingLayers(): SettingLayers {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const fields = Object.keys(SETTING_KEYS) as SettingField[];
  const inspected = fields.map((field) => [field, config.inspect(SETTING_KEYS[field])] as const);
  type Inspected = NonNullable<ReturnType<typeof config.inspect>>;
  const layer = (pick: (value: Inspected) => unknown): RawSettings => Object.fromEntries(inspected.map(([field, value]) => [field, value ? pick(value) : undefined]));
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folderLayers = folders.map((folder) => {
    const folderConfig = vscode.workspace.getConfiguration(SETTINGS_SECTION, folder.uri);
    return { label: `the settings of folder "${folder.name}"`, values: Object.fromEntries(fields.map((field) => [field, folderConfig.inspect(SETTING_KEYS[field])?.workspaceFolderValue])) as RawSettings };
  });
  const workspaceFile = vscode.workspace.workspaceFile;
  return {
    user: layer((value) => value.globalValue),
    folderSettings: config.inspect(FOLDER_SETTINGS_KEY)?.globalValue,
    untrusted: [{ label: workspaceFile && workspaceFile.scheme !== 'untitled' ? `the workspace file ${path.basename(workspaceFile.path)}` : 'the workspace settings (.vscode/settings.json)', values: layer((value) => value.workspaceValue) }, ...folderLayers],
    folderPaths: folders.filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath),
    home: os.homedir(),
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

/**
 * The MCP front's settings as they are now: from the user's own settings only (they are machine-scoped
 * in package.json too), so a workspace cannot turn the HTTP mode on or pick its port.
 */
export function readMcpSettings(): McpSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const read = <K extends keyof McpSettings>(field: K): unknown => config.inspect(MCP_SETTING_KEYS[field])?.globalValue ?? DEFAULT_MCP_SETTINGS[field];
  const vscodeClientTools = read('vscodeClientTools');
  return {
    enabled: read('enabled') !== false,
    http: read('http') === true,
    httpPort: boundedNumber(read('httpPort'), MCP_HTTP_PORT_BOUNDS) ?? DEFAULT_MCP_SETTINGS.httpPort,
    answerWithinSeconds: boundedNumber(read('answerWithinSeconds'), MCP_ANSWER_WITHIN_BOUNDS) ?? DEFAULT_MCP_SETTINGS.answerWithinSeconds,
    vscodeClientTools: VSCODE_CLIENT_TOOLS.find((choice) => choice === vscodeClientTools) ?? DEFAULT_MCP_SETTINGS.vscodeClientTools,
  };
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

/**
 * The person changes plan mode or the risk level (the status bar menu, the palette): the value goes
 * to their user settings, and a workspace value that would outrank it (plan mode on, a lower risk
 * level) is removed, so what they chose is what applies.
 */
export async function updateSetting<K extends 'planMode' | 'riskLevel'>(field: K, value: ToolSettings[K]): Promise<void> {
  const key = SETTING_KEYS[field];
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
  const outranks = (layerValue: unknown): boolean => (mergeLayer(field, value, layerValue)?.value ?? value) !== value;
  const workspaceValue = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect(key)?.workspaceValue;
  if (outranks(workspaceValue)) {
    await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(key, undefined, vscode.ConfigurationTarget.Workspace);
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const folderConfig = vscode.workspace.getConfiguration(SETTINGS_SECTION, folder.uri);
    if (outranks(folderConfig.inspect(key)?.workspaceFolderValue)) {
      await folderConfig.update(key, undefined, vscode.ConfigurationTarget.WorkspaceFolder);
    }
  }
}

/** Whether each local folder's volume ignores letter case, by its path: measured by measureFolderCase. */
const folderCase = new Map<string, boolean>();

/**
 * Measures, read-only, whether each local workspace folder's volume ignores letter case
 * (core/fs/node/caseSensitivity.ts); run at activation and whenever the folders change. Until it
 * has measured a folder, the folder counts as case-sensitive.
 */
export async function measureFolderCase(): Promise<void> {
  const local = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  const measured = await Promise.all(local.map(async (folder) => [folder, await ignoresCase(folder)] as const));
  folderCase.clear();
  for (const [folder, caseInsensitive] of measured) {
    folderCase.set(folder, caseInsensitive);
  }
}

export function readWorkspaceInfo(): WorkspaceInfo {
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
      name: folder.name,
      location: toLocation(folder.uri),
      ...(folder.uri.scheme === 'file' && folderCase.get(folder.uri.fsPath) === true ? { caseInsensitive: true } : {}),
    })),
    trusted: vscode.workspace.isTrusted,
    home: os.homedir(),
    platform: process.platform,
  };
}
