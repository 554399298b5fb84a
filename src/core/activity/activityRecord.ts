import { strictestVerdict, type GuardDecision } from '../decisions';
import type { Redaction } from '../secrets/redactSecrets';

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
}

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
  /** Files the call proposed to change, for reopening their diff; contents live only in memory. */
  readonly changedPaths: readonly string[];
  /** Who called: `chat`, `extension` (vscode.lm.invokeTool without a chat token: the palette, other extensions) or `mcp:<client name>`. */
  readonly client?: string;
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
  const approvals = record.approvals.map((approval) => ` ${approval.kind}=${approval.allowed ? 'approved' : 'rejected'}`).join('');
  const redactions = record.redactions.length ? ` redacted=${record.redactions.map((r) => `${r.kind}@${r.line}`).join(',')}` : '';
  const outcome = record.outcome === 'ok' ? `ok ${record.resultChars} chars` : `error: ${record.error ?? ''}`;
  const client = record.client ? ` client=${record.client}` : '';
  return `${record.startedAt} ${record.tool}${client} ${record.input}${guard}${approvals}${redactions} ${record.durationMs}ms ${outcome}`;
}
