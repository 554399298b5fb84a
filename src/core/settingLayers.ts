// The settings as layers. A cloned repository ships its own `.vscode/settings.json` and
// `*.code-workspace`, and almost everyone trusts the workspace they open, so a workspace's values
// may only make the tools stricter: every setting has one merge rule below, and the type makes a
// new setting choose one. What can widen the tools (the roots, allow lists, auto-approval, a higher
// risk level, redaction or checkpoints off, bigger output) comes from the user's own settings
// (user, remote machine), or from `workspaceAgentTools.folderSettings`, the user's widenings keyed
// by a folder of their own. A workspace value that was not honoured is reported once with why.
import * as path from 'node:path';
import { isInsidePath } from './location';
import { DEFAULT_SETTINGS, RISK_LEVELS, SANDBOX_MODES, SETTING_BOUNDS, SETTING_KEYS, SETTINGS_SECTION, type RiskLevel, type ToolSettings } from './settings';

/** The settings the extension declares itself (VS Code's own files.exclude and terminal rules are read apart). */
export type SettingField = keyof typeof SETTING_KEYS;

/** One layer's raw values, by field, as the configuration holds them (unchecked). */
export type RawSettings = Partial<Record<SettingField, unknown>>;

/** A layer a repository can write: the workspace's settings, or one folder's `.vscode/settings.json`. */
export interface UntrustedLayer {
  /** How messages name it: `the workspace settings`, `the settings of folder "api"`. */
  readonly label: string;
  readonly values: RawSettings;
}

/** Every layer of the extension's settings at the moment of a call. */
export interface SettingLayers {
  /** The user's settings (a remote's machine settings included): the only layer that widens. */
  readonly user: RawSettings;
  /** The user's `workspaceAgentTools.folderSettings`: widenings keyed by a folder's absolute path. */
  readonly folderSettings: unknown;
  /** The workspace's and each folder's settings, which can only narrow. */
  readonly untrusted: readonly UntrustedLayer[];
  /** The workspace folders' paths on the local disk, for folderSettings. */
  readonly folderPaths: readonly string[];
  readonly home: string;
}

/** A workspace value that was not (or not wholly) honoured. */
export interface IgnoredSetting {
  /** The full setting key, `workspaceAgentTools.riskLevel`. */
  readonly key: string;
  readonly layer: string;
  readonly why: string;
}

/** The key of the user's folder-keyed widenings. */
export const FOLDER_SETTINGS_KEY = 'folderSettings';

/** Where a user puts a widening for one folder of their own, for the messages. */
const HOW_TO_WIDEN = `set it in your user settings, or for this folder only under ${SETTINGS_SECTION}.${FOLDER_SETTINGS_KEY}`;

export interface Merged<T> {
  readonly value: T;
  /** Why the layer's value was not wholly honoured; undefined when it was. */
  readonly ignored?: string;
}

/** How a layer's value meets the value so far. Each returns the stricter of the two. */
interface MergeRule<T> {
  merge(current: T, layer: T): Merged<T>;
}

/** Only the user's layers set it: a workspace value that differs is ignored. */
const userOnly = <T>(): MergeRule<T> => ({
  merge: (current, layer) => (sameValue(current, layer) ? { value: current } : { value: current, ignored: `only your own settings can set it; ${HOW_TO_WIDEN}` }),
});

/** On if any layer turns it on. */
const anyOn = (what: string): MergeRule<boolean> => ({
  merge: (current, layer) => (current || layer ? { value: true, ignored: current && !layer ? `a workspace can turn ${what} on, not off; ${HOW_TO_WIDEN}` : undefined } : { value: false }),
});

/** On only where your settings turn it on and no workspace layer turns it off (it removes questions). */
const offIfAnyOff = (what: string): MergeRule<boolean> => ({
  merge: (current, layer) => ({ value: current && layer, ignored: layer && !current ? `only your own settings can turn ${what} on; ${HOW_TO_WIDEN}` : undefined }),
});

/** The smaller number. */
const smaller: MergeRule<number> = {
  merge: (current, layer) => (layer <= current ? { value: layer } : { value: current, ignored: `a workspace can lower this limit, not raise it; ${HOW_TO_WIDEN}` }),
};

/** Every layer's entries together: a workspace adds to a deny list, it cannot remove from it. */
const union: MergeRule<readonly string[]> = {
  merge: (current, layer) => {
    const missing = current.filter((entry) => !layer.includes(entry)).length;
    return {
      value: [...new Set([...current, ...layer])],
      ignored: missing > 0 ? `a workspace can add entries, not remove yours (${missing} kept)` : undefined,
    };
  },
};

const RISK_ORDER: Readonly<Record<RiskLevel, number>> = { low: 0, medium: 1, high: 2 };

/** The stricter risk level. */
const stricterRisk: MergeRule<RiskLevel> = {
  merge: (current, layer) => (RISK_ORDER[layer] <= RISK_ORDER[current] ? { value: layer } : { value: current, ignored: `a workspace can lower the risk level, not raise it; ${HOW_TO_WIDEN}` }),
};

/** A workspace's `false` entries (always review) count; its `true` entries (skip review) do not. */
const reviewMore: MergeRule<Readonly<Record<string, boolean>>> = {
  merge: (current, layer) => {
    const entries = Object.entries(layer);
    const kept = entries.filter(([, approve]) => !approve);
    return {
      value: { ...current, ...Object.fromEntries(kept) },
      ignored: kept.length < entries.length ? `a workspace can make paths always reviewed (false), not skip reviews (true); ${HOW_TO_WIDEN}` : undefined,
    };
  },
};

type Rules = { readonly [K in SettingField]: MergeRule<ToolSettings[K]> };

/** Each setting's merge rule: the one place that decides what a workspace may change. */
const RULES: Rules = {
  riskLevel: stricterRisk,
  planMode: anyOn('plan mode'),
  allowedReadPaths: userOnly(),
  allowedWritePaths: userOnly(),
  redactSecrets: anyOn('redaction'),
  runCommandAllow: userOnly(),
  runCommandDeny: union,
  runCommandPassEnvironment: userOnly(),
  runCommandAllowedDomains: userOnly(),
  runCommandDeniedDomains: union,
  runCommandAllowedLocalPorts: userOnly(),
  runCommandSandbox: userOnly(),
  bubblewrapPath: userOnly(),
  runCommandRealCaches: userOnly(),
  runCommandStageChanges: anyOn('staged changes'),
  // It removes questions: a repository's settings must not be able to turn it on.
  runCommandAskAfterStaged: offIfAnyOff('asking after staged commands'),
  autoApprove: reviewMore,
  maxResultChars: smaller,
  commandOutputChars: smaller,
  runCommandMaxBackground: smaller,
  checkpointsEnabled: anyOn('checkpoints'),
  checkpointMaxFileMB: userOnly(),
  checkpointMaxTotalMB: userOnly(),
};

/** The layers merged: the settings a call sees, and the workspace values that were not honoured. */
export function layeredSettings(layers: SettingLayers): { settings: Omit<ToolSettings, 'filesExclude' | 'terminalAskRules'>; ignored: IgnoredSetting[] } {
  const user = { ...layers.user, ...folderSettingsFor(layers) };
  const fields = Object.keys(SETTING_KEYS) as SettingField[];
  const ignored: IgnoredSetting[] = [];
  const settings = Object.fromEntries(
    fields.map((field) => {
      let value: unknown = checked(field, user[field]) ?? DEFAULT_SETTINGS[field];
      for (const layer of layers.untrusted) {
        const merged = mergeLayer(field, value as ToolSettings[typeof field], layer.values[field]);
        if (!merged) {
          continue;
        }
        value = merged.value;
        if (merged.ignored && !ignored.some((entry) => entry.key === keyOf(field) && entry.why === merged.ignored)) {
          ignored.push({ key: keyOf(field), layer: layer.label, why: merged.ignored });
        }
      }
      return [field, value];
    }),
  ) as Omit<ToolSettings, 'filesExclude' | 'terminalAskRules'>;
  return { settings, ignored };
}

/** A layer's raw value of one field merged into the value so far by the field's rule; undefined when the layer sets nothing usable. */
export function mergeLayer<K extends SettingField>(field: K, current: ToolSettings[K], raw: unknown): Merged<ToolSettings[K]> | undefined {
  const value = checked(field, raw);
  return value === undefined ? undefined : (RULES[field] as MergeRule<ToolSettings[K]>).merge(current, value);
}

function keyOf(field: SettingField): string {
  return `${SETTINGS_SECTION}.${SETTING_KEYS[field]}`;
}

/** One line per ignored value, for the status bar menu, the Activity view and the tests. */
export function describeIgnored(entry: IgnoredSetting): string {
  return `${entry.key} in ${entry.layer} is not honoured: ${entry.why}.`;
}

/**
 * The entry of the user's folderSettings for this window: the folder that holds every workspace
 * folder (itself or an ancestor), the deepest when several do. With no folder open, none applies.
 * Its keys are the settings' keys without the section (`riskLevel`, `runCommand.allow`).
 */
function folderSettingsFor(layers: SettingLayers): RawSettings {
  const grants = layers.folderSettings;
  if (grants === null || typeof grants !== 'object' || Array.isArray(grants) || layers.folderPaths.length === 0) {
    return {};
  }
  let best: { folder: string; values: Record<string, unknown> } | undefined;
  for (const [key, values] of Object.entries(grants)) {
    const folder = absoluteFolder(key, layers.home);
    if (!folder || values === null || typeof values !== 'object' || Array.isArray(values)) {
      continue;
    }
    if (layers.folderPaths.every((open) => isInsidePath(path.posix.normalize(open), folder)) && (!best || folder.length > best.folder.length)) {
      best = { folder, values: values as Record<string, unknown> };
    }
  }
  if (!best) {
    return {};
  }
  const byKey = new Map(Object.entries(SETTING_KEYS).map(([field, key]) => [key, field as SettingField]));
  const grant = best.values;
  return Object.fromEntries(Object.keys(grant).flatMap((key) => {
    const field = byKey.get(key);
    return field ? [[field, grant[key]]] : [];
  }));
}

/** A folderSettings key as an absolute normalised path without a trailing slash; undefined when it is not absolute. */
function absoluteFolder(key: string, home: string): string | undefined {
  const expanded = key === '~' || key.startsWith('~/') ? path.posix.join(home, key.slice(1)) : key;
  if (!expanded.startsWith('/')) {
    return undefined;
  }
  const normalised = path.posix.normalize(expanded);
  return normalised.length > 1 && normalised.endsWith('/') ? normalised.slice(0, -1) : normalised;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A raw value checked against the field's type and bounds; undefined when absent or malformed. */
function checked<K extends SettingField>(field: K, raw: unknown): ToolSettings[K] | undefined {
  if (raw === undefined) {
    return undefined;
  }
  return (CHECKS[field] as (raw: unknown) => ToolSettings[K] | undefined)(raw);
}

type Checks = { readonly [K in SettingField]: (raw: unknown) => ToolSettings[K] | undefined };

const bool = (raw: unknown): boolean | undefined => (typeof raw === 'boolean' ? raw : undefined);
const strings = (raw: unknown): string[] | undefined => (Array.isArray(raw) ? raw.filter((entry): entry is string => typeof entry === 'string') : undefined);
const oneOf = <T extends string>(values: readonly T[]) => (raw: unknown): T | undefined => (values.includes(raw as T) ? (raw as T) : undefined);
/** A number held to the bounds package.json declares (settings.json is not checked against them); undefined when it is no number. */
export function boundedNumber(raw: unknown, bounds: { readonly min: number; readonly max: number }): number | undefined {
  return typeof raw === 'number' && Number.isFinite(raw) ? Math.min(bounds.max, Math.max(bounds.min, Math.floor(raw))) : undefined;
}
const within = (bounds: { readonly min: number; readonly max: number }) => (raw: unknown): number | undefined => boundedNumber(raw, bounds);
/** The entries of a glob-to-boolean setting whose value really is a boolean. */
const booleanEntries = (raw: unknown): Record<string, boolean> | undefined =>
  raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? Object.fromEntries(Object.entries(raw).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean')) : undefined;

const CHECKS: Checks = {
  riskLevel: oneOf(RISK_LEVELS),
  planMode: bool,
  allowedReadPaths: strings,
  allowedWritePaths: strings,
  redactSecrets: bool,
  runCommandAllow: strings,
  runCommandDeny: strings,
  runCommandPassEnvironment: strings,
  runCommandAllowedDomains: strings,
  runCommandDeniedDomains: strings,
  runCommandAllowedLocalPorts: (raw) => (Array.isArray(raw) ? raw.filter((entry): entry is number => Number.isInteger(entry) && entry >= 1 && entry <= 65535) : undefined),
  runCommandSandbox: oneOf(SANDBOX_MODES),
  bubblewrapPath: (raw) => (typeof raw === 'string' ? raw : undefined),
  runCommandRealCaches: strings,
  runCommandStageChanges: bool,
  runCommandAskAfterStaged: bool,
  autoApprove: booleanEntries,
  maxResultChars: within(SETTING_BOUNDS.maxResultChars),
  commandOutputChars: within(SETTING_BOUNDS.commandOutputChars),
  runCommandMaxBackground: within(SETTING_BOUNDS.runCommandMaxBackground),
  checkpointsEnabled: bool,
  checkpointMaxFileMB: within(SETTING_BOUNDS.checkpointMaxFileMB),
  checkpointMaxTotalMB: within(SETTING_BOUNDS.checkpointMaxTotalMB),
};
