// Restore to Before This Call and Show Changes, for any activity record with a checkpoint. The
// restore itself (busy check, the restore's own checkpoints, the question through the approval
// queue, the write through restoreFiles, its activity record) is core/calls/restore.ts; here are
// the palette's QuickPick, the messages, and the checkpoint documents Show Changes opens.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../core/activity/activityRecord';
import { restoreToBefore, type RestoreOutcome } from '../../core/calls/restore';
import { checkpointFolder, checkpointLimits } from '../../core/checkpoints/callCheckpoint';
import type { CheckpointStore } from '../../core/ports/checkpoints';
import type { BackgroundCommands } from '../../core/ports/process';
import { decodeText, looksBinary } from '../../core/text/encoding';
import { systemClock } from '../../core/time';
import { restoreWriter } from '../changes/restoreFiles';
import { CommandId, UriScheme } from '../commandIds';
import { readToolSettings, readWorkspaceInfo } from '../host/settings';
import type { ActivityLog } from '../ui/activityLog';
import type { PendingApprovals } from '../ui/approvals';

/** The record an argument names: an activity id, a record, or a tree item carrying one. */
function recordOf(log: ActivityLog, argument: unknown): ActivityRecord | undefined {
  const id = typeof argument === 'number' ? argument : typeof argument === 'string' ? Number(argument) : (argument as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' || typeof id === 'string' ? log.get(Number(id)) : undefined;
}

export class CheckpointCommands {
  constructor(
    private readonly store: CheckpointStore,
    private readonly log: ActivityLog,
    private readonly approvals: PendingApprovals,
    private readonly background?: Pick<BackgroundCommands, 'running'>,
  ) {}

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
    const named = String((argument as { id?: unknown } | undefined)?.id ?? argument);
    const services = { store: this.store, activity: this.log, approver: this.approvals, writer: restoreWriter, clock: systemClock, background: this.background };
    const { folders, platform } = readWorkspaceInfo();
    const workspace = { folders, platform, limits: checkpointLimits(readToolSettings()) };
    const { outcome, notice } = await restoreToBefore(recordOf(this.log, argument), named, services, workspace);
    if (notice === 'warning') {
      void vscode.window.showWarningMessage(outcome.message);
    } else if (notice === 'information') {
      void vscode.window.showInformationMessage(outcome.message);
    }
    return outcome;
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
      const name = workspace.folders.find((folder) => checkpointFolder(folder, workspace.platform) === part.folder)?.name ?? path.basename(part.folder);
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
