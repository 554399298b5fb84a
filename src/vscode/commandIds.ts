// Every id the extension registers with VS Code, declared once. package.json declares the same
// commands, views and context keys; a unit test keeps the two in step.

/** Commands of the extension (the per-tool palette commands come from the tool list: toolCommandId). */
export const CommandId = {
  /** Runs any tool with its input as JSON, through vscode.lm.invokeTool: {@link registerInvokeToolCommand}. */
  invokeTool: 'workspaceAgentTools.invokeTool',
  /** Answers the oldest pending question (or the diff's own) with yes: {@link registerApprovalCommands}. */
  approve: 'workspaceAgentTools.approve',
  /** Answers the oldest pending question with its third choice, e.g. Run Outside the Sandbox. */
  approveAlternative: 'workspaceAgentTools.approveAlternative',
  /**
   * Answers the oldest command question that offers Always Allow with yes, after saving its
   * runCommand.allow entries to user settings (the dialog shows them first, unless the argument
   * names exactly those entries).
   */
  approveAlways: 'workspaceAgentTools.approveAlways',
  /** Shows runCommand.allow entries (argument: the entries) and saves them to user settings on yes: the link in chat's command confirmation. */
  saveAllowRules: 'workspaceAgentTools.saveAllowRules',
  /** Answers the oldest pending question (or the diff's own) with no. */
  reject: 'workspaceAgentTools.reject',
  /** The pending questions, oldest first (tests). */
  listPendingApprovals: 'workspaceAgentTools.listPendingApprovals',
  /** Turns plan mode on or off and returns the new state: {@link registerGuardCommands}. */
  togglePlanMode: 'workspaceAgentTools.togglePlanMode',
  /** The status bar's quick pick of risk level and plan mode. */
  showGuardMenu: 'workspaceAgentTools.showGuardMenu',
  /** Shows the activity output channel: {@link registerActivityView}. */
  showActivityLog: 'workspaceAgentTools.showActivityLog',
  /** Opens a call of the Activity view: its diff, or its details. */
  openActivity: 'workspaceAgentTools.openActivity',
  /** Copies a call's whole input. */
  copyActivityInput: 'workspaceAgentTools.copyActivityInput',
  /** Restores the workspace folders to before an activity record's call (argument: its id), asking first: {@link registerCheckpointCommands}. */
  restoreCheckpoint: 'workspaceAgentTools.restoreCheckpoint',
  /** Opens the diff of a file a call changed, from its checkpoints (arguments: the record or its id, the file's index). */
  showCheckpointChanges: 'workspaceAgentTools.showCheckpointChanges',
  /** Opens a staged command's held change for review (arguments: the record's id, the change's index): a diff, or a folder's files. */
  showHeldChange: 'workspaceAgentTools.showHeldChange',
  /** Merges a held change after the person's modal answer (arguments: its row, or the record's id and the change's index; none: a pick): {@link registerHeldChangeCommands}. */
  mergeHeldChange: 'workspaceAgentTools.mergeHeldChange',
  /** Discards a held change after the person's modal answer (arguments as mergeHeldChange). */
  discardHeldChange: 'workspaceAgentTools.discardHeldChange',
  /** The activity records, newest first (tests and other extensions). */
  listActivity: 'workspaceAgentTools.listActivity',
  /** The path of the JSON Lines activity file. */
  activityLogFile: 'workspaceAgentTools.activityLogFile',
  /** What the most recent command terminal showed (tests; not in package.json). */
  lastCommandTerminal: 'workspaceAgentTools.lastCommandTerminal',
  /** `{ command, args }` that start the MCP relay (dist/mcp.js): {@link registerMcpConfigCommands}. */
  mcpServerConfig: 'workspaceAgentTools.mcpServerConfig',
  /** Copies the `claude mcp add` line for the relay. */
  copyMcpConfigClaudeCode: 'workspaceAgentTools.copyMcpConfigClaudeCode',
  /** Copies the ~/.codex/config.toml table for the relay. */
  copyMcpConfigCodex: 'workspaceAgentTools.copyMcpConfigCodex',
  /** Copies the ~/.gemini/settings.json entry for the relay. */
  copyMcpConfigGemini: 'workspaceAgentTools.copyMcpConfigGemini',
  /** Writes the relay's entry into an agent's own MCP config file after a diff review (argument, optional: `{ agent, home }`): {@link registerConnectAgentCommand}. */
  connectAgent: 'workspaceAgentTools.connectAgent',
  /** Copies the loopback HTTP mode's URL and bearer token as client configuration. */
  copyMcpHttpConfig: 'workspaceAgentTools.copyMcpHttpConfig',
  /** The MCP endpoint's socket, lock file and HTTP address (tests; not in package.json). */
  mcpStatus: 'workspaceAgentTools.mcpStatus',
  /** Stops a background command: the id or view item given, else a quick pick of the running ones: {@link registerBackgroundCommandUi}. */
  stopBackgroundCommand: 'workspaceAgentTools.stopBackgroundCommand',
  /**
   * Types the person's input into a running background command (no policy question: the user types):
   * the id or view item given, else a pick; then the text (Enter pressed after it) and a key, else
   * a quick pick of text and keys: {@link registerBackgroundCommandUi}.
   */
  sendInputToBackgroundCommand: 'workspaceAgentTools.sendInputToBackgroundCommand',
  /** The running background commands (with the prompt each waits on) and the status bar's text, tooltip and warning (tests; not in package.json). */
  listBackgroundCommands: 'workspaceAgentTools.listBackgroundCommands',
  /** The status bar item's text and tooltip, and the guard menu's rows, ignored workspace settings among them (tests; not in package.json). */
  guardStatus: 'workspaceAgentTools.guardStatus',
  /** The Activity view's top rows as shown (label, description, contextValue, icon) (tests; not in package.json). */
  activityViewRows: 'workspaceAgentTools.activityViewRows',
  /** Runs what deactivate runs for commands: every background group ended (tests; not in package.json). */
  stopCommandsAsOnShutdown: 'workspaceAgentTools.stopCommandsAsOnShutdown',
  /**
   * Maps names to addresses in the sandbox proxy's resolver, standing in for public hosts
   * (argument: `{ [name]: address }`). Registered only when the extension runs in test mode
   * (tests; not in package.json).
   */
  mapNetworkNamesForTests: 'workspaceAgentTools.mapNetworkNamesForTests',
  /**
   * Waits until the sandbox's index of secret and protected files has built, then answers each
   * indexed folder's state (`{ folder, state, watched, reason? }[]`). Registered only in test mode
   * (tests; not in package.json).
   */
  sandboxIndexForTests: 'workspaceAgentTools.sandboxIndexForTests',
  /** How long activate() and the work deferred after it took, step by step: {@link ActivationTimings} (bench; not in package.json). */
  activationTimings: 'workspaceAgentTools.activationTimings',
  /**
   * Runs a tool through core alone (arguments: the tool's name, its input, and `'runCall'` to go
   * through runCall's record and checkpoints rather than invokeTool alone), with the context a
   * Language Model Tool call gets, and returns its text parts and the milliseconds core took.
   * Registered only when the extension runs in test mode: the host bench compares it with
   * vscode.lm.invokeTool (tests; not in package.json).
   */
  invokeCoreToolForTests: 'workspaceAgentTools.invokeCoreToolForTests',
  /**
   * The checkpoint store's build for tests: `{ action: 'startHeld' }` starts a build held open until
   * `{ action: 'release' }`; `{ action: 'state' }` answers the build's state and the status bar's
   * text. Registered only in test mode (not in package.json).
   */
  checkpointBuildForTests: 'workspaceAgentTools.checkpointBuildForTests',
  /**
   * Answers the next modal questions of Merge and Discard Held Change (argument: the buttons to
   * press, in order; a missing one is no), as modal dialogs cannot show in tests, and returns the
   * questions asked so far. Registered only in test mode (not in package.json).
   */
  heldQuestionsForTests: 'workspaceAgentTools.heldQuestionsForTests',
  /** Lists the kept runs of windows that are gone into the Activity view again, as at activation; resolves when done (tests; registered only in test mode). */
  recoverHeldChangesForTests: 'workspaceAgentTools.recoverHeldChangesForTests',
} as const;

/** Commands registered but not contributed in package.json: for tests only. */
export const UNLISTED_COMMANDS: readonly string[] = [
  CommandId.lastCommandTerminal,
  CommandId.mcpStatus,
  CommandId.listBackgroundCommands,
  CommandId.activityViewRows,
  CommandId.guardStatus,
  CommandId.stopCommandsAsOnShutdown,
  CommandId.mapNetworkNamesForTests,
  CommandId.sandboxIndexForTests,
  CommandId.activationTimings,
  CommandId.invokeCoreToolForTests,
  CommandId.checkpointBuildForTests,
  CommandId.heldQuestionsForTests,
  CommandId.recoverHeldChangesForTests,
];

/** Context keys the extension sets for `when` clauses. */
export const ContextKey = {
  /** True while a question waits for Approve or Reject. */
  approvalPending: 'workspaceAgentTools.approvalPending',
} as const;

/** Views, status bar items and URI schemes of documents the extension serves. */
export const ViewId = {
  activity: 'workspaceAgentTools.activity',
  statusBarItem: 'workspaceAgentTools.status',
  /** The status bar item that counts running background commands. */
  backgroundStatusBarItem: 'workspaceAgentTools.backgroundCommands',
} as const;

export const UriScheme = {
  /** The read-only sides of a diff review. */
  proposal: 'workspace-agent-tools-proposal',
  /** Tool results opened from the palette. */
  result: 'workspace-agent-tools-result',
  /** Activity records and their recorded diffs. */
  activity: 'workspace-agent-tools-activity',
  /** Files as a checkpoint recorded them, for Show Changes. */
  checkpoint: 'workspace-agent-tools-checkpoint',
} as const;
