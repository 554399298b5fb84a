// Planning a restore to a checkpoint: the files are recorded as they are now first (so the restore
// can itself be undone), then the steps from now back to the target and the question's text. The
// orchestration (busy check, question, write, record) is core/calls/restore.ts.
import type { Checkpoint, CheckpointLimits, CheckpointStore, RestoreStep, RestoreWriter } from '../ports/checkpoints';
import { CallCheckpoints, checkpointFolders, type CheckpointWorkspace } from './callCheckpoint';

const PREVIEW_LINES = 25;

/** A restore ready to ask about and write. */
export interface RestorePlan {
  /** The restore's own checkpoints: "before" is taken; finish it once the steps are written. */
  readonly checkpoints: CallCheckpoints;
  readonly steps: readonly RestoreStep[];
  /** What the restore will change, the unsaved text it drops, what it cannot restore. */
  readonly preview: string;
}

function describeStep(step: RestoreStep): string {
  if (step.action === 'delete') {
    return `delete ${step.path} (created since)`;
  }
  return `restore ${step.path}${step.entry?.type === 'symlink' ? ' (symlink)' : ''}`;
}

/** The question's text: what the restore will change, the unsaved text it drops, what it cannot restore. */
export function restorePreview(steps: readonly RestoreStep[], unsaved: readonly string[], notes: readonly string[]): string {
  const lines = steps.slice(0, PREVIEW_LINES).map(describeStep);
  if (steps.length > PREVIEW_LINES) {
    lines.push(`and ${steps.length - PREVIEW_LINES} more`);
  }
  const parts = [`It will change ${steps.length} file(s): ${lines.join('; ')}.`];
  if (unsaved.length) {
    parts.push(`Unsaved text in ${unsaved.join(', ')} will be replaced.`);
  }
  if (notes.length) {
    parts.push(`Not recorded, so left as they are: ${notes.join(' ')}`);
  }
  return parts.join(' ');
}

/**
 * Records the folders `target` covers as they are now and plans the steps back to `target`. When
 * the current state cannot be recorded, nothing may be restored: the answer is the notes saying why.
 */
export async function planRestore(
  target: Checkpoint,
  store: CheckpointStore,
  workspace: CheckpointWorkspace,
  limits: CheckpointLimits,
  writer: Pick<RestoreWriter, 'unsaved'>,
): Promise<RestorePlan | { readonly notRecorded: readonly string[] }> {
  const covered = checkpointFolders(workspace).filter((folder) => target.folders.some((part) => part.folder === folder));
  const checkpoints = new CallCheckpoints(store, covered, limits);
  await checkpoints.beforeChange();
  const currentId = await checkpoints.beforeId();
  const current = currentId ? store.get(currentId) : undefined;
  if (!current) {
    return { notRecorded: checkpoints.currentNotes() };
  }
  const steps = await store.restoreSteps(target, current);
  return { checkpoints, steps, preview: steps.length ? restorePreview(steps, writer.unsaved(steps), target.notes) : '' };
}
