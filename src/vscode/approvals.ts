import * as vscode from 'vscode';
import type { ApprovalRequest, Approver, CancellationSignal } from '../core/ports';

const PENDING_CONTEXT_KEY = 'workspaceAgentTools.approvalPending';

interface Pending {
  readonly id: number;
  readonly request: ApprovalRequest;
  settle(allowed: boolean): void;
}

/**
 * The one queue of questions waiting for the user. A question is answered by its notification's
 * buttons, or by the commands workspaceAgentTools.approve / .reject (keyboard, palette, tests),
 * which answer the oldest pending one. Cancelling the tool call answers no.
 */
export class PendingApprovals implements Approver, vscode.Disposable {
  private readonly pending: Pending[] = [];
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a question is added or answered. */
  readonly onDidChange = this.changed.event;

  confirm(request: ApprovalRequest, token: CancellationSignal): Promise<boolean> {
    if (token.isCancellationRequested) {
      return Promise.resolve(false);
    }
    return new Promise<boolean>((resolve) => {
      let done = false;
      const cancellation = token.onCancellationRequested(() => entry.settle(false));
      const entry: Pending = {
        id: this.nextId++,
        request,
        settle: (allowed) => {
          if (done) {
            return;
          }
          done = true;
          cancellation.dispose();
          this.remove(entry.id);
          resolve(allowed);
        },
      };
      this.pending.push(entry);
      this.update();
      this.notify(entry);
    });
  }

  /** The questions waiting, oldest first. */
  list(): readonly ApprovalRequest[] {
    return this.pending.map((entry) => entry.request);
  }

  /** Answers the oldest question; false when none was waiting. */
  answerOldest(allowed: boolean): boolean {
    const oldest = this.pending[0];
    if (!oldest) {
      return false;
    }
    oldest.settle(allowed);
    return true;
  }

  dispose(): void {
    for (const entry of [...this.pending]) {
      entry.settle(false);
    }
    this.changed.dispose();
  }

  private notify(entry: Pending): void {
    const { request } = entry;
    const message = request.rule ? `Workspace Agent Tools, rule ${request.rule}: ${request.detail}` : `Workspace Agent Tools: ${request.title}. ${request.detail}`;
    const allow = request.kind === 'guard' ? 'Allow' : 'Accept';
    const deny = request.kind === 'guard' ? 'Deny' : 'Reject';
    void vscode.window.showWarningMessage(message, allow, deny).then((choice) => {
      if (choice === allow) {
        entry.settle(true);
      } else if (choice === deny) {
        entry.settle(false);
      }
    });
  }

  private remove(id: number): void {
    const index = this.pending.findIndex((entry) => entry.id === id);
    if (index !== -1) {
      this.pending.splice(index, 1);
      this.update();
    }
  }

  private update(): void {
    void vscode.commands.executeCommand('setContext', PENDING_CONTEXT_KEY, this.pending.length > 0);
    this.changed.fire();
  }
}

/** The approve and reject commands; each returns whether it answered a waiting question. */
export function registerApprovalCommands(approvals: PendingApprovals): vscode.Disposable[] {
  const answer = (allowed: boolean) => (): boolean => {
    const answered = approvals.answerOldest(allowed);
    if (!answered) {
      void vscode.window.setStatusBarMessage('Workspace Agent Tools: nothing is waiting for approval.', 3000);
    }
    return answered;
  };
  return [
    vscode.commands.registerCommand('workspaceAgentTools.approve', answer(true)),
    vscode.commands.registerCommand('workspaceAgentTools.reject', answer(false)),
    vscode.commands.registerCommand('workspaceAgentTools.listPendingApprovals', () => approvals.list()),
  ];
}
