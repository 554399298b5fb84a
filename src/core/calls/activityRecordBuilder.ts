// The one place an activity record is assembled: a tool call's (runCall.ts) and a restore's
// (restore.ts), and the fields a call's checkpoints add to it, at once or later by amending.
import { MAX_CHANGED_PATHS, summarizeInput, type ActivityRecord, type ChangedPathRecord, type CheckpointRecord, type ExecutionConfigRecord, type HeldChangeRecord, type RecordedApproval, type RecordedChange, type RecordedVerdict } from '../activity/activityRecord';
import { shownChangedPath, type CheckpointWorkspace } from '../checkpoints/callCheckpoint';
import type { CallCheckpointOutcome } from '../ports/checkpoints';
import type { Redaction } from '../secrets/redactSecrets';

/** What the files of a call are on its record: the changed paths, and the checkpoint when there is one. */
export interface ChangeFields {
  readonly changedPaths: readonly ChangedPathRecord[];
  readonly checkpoint?: CheckpointRecord;
}

/** Everything a record says, before it is put in the record's shape. */
export interface RecordParts {
  readonly id: number;
  readonly tool: string;
  /** `chat`, `extension` or `mcp:<client name>`; none for the user's own actions (a restore). */
  readonly client?: string;
  /** The whole input; the record keeps it with long strings cut. */
  readonly input: unknown;
  /** Milliseconds since the epoch, from the clock port. */
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly verdicts: readonly RecordedVerdict[];
  readonly approvals: readonly RecordedApproval[];
  /** The characters returned to the model, or the error the call ended with. */
  readonly result: { readonly resultChars: number } | { readonly error: string };
  readonly redactions: readonly Redaction[];
  readonly changes: ChangeFields;
  readonly executionConfig?: readonly ExecutionConfigRecord[];
  readonly held?: readonly HeldChangeRecord[];
}

/** The activity record of a call or a restore. */
export function buildActivityRecord(parts: RecordParts): ActivityRecord {
  const { result, changes } = parts;
  return {
    id: parts.id,
    startedAt: new Date(parts.startedAt).toISOString(),
    tool: parts.tool,
    ...(parts.client !== undefined ? { client: parts.client } : {}),
    input: summarizeInput(parts.input),
    verdicts: [...parts.verdicts],
    approvals: [...parts.approvals],
    durationMs: parts.finishedAt - parts.startedAt,
    outcome: 'error' in result ? 'error' : 'ok',
    resultChars: 'error' in result ? 0 : result.resultChars,
    ...('error' in result ? { error: result.error } : {}),
    redactions: parts.redactions,
    changedPaths: changes.changedPaths,
    ...(changes.checkpoint ? { checkpoint: changes.checkpoint } : {}),
    ...(parts.executionConfig?.length ? { executionConfig: [...parts.executionConfig] } : {}),
    ...(parts.held?.length ? { held: [...parts.held] } : {}),
  };
}

/** The record fields of a call's checkpoints: the files changed, and the checkpoint ids with their notes. */
export function checkpointFields(outcome: CallCheckpointOutcome, workspace: CheckpointWorkspace): Required<ChangeFields> {
  const omitted = Math.max(0, outcome.changed.length - MAX_CHANGED_PATHS);
  return {
    checkpoint: { before: outcome.before, ...(outcome.after ? { after: outcome.after } : {}), ...(outcome.notes.length ? { notes: outcome.notes } : {}), ...(omitted ? { omittedPaths: omitted } : {}) },
    changedPaths: outcome.changed.slice(0, MAX_CHANGED_PATHS).map((file) => ({ path: shownChangedPath(file, workspace), kind: file.kind, ...(file.added !== undefined ? { added: file.added, deleted: file.deleted } : {}) })),
  };
}

/** Without an "after" checkpoint: the files the call proposed to change, and the "before" while the "after" is pending. */
export function proposedFields(changes: readonly RecordedChange[], pendingBefore?: { readonly id: string; readonly notes: readonly string[] }): ChangeFields {
  const changedPaths = changes.map((change) => ({ path: change.path, kind: change.kind }));
  if (!pendingBefore) {
    return { changedPaths };
  }
  return { changedPaths, checkpoint: { before: pendingBefore.id, ...(pendingBefore.notes.length ? { notes: pendingBefore.notes } : {}) } };
}
