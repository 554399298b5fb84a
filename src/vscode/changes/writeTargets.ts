// The files of a write, each resolved once before the first step: its URI (and the move's
// destination), the document or notebook VS Code holds open for it, and its mode. The steps take
// these targets instead of looking each up again. What a step must read again on purpose (the text
// or bytes now, because the person may type or autosave may save during the review and the write)
// it reads from the live document or the disk, and says so where it does.
import type * as vscode from 'vscode';
import type { ChangePlan, PlannedFileChange } from '../../core/ports/changes';
import { openDocument, openNotebook } from '../host/documents';
import { fileMode } from '../host/files';
import { toUri } from '../host/uris';

/** One file of a plan, resolved once. */
export interface WriteTarget {
  readonly file: PlannedFileChange;
  readonly uri: vscode.Uri;
  /** A move's destination. */
  readonly moveTo?: vscode.Uri;
  /** The text document open at `uri` when the write began. */
  readonly document?: vscode.TextDocument;
  /** The notebook open at `uri` (in a notebook editor, or held by an extension) when the write began. */
  readonly notebook?: vscode.NotebookDocument;
  /** The permission bits of a local file from before the write. */
  readonly mode?: number;
}

/** Every file of the plan resolved, in the plan's order. Reads no file's content. */
export async function resolveTargets(plan: ChangePlan): Promise<WriteTarget[]> {
  return Promise.all(
    plan.files.map(async (file): Promise<WriteTarget> => {
      const uri = toUri(file.location);
      const document = openDocument(uri);
      const notebook = openNotebook(uri);
      const mode = await fileMode(uri);
      return { file, uri, ...(file.moveTo ? { moveTo: toUri(file.moveTo) } : {}), ...(document ? { document } : {}), ...(notebook ? { notebook } : {}), ...(mode !== undefined ? { mode } : {}) };
    }),
  );
}
