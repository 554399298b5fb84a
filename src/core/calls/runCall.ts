// One tool call from start to record, whoever made it (chat, the palette, another extension, an MCP
// client): the trace of what the guard decided, what the user was asked and what the call proposed
// to change; the call's checkpoints before and after (a background command's deferred "after"
// amends the record later); the checkpoint notes appended to the result; and the activity record,
// whatever the outcome. The host builds the context and adapts the result; everything else is here.
import type { ActivityRecorder, ExecutionConfigRecord, HeldChangeRecord, RecordedApproval, RecordedChange, RecordedVerdict } from '../activity/activityRecord';
import { CallCheckpoints, checkpointFolders, checkpointLimits } from '../checkpoints/callCheckpoint';
import type { SessionServices, ToolContext } from '../context';
import { BugError, errorMessage, ToolError } from '../errors';
import type { ChangePlan } from '../ports/changes';
import type { CallCheckpointOutcome, CheckpointStore } from '../ports/checkpoints';
import type { CallObserver } from '../ports/observer';
import { invokeTool } from '../tools/invoke';
import type { Tool, ToolResult } from '../tools/toolSpec';
import { buildActivityRecord, checkpointFields, proposedFields, type ChangeFields, type RecordParts } from './activityRecordBuilder';
import { CallRecord } from './callRecord';

/** How one call came in. */
export interface CallOrigin {
  /** The confirmation chat showed for the call and the user accepted (never for MCP): see CallInfo.chatConfirmation. */
  readonly chatConfirmation?: string;
  /** The tokens the client has room for in the result, if it said. */
  readonly tokenBudget?: number;
  /** Recorded in the activity record: `chat`, `extension` or `mcp:<client name>`. */
  readonly client: string;
  /** The name approvals show ("Claude Code wants to ..."); none for chat and extensions. */
  readonly clientLabel?: string;
  /** When the client needs an answer by (see CallInfo.returnBy); none: no limit. */
  readonly returnBy?: () => number | undefined;
  /** Told when the call starts asking the user (a diff review, a question) and when the answer came (undefined). */
  readonly onWaiting?: (waitingFor: 'review' | 'question' | undefined) => void;
}

/** What one call runs with. */
export interface CallServices {
  /** The call's context as the host sees it now: host and session services, token, settings, workspace. */
  readonly context: ToolContext;
  /** Where the call is recorded; absent: not recorded. */
  readonly activity?: ActivityRecorder;
  /** Where checkpoints are kept; absent: no checkpoints (hosts without a local disk for the store). */
  readonly checkpoints?: CheckpointStore;
}

/** What one call saw, collected for its activity record. */
interface CallTrace {
  readonly verdicts: RecordedVerdict[];
  readonly approvals: RecordedApproval[];
  readonly changes: RecordedChange[];
  readonly executionConfig: ExecutionConfigRecord[];
  readonly held: HeldChangeRecord[];
}

/**
 * The session with the approver and the change reviewer wrapped: every question carries the
 * caller's label, and every answer is recorded in `trace`.
 */
function tracedSession(session: SessionServices, trace: CallTrace, origin: CallOrigin): SessionServices {
  const caller = origin.clientLabel;
  const named = caller === undefined ? {} : { caller };
  const changes = session.changes;
  const asking = async <T>(waitingFor: 'review' | 'question', question: () => Promise<T>): Promise<T> => {
    origin.onWaiting?.(waitingFor);
    try {
      return await question();
    } finally {
      origin.onWaiting?.(undefined);
    }
  };
  return {
    ...session,
    approver: {
      confirm: async (request, signal) => {
        const allowed = await asking('question', () => session.approver.confirm({ ...request, ...named }, signal));
        trace.approvals.push({ kind: request.kind, title: request.title, allowed });
        return allowed;
      },
      choose: async (request, signal) => {
        const answer = await asking('question', () => session.approver.choose({ ...request, ...named }, signal));
        trace.approvals.push({ kind: request.kind, title: request.title, allowed: answer !== 'reject', ...(answer === 'alternative' ? { choice: request.alternative } : {}) });
        return answer;
      },
    },
    changes: changes && {
      ...changes,
      // The diff review is a question too: Accept or Reject is recorded with the others.
      reviewer: {
        review: async (plan, signal) => {
          const accepted = await asking('review', () => changes.reviewer.review({ ...plan, ...named }, signal));
          trace.approvals.push({ kind: 'change', title: plan.summary, allowed: accepted });
          return accepted;
        },
      },
    },
  };
}

/** Before and after of each file of a plan, remembered so the Activity view can show the diff, accepted or not. */
function plannedChanges(plan: ChangePlan): RecordedChange[] {
  return plan.files.map((file) => ({ path: file.shownMoveTo ?? file.shownPath, kind: !file.before ? 'created' as const : !file.after ? 'deleted' as const : 'modified' as const, before: file.before?.text ?? '', after: file.after?.text ?? '' }));
}

/** `onLateConfig`: execution config reported once the call's record is written (a background command that ended). */
function tracingObserver(trace: CallTrace, onLateConfig: () => void): CallObserver {
  return {
    onGuardVerdict: (verdict, subject) => trace.verdicts.push({ decision: verdict.decision, rule: verdict.rule, subject }),
    onChangePlanned: (plan) => trace.changes.push(...plannedChanges(plan)),
    onExecutionConfigChanged: (changes) => {
      trace.executionConfig.push(...changes);
      onLateConfig();
    },
    onHeldChanges: (held) => {
      trace.held.push(...held);
      onLateConfig();
    },
    onAskedAfter: (title) => trace.approvals.push({ kind: 'command', title, allowed: true, askedAfter: true }),
  };
}

/** The call's checkpoints, when they are on and the workspace has folders on this disk. */
function callCheckpoints(store: CheckpointStore | undefined, ctx: ToolContext, onDeferredFinish: (outcome: CallCheckpointOutcome | undefined) => void): CallCheckpoints | undefined {
  const folders = checkpointFolders(ctx.workspace);
  if (!store || !ctx.settings.checkpointsEnabled || folders.length === 0 || !ctx.workspace.trusted) {
    return undefined;
  }
  return new CallCheckpoints(store, folders, checkpointLimits(ctx.settings), onDeferredFinish);
}

/** A result with the checkpoint notes (what could not be recorded) appended for the model. */
export function withNotes(result: ToolResult, notes: readonly string[]): ToolResult {
  if (notes.length === 0) {
    return result;
  }
  return { ...result, parts: [...result.parts, { kind: 'text', text: `\n[Checkpoint: ${notes.join(' ')}]` }] };
}

function resultChars(result: ToolResult): number {
  return result.parts.reduce((total, part) => total + (part.kind === 'text' ? part.text.length : part.data.length), 0);
}

/**
 * Runs one call through core and records it, whatever the outcome: the one call path of every
 * client. Resolves to the tool's result with any checkpoint notes appended; rethrows the tool's error.
 */
export async function runCall(tool: Tool, input: unknown, services: CallServices, origin: CallOrigin): Promise<ToolResult> {
  const base = services.context;
  const clock = base.host.clock;
  const trace: CallTrace = { verdicts: [], approvals: [], changes: [], executionConfig: [], held: [] };
  const started = clock.now();
  // Written when the call returns; what comes later amends it (execution config a background command made, its deferred "after").
  const record = new CallRecord(services.activity);
  const lateConfig = (): void => record.amend(() => ({ executionConfig: [...trace.executionConfig], ...(trace.held.length ? { held: [...trace.held] } : {}) }));
  const traced: ToolContext = {
    ...base,
    session: tracedSession(base.session, trace, origin),
    call: { ...base.call, ...(origin.chatConfirmation !== undefined ? { chatConfirmation: origin.chatConfirmation } : {}), tokenBudget: origin.tokenBudget, observer: tracingObserver(trace, lateConfig), returnBy: origin.returnBy },
  };
  // A deferred "after" (a background command that ended) amends the call's record, even if it comes first.
  const checkpoints = tool.access === 'read' ? undefined : callCheckpoints(services.checkpoints, traced, (outcome) => {
    if (outcome) {
      record.amend(() => checkpointFields(outcome, base.workspace));
    }
  });
  const ctx: ToolContext = checkpoints ? { ...traced, call: { ...traced.call, checkpoint: checkpoints } } : traced;

  /** The "after" checkpoint when the call changed files (not when the tool deferred it). */
  const finish = async (): Promise<{ changes: ChangeFields; notes: readonly string[] }> => {
    if (!checkpoints?.started) {
      return { changes: proposedFields(trace.changes), notes: [] };
    }
    if (checkpoints.isDeferred) {
      const id = await checkpoints.beforeId();
      const notes = checkpoints.currentNotes();
      return { changes: proposedFields(trace.changes, id ? { id, notes } : undefined), notes };
    }
    const outcome = await checkpoints.finishNow();
    return outcome ? { changes: checkpointFields(outcome, base.workspace), notes: outcome.notes } : { changes: proposedFields(trace.changes), notes: checkpoints.currentNotes() };
  };

  const write = (end: Pick<RecordParts, 'result' | 'redactions' | 'changes'>): void =>
    record.write((id) => buildActivityRecord({ id, tool: tool.name, client: origin.client, input, startedAt: started, finishedAt: clock.now(), verdicts: trace.verdicts, approvals: trace.approvals, executionConfig: trace.executionConfig, held: trace.held, ...end }), input, trace.changes);

  try {
    const result = await invokeTool(tool, input, ctx);
    const { changes, notes } = await finish();
    write({ result: { resultChars: resultChars(result) }, redactions: result.redactions ?? [], changes });
    return withNotes(result, notes);
  } catch (error) {
    const { changes } = await finish();
    const message = errorMessage(error);
    write({ result: { error: message }, redactions: error instanceof ToolError ? error.redactions : [], changes });
    throw error;
  }
}

/** What a client is told when a call failed: a ToolError's own sentence, otherwise that it was a bug or unexpected. */
export function failureMessage(tool: Tool, error: unknown): string {
  if (error instanceof ToolError) {
    return error.message;
  }
  const detail = errorMessage(error);
  const kind = error instanceof BugError ? 'failed because of a bug in Workspace Agent Tools' : 'failed unexpectedly';
  return `${tool.name} ${kind}: ${detail}`;
}
