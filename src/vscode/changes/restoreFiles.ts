// Writes a checkpoint restore: deletes what was created since, then puts back every recorded file
// with its bytes, executable bit or symlink target. Files open in an editor get the restored text
// through a WorkspaceEdit (one undo step in the editor) and are saved, then their exact bytes are
// written. Every path is written inside its folder only: no ancestor may be a symlink, and an
// existing symlink is replaced, never followed. Node's fs is used because VS Code's file system API
// has no modes, no symlinks and no names that are not UTF-8.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RestoreStep, RestoreWriter } from '../../core/ports/checkpoints';
import { decodeText } from '../../core/text/encoding';
import { openDocument } from '../host/documents';
import { errorMessage } from '../../core/errors';

/** The step's file on disk as bytes (names need not be UTF-8). */
function diskPath(step: Pick<RestoreStep, 'folder' | 'rawPath'>): Buffer {
  return Buffer.concat([Buffer.from(step.folder.endsWith('/') ? step.folder : `${step.folder}/`), Buffer.from(step.rawPath)]);
}

/** The step's file as a URI, when its name is valid UTF-8 (only those can be open in an editor). */
export function stepUri(step: Pick<RestoreStep, 'folder' | 'rawPath'>): vscode.Uri | undefined {
  const text = Buffer.from(step.rawPath).toString('utf8');
  return Buffer.from(text, 'utf8').equals(Buffer.from(step.rawPath)) ? vscode.Uri.file(path.join(step.folder, text)) : undefined;
}

/** Documents the restore would change that hold unsaved text. */
export function dirtyDocuments(steps: readonly RestoreStep[]): { step: RestoreStep; document: vscode.TextDocument }[] {
  return steps.flatMap((step) => {
    const uri = stepUri(step);
    const document = uri ? openDocument(uri) : undefined;
    return document?.isDirty ? [{ step, document }] : [];
  });
}

function lstat(target: Buffer): fs.Stats | undefined {
  try {
    return fs.lstatSync(target);
  } catch {
    return undefined;
  }
}

/** The folders between the workspace folder and the step's file, outermost first, as bytes. */
function ancestors(step: Pick<RestoreStep, 'folder' | 'rawPath'>): Buffer[] {
  const raw = Buffer.from(step.rawPath);
  const out: Buffer[] = [];
  for (let i = 0; i < raw.length; i += 1) {
    if (raw[i] === 0x2f) {
      out.push(diskPath({ folder: step.folder, rawPath: raw.subarray(0, i) }));
    }
  }
  return out;
}

/** Makes the missing folders of a path; refuses when one is a symlink or a file (writing would leave the folder). */
function makeParents(step: RestoreStep): void {
  for (const folder of ancestors(step)) {
    const stat = lstat(folder);
    if (!stat) {
      fs.mkdirSync(folder);
    } else if (!stat.isDirectory()) {
      throw new Error(`${folder.toString('utf8')} is ${stat.isSymbolicLink() ? 'a symlink' : 'not a folder'}, so the file inside it was not written`);
    }
  }
}

/** Removes the folders of a deleted file that are empty now, innermost first. */
function removeEmptyParents(step: RestoreStep): void {
  for (const folder of ancestors(step).reverse()) {
    try {
      fs.rmdirSync(folder);
    } catch {
      return;
    }
  }
}

/**
 * Writes the bytes into the file itself, never through a symlink that appeared at its name (the
 * open fails with O_NOFOLLOW), and sets the executable bit on what was opened.
 */
function writeFileNoFollow(target: Buffer, bytes: Buffer, executable: boolean): void {
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(target, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, executable ? 0o755 : 0o644);
  try {
    fs.writeFileSync(fd, bytes);
    const mode = fs.fstatSync(fd).mode & 0o7777;
    const wanted = executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
    if (wanted !== mode) {
      fs.fchmodSync(fd, wanted);
    }
  } finally {
    fs.closeSync(fd);
  }
}

async function writeStep(step: RestoreStep): Promise<void> {
  const entry = step.entry;
  if (!entry) {
    return;
  }
  makeParents(step);
  const target = diskPath(step);
  const bytes = Buffer.from(await entry.read());
  const existing = lstat(target);
  // A symlink is replaced, not followed; a file with other hard links is replaced too, so the other
  // names (maybe outside the workspace) keep their content.
  if (existing && (existing.isSymbolicLink() || entry.type === 'symlink' || !existing.isFile() || existing.nlink > 1)) {
    fs.rmSync(target, { recursive: existing.isDirectory(), force: true });
  }
  if (entry.type === 'symlink') {
    fs.symlinkSync(bytes, target);
    return;
  }
  const uri = stepUri(step);
  const document = uri ? openDocument(uri) : undefined;
  if (document && !document.isClosed) {
    // The editor shows the restored text at once and can undo it; the bytes below are what is kept.
    const decoded = decodeText(bytes).text;
    if (document.getText() !== decoded) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), decoded);
      await vscode.workspace.applyEdit(edit);
    }
    if (document.isDirty) {
      await document.save();
    }
  }
  writeFileNoFollow(target, bytes, entry.executable);
}

/** Applies the steps: deletes first, then writes. Returns one line per path that could not be restored. */
export async function applyRestore(steps: readonly RestoreStep[]): Promise<string[]> {
  const problems: string[] = [];
  for (const step of steps.filter((candidate) => candidate.action === 'delete')) {
    try {
      if (ancestors(step).some((folder) => !lstat(folder)?.isDirectory())) {
        continue;
      }
      const target = diskPath(step);
      const stat = lstat(target);
      if (stat && !stat.isDirectory()) {
        fs.unlinkSync(target);
      }
      removeEmptyParents(step);
    } catch (error) {
      problems.push(`${step.path}: ${errorMessage(error)}`);
    }
  }
  for (const step of steps.filter((candidate) => candidate.action === 'write')) {
    try {
      await writeStep(step);
    } catch (error) {
      problems.push(`${step.path}: ${errorMessage(error)}`);
    }
  }
  return problems;
}

/** The RestoreWriter port over the local disk and the open editors. */
export const restoreWriter: RestoreWriter = {
  unsaved: (steps) => dirtyDocuments(steps).map(({ step }) => step.path),
  write: applyRestore,
};
