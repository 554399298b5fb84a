// "Workspace Agent Tools: Invoke Tool...": any tool with its input as JSON, through vscode.lm.invokeTool.
import * as vscode from 'vscode';
import { joinTextParts } from '../../core/output/budget';
import type { Tool } from '../../core/tools/toolSpec';
import { CommandId } from '../commandIds';
import type { ToolResultDocuments } from './resultDocuments';
import { errorMessage } from '../../core/errors';

/** An input skeleton for the input box: every field of the schema, required ones filled in. */
function inputTemplate(spec: Tool): string {
  const properties = spec.inputSchema.properties ?? {};
  const required = new Set(spec.inputSchema.required ?? []);
  const template: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (required.has(name)) {
      template[name] = schema.type === 'string' ? '' : schema.type === 'boolean' ? false : schema.type === 'array' ? [] : 0;
    }
  }
  return JSON.stringify(template);
}

/** The parts as one text: a long text comes in several parts split after a line end, which join back as they were. */
function resultText(result: vscode.LanguageModelToolResult): string {
  const texts = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : `[${(part as { mimeType?: string }).mimeType ?? 'non-text'} part]`));
  return joinTextParts(texts);
}

/**
 * "Workspace Agent Tools: Invoke Tool...": pick a tool, give its input as JSON, and see the result,
 * through vscode.lm.invokeTool so the guard and approvals apply exactly as for agents.
 */
export function registerInvokeToolCommand(specs: readonly Tool[], documents: ToolResultDocuments): vscode.Disposable {
  return vscode.commands.registerCommand(CommandId.invokeTool, async (name?: string, input?: object) => {
    const spec = name ? specs.find((candidate) => candidate.name === name) : (await vscode.window.showQuickPick(
      specs.map((candidate) => ({ label: candidate.displayName, description: candidate.name, detail: candidate.userDescription, spec: candidate })),
      { placeHolder: 'Which tool?', matchOnDescription: true },
    ))?.spec;
    if (!spec) {
      return undefined;
    }
    let toolInput = input;
    if (!toolInput) {
      const fields = Object.keys(spec.inputSchema.properties ?? {}).join(', ');
      const raw = await vscode.window.showInputBox({
        title: `${spec.displayName} (${spec.name})`,
        prompt: `Input as JSON. Fields: ${fields}`,
        value: inputTemplate(spec),
        validateInput: (value) => {
          try {
            return typeof JSON.parse(value) === 'object' ? undefined : 'Enter a JSON object.';
          } catch (error) {
            return `Not valid JSON: ${(error as Error).message}`;
          }
        },
      });
      if (raw === undefined) {
        return undefined;
      }
      toolInput = JSON.parse(raw) as object;
    }
    const tokenSource = new vscode.CancellationTokenSource();
    try {
      const result = await vscode.lm.invokeTool(spec.name, { input: toolInput, toolInvocationToken: undefined }, tokenSource.token);
      const text = resultText(result);
      await documents.show(`${spec.name}.txt`, text);
      return text;
    } catch (error) {
      void vscode.window.showErrorMessage(`${spec.name}: ${errorMessage(error)}`);
      return undefined;
    } finally {
      tokenSource.dispose();
    }
  });
}
