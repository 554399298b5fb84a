import * as os from 'node:os';
import * as vscode from 'vscode';
import { DEFAULT_COMMAND_OUTPUT_CHARS, DEFAULT_MAX_RESULT_CHARS } from '../core/output/budget';
import type { RiskLevel, ToolSettings, WorkspaceInfo } from '../core/ports';
import { toLocation } from './fileSystemPort';

export const SETTINGS_SECTION = 'workspaceAgentTools';

const RISK_LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high'];

/** The settings as they are now; read at every call so changes apply at once. */
export function readToolSettings(): ToolSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const risk = config.get<string>('riskLevel', 'medium');
  return {
    riskLevel: RISK_LEVELS.includes(risk as RiskLevel) ? (risk as RiskLevel) : 'medium',
    planMode: config.get<boolean>('planMode', false),
    allowedReadPaths: config.get<string[]>('allowedReadPaths', []),
    allowedWritePaths: config.get<string[]>('allowedWritePaths', []),
    redactSecrets: config.get<boolean>('redactSecrets', true),
    runCommandAllow: config.get<string[]>('runCommand.allow', []),
    runCommandDeny: config.get<string[]>('runCommand.deny'),
    maxResultChars: within(config.get<number>('output.maxResultChars', DEFAULT_MAX_RESULT_CHARS), 10_000, 2_000_000),
    commandOutputChars: within(config.get<number>('output.commandOutputChars', DEFAULT_COMMAND_OUTPUT_CHARS), 2_000, 1_000_000),
    filesExclude: enabledGlobs(vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude', {})),
  };
}

/** A numeric setting held to the bounds its schema declares (settings.json is not checked against them). */
function within(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
}

/** The globs of a glob-to-boolean setting such as files.exclude that are switched on (conditional entries are skipped). */
function enabledGlobs(setting: Record<string, unknown>): string[] {
  return Object.entries(setting)
    .filter(([, enabled]) => enabled === true)
    .map(([glob]) => glob);
}

export function readWorkspaceInfo(): WorkspaceInfo {
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ name: folder.name, location: toLocation(folder.uri) })),
    trusted: vscode.workspace.isTrusted,
    home: os.homedir(),
  };
}
