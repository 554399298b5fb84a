// The user's settings as the tools see them: one type with every field required, the defaults in
// one place, and the setting key of each field. package.json declares the same keys and defaults;
// a unit test keeps the two in step.

/** The guard's column of the rule table. */
export type RiskLevel = 'low' | 'medium' | 'high';

export const RISK_LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high'];

/**
 * Whether commands run in the OS sandbox: `auto` uses it where the machine has one and asks for
 * every command where it has none; `required` refuses to run without it; `off` never uses it.
 */
export type SandboxMode = 'auto' | 'required' | 'off';

export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

/**
 * An entry of VS Code's own `chat.tools.terminal.autoApprove` that denies or asks (`"rm": false`,
 * `"/\\.ps1/i": { "approve": false, "matchCommandLine": true }`): honoured as a floor, so a command
 * it would stop in VS Code's terminal tool asks here too, whatever runCommand.allow says.
 */
export interface TerminalAskRule {
  /** A command prefix, or `/regex/flags`. */
  readonly pattern: string;
  /** Tested against the whole command line instead of each sub-command. */
  readonly commandLine: boolean;
}

/** The user's settings at the moment of a call. */
export interface ToolSettings {
  readonly riskLevel: RiskLevel;
  /** Refuse every write and command. */
  readonly planMode: boolean;
  /** When non-empty, replaces the workspace folders as the roots reads may use. */
  readonly allowedReadPaths: readonly string[];
  /** When non-empty, replaces the workspace folders as the roots writes may use. */
  readonly allowedWritePaths: readonly string[];
  /** Replace credentials in results with markers before the model sees them. */
  readonly redactSecrets: boolean;
  /** Command prefixes or /regex/ that run without asking. */
  readonly runCommandAllow: readonly string[];
  /** Command prefixes or /regex/ that are refused. */
  readonly runCommandDeny: readonly string[];
  /** Secret environment variables commands still get, by exact name (user settings only). */
  readonly runCommandPassEnvironment: readonly string[];
  /** Domains an approved sandboxed command reaches without a question (user settings only); `*.example.com` for names under one. */
  readonly runCommandAllowedDomains: readonly string[];
  /** Domains an approved sandboxed command never reaches (user settings only). */
  readonly runCommandDeniedDomains: readonly string[];
  /** The machine's loopback ports an approved sandboxed command reaches without a question (user settings only). */
  readonly runCommandAllowedLocalPorts: readonly number[];
  /** VS Code's own chat.tools.terminal.autoApprove entries that deny or ask: commands they match ask here too. */
  readonly terminalAskRules: readonly TerminalAskRule[];
  /** Whether commands run in the OS sandbox (user or machine settings only). */
  readonly runCommandSandbox: SandboxMode;
  /** Where bubblewrap is; empty: the system's (/usr/bin/bwrap, /usr/local/bin/bwrap). */
  readonly bubblewrapPath: string;
  /** Package caches (sandbox/caches.ts ids, or `*`) sandboxed commands write in the real folder instead of a private copy (user or machine settings only). */
  readonly runCommandRealCaches: readonly string[];
  /** Sandboxed foreground commands run over an overlay; their changes are merged when they end, execution config held (issue 40's preview). */
  readonly runCommandStageChanges: boolean;
  /**
   * A line the policy asks about only because it writes inside the workspace (CommandVerdict,
   * asksOnlyToWriteWorkspace) runs staged without the question, without network, its changes
   * shown when it ends (issue 40 item 8). User settings only: it removes questions.
   */
  readonly runCommandAskAfterStaged: boolean;
  /** Globs of workspace-relative paths mapped to true (write without review) or false (always review). */
  readonly autoApprove: Readonly<Record<string, boolean>>;
  /** The most characters of text one tool result may hold. */
  readonly maxResultChars: number;
  /** Characters kept of each of a command's stdout and stderr (head and tail). */
  readonly commandOutputChars: number;
  /** Globs (relative to a workspace folder) the search tools hide: VS Code's own files.exclude. */
  readonly filesExclude: readonly string[];
  /** The most background commands that may run at once. */
  readonly runCommandMaxBackground: number;
  /** Record the workspace folders before and after every call that can change files. */
  readonly checkpointsEnabled: boolean;
  /** Files larger than this many MB are not recorded in checkpoints. */
  readonly checkpointMaxFileMB: number;
  /** The checkpoint store of a folder is pruned (oldest first) above this many MB. */
  readonly checkpointMaxTotalMB: number;
}

/** Refused by default: commands that wreck a machine or a disk. Users may add to or clear the list. */
export const DEFAULT_DENY_PATTERNS: readonly string[] = [
  '/^rm\\s(.*\\s)?(\\/|\\/\\*|~|~\\/|~\\/\\*|\\$HOME|\\$HOME\\/\\*?)(\\s|$)/',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  '/^mkfs(\\.\\S+)?(\\s|$)/',
  '/^dd\\s(.*\\s)?of=\\/dev\\//',
  '/^chmod\\s(.*\\s)?-R\\s(.*\\s)?\\/(\\s|$)/',
];

/** The defaults: what a call sees when the user set nothing. */
export const DEFAULT_SETTINGS: ToolSettings = {
  riskLevel: 'medium',
  planMode: false,
  allowedReadPaths: [],
  allowedWritePaths: [],
  redactSecrets: true,
  runCommandAllow: [],
  runCommandDeny: DEFAULT_DENY_PATTERNS,
  runCommandPassEnvironment: [],
  runCommandAllowedDomains: [],
  runCommandDeniedDomains: [],
  runCommandAllowedLocalPorts: [],
  terminalAskRules: [],
  runCommandSandbox: 'auto',
  bubblewrapPath: '',
  runCommandRealCaches: [],
  runCommandStageChanges: false,
  runCommandAskAfterStaged: false,
  autoApprove: {},
  // About 25k tokens, what the peers allow one read.
  maxResultChars: 100_000,
  commandOutputChars: 30_000,
  filesExclude: [],
  runCommandMaxBackground: 5,
  checkpointsEnabled: true,
  checkpointMaxFileMB: 10,
  checkpointMaxTotalMB: 2048,
};

/** The section of VS Code's configuration the extension's own settings live in. */
export const SETTINGS_SECTION = 'workspaceAgentTools';

/** Each field's key under SETTINGS_SECTION; filesExclude and terminalAskRules are VS Code's own settings. */
export const SETTING_KEYS: Readonly<Record<Exclude<keyof ToolSettings, 'filesExclude' | 'terminalAskRules'>, string>> = {
  riskLevel: 'riskLevel',
  planMode: 'planMode',
  allowedReadPaths: 'allowedReadPaths',
  allowedWritePaths: 'allowedWritePaths',
  redactSecrets: 'redactSecrets',
  runCommandAllow: 'runCommand.allow',
  runCommandDeny: 'runCommand.deny',
  runCommandPassEnvironment: 'runCommand.passEnvironment',
  runCommandAllowedDomains: 'runCommand.allowedDomains',
  runCommandDeniedDomains: 'runCommand.deniedDomains',
  runCommandAllowedLocalPorts: 'runCommand.allowedLocalPorts',
  runCommandSandbox: 'runCommand.sandbox',
  bubblewrapPath: 'runCommand.bubblewrapPath',
  runCommandRealCaches: 'runCommand.realCaches',
  runCommandStageChanges: 'runCommand.stageChanges',
  runCommandAskAfterStaged: 'runCommand.askAfterStaged',
  autoApprove: 'autoApprove',
  maxResultChars: 'output.maxResultChars',
  commandOutputChars: 'output.commandOutputChars',
  runCommandMaxBackground: 'runCommand.maxBackground',
  checkpointsEnabled: 'checkpoints.enabled',
  checkpointMaxFileMB: 'checkpoints.maxFileSizeMB',
  checkpointMaxTotalMB: 'checkpoints.maxTotalSizeMB',
};

/** The bounds package.json declares for the numeric settings (settings.json is not checked against them). */
export const SETTING_BOUNDS: Readonly<Record<'maxResultChars' | 'commandOutputChars' | 'runCommandMaxBackground' | 'checkpointMaxFileMB' | 'checkpointMaxTotalMB', { readonly min: number; readonly max: number }>> = {
  maxResultChars: { min: 10_000, max: 2_000_000 },
  commandOutputChars: { min: 2_000, max: 1_000_000 },
  runCommandMaxBackground: { min: 1, max: 20 },
  checkpointMaxFileMB: { min: 1, max: 1024 },
  checkpointMaxTotalMB: { min: 10, max: 1_000_000 },
};

/** The MCP front's settings (docs/design.md section 6): read when the endpoint starts and when they change, not per call. */
export interface McpSettings {
  /** Serve the tools to agents outside VS Code's chat on this window's private socket. */
  readonly enabled: boolean;
  /** Also serve them over HTTP on loopback, with a bearer token (user or machine settings only). */
  readonly http: boolean;
  /** The loopback port of the HTTP mode; 0 picks a free one. */
  readonly httpPort: number;
  /**
   * Seconds within which every MCP call answers: a call still waiting for the user's review then
   * answers with a review id (workspace_review_status), a command moves to the background. MCP
   * clients cut a call after 60 s or so, and not all of them reset that on progress notifications.
   */
  readonly answerWithinSeconds: number;
  /**
   * What VS Code's own MCP client, started from the window's server definition, is listed:
   * 'deduplicated' leaves out the tools it already has as Language Model Tools (so chat's Local
   * harness sees each tool once), 'all' lists every tool (for what reads VS Code's MCP servers
   * through its client, such as its MCP gateway; chat then sees each tool twice).
   */
  readonly vscodeClientTools: VsCodeClientTools;
}

export const VSCODE_CLIENT_TOOLS = ['deduplicated', 'all'] as const;
export type VsCodeClientTools = (typeof VSCODE_CLIENT_TOOLS)[number];

export const DEFAULT_MCP_SETTINGS: McpSettings = { enabled: true, http: false, httpPort: 0, answerWithinSeconds: 45, vscodeClientTools: 'deduplicated' };

/** Each MCP setting's key under SETTINGS_SECTION. */
export const MCP_SETTING_KEYS: Readonly<Record<keyof McpSettings, string>> = {
  enabled: 'mcp.enabled',
  http: 'mcp.http',
  httpPort: 'mcp.httpPort',
  answerWithinSeconds: 'mcp.answerWithinSeconds',
  vscodeClientTools: 'mcp.vscodeClientTools',
};

export const MCP_HTTP_PORT_BOUNDS = { min: 0, max: 65535 } as const;
export const MCP_ANSWER_WITHIN_BOUNDS = { min: 5, max: 3600 } as const;
