// How a file's new content goes through its TextDocument (one undo step, unsaved text kept), and
// when it must be written as bytes instead because a TextDocument would not keep them.
import * as vscode from 'vscode';
import type { PlannedContent } from '../../core/ports/changes';
import { hasMixedLineEndings, splitLines } from '../../core/text/lineEndings';
import { openDocument } from '../host/documents';

/** How one file's new content reaches the disk. */
export type WriteRoute = 'document' | 'bytes';

/** Through the document (undoable) unless a TextDocument would not keep the approved bytes. */
export function routeFor(after: PlannedContent, uri: vscode.Uri): WriteRoute {
  const document = openDocument(uri);
  if (document?.isDirty) {
    // The user's unsaved text is the baseline and lives only in the document: go through it.
    return 'document';
  }
  if (hasMixedLineEndings(splitLines(after.text)) || saveWouldRewrite(uri)) {
    return 'bytes';
  }
  if (document && document.encoding !== after.encoding) {
    return 'bytes';
  }
  return 'document';
}

/** Save participants that would rewrite lines we did not change when VS Code saves the document. */
function saveWouldRewrite(uri: vscode.Uri): boolean {
  const files = vscode.workspace.getConfiguration('files', uri);
  const editor = vscode.workspace.getConfiguration('editor', uri);
  const actions = editor.get<unknown>('codeActionsOnSave');
  const hasActions = Array.isArray(actions) ? actions.length > 0 : actions !== null && typeof actions === 'object' && Object.values(actions).some((value) => value !== false && value !== 'never');
  return files.get<boolean>('trimTrailingWhitespace', false) || files.get<boolean>('insertFinalNewline', false) || files.get<boolean>('trimFinalNewlines', false) || editor.get<boolean>('formatOnSave', false) || hasActions;
}

/** The document's text with the line endings a TextDocument can hold (one kind for the whole document). */
export function inDocumentEol(text: string, document: vscode.TextDocument): string {
  return text.replace(/\r\n?|\n/g, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
}

/** The smallest single replacement that turns `current` into `wanted`, so cursors and folding elsewhere survive. */
export function minimalReplacement(document: vscode.TextDocument, wanted: string): { range: vscode.Range; text: string } | undefined {
  const current = document.getText();
  if (current === wanted) {
    return undefined;
  }
  let prefix = 0;
  const max = Math.min(current.length, wanted.length);
  while (prefix < max && current.charCodeAt(prefix) === wanted.charCodeAt(prefix)) {
    prefix += 1;
  }
  let suffix = 0;
  while (suffix < max - prefix && current.charCodeAt(current.length - 1 - suffix) === wanted.charCodeAt(wanted.length - 1 - suffix)) {
    suffix += 1;
  }
  // Never split a CRLF pair.
  if (prefix > 0 && current[prefix - 1] === '\r') {
    prefix -= 1;
  }
  if (suffix > 0 && current[current.length - suffix] === '\n' && current[current.length - suffix - 1] === '\r') {
    suffix -= 1;
  }
  const range = new vscode.Range(document.positionAt(prefix), document.positionAt(current.length - suffix));
  return { range, text: wanted.slice(prefix, wanted.length - suffix) };
}

/** Replaces a document's whole text (as an edit the user can undo). */
export async function replaceDocumentText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), inDocumentEol(text, document));
  await vscode.workspace.applyEdit(edit);
}
