import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { pruneCommandLogs } from './core/process/commandLogs';
import { nodeProcessRunner, stopAllCommands } from './core/process/processRunner';
import { chooseCommandShell } from './core/process/shellChoice';
import { MemoryReadLedger } from './core/changes/readLedger';
import { LocalFirstSearchEngines } from './core/search/engines';
import { TOOLS } from './core/tools';
import { ActivityLog, registerActivityView } from './vscode/activityLog';
import { VsCodeEditorBuffers } from './vscode/editorBuffers';
import { VsCodeFileSystem } from './vscode/fileSystemPort';
import { PendingApprovals, registerApprovalCommands } from './vscode/approvals';
import { WorkspaceEditApplier } from './vscode/changeApplier';
import { DiffReview } from './vscode/changeReview';
import { commandHostFor, CommandTerminals } from './vscode/commandTerminals';
import { ProposedContent } from './vscode/proposedContent';
import { locateRipgrep } from './vscode/ripgrepLocator';
import { GuardStatusBar, registerGuardCommands } from './vscode/statusBar';
import { registerInvokeToolCommand, registerToolCommands, RESULT_SCHEME, ToolResultDocuments } from './vscode/toolPalette';
import { registerTools } from './vscode/toolRegistration';

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
  const commands = commandHostFor(terminals, chooseCommandShell(vscode.env.shell, existsSync), logDirectory, nodeProcessRunner);
  const proposals = new ProposedContent();
  const fs = new VsCodeFileSystem();
  const services = {
    host: { fs, buffers: new VsCodeEditorBuffers(), clock: { now: () => Date.now() }, search: new LocalFirstSearchEngines(fs, locateRipgrep(context.extensionPath)) },
    commands,
    session: { approver: approvals, reads: new MemoryReadLedger(), changes: { reviewer: new DiffReview(approvals, proposals), writer: new WorkspaceEditApplier() } },
    activity,
  };
  const resultDocuments = new ToolResultDocuments();
  context.subscriptions.push(
    proposals,
    approvals,
    activity,
    terminals,
    new GuardStatusBar(),
    ...registerGuardCommands(),
    ...registerActivityView(activity),
    // Not in the palette: lets integration tests see what the last command terminal showed.
    vscode.commands.registerCommand('workspaceAgentTools.lastCommandTerminal', () => terminals.lastTranscript()),
    ...registerApprovalCommands(approvals),
    ...registerTools(TOOLS, services),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, resultDocuments),
    registerInvokeToolCommand(TOOLS, resultDocuments),
    ...registerToolCommands(TOOLS),
  );
}

/** Commands still running must not outlive the extension host. */
export function deactivate(): Promise<void> {
  return stopAllCommands(500);
}
