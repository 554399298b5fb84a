import * as vscode from 'vscode';
import type { CancellationSignal } from '../../core/errors';
import type { ApprovalRequest } from '../../core/ports/approval';
import type { ChangePlan, ChangeReviewer, PlannedFileChange } from '../../core/ports/changes';
import type { ApprovalPresenter, PendingApprovals } from '../ui/approvals';
import { ProposedContent } from './proposedContent';

function changeLabel(file: PlannedFileChange): string {
  if (file.kind === 'create') {
    return `${file.shownPath} (new file)`;
  }
  if (file.kind === 'delete') {
    return `${file.shownPath} (delete)`;
  }
  return file.shownMoveTo ? `${file.shownPath} → ${file.shownMoveTo}` : file.shownPath;
}

function letter(file: PlannedFileChange): string {
  return file.kind === 'create' ? 'A' : file.kind === 'delete' ? 'D' : 'M';
}

/**
 * Reviews a plan in VS Code's native diff editor: the current text (the editor's unsaved text when
 * there is some) on the left, the proposal on the right, both read-only. Accept and Reject sit in
 * the diff editor's title bar and in a notification; a multi-file change is one question whose
 * other diffs open from the notification.
 */
export class DiffReview implements ChangeReviewer {
  constructor(
    private readonly approvals: PendingApprovals,
    private readonly content: ProposedContent,
  ) {}

  async review(plan: ChangePlan, token: CancellationSignal): Promise<boolean> {
    const reviewId = this.content.newReviewId();
    // An agent outside chat is named in the diff's title too, so the user knows whose change it is.
    const toolLabel = plan.tool.displayName;
    const caller = plan.caller;
    const diffLabel = caller ? `${caller}, ${toolLabel}` : toolLabel;
    const diffs = plan.files.map((file) => ({
      file,
      left: this.content.add(reviewId, 'current', file.shownPath, file.before?.text ?? ''),
      right: this.content.add(reviewId, 'proposed', file.shownMoveTo ?? file.shownPath, file.after?.text ?? ''),
      title: `${diffLabel}: ${changeLabel(file)} (current ↔ proposed)`,
    }));
    const open = async (index: number): Promise<void> => {
      const diff = diffs[index];
      await vscode.commands.executeCommand('vscode.diff', diff.left, diff.right, diff.title, { preview: false });
    };
    const pickAndOpen = async (): Promise<void> => {
      const picked = await vscode.window.showQuickPick(
        diffs.map((diff, index) => ({ label: `${letter(diff.file)} ${changeLabel(diff.file)}`, index })),
        { title: `${diffLabel}: files of this change`, placeHolder: 'Open the diff of a file' },
      );
      if (picked) {
        await open(picked.index);
      }
    };
    const presenter: ApprovalPresenter = {
      show: async () => {
        await open(0);
        return new vscode.Disposable(() => {
          void closeReviewTabs(reviewId).finally(() => this.content.forget(diffs.flatMap((diff) => [diff.left, diff.right])));
        });
      },
      actions: diffs.length > 1 ? [{ label: 'Show Files…', run: () => void pickAndOpen() }] : [],
      owns: (uri) => ProposedContent.reviewOf(uri) === reviewId,
    };
    const warnings = plan.files.flatMap((file) => (file.alwaysAsk ? [`${file.shownPath}: ${file.alwaysAsk}`] : []));
    const listing = diffs.length > 1 ? ` Files: ${diffs.map((diff) => `${letter(diff.file)} ${changeLabel(diff.file)}`).join(', ')}.` : '';
    const request: ApprovalRequest = {
      kind: 'change',
      title: `${toolLabel}: ${plan.summary}`,
      detail: `Review the diff, then Accept to write it or Reject to leave ${diffs.length > 1 ? 'the files' : 'the file'} unchanged.${listing}${warnings.length ? ` Note: ${warnings.join(' ')}` : ''}`,
      rule: undefined,
      path: plan.files[0]?.shownPath,
      ...(caller ? { caller } : {}),
    };
    return this.approvals.confirm(request, token, presenter);
  }
}

/** Closes every diff tab of one review (also Connect an Agent's). */
export async function closeReviewTabs(reviewId: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => {
    const input = tab.input;
    return input instanceof vscode.TabInputTextDiff && ProposedContent.reviewOf(input.modified) === reviewId;
  });
  if (tabs.length > 0) {
    await vscode.window.tabGroups.close(tabs, true);
  }
}
