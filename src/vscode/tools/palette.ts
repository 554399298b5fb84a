// One palette command per tool ("Workspace Agent Tools: Read File...", "Search Text...", ...): each
// field of the input is asked with quick input, then the tool runs through the Invoke Tool command.
import * as vscode from 'vscode';
import { toolCommandId } from '../../core/tools/manifest';
import type { Tool } from '../../core/tools/toolSpec';
import { CommandId } from '../commandIds';

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
    if (optional && schema.type === 'array' && schema.items?.type === 'object') {
      // A list of objects (edit_file's edits) has no quick-input form; the single fields cover the palette.
      continue;
    }
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
      return input ? vscode.commands.executeCommand<string | undefined>(CommandId.invokeTool, spec.name, input) : undefined;
    }),
  );
}
