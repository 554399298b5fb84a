import * as vscode from 'vscode';
import { MemoryReadLedger } from './core/edit/readLedger';
import { TOOL_SPECS } from './core/tools';
import { PendingApprovals, registerApprovalCommands } from './vscode/approvals';
import { WorkspaceEditApplier } from './vscode/changeApplier';
import { DiffReview } from './vscode/changeReview';
import { ProposedContent } from './vscode/proposedContent';
import { registerTools } from './vscode/toolRegistration';

export function activate(context: vscode.ExtensionContext): void {
  const approvals = new PendingApprovals();
  const proposals = new ProposedContent();
  const changes = new WorkspaceEditApplier(new DiffReview(approvals, proposals));
  const services = { approver: approvals, reads: new MemoryReadLedger(), changes };
  context.subscriptions.push(proposals, approvals, ...registerApprovalCommands(approvals), ...registerTools(TOOL_SPECS, services));
}

export function deactivate(): void {}
