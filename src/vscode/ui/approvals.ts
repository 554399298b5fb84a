// The one queue of questions the tools put to the user, and the commands that answer them.
import * as vscode from 'vscode';
import type { CancellationSignal } from '../../core/errors';
import type { ApprovalAnswer, ApprovalRequest, Approver, ChoiceRequest } from '../../core/ports/approval';
import { CommandId, ContextKey } from '../commandIds';
import { registerAllowRulesCommand, saveAllowedDomains, saveAllowedLocalPorts, saveAllowRules } from './allowRules';

/** The button of a command's question that saves its allow rules (see ApprovalRequest.allowRules). */
const ALWAYS_ALLOW = 'Always Allow...';

interface Pending {
  readonly id: number;
  /** The question; its `caller` (an MCP client) is named in the notification. */
  readonly request: ApprovalRequest | ChoiceRequest;
  readonly presenter?: ApprovalPresenter;
  settle(answer: ApprovalAnswer): void;
}

/**
 * Shows a pending question somewhere richer than a notification, such as a diff editor. The
 * notification still offers Accept and Reject (plus the presenter's actions); what `show` opens is
 * closed when the question is answered, whichever way.
 */
export interface ApprovalPresenter {
  show(): Promise<vscode.Disposable>;
  /** Extra notification buttons, e.g. to open another file's diff; the notification comes back after one. */
  readonly actions?: readonly { readonly label: string; run(): void }[];
  /** True when a URI (e.g. the diff editor whose title-bar button was pressed) belongs to this question. */
  owns?(uri: vscode.Uri): boolean;
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

  confirm(request: ApprovalRequest, token: CancellationSignal, presenter?: ApprovalPresenter): Promise<boolean> {
    return this.ask(request, token, presenter).then((answer) => answer === 'accept');
  }

  /** A question with a third answer (request.alternative); approve answers 'accept', reject 'reject'. */
  choose(request: ChoiceRequest, token: CancellationSignal): Promise<ApprovalAnswer> {
    return this.ask(request, token);
  }

  private ask(request: ApprovalRequest | ChoiceRequest, token: CancellationSignal, presenter?: ApprovalPresenter): Promise<ApprovalAnswer> {
    if (token.isCancellationRequested) {
      return Promise.resolve('reject');
    }
    return new Promise<ApprovalAnswer>((resolve) => {
      let done = false;
      let shown: vscode.Disposable | undefined;
      const cancellation = token.onCancellationRequested(() => entry.settle('reject'));
      const entry: Pending = {
        id: this.nextId++,
        request,
        presenter,
        settle: (answer) => {
          if (done) {
            return;
          }
          done = true;
          cancellation.dispose();
          shown?.dispose();
          this.remove(entry.id);
          resolve(answer);
        },
      };
      this.pending.push(entry);
      this.update();
      this.notify(entry);
      if (presenter) {
        presenter.show().then(
          (disposable) => (done ? disposable.dispose() : (shown = disposable)),
          () => undefined,
        );
      }
    });
  }

  /** Answers the question a URI belongs to (see ApprovalPresenter.owns); false when none claims it. */
  answerFor(uri: vscode.Uri, allowed: boolean): boolean {
    const owner = this.pending.find((entry) => entry.presenter?.owns?.(uri));
    if (!owner) {
      return false;
    }
    owner.settle(allowed ? 'accept' : 'reject');
    return true;
  }

  /** The questions waiting, oldest first, with the MCP client asking where there is one (`caller`). */
  list(): readonly ApprovalRequest[] {
    return this.pending.map((entry) => entry.request);
  }

  /**
   * Answers the oldest question that offers allow rules with yes, after saving them to user
   * settings (the dialog shows them first unless `rules` names exactly the question's own). False
   * when none offers rules, or the person did not save them.
   */
  async answerOldestAlways(rules?: readonly string[]): Promise<boolean> {
    const entry = this.pending.find((candidate) => offersAlways(candidate.request));
    if (!entry) {
      return false;
    }
    const offered = alwaysEntries(entry.request);
    const named = rules !== undefined && rules.length === offered.length && rules.every((rule, index) => rule === offered[index]);
    if (!(await saveAlways(entry.request, named)) || !this.pending.includes(entry)) {
      return false;
    }
    entry.settle('accept');
    return true;
  }

  /** Answers the oldest question; false when none was waiting, or when it has no such answer. */
  answerOldest(answer: ApprovalAnswer): boolean {
    const oldest = this.pending[0];
    if (!oldest || (answer === 'alternative' && !('alternative' in oldest.request))) {
      return false;
    }
    oldest.settle(answer);
    return true;
  }

  dispose(): void {
    for (const entry of [...this.pending]) {
      entry.settle('reject');
    }
    this.changed.dispose();
  }

  private notify(entry: Pending): void {
    const { request } = entry;
    const asked = request.rule ? `Workspace Agent Tools, rule ${request.rule}: ${request.detail}` : `Workspace Agent Tools: ${request.title}. ${request.detail}`;
    const message = request.caller ? `Workspace Agent Tools: ${request.caller} wants to ${request.title}${request.rule ? ` (rule ${request.rule})` : ''}. ${request.detail}` : asked;
    const allow = request.kind === 'guard' ? 'Allow' : request.kind === 'network' ? 'Allow for This Command' : 'Accept';
    const deny = request.kind === 'guard' || request.kind === 'network' ? 'Deny' : 'Reject';
    const alternative = 'alternative' in request ? [request.alternative] : [];
    const actions = entry.presenter?.actions ?? [];
    const always = offersAlways(request) ? [ALWAYS_ALLOW] : [];
    void vscode.window.showWarningMessage(message, allow, deny, ...alternative, ...always, ...actions.map((action) => action.label)).then(async (choice) => {
      if (choice === allow) {
        entry.settle('accept');
      } else if (choice === ALWAYS_ALLOW && offersAlways(request)) {
        // Saved: yes to this question too. Not saved: the question comes back.
        if (await saveAlways(request)) {
          entry.settle('accept');
        } else if (this.pending.includes(entry)) {
          this.notify(entry);
        }
      } else if (choice === deny) {
        entry.settle('reject');
      } else if (choice !== undefined && alternative.includes(choice)) {
        entry.settle('alternative');
      } else {
        const action = actions.find((candidate) => candidate.label === choice);
        if (action && this.pending.includes(entry)) {
          action.run();
          this.notify(entry);
        }
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
    void vscode.commands.executeCommand('setContext', ContextKey.approvalPending, this.pending.length > 0);
    this.changed.fire();
  }
}

/** Whether a question offers "Always Allow": it names the rules, domains or ports that would stop it. */
function offersAlways(request: ApprovalRequest): boolean {
  return Boolean(request.allowRules?.length || request.allowDomains?.length || request.allowLocalPorts?.length);
}

/** What "Always Allow" saves, as text (a test's answerOldestAlways names them so). */
function alwaysEntries(request: ApprovalRequest): readonly string[] {
  return request.allowLocalPorts?.map(String) ?? request.allowDomains ?? request.allowRules ?? [];
}

/** Saves what the question offers to the user setting it belongs to (after the dialog unless `shown`). */
function saveAlways(request: ApprovalRequest, shown = false): Promise<boolean> {
  if (request.allowLocalPorts?.length) {
    return saveAllowedLocalPorts(request.allowLocalPorts, shown);
  }
  return request.allowDomains ? saveAllowedDomains(request.allowDomains, shown) : saveAllowRules(request.allowRules ?? [], shown);
}

/** The approve and reject commands; each returns whether it answered a waiting question. */
export function registerApprovalCommands(approvals: PendingApprovals): vscode.Disposable[] {
  // From an editor's title bar the command receives that editor's URI: answer the question it shows,
  // and none other (a diff whose question is already answered must not answer some other question).
  const answer = (choice: ApprovalAnswer) => (target?: unknown): boolean => {
    const answered = target instanceof vscode.Uri && choice !== 'alternative' ? approvals.answerFor(target, choice === 'accept') : approvals.answerOldest(choice);
    if (!answered) {
      void vscode.window.setStatusBarMessage('Workspace Agent Tools: nothing is waiting for approval.', 3000);
    }
    return answered;
  };
  return [
    vscode.commands.registerCommand(CommandId.approve, answer('accept')),
    vscode.commands.registerCommand(CommandId.reject, answer('reject')),
    vscode.commands.registerCommand(CommandId.approveAlternative, answer('alternative')),
    vscode.commands.registerCommand(CommandId.approveAlways, async (rules?: unknown) => {
      const named = Array.isArray(rules) ? rules.filter((rule): rule is string => typeof rule === 'string') : undefined;
      const answered = await approvals.answerOldestAlways(named);
      if (!answered) {
        void vscode.window.setStatusBarMessage('Workspace Agent Tools: no question waiting offers Always Allow.', 3000);
      }
      return answered;
    }),
    registerAllowRulesCommand(CommandId.saveAllowRules),
    vscode.commands.registerCommand(CommandId.listPendingApprovals, () => approvals.list()),
  ];
}
