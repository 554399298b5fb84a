import * as vscode from 'vscode';
import type { Approver, Clock, ReadLedger, ToolContext } from '../core/ports';
import { invokeTool } from '../core/tools/invoke';
import { ToolError, type ToolResult, type ToolSpec } from '../core/tools/toolSpec';
import { VsCodeEditorBuffers } from './editorBuffers';
import { VsCodeFileSystem } from './fileSystemPort';
import { readToolSettings, readWorkspaceInfo } from './settings';

/** The long-lived services every call shares. */
export interface ToolServices {
  readonly approver: Approver;
  readonly reads: ReadLedger;
  /** The ripgrep binary for local searches, when one was found. */
  readonly ripgrepPath?: string;
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
    ripgrepPath: services.ripgrepPath,
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
          return toLanguageModelResult(await invokeTool(spec, options.input, contextFor(services, token)));
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
