// Step 3 of a write: the planned WorkspaceEdit applied as one undo step, then checked. Parent
// folders of new files come first (WorkspaceEdit.createFile does not make them), and the edit is
// refused when someone typed in a document since its replacement was computed.
import * as vscode from 'vscode';
import { ToolError } from '../../core/errors';
import { sameBytes } from '../../core/text/bytes';
import { exists, readBytes } from '../host/files';
import type { PlannedWrite } from './planWrite';

/** Creates the missing parent folders of every file the edit creates, adding each to `created` (outermost first) as soon as it exists. */
export async function createParentFolders(planned: PlannedWrite, created: vscode.Uri[]): Promise<void> {
  for (const file of planned.created) {
    created.push(...(await createParents(file.uri)));
  }
}

/** Creates the missing ancestors of a file, returning the folders it created, outermost first. */
async function createParents(file: vscode.Uri): Promise<vscode.Uri[]> {
  const missing: vscode.Uri[] = [];
  for (let folder = vscode.Uri.joinPath(file, '..'); !(await exists(folder)); folder = vscode.Uri.joinPath(folder, '..')) {
    missing.unshift(folder);
    if (folder.path === '/') {
      break;
    }
  }
  for (const folder of missing) {
    await vscode.workspace.fs.createDirectory(folder);
  }
  return missing;
}

/** Refuses the edit when a document was typed in after its replacement range was computed. */
export function verifyNoTypingSincePlanned(planned: PlannedWrite): void {
  for (const { document, version, shownPath } of planned.versions) {
    if (document.version !== version) {
      throw new ToolError(`${shownPath} was edited in the editor just now, while the change was being written; nothing was written. Read it again and redo the change.`);
    }
  }
}

/** Applies the one WorkspaceEdit (when it holds anything). */
export async function applyEdit(planned: PlannedWrite): Promise<void> {
  if (planned.editCount > 0 && !(await vscode.workspace.applyEdit(planned.edit, { isRefactoring: false }))) {
    throw new Error('VS Code refused the workspace edit');
  }
}

/** Checks that every file the edit created holds exactly the planned bytes. */
export async function verifyCreated(planned: PlannedWrite): Promise<void> {
  for (const { uri, bytes, shownPath } of planned.created) {
    const written = await readBytes(uri);
    if (!written || !sameBytes(written, bytes)) {
      throw new Error(`${shownPath} was not created as planned`);
    }
  }
}
