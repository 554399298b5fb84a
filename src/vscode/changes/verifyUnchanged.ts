// Step 1 of a write: every file is still what the user reviewed. Someone may have typed, saved,
// created or moved a file while the diff was open; then nothing is written. The text and bytes are
// read again now, on purpose: that is what the step compares with the review.
import { ToolError } from '../../core/errors';
import type * as vscode from 'vscode';
import { withEditorCells } from '../../core/read/notebook';
import { sameBytes } from '../../core/text/bytes';
import { decodeText } from '../../core/text/encoding';
import { notebookCellTexts } from '../host/documents';
import { exists, readBytes } from '../host/files';
import type { WriteTarget } from './writeTargets';

/** Refuses the write when any file of the plan changed since it was planned. */
export async function verifyUnchanged(targets: readonly WriteTarget[]): Promise<void> {
  for (const target of targets) {
    await verifyFileUnchanged(target);
  }
}

async function verifyFileUnchanged({ file, uri, moveTo, document, notebook }: WriteTarget): Promise<void> {
  const changed = (): never => {
    throw new ToolError(`${file.shownPath} changed while the change was being reviewed; nothing was written. Read it again with workspace_read_file and redo the change.`);
  };
  if (moveTo && (await exists(moveTo))) {
    throw new ToolError(`${file.shownMoveTo ?? moveTo.path} appeared while the change was being reviewed; nothing was written.`);
  }
  if (!file.before) {
    if (await exists(uri)) {
      throw new ToolError(`${file.shownPath} was created by someone else while the change was being reviewed; nothing was written. Read it and decide again.`);
    }
    return;
  }
  // (A TextDocument of the same file, such as the diff's side, holds its JSON, not the editor's cells.)
  if (file.before.fromEditor && notebook && !document?.isDirty) {
    // The baseline is the file with a notebook editor's unsaved cells: the file now with the editor's
    // cells now must be what was reviewed. That holds when nothing changed, and when the cells were
    // saved since exactly as reviewed (auto save, the person's Save; the host may not yet know the
    // notebook is saved), but not when a cell or the file's other parts (outputs) changed.
    if ((await rereadWithEditorCells(uri, notebook, file.shownPath)) !== file.before.text) {
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

/**
 * The notebook file read again now, with the editor's cells now: read again on purpose, as the
 * person may have typed in a cell or autosave may have saved it during the review. Undefined when
 * the file is gone or its cells no longer match the editor's cell for cell.
 */
async function rereadWithEditorCells(uri: vscode.Uri, notebook: vscode.NotebookDocument, shown: string): Promise<string | undefined> {
  const bytes = await readBytes(uri);
  if (!bytes) {
    return undefined;
  }
  try {
    return withEditorCells(decodeText(bytes).text, notebookCellTexts(notebook), shown);
  } catch {
    return undefined;
  }
}
