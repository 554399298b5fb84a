// Every tool registered with the Language Model Tools API: each call gets its context and is
// recorded in the activity log, whoever made it (chat, the palette, another extension).
import * as vscode from 'vscode';
import { summarizeInput, type RecordedApproval, type RecordedVerdict } from '../../core/activity/activityRecord';
import type { HostServices, SessionServices, ToolContext } from '../../core/context';
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
  };
  return contextFor(services, token, {
    confirmedInChat,
    tokenBudget,
    observer: {
      onGuardVerdict: (verdict, subject) => trace.verdicts.push({ decision: verdict.decision, rule: verdict.rule, subject }),
      // Remembered so the Activity view can show the diff, whether the change was accepted or not.
      onChangePlanned: (plan) => trace.changes.push(...plan.files.map((file) => ({ path: file.shownMoveTo ?? file.shownPath, before: file.before?.text ?? '', after: file.after?.text ?? '' }))),
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

/**
 * Runs one call through core and records it in the activity log, whatever the outcome. The one
 * call path of every client: the Language Model Tools API (chat, the palette, other extensions)
 * and the MCP endpoint.
 */
export async function callTool(tool: Tool, input: unknown, services: ToolServices, token: vscode.CancellationToken, origin: CallOrigin): Promise<ToolResult> {
  const trace: CallTrace = { verdicts: [], approvals: [], changes: [] };
  const started = Date.now();
  const base = { startedAt: new Date(started).toISOString(), tool: tool.name, client: origin.client, input: summarizeInput(input), verdicts: trace.verdicts, approvals: trace.approvals };
  const changedPaths = () => trace.changes.map((change) => change.path);
  try {
    const result = await runAsCaller(origin.clientLabel, () => invokeTool(tool, input, tracedContext(services, token, origin.confirmedInChat, trace, origin.tokenBudget)));
    services.activity?.add({ ...base, id: services.activity.newId(), durationMs: Date.now() - started, outcome: 'ok', resultChars: resultChars(result), redactions: result.redactions ?? [], changedPaths: changedPaths() }, input, trace.changes);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const redactions = error instanceof ToolError ? error.redactions : [];
    services.activity?.add({ ...base, id: services.activity.newId(), durationMs: Date.now() - started, outcome: 'error', resultChars: 0, error: message, redactions, changedPaths: changedPaths() }, input, trace.changes);
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
