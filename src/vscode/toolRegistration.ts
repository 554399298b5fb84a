import * as vscode from 'vscode';
import type { Approver, ChangeApplier, Clock, CommandHost, ReadLedger, ToolContext } from '../core/ports';
import { summarizeInput, type RecordedApproval, type RecordedVerdict } from '../core/activity/activityLog';
import { fileLocation } from '../core/location';
import { checkAvailability, invokeTool } from '../core/tools/invoke';
import { ToolError } from '../core/errors';
import { type ToolConfirmation, type ToolResult, type ToolSpec } from '../core/tools/toolSpec';
import type { ActivityLog, RecordedChange } from './activityLog';
import { VsCodeEditorBuffers } from './editorBuffers';
import { VsCodeFileSystem } from './fileSystemPort';
import { readToolSettings, readWorkspaceInfo } from './settings';

/** The long-lived services every call shares. */
export interface ToolServices {
  readonly approver: Approver;
  readonly reads: ReadLedger;
  /** Runs commands where the workspace is on a disk; absent means workspace_run_command cannot run. */
  readonly commands?: CommandHost;
  readonly activity?: ActivityLog;
  /** Shows file changes in a diff and writes them; the writing tools refuse without it. */
  readonly changes?: ChangeApplier;
  /** The ripgrep binary for local searches, when one was found. */
  readonly ripgrepPath?: string;
}

const systemClock: Clock = { now: () => Date.now() };

function contextFor(services: ToolServices, token: vscode.CancellationToken, confirmedInChat = false): ToolContext {
  const workspace = readWorkspaceInfo();
  const onDisk = workspace.folders.every((folder) => folder.location.scheme === 'file');
  const commands = onDisk ? services.commands : undefined;
  return {
    commands,
    // The command logs live in the extension's storage; the model reads them with workspace_read_file.
    extraReadRoots: services.commands ? [fileLocation(services.commands.logDirectory)] : [],
    confirmedInChat,
    fs: new VsCodeFileSystem(),
    buffers: new VsCodeEditorBuffers(),
    approver: services.approver,
    workspace,
    settings: readToolSettings(),
    reads: services.reads,
    clock: systemClock,
    token,
    changes: services.changes,
    ripgrepPath: services.ripgrepPath,
  };
}

/** What one call saw, collected for its activity record. */
interface CallTrace {
  readonly verdicts: RecordedVerdict[];
  readonly approvals: RecordedApproval[];
  readonly changes: RecordedChange[];
}

/** The applier, remembering what each reviewed plan would change so the Activity view can show its diff. */
function tracedChanges(changes: ChangeApplier | undefined, trace: CallTrace): ChangeApplier | undefined {
  return changes && {
    review: (plan, token) => {
      for (const file of plan.files) {
        trace.changes.push({ path: file.shownMoveTo ?? file.shownPath, before: file.before?.text ?? '', after: file.after?.text ?? '' });
      }
      return changes.review(plan, token);
    },
    apply: (plan, token) => changes.apply(plan, token),
  };
}

/** The context of one call, with the approver and observer wired to record into `trace`. */
function tracedContext(services: ToolServices, token: vscode.CancellationToken, confirmedInChat: boolean, trace: CallTrace): ToolContext {
  const base = contextFor(services, token, confirmedInChat);
  return {
    ...base,
    changes: tracedChanges(base.changes, trace),
    approver: {
      confirm: async (request, signal) => {
        const allowed = await services.approver.confirm(request, signal);
        trace.approvals.push({ kind: request.kind, title: request.title, allowed });
        return allowed;
      },
    },
    observer: {
      onGuardVerdict: (verdict, subject) => trace.verdicts.push({ decision: verdict.decision, rule: verdict.rule, subject }),
    },
  };
}

function resultChars(result: ToolResult): number {
  return result.parts.reduce((total, part) => total + (part.kind === 'text' ? part.text.length : part.data.length), 0);
}

/** Runs one call through core and records it in the activity log, whatever the outcome. */
async function invokeAndRecord(spec: ToolSpec<never>, input: unknown, services: ToolServices, token: vscode.CancellationToken, confirmedInChat: boolean): Promise<ToolResult> {
  const trace: CallTrace = { verdicts: [], approvals: [], changes: [] };
  const started = Date.now();
  const base = { startedAt: new Date(started).toISOString(), tool: spec.name, input: summarizeInput(input), verdicts: trace.verdicts, approvals: trace.approvals };
  const changedPaths = () => trace.changes.map((change) => change.path);
  try {
    const result = await invokeTool(spec, input, tracedContext(services, token, confirmedInChat, trace));
    services.activity?.add({ ...base, id: services.activity.newId(), durationMs: Date.now() - started, outcome: 'ok', resultChars: resultChars(result), redactions: result.redactions ?? [], changedPaths: changedPaths() }, input, trace.changes);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const redactions = error instanceof ToolError ? error.redactions : [];
    services.activity?.add({ ...base, id: services.activity.newId(), durationMs: Date.now() - started, outcome: 'error', resultChars: 0, error: message, redactions, changedPaths: changedPaths() }, input, trace.changes);
    throw error;
  }
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

/** The tool's confirmation, unless the call is refused anyway (untrusted, plan mode): then invoke says why. */
async function confirmationFor(spec: ToolSpec<unknown>, input: unknown, ctx: ToolContext): Promise<ToolConfirmation | undefined> {
  try {
    checkAvailability(spec as unknown as ToolSpec<never>, ctx);
  } catch {
    return undefined;
  }
  return spec.confirmation?.(input, ctx);
}

/** Registers every tool spec with the Language Model Tools API. */
export function registerTools(specs: readonly ToolSpec<never>[], services: ToolServices): vscode.Disposable[] {
  return specs.map((spec) =>
    vscode.lm.registerTool<Record<string, unknown>>(spec.name, {
      async prepareInvocation(options, token) {
        const typed = spec as unknown as ToolSpec<unknown>;
        let message: string;
        try {
          message = typed.invocationMessage(options.input);
        } catch {
          message = spec.displayName;
        }
        const confirmation = typed.confirmation ? await confirmationFor(typed, options.input, contextFor(services, token)) : undefined;
        return {
          invocationMessage: message,
          confirmationMessages: confirmation && { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) },
        };
      },
      async invoke(options, token) {
        try {
          // A chat invocation token means chat showed prepareInvocation's confirmation and the user accepted it.
          const fromChat = options.toolInvocationToken !== undefined;
          return toLanguageModelResult(await invokeAndRecord(spec, options.input, services, token, fromChat));
        } catch (error) {
          if (error instanceof ToolError) {
            throw new Error(error.message);
          }
          const detail = error instanceof Error ? error.message : String(error);
          throw new Error(`${spec.name} failed unexpectedly: ${detail}`);
        }
      },
    }),
  );
}
