// activate(): build the host's services once, register the tools, the commands and the views.
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MemoryReadLedger } from './core/changes/readLedger';
import { GitCheckpointStore } from './core/checkpoints/gitCheckpointStore';
import { pruneCommandLogs } from './core/process/commandLogs';
import { nodeProcessRunner, stopAllCommands } from './core/process/processRunner';
import { chooseCommandShell } from './core/process/shellChoice';
import { MachineSandbox } from './core/sandbox/machineSandbox';
import { LocalFirstSearchEngines } from './core/search/engines';
import { TOOLS } from './core/tools';
import { DiffReview } from './vscode/changes/diffReview';
import { ProposedContent } from './vscode/changes/proposedContent';
import { WorkspaceEditApplier } from './vscode/changes/workspaceEditApplier';
import { CommandId, UriScheme } from './vscode/commandIds';
import { commandHostFor, CommandTerminals } from './vscode/host/commandTerminals';
import { VsCodeEditorBuffers } from './vscode/host/editorBuffers';
import { locateRipgrep } from './vscode/host/ripgrepLocator';
import { VsCodeFileSystem } from './vscode/host/vscodeFileSystem';
import { registerCheckpointCommands } from './vscode/tools/checkpointCommands';
import { registerInvokeToolCommand } from './vscode/tools/invokeToolCommand';
import { registerToolCommands } from './vscode/tools/palette';
import { registerTools, type ToolServices } from './vscode/tools/registration';
import { ToolResultDocuments } from './vscode/tools/resultDocuments';
import { ActivityLog } from './vscode/ui/activityLog';
import { registerActivityView } from './vscode/ui/activityView';
import { PendingApprovals, registerApprovalCommands } from './vscode/ui/approvals';
import { GuardStatusBar, registerGuardCommands } from './vscode/ui/guardControls';

const KEPT_COMMAND_LOGS = 200;

/** The extension's storage on the extension host's disk: the activity log and full command logs go there. */
function storageDirectory(context: vscode.ExtensionContext): string {
  const storage = [context.storageUri, context.globalStorageUri].find((uri) => uri?.scheme === 'file');
  return storage?.fsPath ?? path.join(os.tmpdir(), 'workspace-agent-tools');
}

export function activate(context: vscode.ExtensionContext): void {
  const approvals = new PendingApprovals();
  const activity = new ActivityLog(storageDirectory(context));
  const terminals = new CommandTerminals();
  const logDirectory = path.join(storageDirectory(context), 'command-logs');
  pruneCommandLogs(logDirectory, KEPT_COMMAND_LOGS);
  const proposals = new ProposedContent();
  const fs = new VsCodeFileSystem();
  const ripgrepPath = locateRipgrep(context.extensionPath);
  const sandbox = new MachineSandbox(ripgrepPath);
  const checkpoints = new GitCheckpointStore(path.join(storageDirectory(context), 'checkpoints'));
  const services: ToolServices = {
    host: { fs, buffers: new VsCodeEditorBuffers(), clock: { now: () => Date.now() }, search: new LocalFirstSearchEngines(fs, ripgrepPath) },
    commands: commandHostFor(terminals, chooseCommandShell(vscode.env.shell, existsSync), logDirectory, nodeProcessRunner, sandbox),
    session: { approver: approvals, reads: new MemoryReadLedger(), changes: { reviewer: new DiffReview(approvals, proposals), writer: new WorkspaceEditApplier() } },
    activity,
    checkpoints,
  };
  const resultDocuments = new ToolResultDocuments();
  context.subscriptions.push(
    proposals,
    approvals,
    activity,
    terminals,
    sandbox,
    new GuardStatusBar(),
    ...registerGuardCommands(),
    ...registerActivityView(activity),
    // Not in the palette: lets integration tests see what the last command terminal showed.
    vscode.commands.registerCommand(CommandId.lastCommandTerminal, () => terminals.lastTranscript()),
    ...registerApprovalCommands(approvals),
    ...registerTools(TOOLS, services),
    ...registerCheckpointCommands(checkpoints, activity, approvals),
    vscode.workspace.registerTextDocumentContentProvider(UriScheme.result, resultDocuments),
    registerInvokeToolCommand(TOOLS, resultDocuments),
    ...registerToolCommands(TOOLS),
  );
}

/** Commands still running must not outlive the extension host. */
export function deactivate(): Promise<void> {
  return stopAllCommands(500);
}
