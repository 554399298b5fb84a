import * as vscode from 'vscode';
import { MemoryReadLedger } from './core/edit/readLedger';
import { TOOL_SPECS } from './core/tools';
import { PendingApprovals, registerApprovalCommands } from './vscode/approvals';
import { locateRipgrep } from './vscode/ripgrepLocator';
import { registerInvokeToolCommand, RESULT_SCHEME, ToolResultDocuments } from './vscode/toolPalette';
import { registerTools } from './vscode/toolRegistration';

export function activate(context: vscode.ExtensionContext): void {
  const approvals = new PendingApprovals();
  const services = { approver: approvals, reads: new MemoryReadLedger(), ripgrepPath: locateRipgrep(context.extensionPath) };
  const resultDocuments = new ToolResultDocuments();
  context.subscriptions.push(
    approvals,
    ...registerApprovalCommands(approvals),
    ...registerTools(TOOL_SPECS, services),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, resultDocuments),
    registerInvokeToolCommand(TOOL_SPECS, resultDocuments),
  );
}

export function deactivate(): void {}
