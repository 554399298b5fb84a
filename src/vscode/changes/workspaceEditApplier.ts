// Writes a reviewed plan as one WorkspaceEdit (one undo step), then saves the documents it touched.
// Unsaved editor text is the baseline; every file is checked against what the user reviewed before
// anything is written; a failure restores every path it had changed. The steps, in order: verify,
// snapshot, build the edit, write, report new errors.
import * as vscode from 'vscode';
import { BugError, throwIfCancelled, ToolError, type CancellationSignal } from '../../core/errors';
import type { AppliedChange, ChangePlan, ChangeWriter, PlannedContent, PlannedFileChange } from '../../core/ports/changes';
import { sameBytes } from '../../core/text/bytes';
import { openDocument } from '../host/documents';
import { toUri } from '../host/uris';
import { inDocumentEol, minimalReplacement, routeFor } from './documentWrites';
import { errorKeys, newErrors } from './newDiagnostics';
import { restore, snapshot, type Restorable } from './rollback';
import { createParents, exists, fileMode, readBytes, setFileMode } from './vscodeFiles';

/** The WorkspaceEdit of a plan and what must happen after it is applied. */
interface WriteSteps {
  readonly edit: vscode.WorkspaceEdit;
  /** Text edits and file operations in the edit (WorkspaceEdit.size counts only text edits). */
  editCount: number;
  /** Replacement ranges are computed against these document versions; typing in between would make them wrong. */
  readonly versions: { document: vscode.TextDocument; version: number; shownPath: string }[];
  /** Documents to save; `expected` are the bytes the user approved, when the document had no unsaved text. */
  readonly saves: { uri: vscode.Uri; expected?: Uint8Array }[];
  /** Files written as bytes because a TextDocument could not hold them. */
  readonly byteWrites: { uri: vscode.Uri; bytes: Uint8Array }[];
  /** Modes to put back after saving (atomic saves and createFile replace the file). */
  readonly modes: { uri: vscode.Uri; mode: number }[];
}

export class WorkspaceEditApplier implements ChangeWriter {
  async write(plan: ChangePlan, token: CancellationSignal): Promise<AppliedChange> {
    for (const file of plan.files) {
      await verifyBaseline(file);
    }
    throwIfCancelled(token);
    const restorables = await snapshot(plan);
    const errorsBefore = plan.reportDiagnostics ? errorKeys(plan) : new Map<string, Set<string>>();
    const steps = await buildSteps(plan);
    const createdFolders: vscode.Uri[] = [];
    let writing = false;
    try {
      // WorkspaceEdit.createFile does not create missing parent folders; create them first (and remove them on failure).
      for (const file of plan.files) {
        const destination = file.kind === 'create' ? file.location : file.moveTo;
        if (destination) {
          createdFolders.push(...(await createParents(toUri(destination))));
        }
      }
      for (const { document, version, shownPath } of steps.versions) {
        if (document.version !== version) {
          throw new ToolError(`${shownPath} was edited in the editor just now, while the change was being written; nothing was written. Read it again and redo the change.`);
        }
      }
      writing = true;
      await applySteps(plan, steps);
    } catch (error) {
      throw await rollBack(error, writing, restorables, createdFolders);
    }
    const notes = plan.reportDiagnostics ? await newErrors(plan, errorsBefore) : [];
    return { notes };
  }
}

function afterOf(file: PlannedFileChange): PlannedContent {
  if (!file.after) {
    throw new BugError(`no new content planned for ${file.shownPath}`);
  }
  return file.after;
}

/** Refuses to write when the file is no longer what the user reviewed (someone typed or saved meanwhile). */
async function verifyBaseline(file: PlannedFileChange): Promise<void> {
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
  if (file.before.fromEditor) {
    if (!document || document.getText() !== file.before.text) {
      changed();
    }
    return;
  }
  if (document?.isDirty) {
    changed();
  }
  const bytes = await readBytes(uri);
  if (!bytes || !sameBytes(bytes, file.before.bytes)) {
    changed();
  }
}

/** Routes each file through a TextDocument or raw bytes and builds the one WorkspaceEdit. */
async function buildSteps(plan: ChangePlan): Promise<WriteSteps> {
  const steps: WriteSteps = { edit: new vscode.WorkspaceEdit(), editCount: 0, versions: [], saves: [], byteWrites: [], modes: [] };
  for (const file of plan.files) {
    const uri = toUri(file.location);
    const mode = await fileMode(uri);
    if (file.kind === 'create') {
      steps.edit.createFile(uri, { contents: afterOf(file).bytes, overwrite: false });
      steps.editCount += 1;
    } else if (file.kind === 'delete') {
      steps.edit.deleteFile(uri, { ignoreIfNotExists: false });
      steps.editCount += 1;
    } else if (file.moveTo) {
      // A move writes the planned bytes at the destination and removes the source, in the same edit.
      const destination = toUri(file.moveTo);
      steps.edit.createFile(destination, { contents: afterOf(file).bytes, overwrite: false });
      steps.edit.deleteFile(uri, { ignoreIfNotExists: false });
      steps.editCount += 2;
      if (mode !== undefined) {
        steps.modes.push({ uri: destination, mode });
      }
    } else {
      const after = afterOf(file);
      if (routeFor(after, uri) === 'bytes') {
        steps.byteWrites.push({ uri, bytes: after.bytes });
      } else {
        const document = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
        const wasDirty = document.isDirty;
        const replacement = minimalReplacement(document, inDocumentEol(after.text, document));
        if (replacement) {
          steps.versions.push({ document, version: document.version, shownPath: file.shownPath });
          steps.edit.replace(uri, replacement.range, replacement.text);
          steps.editCount += 1;
          steps.saves.push({ uri, expected: wasDirty ? undefined : after.bytes });
        }
      }
      if (mode !== undefined) {
        steps.modes.push({ uri, mode });
      }
    }
  }
  return steps;
}

/** Applies the edit, checks created files, saves documents, writes bytes and puts modes back. */
async function applySteps(plan: ChangePlan, steps: WriteSteps): Promise<void> {
  if (steps.editCount > 0 && !(await vscode.workspace.applyEdit(steps.edit, { isRefactoring: false }))) {
    throw new Error('VS Code refused the workspace edit');
  }
  for (const file of plan.files) {
    const destination = file.kind === 'create' ? file.location : file.moveTo;
    if (destination) {
      const written = await readBytes(toUri(destination));
      if (!written || !sameBytes(written, afterOf(file).bytes)) {
        throw new Error(`${file.shownMoveTo ?? file.shownPath} was not created as planned`);
      }
    }
  }
  for (const save of steps.saves) {
    const document = await vscode.workspace.openTextDocument(save.uri);
    if (document.isDirty && !(await document.save())) {
      throw new Error(`${save.uri.fsPath || save.uri.path} could not be saved`);
    }
    const written = save.expected ? await readBytes(save.uri) : undefined;
    if (save.expected && written && !sameBytes(written, save.expected)) {
      // A save participant (format on save, trim whitespace) or the document's encoding produced
      // other bytes than the user approved: write exactly the approved bytes. The editor reloads them.
      await vscode.workspace.fs.writeFile(save.uri, save.expected);
    }
  }
  for (const write of steps.byteWrites) {
    // Written as bytes because a TextDocument cannot hold them: VS Code normalises mixed line
    // endings to one kind when it loads a document, and save participants rewrite whole files.
    // This path keeps every byte of the lines that were not changed.
    await vscode.workspace.fs.writeFile(write.uri, write.bytes);
  }
  for (const { uri, mode } of steps.modes) {
    // Saving may replace the file (atomic writes, createFile): put back the executable bit and the rest of the mode.
    if ((await fileMode(uri)) !== mode) {
      await setFileMode(uri, mode);
    }
  }
}

/**
 * Undoes a failed write and returns the error for the model. Before the edit nothing but empty
 * folders was written: they are removed and the files left alone, and a ToolError raised then
 * (a concurrent edit) passes unchanged. After it, every path is restored and the error says how that went.
 */
async function rollBack(error: unknown, writing: boolean, restorables: readonly Restorable[], createdFolders: readonly vscode.Uri[]): Promise<ToolError> {
  const problems = writing ? await restore(restorables) : [];
  for (const folder of [...createdFolders].reverse()) {
    await vscode.workspace.fs.delete(folder, { recursive: false, useTrash: false }).then(undefined, () => undefined);
  }
  if (!writing && error instanceof ToolError) {
    return error;
  }
  const detail = error instanceof Error ? error.message : String(error);
  const restored = !writing
    ? 'Nothing was written.'
    : problems.length === 0
      ? 'Every file was restored to its previous content.'
      : `Restoring failed for: ${problems.join(', ')}; check these files.`;
  return new ToolError(`Writing the change failed (${detail}). ${restored}`);
}
