// Restore to Before This Call and Show Changes, for any activity record with a checkpoint. A restore
// is the user's own action: it previews what it will change, asks through the approval queue
// (workspaceAgentTools.approve answers it), writes through restoreFiles, and is recorded in the
// activity log with its own checkpoints, so it can be undone the same way.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../core/activity/activityRecord';
import { CallCheckpoints, checkpointFolders, checkpointLimits } from '../../core/checkpoints/callCheckpoint';
import type { CheckpointStore, RestoreStep } from '../../core/ports/checkpoints';
import type { BackgroundCommands } from '../../core/ports/process';
import { commandLabel } from '../../core/process/backgroundCommands';
import { decodeText, looksBinary } from '../../core/text/encoding';
import { applyRestore, dirtyDocuments } from '../changes/restoreFiles';
import { CommandId, UriScheme } from '../commandIds';
import { readToolSettings, readWorkspaceInfo } from '../host/settings';
import type { ActivityLog } from '../ui/activityLog';
import type { PendingApprovals } from '../ui/approvals';
import { checkpointFields } from './registration';

/** What a restore did, for the command's caller (tests, other extensions). */
export interface RestoreOutcome {
  /** The activity record of the restore itself (undo it by restoring this one), absent when nothing was asked. */
  readonly activityId?: number;
  readonly restored: boolean;
  /** Paths written back and paths deleted. */
  readonly written: readonly string[];
  readonly deleted: readonly string[];
  readonly problems: readonly string[];
  readonly message: string;
}

const PREVIEW_LINES = 25;

/** The record an argument names: an activity id, a record, or a tree item carrying one. */
function recordOf(log: ActivityLog, argument: unknown): ActivityRecord | undefined {
  const id = typeof argument === 'number' ? argument : typeof argument === 'string' ? Number(argument) : (argument as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' || typeof id === 'string' ? log.get(Number(id)) : undefined;
}

function describeStep(step: RestoreStep): string {
  if (step.action === 'delete') {
    return `delete ${step.path} (created since)`;
  }
  return `restore ${step.path}${step.entry?.type === 'symlink' ? ' (symlink)' : ''}`;
}

/** The question's text: what the restore will change, the unsaved text it drops, what it cannot restore. */
function preview(steps: readonly RestoreStep[], dirty: readonly string[], notes: readonly string[]): string {
  const lines = steps.slice(0, PREVIEW_LINES).map(describeStep);
  if (steps.length > PREVIEW_LINES) {
    lines.push(`and ${steps.length - PREVIEW_LINES} more`);
  }
  const parts = [`It will change ${steps.length} file(s): ${lines.join('; ')}.`];
  if (dirty.length) {
    parts.push(`Unsaved text in ${dirty.join(', ')} will be replaced.`);
  }
  if (notes.length) {
    parts.push(`Not recorded, so left as they are: ${notes.join(' ')}`);
  }
  return parts.join(' ');
}

export class CheckpointCommands {
  constructor(
    private readonly store: CheckpointStore,
    private readonly log: ActivityLog,
    private readonly approvals: PendingApprovals,
    private readonly background?: Pick<BackgroundCommands, 'running'>,
  ) {}

  /**
   * Why a restore cannot run now: a background command could change the files while the restore
   * writes them (swap a folder for a link between the check and the write, and the restore would
   * write outside the workspace).
   */
  private busy(): string | undefined {
    const running = this.background?.running() ?? [];
    if (running.length === 0) {
      return undefined;
    }
    const listed = running.map(commandLabel).join(', ');
    return `Background commands are running: ${listed}. They could change files while the restore writes them; stop them first (Workspace Agent Tools: Stop Background Command...), then restore. Nothing was changed.`;
  }

  /** Restores the workspace folders to before the call `argument` names. */
  async restore(argument: unknown): Promise<RestoreOutcome> {
    if (argument === undefined) {
      // From the palette: pick one of the calls that have a checkpoint.
      const picked = await vscode.window.showQuickPick(
        this.log.list().filter((candidate) => candidate.checkpoint).map((candidate) => ({ label: `${candidate.id}: ${candidate.tool.replace(/^workspace_/, '')}`, description: candidate.input, detail: `${candidate.startedAt} · ${candidate.changedPaths.length} file(s) changed`, id: candidate.id })),
        { placeHolder: 'Restore the workspace to before which call?' },
      );
      if (!picked) {
        return { restored: false, written: [], deleted: [], problems: [], message: 'No call was picked.' };
      }
      argument = picked.id;
    }
    const record = recordOf(this.log, argument);
    const refuse = (message: string): RestoreOutcome => {
      void vscode.window.showWarningMessage(message);
      return { restored: false, written: [], deleted: [], problems: [], message };
    };
    const busy = this.busy();
    if (busy) {
      return refuse(busy);
    }
    if (!record) {
      return refuse(`There is no activity record ${String((argument as { id?: unknown } | undefined)?.id ?? argument)} to restore to.`);
    }
    const target = record.checkpoint && this.store.get(record.checkpoint.before);
    if (!target) {
      return refuse(record.checkpoint ? `The checkpoint before call ${record.id} was pruned from the store; it can no longer be restored.` : `Call ${record.id} (${record.tool}) has no checkpoint: it changed no files, or checkpoints were off.`);
    }
    const settings = readToolSettings();
    const workspace = readWorkspaceInfo();
    const folders = checkpointFolders(workspace.folders).filter((folder) => target.folders.some((part) => part.folder === folder));
    const started = Date.now();
    const call = new CallCheckpoints(this.store, folders, checkpointLimits(settings));
    await call.beforeChange();
    const currentId = await call.beforeId();
    const current = currentId ? this.store.get(currentId) : undefined;
    if (!current) {
      return refuse(`The workspace could not be recorded before restoring, so nothing was restored: ${call.currentNotes().join(' ')}`);
    }
    const steps = await this.store.restoreSteps(target, current);
    if (steps.length === 0) {
      const message = `The files are already as they were before call ${record.id}; nothing to restore.`;
      void vscode.window.showInformationMessage(message);
      return { restored: true, written: [], deleted: [], problems: [], message };
    }
    const dirty = dirtyDocuments(steps).map(({ step }) => step.path);
    const title = `Restore the workspace to before call ${record.id} (${record.tool.replace(/^workspace_/, '')})?`;
    const approved = await this.approvals.confirm({ kind: 'restore', title, detail: preview(steps, dirty, target.notes) }, new vscode.CancellationTokenSource().token);
    const base = { startedAt: new Date(started).toISOString(), tool: 'restoreCheckpoint', input: JSON.stringify({ activityId: record.id }), verdicts: [], redactions: [] };
    if (!approved) {
      const message = `The restore to before call ${record.id} was declined; nothing was changed.`;
      const id = this.log.newId();
      this.log.add({ ...base, id, approvals: [{ kind: 'restore', title, allowed: false }], durationMs: Date.now() - started, outcome: 'error', resultChars: 0, error: message, changedPaths: [] }, { activityId: record.id });
      return { activityId: id, restored: false, written: [], deleted: [], problems: [], message };
    }
    // A command may have been started while the question was open.
    const busyNow = this.busy();
    if (busyNow) {
      return refuse(busyNow);
    }
    const problems = await applyRestore(steps);
    const outcome = await call.finishNow();
    const written = steps.filter((step) => step.action === 'write').map((step) => step.path);
    const deleted = steps.filter((step) => step.action === 'delete').map((step) => step.path);
    const message = problems.length
      ? `Restored to before call ${record.id}, except: ${problems.join('; ')}`
      : `Restored ${written.length} file(s) and deleted ${deleted.length} to before call ${record.id}.`;
    const id = this.log.newId();
    this.log.add(
      {
        ...base,
        id,
        approvals: [{ kind: 'restore', title, allowed: true }],
        durationMs: Date.now() - started,
        outcome: problems.length ? 'error' : 'ok',
        resultChars: 0,
        ...(problems.length ? { error: message } : {}),
        changedPaths: [],
        ...(outcome ? checkpointFields(outcome, { workspace }) : {}),
      },
      { activityId: record.id },
    );
    void vscode.window.showInformationMessage(message);
    return { activityId: id, restored: problems.length === 0, written, deleted, problems, message };
  }

  /** Opens the diff of one file a call changed, picked from its list when the call changed several. */
  async showChanges(argument: unknown, index?: number): Promise<void> {
    const record = recordOf(this.log, argument);
    const changed = record?.changedPaths ?? [];
    if (!record?.checkpoint?.after || changed.length === 0) {
      await vscode.commands.executeCommand(CommandId.openActivity, record);
      return;
    }
    let chosen = index;
    if (chosen === undefined) {
      const picked = changed.length === 1 ? { index: 0 } : await vscode.window.showQuickPick(changed.map((file, i) => ({ label: file.path, description: `${file.kind}${file.added !== undefined ? ` +${file.added} -${file.deleted}` : ''}`, index: i })), { placeHolder: 'Which file of this call?' });
      if (!picked) {
        return;
      }
      chosen = picked.index;
    }
    const file = changed[chosen];
    const side = (checkpoint: string) => vscode.Uri.from({ scheme: UriScheme.checkpoint, path: `/${checkpoint}/${file.path}`, query: `record=${record.id}&index=${chosen}` });
    await vscode.commands.executeCommand('vscode.diff', side(record.checkpoint.before), side(record.checkpoint.after), `${file.path} (call ${record.id}: before ↔ after)`);
  }

  /** The text of a file as a checkpoint recorded it (empty when it was not there). */
  async content(uri: vscode.Uri): Promise<string> {
    const checkpointId = uri.path.split('/')[1];
    const params = new URLSearchParams(uri.query);
    const record = this.log.get(Number(params.get('record')));
    const file = record?.changedPaths[Number(params.get('index'))];
    const checkpoint = this.store.get(checkpointId);
    if (!file || !checkpoint) {
      return '';
    }
    const workspace = readWorkspaceInfo();
    const multi = workspace.folders.length > 1;
    for (const part of checkpoint.folders) {
      const name = workspace.folders.find((folder) => folder.location.path === part.folder)?.name ?? path.basename(part.folder);
      const relative = multi ? (file.path.startsWith(`${name}/`) ? file.path.slice(name.length + 1) : undefined) : file.path;
      if (relative === undefined) {
        continue;
      }
      const entry = await this.store.entry(checkpoint, part.folder, Buffer.from(relative, 'utf8'));
      if (entry) {
        const bytes = await entry.read();
        return entry.type === 'symlink' ? `symlink to ${Buffer.from(bytes).toString('utf8')}` : looksBinary(bytes.subarray(0, 8000)) ? `(binary file, ${bytes.length} bytes)` : decodeText(bytes).text;
      }
    }
    return '';
  }
}

export function registerCheckpointCommands(store: CheckpointStore, log: ActivityLog, approvals: PendingApprovals, background?: BackgroundCommands): vscode.Disposable[] {
  const commands = new CheckpointCommands(store, log, approvals, background);
  const changed = new vscode.EventEmitter<vscode.Uri>();
  return [
    changed,
    vscode.commands.registerCommand(CommandId.restoreCheckpoint, (argument: unknown) => commands.restore(argument)),
    vscode.commands.registerCommand(CommandId.showCheckpointChanges, (argument: unknown, index?: unknown) => commands.showChanges(argument, typeof index === 'number' ? index : undefined)),
    vscode.workspace.registerTextDocumentContentProvider(UriScheme.checkpoint, { onDidChange: changed.event, provideTextDocumentContent: (uri) => commands.content(uri) }),
  ];
}
