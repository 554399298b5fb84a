// Step 1 of a write: every file is still what the user reviewed. Someone may have typed, saved,
// created or moved a file while the diff was open; then nothing is written.
import { ToolError } from '../../core/errors';
import type * as vscode from 'vscode';
import type { ChangePlan, PlannedFileChange } from '../../core/ports/changes';
import { withEditorCells } from '../../core/read/notebook';
import { sameBytes } from '../../core/text/bytes';
import { decodeText } from '../../core/text/encoding';
import { notebookCellTexts, openDocument, openNotebook } from '../host/documents';
import { exists, readBytes } from '../host/files';
import { toUri } from '../host/uris';

/** Refuses the write when any file of the plan changed since it was planned. */
export async function verifyUnchanged(plan: ChangePlan): Promise<void> {
  for (const file of plan.files) {
    await verifyFileUnchanged(file);
  }
}

async function verifyFileUnchanged(file: PlannedFileChange): Promise<void> {
  const uri = toUri(file.location);
  const changed = (): never => {
    throw new ToolError(`${file.shownPath} changed while the change was being reviewed; nothing was written. Read it again with workspace_read_file and redo the change.`);
  };
  if (file.moveTo && (await exists(toUri(file.moveTo)))) {
    throw new ToolError(`${file.shownMoveTo ?? file.moveTo.path} appeared while the change was being reviewed; nothing was written.`);
  }
  if (!file.before) {
    if (await exists(uri)) {
      throw new ToolError(`${file.shownPath} was created by someone else while the change was being reviewed; nothing was written. Read it and decide again.`);
    }
    return;
  }
  const document = openDocument(uri);
  const notebook = openNotebook(uri);
  // (A TextDocument of the same file, such as the diff's side, holds its JSON, not the editor's cells.)
  if (file.before.fromEditor && notebook && !document?.isDirty) {
    // The baseline is the file with a notebook editor's unsaved cells: the file now with the editor's
    // cells now must be what was reviewed. That holds when nothing changed, and when the cells were
    // saved since exactly as reviewed (auto save, the person's Save; the host may not yet know the
    // notebook is saved), but not when a cell or the file's other parts (outputs) changed.
    const bytes = await readBytes(uri);
    if (!bytes || notebookText(bytes, notebook, file.shownPath) !== file.before.text) {
      changed();
    }
    return;
  }
  if (file.before.fromEditor) {
    // The baseline is the editor's unsaved text: it must still be there, unchanged.
    if (!document || document.getText() !== file.before.text) {
      changed();
    }
    return;
  }
  // The baseline is the file on disk: no unsaved text since, and the same bytes.
  if (document?.isDirty || notebook?.isDirty) {
    changed();
  }
  const bytes = await readBytes(uri);
  if (!bytes || !sameBytes(bytes, file.before.bytes)) {
    changed();
  }
}

/** The notebook file's text with the editor's cells, or undefined when they no longer match the file cell for cell. */
function notebookText(bytes: Uint8Array, notebook: vscode.NotebookDocument, shown: string): string | undefined {
  try {
    return withEditorCells(decodeText(bytes).text, notebookCellTexts(notebook), shown);
  } catch {
    return undefined;
  }
}
