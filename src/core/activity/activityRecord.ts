import { strictestVerdict, type GuardDecision } from '../decisions';
import type { HeldChangeRecord } from '../ports/observer';
import type { Redaction } from '../secrets/redactSecrets';

export type { HeldChangeRecord };

/** What the guard decided about one path during a call. */
export interface RecordedVerdict {
  readonly decision: GuardDecision;
  readonly rule?: string;
  readonly subject: string;
}

/** A question put to the user during a call, and the answer. */
export interface RecordedApproval {
  readonly kind: string;
  readonly title: string;
  readonly allowed: boolean;
  /** For a question with a third answer: the answer's label when the user chose it. */
  readonly choice?: string;
  /** Not asked: the command ran staged and its changes are for review after (runCommand.askAfterStaged). */
  readonly askedAfter?: boolean;
}

/** A file a call changed: from its checkpoints (with line counts, absent for binary files), else as proposed. */
export interface ChangedPathRecord {
  /** Workspace-relative, `/`-separated; `<folder>/path` in a multi-root workspace. */
  readonly path: string;
  readonly kind: 'created' | 'modified' | 'deleted';
  readonly added?: number;
  readonly deleted?: number;
}

/** The checkpoints of a call that could change files: restore goes back to `before`. */
export interface CheckpointRecord {
  readonly before: string;
  /** Absent while the change is still going on (a background command) or when it could not be taken. */
  readonly after?: string;
  /** What was not recorded, and why (a file over the size cap, the store over its cap). */
  readonly notes?: readonly string[];
  /** Changed files left out of `changedPaths` (it lists at most MAX_CHANGED_PATHS); a restore still covers them. */
  readonly omittedPaths?: number;
}

/** An execution-config file (a repository's config or hook, `.vscode`, a workspace file) a command created or changed. */
export interface ExecutionConfigRecord {
  /** Workspace-relative, as changedPaths. */
  readonly path: string;
  readonly change: 'created' | 'changed';
}

/** The most changed files one activity record lists. */
export const MAX_CHANGED_PATHS = 500;

/** One tool call as the activity log keeps it: no file contents beyond a short excerpt. */
export interface ActivityRecord {
  readonly id: number;
  /** ISO time the call started. */
  readonly startedAt: string;
  readonly tool: string;
  /** The input with long strings cut (see summarizeInput). */
  readonly input: string;
  readonly verdicts: readonly RecordedVerdict[];
  readonly approvals: readonly RecordedApproval[];
  readonly durationMs: number;
  readonly outcome: 'ok' | 'error';
  /** Characters returned to the model. */
  readonly resultChars: number;
  readonly error?: string;
  readonly redactions: readonly Redaction[];
  /** Files the call changed (from its checkpoints) or proposed to change; contents live only in memory or the checkpoint store. */
  readonly changedPaths: readonly ChangedPathRecord[];
  /** For calls that could change files, while checkpoints are on. */
  readonly checkpoint?: CheckpointRecord;
  /** Execution config the call created or changed (a command outside the sandbox, or one that made a repository): git or VS Code obey it. */
  readonly executionConfig?: readonly ExecutionConfigRecord[];
  /** A staged command's changes held for review, not merged. */
  readonly held?: readonly HeldChangeRecord[];
  /** Who called: `chat`, `extension` (vscode.lm.invokeTool without a chat token: the palette, other extensions) or `mcp:<client name>`. */
  readonly client?: string;
}

/** Before and after of one file a call proposed to change, kept in memory to reopen its diff. */
export interface RecordedChange {
  readonly path: string;
  readonly kind: 'created' | 'modified' | 'deleted';
  readonly before: string;
  readonly after: string;
}

/**
 * Where activity records go (the activity log port; `vscode/ui/activityLog.ts` implements it). A
 * record is added once, with an id taken just before; a deferred "after" checkpoint amends it later.
 */
export interface ActivityRecorder {
  /** The id the next record gets. */
  newId(): number;
  /** Adds a record, with the call's whole input and proposed changes (kept in memory only). */
  add(record: ActivityRecord, fullInput: unknown, changes?: readonly RecordedChange[]): void;
  /** Replaces fields of a record still in the log; nothing when it is gone. */
  amend(id: number, fields: Partial<Omit<ActivityRecord, 'id'>>): unknown;
}

const EXCERPT_CHARS = 80;

/** The input as one line of JSON, every string cut to a short excerpt so no file content is kept. */
export function summarizeInput(input: unknown): string {
  return JSON.stringify(input, (_key, value: unknown) => {
    if (typeof value === 'string' && value.length > EXCERPT_CHARS) {
      return `${value.slice(0, EXCERPT_CHARS)}… (${value.length} chars)`;
    }
    return value;
  }) ?? 'null';
}

/** The strictest verdict of a call, for one-line displays. */
function strictestRecordedVerdict(record: ActivityRecord): RecordedVerdict | undefined {
  return strictestVerdict(record.verdicts);
}

/** A one-line description of a record, as the output channel prints it. */
export function describeRecord(record: ActivityRecord): string {
  const verdict = strictestRecordedVerdict(record);
  const guard = verdict ? ` guard=${verdict.decision}${verdict.rule ? `(${verdict.rule})` : ''}` : '';
  const approvals = record.approvals.map((approval) => ` ${approval.kind}=${approval.askedAfter ? 'staged-unasked' : approval.allowed ? 'approved' : 'rejected'}`).join('');
  const redactions = record.redactions.length ? ` redacted=${record.redactions.map((r) => `${r.kind}@${r.line}`).join(',')}` : '';
  const outcome = record.outcome === 'ok' ? `ok ${record.resultChars} chars` : `error: ${record.error ?? ''}`;
  const client = record.client ? ` client=${record.client}` : '';
  const config = record.executionConfig?.length ? ` execution-config=${record.executionConfig.map((entry) => `${entry.change}:${entry.path}`).join(',')}` : '';
  return `${record.startedAt} ${record.tool}${client} ${record.input}${guard}${approvals}${redactions}${config} ${record.durationMs}ms ${outcome}`;
}
