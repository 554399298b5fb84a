// Step 5 of a write, on failure: every path the plan touches is put back as it was. The snapshot
// is taken before anything is written; restoring goes by how far the write got.
import * as vscode from 'vscode';
import { errorMessage, ToolError } from '../../core/errors';
import { decodeText } from '../../core/text/encoding';
import { inDocumentEol, notebookCellTexts, openDocument, openNotebook } from '../host/documents';
import { exists, fileMode, readBytes, setFileMode } from '../host/files';
import type { WriteTarget } from './writeTargets';

/** What a path held before the change. */
export interface Restorable {
  readonly uri: vscode.Uri;
  readonly existed: boolean;
  readonly bytes?: Uint8Array;
  readonly mode?: number;
  /** The unsaved editor text the user had, to put back into the editor. */
  readonly editorText?: string;
  /** For a notebook open in a notebook editor: each cell's text there, and whether it had unsaved changes. */
  readonly notebook?: { readonly cells: readonly string[]; readonly dirty: boolean };
}

/** How far a write got, which decides what restoring undoes. */
export interface WriteProgress {
  /** Parent folders made for new files; removed again on failure. */
  readonly createdFolders: vscode.Uri[];
  /** True from the moment the edit is applied: files may have changed. */
  writing: boolean;
}

/** Every path the plan writes, as it is now (the modes as resolved with the targets). */
export async function snapshot(targets: readonly WriteTarget[]): Promise<Restorable[]> {
  const paths: { uri: vscode.Uri; mode?: number; destination?: boolean; editorText?: string; notebook?: Restorable['notebook'] }[] = [];
  for (const { file, uri, moveTo, notebook: open, mode } of targets) {
    const notebook = file.notebookCell && open;
    paths.push({
      uri,
      mode,
      editorText: file.before?.fromEditor && !notebook ? file.before.text : undefined,
      ...(notebook ? { notebook: { cells: notebookCellTexts(notebook), dirty: notebook.isDirty } } : {}),
    });
    if (moveTo) {
      paths.push({ uri: moveTo, destination: true });
    }
  }
  return Promise.all(
    paths.map(async ({ uri, mode, destination, editorText, notebook }) => {
      const bytes = await readBytes(uri);
      // A move's destination was not there when it was verified: its mode is read only here, in case it appeared since.
      return { uri, existed: bytes !== undefined, bytes, mode: destination ? await fileMode(uri) : mode, editorText, ...(notebook ? { notebook } : {}) };
    }),
  );
}

/**
 * Undoes a failed write and returns the error for the model. Before the edit nothing but empty
 * folders was written: they are removed and the files left alone, and a ToolError raised then
 * (a concurrent edit) passes unchanged. After it, every path is restored and the error says how that went.
 */
export async function restoreOnFailure(error: unknown, progress: WriteProgress, before: readonly Restorable[]): Promise<ToolError> {
  const problems = progress.writing ? await restore(before) : [];
  for (const folder of [...progress.createdFolders].reverse()) {
    await vscode.workspace.fs.delete(folder, { recursive: false, useTrash: false }).then(undefined, () => undefined);
  }
  if (!progress.writing && error instanceof ToolError) {
    return error;
  }
  const detail = errorMessage(error);
  const restored = !progress.writing
    ? 'Nothing was written.'
    : problems.length === 0
      ? 'Every file was restored to its previous content.'
      : `Restoring failed for: ${problems.join(', ')}; check these files.`;
  return new ToolError(`Writing the change failed (${detail}). ${restored}`);
}

/** Puts every path back as it was; returns the paths it could not restore. */
async function restore(restorables: readonly Restorable[]): Promise<string[]> {
  const problems: string[] = [];
  for (const item of [...restorables].reverse()) {
    try {
      const document = openDocument(item.uri);
      if (document?.isDirty && item.editorText === undefined && item.existed && item.bytes) {
        // The document holds the failed change: bring it back to the file's content and save, so
        // a later save by the user cannot write the change after all. The exact bytes follow.
        await replaceDocumentText(document, decodeText(item.bytes).text);
        await document.save();
      }
      // The file's bytes are put back even when the notebook editor's cells cannot be.
      const cellsRestored = item.notebook ? await restoreNotebookCells(item.uri, item.notebook).then(() => true, () => false) : true;
      if (item.existed && item.bytes) {
        await vscode.workspace.fs.writeFile(item.uri, item.bytes);
        if (item.mode !== undefined) {
          await setFileMode(item.uri, item.mode);
        }
      } else if (await exists(item.uri)) {
        await vscode.workspace.fs.delete(item.uri, { useTrash: false });
      }
      if (item.editorText !== undefined && document && document.getText() !== item.editorText) {
        // The user's unsaved text goes back into the editor, still unsaved.
        await replaceDocumentText(document, item.editorText);
      }
      if (!cellsRestored) {
        throw new Error('the notebook editor still holds the failed change');
      }
    } catch {
      problems.push(item.uri.scheme === 'file' ? item.uri.fsPath : item.uri.toString());
    }
  }
  return problems;
}

/**
 * A notebook editor's cells as they were: each changed cell gets its text back (an edit the user
 * can undo), and a notebook that had no unsaved changes is saved, so a later save by the user
 * cannot write the failed change after all (the exact bytes follow); one that had keeps them, unsaved.
 */
async function restoreNotebookCells(uri: vscode.Uri, before: NonNullable<Restorable['notebook']>): Promise<void> {
  const notebook = openNotebook(uri);
  if (!notebook) {
    return;
  }
  if (notebook.cellCount !== before.cells.length) {
    throw new Error(`${uri.fsPath} has ${notebook.cellCount} cells in the notebook editor, ${before.cells.length} before the write`);
  }
  const edit = new vscode.WorkspaceEdit();
  notebookCellTexts(notebook).forEach((text, index) => {
    if (text !== before.cells[index]) {
      const document = notebook.cellAt(index).document;
      edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(text.length)), inDocumentEol(before.cells[index], document));
    }
  });
  if (edit.size > 0 && !(await vscode.workspace.applyEdit(edit))) {
    throw new Error(`the cells of ${uri.fsPath} could not be put back`);
  }
  if (!before.dirty && notebook.isDirty) {
    await notebook.save();
  }
}

/** Replaces a document's whole text (as an edit the user can undo). */
async function replaceDocumentText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), inDocumentEol(text, document));
  await vscode.workspace.applyEdit(edit);
}
