import * as vscode from 'vscode';
import { toolCommandId } from '../core/tools/manifest';
import type { Tool } from '../core/tools/toolSpec';

export const RESULT_SCHEME = 'workspace-agent-tools-result';

/** Read-only documents that show tool results opened from the palette. */
export class ToolResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private next = 1;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '';
  }

  async show(title: string, text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${this.next++}/${title}` });
    this.contents.set(uri.path, text);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
  }
}

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

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : `[${(part as { mimeType?: string }).mimeType ?? 'non-text'} part]`))
    .join('\n');
}

/**
 * "Workspace Agent Tools: Invoke Tool...": pick a tool, give its input as JSON, and see the result,
 * through vscode.lm.invokeTool so the guard and approvals apply exactly as for agents.
 */
export function registerInvokeToolCommand(specs: readonly Tool[], documents: ToolResultDocuments): vscode.Disposable {
  return vscode.commands.registerCommand('workspaceAgentTools.invokeTool', async (name?: string, input?: object) => {
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
      void vscode.window.showErrorMessage(`${spec.name}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      tokenSource.dispose();
    }
  });
}

const PATH_FIELDS = new Set(['file_path', 'path', 'cwd']);
const MULTILINE_FIELDS = new Set(['content', 'old_string', 'new_string', 'patch']);

/** A workspace file or folder picked from a list, or typed. Undefined when cancelled. */
async function pickPath(field: string, description: string, optional: boolean): Promise<string | undefined> {
  const wantsFolder = field !== 'file_path';
  const files = await vscode.workspace.findFiles('**/*', undefined, 2000);
  const relative = files.map((uri) => vscode.workspace.asRelativePath(uri, false)).sort();
  const entries = wantsFolder ? [...new Set(relative.map((file) => file.split('/').slice(0, -1).join('/')).filter(Boolean))].sort() : relative;
  const quickPick = vscode.window.createQuickPick();
  quickPick.title = field;
  quickPick.placeholder = `${description}${optional ? ' (optional: Enter with nothing typed skips it)' : ''} Type a path or pick one.`;
  const baseItems = entries.map((label) => ({ label }));
  quickPick.items = baseItems;
  quickPick.onDidChangeValue((value) => {
    quickPick.items = value && !entries.includes(value) ? [{ label: value, description: 'typed' }, ...baseItems] : baseItems;
  });
  return new Promise<string | undefined>((resolve) => {
    let accepted = false;
    quickPick.onDidAccept(() => {
      accepted = true;
      resolve(quickPick.selectedItems[0]?.label ?? quickPick.value);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      if (!accepted) {
        resolve(undefined);
      }
      quickPick.dispose();
    });
    quickPick.show();
  });
}

/** The clipboard's text, or '' where the host refuses (a browser without clipboard permission) or does not answer soon. */
async function readClipboard(): Promise<string> {
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve(''), 1000));
  return Promise.race([Promise.resolve(vscode.env.clipboard.readText()).then((text) => text, () => ''), timeout]);
}

/** Collects a tool's input field by field with quick input. Undefined when the user cancels. */
async function collectInput(spec: Tool): Promise<Record<string, unknown> | undefined> {
  const required = new Set(spec.inputSchema.required ?? []);
  const input: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(spec.inputSchema.properties ?? {})) {
    const optional = !required.has(field);
    const description = schema.description ?? field;
    let value: unknown;
    if (PATH_FIELDS.has(field)) {
      const path = await pickPath(field, description, optional);
      if (path === undefined) {
        return undefined;
      }
      value = path === '' && optional ? undefined : path;
    } else if (schema.type === 'boolean' || schema.enum) {
      const options = schema.enum ? [...schema.enum] : ['true', 'false'];
      const picked = await vscode.window.showQuickPick([...(optional ? ['(default)'] : []), ...options], { title: field, placeHolder: description });
      if (picked === undefined) {
        return undefined;
      }
      value = picked === '(default)' ? undefined : schema.type === 'boolean' ? picked === 'true' : picked;
    } else if (MULTILINE_FIELDS.has(field)) {
      const clipboard = await readClipboard();
      const choice = await vscode.window.showQuickPick(
        [{ label: 'Type one line', id: 'type' }, ...(clipboard ? [{ label: `Use the clipboard (${clipboard.split('\n').length} lines)`, id: 'clipboard' }] : [])],
        { title: field, placeHolder: description },
      );
      if (!choice) {
        return undefined;
      }
      value = choice.id === 'clipboard' ? clipboard : await vscode.window.showInputBox({ title: field, prompt: description });
      if (value === undefined) {
        return undefined;
      }
    } else {
      const isNumber = schema.type === 'integer' || schema.type === 'number';
      const raw = await vscode.window.showInputBox({
        title: field,
        prompt: `${description}${optional ? ' (optional: leave empty for the default)' : ''}`,
        validateInput: (text) => (isNumber && text !== '' && !/^-?\d+$/.test(text) ? 'Enter a whole number.' : undefined),
      });
      if (raw === undefined) {
        return undefined;
      }
      value = raw === '' && optional ? undefined : isNumber ? Number(raw) : schema.type === 'array' ? raw.split(',').map((item) => item.trim()).filter(Boolean) : raw;
    }
    if (value !== undefined) {
      input[field] = value;
    }
  }
  return input;
}

/** One palette command per tool ("Workspace Agent Tools: Read File...", "Search Text...", ...). */
export function registerToolCommands(specs: readonly Tool[]): vscode.Disposable[] {
  return specs.map((spec) =>
    vscode.commands.registerCommand(toolCommandId(spec), async () => {
      const input = await collectInput(spec);
      return input ? vscode.commands.executeCommand<string | undefined>('workspaceAgentTools.invokeTool', spec.name, input) : undefined;
    }),
  );
}
