// Restore to Before This Call: the user's own action on an activity record with a checkpoint. It
// refuses while background commands run, records the files as they are now, previews the steps and
// asks through the approver, writes through the RestoreWriter port, and is recorded in the activity
// log with its own checkpoints, so it can be undone the same way. The host picks the record and
// shows the message (vscode/tools/checkpointCommands.ts).
import type { ActivityRecord, ActivityRecorder } from '../activity/activityRecord';
import type { CheckpointWorkspace } from '../checkpoints/callCheckpoint';
import { planRestore } from '../checkpoints/restore';
import { NEVER_CANCELLED } from '../errors';
import type { Approver } from '../ports/approval';
import type { CheckpointLimits, CheckpointStore, RestoreWriter } from '../ports/checkpoints';
import type { Clock } from '../ports/clock';
import type { BackgroundCommand } from '../ports/process';
import { commandLabel } from '../process/backgroundCommands';
import { buildActivityRecord, checkpointFields } from './activityRecordBuilder';

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

/** A restore's outcome and how the host should show its message: a warning, information, or not at all. */
export interface RestoreReport {
  readonly outcome: RestoreOutcome;
  readonly notice?: 'warning' | 'information';
}

/** The long-lived services a restore uses. */
export interface RestoreServices {
  readonly store: CheckpointStore;
  readonly activity: ActivityRecorder;
  /** Asks the user; a restore's question names no caller. */
  readonly approver: Approver;
  readonly writer: RestoreWriter;
  readonly clock: Clock;
  /** The background commands (BackgroundCommands), which must not run while a restore writes. */
  readonly background?: { running(): readonly Pick<BackgroundCommand, 'id' | 'commandLine'>[] };
}

/** The workspace as it is now: its folders, the host's platform and the checkpoint limits from the settings. */
export interface RestoreWorkspace extends CheckpointWorkspace {
  readonly limits: CheckpointLimits;
}

/**
 * Why a restore cannot run now: a background command could change the files while the restore
 * writes them (swap a folder for a link between the check and the write, and the restore would
 * write outside the workspace).
 */
function busy(background: RestoreServices['background']): string | undefined {
  const running = background?.running() ?? [];
  if (running.length === 0) {
    return undefined;
  }
  const listed = running.map(commandLabel).join(', ');
  return `Background commands are running: ${listed}. They could change files while the restore writes them; stop them first (Workspace Agent Tools: Stop Background Command...), then restore. Nothing was changed.`;
}

function refused(message: string): RestoreReport {
  return { outcome: { restored: false, written: [], deleted: [], problems: [], message }, notice: 'warning' };
}

/**
 * Restores the workspace folders to before the call `record` is about; `named` is what the user
 * passed, for the message when there is no such record.
 */
export async function restoreToBefore(record: ActivityRecord | undefined, named: string, services: RestoreServices, workspace: RestoreWorkspace): Promise<RestoreReport> {
  const { store, activity, clock } = services;
  const busyBefore = busy(services.background);
  if (busyBefore) {
    return refused(busyBefore);
  }
  if (!record) {
    return refused(`There is no activity record ${named} to restore to.`);
  }
  const target = record.checkpoint && store.get(record.checkpoint.before);
  if (!target) {
    return refused(record.checkpoint ? `The checkpoint before call ${record.id} was pruned from the store; it can no longer be restored.` : `Call ${record.id} (${record.tool}) has no checkpoint: it changed no files, or checkpoints were off.`);
  }
  const started = clock.now();
  const plan = await planRestore(target, store, workspace, workspace.limits, services.writer);
  if ('notRecorded' in plan) {
    return refused(`The workspace could not be recorded before restoring, so nothing was restored: ${plan.notRecorded.join(' ')}`);
  }
  const { steps, checkpoints } = plan;
  if (steps.length === 0) {
    const message = `The files are already as they were before call ${record.id}; nothing to restore.`;
    return { outcome: { restored: true, written: [], deleted: [], problems: [], message }, notice: 'information' };
  }
  const title = `Restore the workspace to before call ${record.id} (${record.tool.replace(/^workspace_/, '')})?`;
  // The user's own action: nothing cancels the question but an answer.
  const approved = await services.approver.confirm({ kind: 'restore', title, detail: plan.preview }, NEVER_CANCELLED);
  const input = { activityId: record.id };
  const base = { tool: 'restoreCheckpoint', input, startedAt: started, verdicts: [], redactions: [] };
  if (!approved) {
    const message = `The restore to before call ${record.id} was declined; nothing was changed.`;
    const id = activity.newId();
    activity.add(buildActivityRecord({ ...base, id, finishedAt: clock.now(), approvals: [{ kind: 'restore', title, allowed: false }], result: { error: message }, changes: { changedPaths: [] } }), input);
    return { outcome: { activityId: id, restored: false, written: [], deleted: [], problems: [], message } };
  }
  // A command may have been started while the question was open.
  const busyNow = busy(services.background);
  if (busyNow) {
    return refused(busyNow);
  }
  const problems = await services.writer.write(steps);
  const after = await checkpoints.finishNow();
  const written = steps.filter((step) => step.action === 'write').map((step) => step.path);
  const deleted = steps.filter((step) => step.action === 'delete').map((step) => step.path);
  const message = problems.length
    ? `Restored to before call ${record.id}, except: ${problems.join('; ')}`
    : `Restored ${written.length} file(s) and deleted ${deleted.length} to before call ${record.id}.`;
  const id = activity.newId();
  activity.add(
    buildActivityRecord({
      ...base,
      id,
      finishedAt: clock.now(),
      approvals: [{ kind: 'restore', title, allowed: true }],
      result: problems.length ? { error: message } : { resultChars: 0 },
      changes: after ? checkpointFields(after, workspace) : { changedPaths: [] },
    }),
    input,
  );
  return { outcome: { activityId: id, restored: problems.length === 0, written, deleted, problems, message }, notice: 'information' };
}
