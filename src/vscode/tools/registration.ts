// Every tool registered with the Language Model Tools API: each call gets its context and is
// recorded in the activity log, whoever made it (chat, the palette, another extension).
import * as vscode from 'vscode';
import { MAX_CHANGED_PATHS, summarizeInput, type ActivityRecord, type ChangedPathRecord, type CheckpointRecord, type RecordedApproval, type RecordedVerdict } from '../../core/activity/activityRecord';
import { CallCheckpoints, checkpointFolders, checkpointLimits, shownChangedPath } from '../../core/checkpoints/callCheckpoint';
import type { HostServices, SessionServices, ToolContext } from '../../core/context';
import type { CallCheckpointOutcome, CheckpointStore } from '../../core/ports/checkpoints';
import { BugError, ToolError } from '../../core/errors';
import { checkAvailability, invokeTool } from '../../core/tools/invoke';
import type { Tool, ToolConfirmation, ToolResult } from '../../core/tools/toolSpec';
import { readToolSettings, readWorkspaceInfo } from '../host/settings';
import type { ActivityLog, RecordedChange } from '../ui/activityLog';
import { runAsCaller } from '../ui/caller';

/** The long-lived services every call shares. */
export interface ToolServices {
  /** Everything but commands, which exist only where the workspace is on a disk. */
  readonly host: Omit<HostServices, 'commands'>;
  readonly commands?: HostServices['commands'];
  readonly session: SessionServices;
  readonly activity?: ActivityLog;
  /** Where checkpoints are kept; absent: no checkpoints (hosts without a local disk for the store). */
  readonly checkpoints?: CheckpointStore;
}

function contextFor(services: ToolServices, token: vscode.CancellationToken, call: Partial<ToolContext['call']> = {}, session = services.session): ToolContext {
  const workspace = readWorkspaceInfo();
  const onDisk = workspace.folders.every((folder) => folder.location.scheme === 'file');
  return {
    host: { ...services.host, commands: onDisk ? services.commands : undefined },
    session,
    call: { token, confirmedInChat: false, ...call },
    settings: readToolSettings(),
    workspace,
  };
}

/** What one call saw, collected for its activity record. */
interface CallTrace {
  readonly verdicts: RecordedVerdict[];
  readonly approvals: RecordedApproval[];
  readonly changes: RecordedChange[];
}

/** The context of one call, with the approver and observer wired to record into `trace`. */
function tracedContext(services: ToolServices, token: vscode.CancellationToken, confirmedInChat: boolean, trace: CallTrace, tokenBudget?: number): ToolContext {
  const changes = services.session.changes;
  const session: SessionServices = {
    ...services.session,
    approver: {
      confirm: async (request, signal) => {
        const allowed = await services.session.approver.confirm(request, signal);
        trace.approvals.push({ kind: request.kind, title: request.title, allowed });
        return allowed;
      },
      choose: async (request, signal) => {
        const answer = await services.session.approver.choose(request, signal);
        trace.approvals.push({ kind: request.kind, title: request.title, allowed: answer !== 'reject', ...(answer === 'alternative' ? { choice: request.alternative } : {}) });
        return answer;
      },
    },
    changes: changes && {
      ...changes,
      // The diff review is a question too: Accept or Reject is recorded with the others.
      reviewer: {
        review: async (plan, signal) => {
          const accepted = await changes.reviewer.review(plan, signal);
          trace.approvals.push({ kind: 'change', title: plan.summary, allowed: accepted });
          return accepted;
        },
      },
    },
  };
  return contextFor(services, token, {
    confirmedInChat,
    tokenBudget,
    observer: {
      onGuardVerdict: (verdict, subject) => trace.verdicts.push({ decision: verdict.decision, rule: verdict.rule, subject }),
      // Remembered so the Activity view can show the diff, whether the change was accepted or not.
      onChangePlanned: (plan) => trace.changes.push(...plan.files.map((file) => ({ path: file.shownMoveTo ?? file.shownPath, kind: !file.before ? 'created' as const : !file.after ? 'deleted' as const : 'modified' as const, before: file.before?.text ?? '', after: file.after?.text ?? '' }))),
    },
  }, session);
}

function resultChars(result: ToolResult): number {
  return result.parts.reduce((total, part) => total + (part.kind === 'text' ? part.text.length : part.data.length), 0);
}

/** How one call came in. */
export interface CallOrigin {
  /** True when chat showed the call's confirmation and the user accepted it (never for MCP). */
  readonly confirmedInChat: boolean;
  /** The tokens the client has room for in the result, if it said. */
  readonly tokenBudget?: number;
  /** Recorded in the activity record: `chat`, `extension` or `mcp:<client name>`. */
  readonly client: string;
  /** The name approvals show ("Claude Code wants to ..."); none for chat and extensions. */
  readonly clientLabel?: string;
}

/** The call's checkpoints, when they are on and the workspace has folders on this disk. */
function callCheckpoints(services: ToolServices, ctx: ToolContext): CallCheckpoints | undefined {
  const folders = checkpointFolders(ctx.workspace.folders);
  if (!services.checkpoints || !ctx.settings.checkpointsEnabled || folders.length === 0 || !ctx.workspace.trusted) {
    return undefined;
  }
  return new CallCheckpoints(services.checkpoints, folders, checkpointLimits(ctx.settings));
}

/** The record fields of a call's checkpoints: the files changed, and the checkpoint ids with their notes. */
export function checkpointFields(outcome: CallCheckpointOutcome, ctx: Pick<ToolContext, 'workspace'>): { checkpoint: CheckpointRecord; changedPaths: ChangedPathRecord[] } {
  const omitted = Math.max(0, outcome.changed.length - MAX_CHANGED_PATHS);
  return {
    checkpoint: { before: outcome.before, ...(outcome.after ? { after: outcome.after } : {}), ...(outcome.notes.length ? { notes: outcome.notes } : {}), ...(omitted ? { omittedPaths: omitted } : {}) },
    changedPaths: outcome.changed.slice(0, MAX_CHANGED_PATHS).map((file) => ({ path: shownChangedPath(file, ctx.workspace.folders), kind: file.kind, ...(file.added !== undefined ? { added: file.added, deleted: file.deleted } : {}) })),
  };
}

/** A result with the checkpoint notes (what could not be recorded) appended for the model. */
function withNotes(result: ToolResult, notes: readonly string[]): ToolResult {
  if (notes.length === 0) {
    return result;
  }
  return { ...result, parts: [...result.parts, { kind: 'text', text: `\n[Checkpoint: ${notes.join(' ')}]` }] };
}

/**
 * Runs one call through core and records it in the activity log, whatever the outcome. The one
 * call path of every client: the Language Model Tools API (chat, the palette, other extensions)
 * and the MCP endpoint.
 */
export async function callTool(tool: Tool, input: unknown, services: ToolServices, token: vscode.CancellationToken, origin: CallOrigin): Promise<ToolResult> {
  const trace: CallTrace = { verdicts: [], approvals: [], changes: [] };
  const started = Date.now();
  const base = { startedAt: new Date(started).toISOString(), tool: tool.name, client: origin.client, input: summarizeInput(input), verdicts: trace.verdicts, approvals: trace.approvals };
  const traced = tracedContext(services, token, origin.confirmedInChat, trace, origin.tokenBudget);
  const checkpoints = tool.access === 'read' ? undefined : callCheckpoints(services, traced);
  const ctx: ToolContext = checkpoints ? { ...traced, call: { ...traced.call, checkpoint: checkpoints } } : traced;
  // Without checkpoints, the files the call proposed to change.
  const proposed = (): ChangedPathRecord[] => trace.changes.map((change) => ({ path: change.path, kind: change.kind }));
  /** The "after" checkpoint when the call changed files (not when the tool deferred it). */
  const finish = async (): Promise<{ fields: Partial<ActivityRecord>; notes: readonly string[] }> => {
    if (!checkpoints?.started) {
      return { fields: { changedPaths: proposed() }, notes: [] };
    }
    if (checkpoints.isDeferred) {
      const id = await checkpoints.beforeId();
      const notes = checkpoints.currentNotes();
      return { fields: { changedPaths: proposed(), ...(id ? { checkpoint: { before: id, ...(notes.length ? { notes } : {}) } } : {}) }, notes };
    }
    const outcome = await checkpoints.finishNow();
    return outcome ? { fields: checkpointFields(outcome, ctx), notes: outcome.notes } : { fields: { changedPaths: proposed() }, notes: checkpoints.currentNotes() };
  };
  // A deferred "after" (a background command that ended) amends the call's record, even if it comes first.
  let recordId: number | undefined;
  let lateOutcome: CallCheckpointOutcome | undefined;
  if (checkpoints) {
    checkpoints.onDeferredFinish = (outcome) => {
      lateOutcome = outcome;
      if (outcome && recordId !== undefined) {
        services.activity?.amend(recordId, checkpointFields(outcome, ctx));
      }
    };
  }
  const record = (fields: Omit<ActivityRecord, 'id' | 'startedAt' | 'tool' | 'input' | 'verdicts' | 'approvals' | 'changedPaths'> & Partial<ActivityRecord>): void => {
    const activity = services.activity;
    if (!activity) {
      return;
    }
    recordId = activity.newId();
    activity.add({ ...base, changedPaths: [], ...fields, id: recordId }, input, trace.changes);
    if (lateOutcome) {
      activity.amend(recordId, checkpointFields(lateOutcome, ctx));
    }
  };
  try {
    const result = await runAsCaller(origin.clientLabel, () => invokeTool(tool, input, ctx));
    const { fields, notes } = await finish();
    record({ durationMs: Date.now() - started, outcome: 'ok', resultChars: resultChars(result), redactions: result.redactions ?? [], ...fields });
    return withNotes(result, notes);
  } catch (error) {
    const { fields } = await finish();
    const message = error instanceof Error ? error.message : String(error);
    const redactions = error instanceof ToolError ? error.redactions : [];
    record({ durationMs: Date.now() - started, outcome: 'error', resultChars: 0, error: message, redactions, ...fields });
    throw error;
  }
}

/** What a client is told when a call failed: a ToolError's own sentence, otherwise that it was a bug or unexpected. */
export function failureMessage(tool: Tool, error: unknown): string {
  if (error instanceof ToolError) {
    return error.message;
  }
  const detail = error instanceof Error ? error.message : String(error);
  const kind = error instanceof BugError ? 'failed because of a bug in Workspace Agent Tools' : 'failed unexpectedly';
  return `${tool.name} ${kind}: ${detail}`;
}

type DataPartFactory = { image(data: Uint8Array, mimeType: string): unknown };

/** Turns core's result into VS Code's, images as data parts where this VS Code has them. */
export function toLanguageModelResult(result: ToolResult): vscode.LanguageModelToolResult {
  const dataPart = (vscode as unknown as { LanguageModelDataPart?: DataPartFactory }).LanguageModelDataPart;
  const parts = result.parts.map((part) => {
    if (part.kind === 'text') {
      return new vscode.LanguageModelTextPart(part.text);
    }
    // The data part is a 1.100 proposal finalised later; typed as a text part for the stable API.
    return dataPart
      ? (dataPart.image(part.data, part.mimeType) as vscode.LanguageModelTextPart)
      : new vscode.LanguageModelTextPart(`[${part.mimeType} image of ${part.data.length} bytes: this VS Code cannot pass images to the model]`);
  });
  return new vscode.LanguageModelToolResult(parts);
}

/** What chat shows before and during a call: the message, and the confirmation for calls that ask. */
async function prepareInvocation(tool: Tool, input: unknown, services: ToolServices, token: vscode.CancellationToken): Promise<{ message: string; confirmation?: ToolConfirmation }> {
  let call;
  try {
    call = tool.prepare(input);
  } catch {
    // Invalid input: invoke refuses it with the reason; nothing runs, so there is nothing to confirm.
    return { message: tool.displayName };
  }
  if (!tool.confirms) {
    return { message: call.invocationMessage };
  }
  const ctx = contextFor(services, token);
  try {
    checkAvailability(tool, ctx);
  } catch {
    // Refused anyway (untrusted, plan mode): invoke says why.
    return { message: call.invocationMessage };
  }
  return { message: call.invocationMessage, confirmation: await call.confirmation(ctx) };
}

/** Registers every tool with the Language Model Tools API. */
export function registerTools(tools: readonly Tool[], services: ToolServices): vscode.Disposable[] {
  return tools.map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(tool.name, {
      async prepareInvocation(options, token) {
        const { message, confirmation } = await prepareInvocation(tool, options.input, services, token);
        return {
          invocationMessage: message,
          confirmationMessages: confirmation && { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) },
        };
      },
      async invoke(options, token) {
        try {
          // A chat invocation token means chat showed prepareInvocation's confirmation and the user accepted it.
          const fromChat = options.toolInvocationToken !== undefined;
          const origin = { confirmedInChat: fromChat, tokenBudget: options.tokenizationOptions?.tokenBudget, client: fromChat ? 'chat' : 'extension' };
          return toLanguageModelResult(await callTool(tool, options.input, services, token, origin));
        } catch (error) {
          throw new Error(failureMessage(tool, error));
        }
      },
    }),
  );
}
