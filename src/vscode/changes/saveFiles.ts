// Step 4 of a write: after the edit, the documents it changed are saved with exactly the bytes the
// user approved, the files a TextDocument could not hold are written as bytes, and modes are put back.
import * as vscode from 'vscode';
import { sameBytes } from '../../core/text/bytes';
import { fileMode, readBytes, setFileMode } from '../host/files';
import type { PlannedWrite } from './planWrite';

/** Saves each edited document (as planWrite resolved it); where the saved bytes differ from the approved ones, writes the approved ones. */
export async function saveDocuments(planned: PlannedWrite): Promise<void> {
  for (const save of planned.saves) {
    const { document } = save;
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
}

/** Writes the files that go as bytes. */
export async function writeBytes(planned: PlannedWrite): Promise<void> {
  for (const write of planned.byteWrites) {
    // Written as bytes because a TextDocument cannot hold them: VS Code normalises mixed line
    // endings to one kind when it loads a document, and save participants rewrite whole files.
    // This path keeps every byte of the lines that were not changed.
    await vscode.workspace.fs.writeFile(write.uri, write.bytes);
  }
}

/** Gives each written file its mode from before the write. */
export async function putModesBack(planned: PlannedWrite): Promise<void> {
  for (const { uri, mode } of planned.modes) {
    // Saving may replace the file (atomic writes, createFile): put back the executable bit and the rest of the mode.
    if ((await fileMode(uri)) !== mode) {
      await setFileMode(uri, mode);
    }
  }
}
