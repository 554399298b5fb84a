import * as vscode from 'vscode';
import { MemoryReadLedger } from './core/edit/readLedger';
import { TOOL_SPECS } from './core/tools';
import { ActivityLog, registerActivityView } from './vscode/activityLog';
import { PendingApprovals, registerApprovalCommands } from './vscode/approvals';
import { GuardStatusBar, registerGuardCommands } from './vscode/statusBar';
import { registerInvokeToolCommand, registerToolCommands, RESULT_SCHEME, ToolResultDocuments } from './vscode/toolPalette';
import { registerTools } from './vscode/toolRegistration';

export function activate(context: vscode.ExtensionContext): void {
  const approvals = new PendingApprovals();
  const activity = new ActivityLog((context.storageUri ?? context.globalStorageUri).fsPath);
  const services = { approver: approvals, reads: new MemoryReadLedger(), activity };
  const resultDocuments = new ToolResultDocuments();
  context.subscriptions.push(
    approvals,
    activity,
    new GuardStatusBar(),
    ...registerGuardCommands(),
    ...registerActivityView(activity),
    ...registerApprovalCommands(approvals),
    ...registerTools(TOOL_SPECS, services),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, resultDocuments),
    registerInvokeToolCommand(TOOL_SPECS, resultDocuments),
    ...registerToolCommands(TOOL_SPECS),
  );
}

export function deactivate(): void {}
