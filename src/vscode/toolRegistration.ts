import * as vscode from 'vscode';
import type { Approver, Clock, ReadLedger, ToolContext } from '../core/ports';
import { summarizeInput, type RecordedApproval, type RecordedVerdict } from '../core/activity/activityLog';
import { invokeTool } from '../core/tools/invoke';
import type { ActivityLog } from './activityLog';
import { ToolError, type ToolResult, type ToolSpec } from '../core/tools/toolSpec';
import { VsCodeEditorBuffers } from './editorBuffers';
import { VsCodeFileSystem } from './fileSystemPort';
import { readToolSettings, readWorkspaceInfo } from './settings';

/** The long-lived services every call shares. */
export interface ToolServices {
  readonly approver: Approver;
  readonly reads: ReadLedger;
  readonly activity?: ActivityLog;
}

/** What one call saw, collected for its activity record. */
interface CallTrace {
  readonly verdicts: RecordedVerdict[];
  readonly approvals: RecordedApproval[];
}

/** The context of one call, with the approver and observer wired to record into `trace`. */
function tracedContext(services: ToolServices, token: vscode.CancellationToken, trace: CallTrace): ToolContext {
  const base = contextFor(services, token);
  return {
    ...base,
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
async function invokeAndRecord(spec: ToolSpec<never>, input: unknown, services: ToolServices, token: vscode.CancellationToken): Promise<ToolResult> {
  const trace: CallTrace = { verdicts: [], approvals: [] };
  const started = Date.now();
  const base = { startedAt: new Date(started).toISOString(), tool: spec.name, input: summarizeInput(input), verdicts: trace.verdicts, approvals: trace.approvals, changedPaths: [] };
  try {
    const result = await invokeTool(spec, input, tracedContext(services, token, trace));
    services.activity?.add({ ...base, id: services.activity.newId(), durationMs: Date.now() - started, outcome: 'ok', resultChars: resultChars(result), redactions: result.redactions ?? [] }, input);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const redactions = error instanceof ToolError ? error.redactions : [];
    services.activity?.add({ ...base, id: services.activity.newId(), durationMs: Date.now() - started, outcome: 'error', resultChars: 0, error: message, redactions }, input);
    throw error;
  }
}

const systemClock: Clock = { now: () => Date.now() };

function contextFor(services: ToolServices, token: vscode.CancellationToken): ToolContext {
  return {
    fs: new VsCodeFileSystem(),
    buffers: new VsCodeEditorBuffers(),
    approver: services.approver,
    workspace: readWorkspaceInfo(),
    settings: readToolSettings(),
    reads: services.reads,
    clock: systemClock,
    token,
  };
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

/** Registers every tool spec with the Language Model Tools API. */
export function registerTools(specs: readonly ToolSpec<never>[], services: ToolServices): vscode.Disposable[] {
  return specs.map((spec) =>
    vscode.lm.registerTool<Record<string, unknown>>(spec.name, {
      prepareInvocation(options) {
        let message: string;
        try {
          message = (spec as unknown as ToolSpec<unknown>).invocationMessage(options.input);
        } catch {
          message = spec.displayName;
        }
        return { invocationMessage: message };
      },
      async invoke(options, token) {
        try {
          return toLanguageModelResult(await invokeAndRecord(spec, options.input, services, token));
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
