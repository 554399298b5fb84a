// Step 2 of a write: the one WorkspaceEdit of a plan (one undo step) and what must follow it. Each
// file goes through its TextDocument (undoable, unsaved text kept) or, when a TextDocument would
// not keep the approved bytes, is written as bytes after the edit.
import * as vscode from 'vscode';
import { BugError, ToolError } from '../../core/errors';
import type { PlannedContent, PlannedFileChange } from '../../core/ports/changes';
import { hasMixedLineEndings, splitLines } from '../../core/text/lineEndings';
import { inDocumentEol } from '../host/documents';
import type { WriteTarget } from './writeTargets';

/** The WorkspaceEdit of a plan and what the later steps do with it, in the order they do it. */
export interface PlannedWrite {
  readonly edit: vscode.WorkspaceEdit;
  /** Text edits and file operations in the edit (WorkspaceEdit.size counts only text edits). */
  editCount: number;
  /** Replacement ranges are computed against these document versions; typing in between would make them wrong. */
  readonly versions: { document: vscode.TextDocument; version: number; shownPath: string }[];
  /** Files the edit creates (new files, move destinations): their parent folders are made first, their bytes checked after. */
  readonly created: { uri: vscode.Uri; bytes: Uint8Array; shownPath: string }[];
  /** Documents (or notebooks) to save; `expected` are the bytes the user approved, when the document had no unsaved text. */
  readonly saves: { uri: vscode.Uri; document: vscode.TextDocument | vscode.NotebookDocument; expected?: Uint8Array }[];
  /** Files written as bytes because a TextDocument could not hold them. */
  readonly byteWrites: { uri: vscode.Uri; bytes: Uint8Array }[];
  /** Modes to put back after saving (atomic saves and createFile replace the file). */
  readonly modes: { uri: vscode.Uri; mode: number }[];
}

/** Routes each file of the plan and builds the one WorkspaceEdit. Writes nothing. */
export async function planWrite(targets: readonly WriteTarget[]): Promise<PlannedWrite> {
  const planned: PlannedWrite = { edit: new vscode.WorkspaceEdit(), editCount: 0, versions: [], created: [], saves: [], byteWrites: [], modes: [] };
  for (const target of targets) {
    if (target.file.kind === 'create') {
      planCreate(planned, target);
    } else if (target.file.kind === 'delete') {
      planDelete(planned, target);
    } else if (target.moveTo) {
      planMove(planned, target, target.moveTo);
    } else {
      await planModify(planned, target);
    }
  }
  return planned;
}

function planCreate(planned: PlannedWrite, { file, uri }: WriteTarget): void {
  const { bytes } = afterOf(file);
  planned.edit.createFile(uri, { contents: bytes, overwrite: false });
  planned.editCount += 1;
  planned.created.push({ uri, bytes, shownPath: file.shownPath });
}

function planDelete(planned: PlannedWrite, { uri }: WriteTarget): void {
  planned.edit.deleteFile(uri, { ignoreIfNotExists: false });
  planned.editCount += 1;
}

/** A move writes the planned bytes at the destination and removes the source, in the same edit; the destination gets the source's mode. */
function planMove(planned: PlannedWrite, { file, uri, mode }: WriteTarget, destination: vscode.Uri): void {
  const { bytes } = afterOf(file);
  planned.edit.createFile(destination, { contents: bytes, overwrite: false });
  planned.edit.deleteFile(uri, { ignoreIfNotExists: false });
  planned.editCount += 2;
  planned.created.push({ uri: destination, bytes, shownPath: file.shownMoveTo ?? file.shownPath });
  if (mode !== undefined) {
    planned.modes.push({ uri: destination, mode });
  }
}

/** A file changed in place: the smallest replacement in its document, or its bytes when a document would not keep them. */
async function planModify(planned: PlannedWrite, { file, uri, document: open, notebook, mode }: WriteTarget): Promise<void> {
  const after = afterOf(file);
  if (notebook && file.notebookCell) {
    planNotebookCell(planned, file, notebook, file.notebookCell, after);
  } else if (routeFor(after, uri, open) === 'bytes') {
    planned.byteWrites.push({ uri, bytes: after.bytes });
  } else {
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    const wasDirty = document.isDirty;
    const replacement = minimalReplacement(document, inDocumentEol(after.text, document));
    if (replacement) {
      planned.versions.push({ document, version: document.version, shownPath: file.shownPath });
      planned.edit.replace(uri, replacement.range, replacement.text);
      planned.editCount += 1;
      planned.saves.push({ uri, document, expected: wasDirty ? undefined : after.bytes });
    }
  }
  if (mode !== undefined) {
    planned.modes.push({ uri, mode });
  }
}

/**
 * One cell of a notebook open in VS Code, changed through that cell's document: the notebook
 * editor's unsaved cells stay, and the edit is one undo step there. A WorkspaceEdit's text edit on
 * the cell keeps its outputs and metadata, which NotebookEdit.replaceCells would replace.
 */
function planNotebookCell(planned: PlannedWrite, file: PlannedFileChange, notebook: vscode.NotebookDocument, cell: { readonly index: number; readonly text: string }, after: PlannedContent): void {
  if (cell.index >= notebook.cellCount) {
    throw new ToolError(`${file.shownPath} now has ${notebook.cellCount} cells in the notebook editor; cell ${cell.index} is gone. Read it again and redo the change.`);
  }
  const document = notebook.cellAt(cell.index).document;
  const replacement = minimalReplacement(document, inDocumentEol(cell.text, document));
  if (replacement) {
    planned.versions.push({ document, version: document.version, shownPath: `${file.shownPath} cell ${cell.index}` });
    planned.edit.replace(document.uri, replacement.range, replacement.text);
    planned.editCount += 1;
    planned.saves.push({ uri: notebook.uri, document: notebook, expected: notebook.isDirty ? undefined : after.bytes });
  }
}

function afterOf(file: PlannedFileChange): PlannedContent {
  if (!file.after) {
    throw new BugError(`no new content planned for ${file.shownPath}`);
  }
  return file.after;
}

/** Through the document (undoable) unless a TextDocument would not keep the approved bytes. */
function routeFor(after: PlannedContent, uri: vscode.Uri, document: vscode.TextDocument | undefined): 'document' | 'bytes' {
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

/** The smallest single replacement that turns `current` into `wanted`, so cursors and folding elsewhere survive. */
function minimalReplacement(document: vscode.TextDocument, wanted: string): { range: vscode.Range; text: string } | undefined {
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
