import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { decodeText } from '../core/text/encoding';
import { hasMixedLineEndings, splitLines } from '../core/text/lineEndings';
import type { AppliedChange, ChangeWriter, ChangePlan, PlannedFileChange } from '../core/ports/changes';
import { BugError, throwIfCancelled, ToolError, type CancellationSignal } from '../core/errors';
import type { Location } from '../core/location';
import { toUri } from './fileSystemPort';

/** How one file's new content reaches the disk. */
type WriteRoute = 'document' | 'bytes';

/** What a path held before the change, to put it back if a later step fails. */
interface Restorable {
  readonly uri: vscode.Uri;
  readonly existed: boolean;
  readonly bytes?: Uint8Array;
  readonly mode?: number;
  /** The unsaved editor text the user had, to put back into the editor. */
  readonly editorText?: string;
}

async function replaceDocumentText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), inDocumentEol(text, document));
  await vscode.workspace.applyEdit(edit);
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

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

async function readBytes(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch {
    return undefined;
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function fileMode(uri: vscode.Uri): Promise<number | undefined> {
  if (uri.scheme !== 'file') {
    return undefined;
  }
  try {
    return (await fs.stat(uri.fsPath)).mode & 0o7777;
  } catch {
    return undefined;
  }
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
function inDocumentEol(text: string, document: vscode.TextDocument): string {
  return text.replace(/\r\n?|\n/g, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
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

const DIAGNOSTICS_WAIT_MS = 2000;

/**
 * Applies a reviewed plan as one WorkspaceEdit (one undo step), then saves the documents it
 * touched. Unsaved editor text is the baseline; every file is checked against what the user
 * reviewed before anything is written; a failure restores every path it had changed.
 */
export class WorkspaceEditApplier implements ChangeWriter {
  async write(plan: ChangePlan, token: CancellationSignal): Promise<AppliedChange> {
    for (const file of plan.files) {
      await this.verifyBaseline(file);
    }
    throwIfCancelled(token);
    const restorables = await this.snapshot(plan);
    const errorsBefore = plan.reportDiagnostics ? this.errorKeys(plan) : new Map<string, Set<string>>();
    const edit = new vscode.WorkspaceEdit();
    let editCount = 0;
    // Replacement ranges are computed against these document versions; typing in between would make them wrong.
    const versions: { document: vscode.TextDocument; version: number; shownPath: string }[] = [];
    const saves: { uri: vscode.Uri; expected?: Uint8Array }[] = [];
    const byteWrites: { uri: vscode.Uri; bytes: Uint8Array }[] = [];
    const modes: { uri: vscode.Uri; mode: number }[] = [];
    for (const file of plan.files) {
      const uri = toUri(file.location);
      const mode = await fileMode(uri);
      if (file.kind === 'create') {
        edit.createFile(uri, { contents: this.afterOf(file).bytes, overwrite: false });
        editCount += 1;
      } else if (file.kind === 'delete') {
        edit.deleteFile(uri, { ignoreIfNotExists: false });
        editCount += 1;
      } else if (file.moveTo) {
        // A move writes the planned bytes at the destination and removes the source, in the same edit.
        const destination = toUri(file.moveTo);
        edit.createFile(destination, { contents: this.afterOf(file).bytes, overwrite: false });
        edit.deleteFile(uri, { ignoreIfNotExists: false });
        editCount += 2;
        if (mode !== undefined) {
          modes.push({ uri: destination, mode });
        }
      } else {
        const route = await this.routeFor(file, uri);
        if (route === 'bytes') {
          byteWrites.push({ uri, bytes: this.afterOf(file).bytes });
        } else {
          const document = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
          const wasDirty = document.isDirty;
          const replacement = minimalReplacement(document, inDocumentEol(this.afterOf(file).text, document));
          if (replacement) {
            versions.push({ document, version: document.version, shownPath: file.shownPath });
            edit.replace(uri, replacement.range, replacement.text);
            editCount += 1;
            saves.push({ uri, expected: wasDirty ? undefined : this.afterOf(file).bytes });
          }
        }
        if (mode !== undefined) {
          modes.push({ uri, mode });
        }
      }
    }
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
      for (const { document, version, shownPath } of versions) {
        if (document.version !== version) {
          throw new ToolError(`${shownPath} was edited in the editor just now, while the change was being written; nothing was written. Read it again and redo the change.`);
        }
      }
      writing = true;
      // WorkspaceEdit.size counts only text edits, so file operations are counted separately.
      if (editCount > 0 && !(await vscode.workspace.applyEdit(edit, { isRefactoring: false }))) {
        throw new Error('VS Code refused the workspace edit');
      }
      for (const file of plan.files) {
        const destination = file.kind === 'create' ? file.location : file.moveTo;
        if (destination) {
          const written = await readBytes(toUri(destination));
          if (!written || !sameBytes(written, this.afterOf(file).bytes)) {
            throw new Error(`${file.shownMoveTo ?? file.shownPath} was not created as planned`);
          }
        }
      }
      for (const save of saves) {
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
      for (const write of byteWrites) {
        // Written as bytes because a TextDocument cannot hold them: VS Code normalises mixed line
        // endings to one kind when it loads a document, and save participants rewrite whole files.
        // This path keeps every byte of the lines that were not changed.
        await vscode.workspace.fs.writeFile(write.uri, write.bytes);
      }
      for (const { uri, mode } of modes) {
        // Saving may replace the file (atomic writes, createFile): put back the executable bit and the rest of the mode.
        if ((await fileMode(uri)) !== mode) {
          await fs.chmod(uri.fsPath, mode);
        }
      }
    } catch (error) {
      // Before the edit nothing but empty folders was written: remove them and leave the files alone.
      const problems = writing ? await this.restore(restorables) : [];
      for (const folder of createdFolders.reverse()) {
        await vscode.workspace.fs.delete(folder, { recursive: false, useTrash: false }).then(undefined, () => undefined);
      }
      if (!writing && error instanceof ToolError) {
        throw error;
      }
      const detail = error instanceof Error ? error.message : String(error);
      const restored = !writing
        ? 'Nothing was written.'
        : problems.length === 0
          ? 'Every file was restored to its previous content.'
          : `Restoring failed for: ${problems.join(', ')}; check these files.`;
      throw new ToolError(`Writing the change failed (${detail}). ${restored}`);
    }
    const notes = plan.reportDiagnostics ? await this.newErrors(plan, errorsBefore) : [];
    return { notes };
  }

  private afterOf(file: PlannedFileChange): NonNullable<PlannedFileChange['after']> {
    if (!file.after) {
      throw new BugError(`no new content planned for ${file.shownPath}`);
    }
    return file.after;
  }

  /** Refuses to write when the file is no longer what the user reviewed (someone typed or saved meanwhile). */
  private async verifyBaseline(file: PlannedFileChange): Promise<void> {
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

  /** Through the document (undoable) unless a TextDocument would not keep the approved bytes. */
  private async routeFor(file: PlannedFileChange, uri: vscode.Uri): Promise<WriteRoute> {
    const document = openDocument(uri);
    if (document?.isDirty) {
      // The user's unsaved text is the baseline and lives only in the document: go through it.
      return 'document';
    }
    const after = this.afterOf(file);
    if (hasMixedLineEndings(splitLines(after.text)) || saveWouldRewrite(uri)) {
      return 'bytes';
    }
    if (document && document.encoding !== after.encoding) {
      return 'bytes';
    }
    return 'document';
  }

  private async snapshot(plan: ChangePlan): Promise<Restorable[]> {
    const locations: { location: Location; editorText?: string }[] = [];
    for (const file of plan.files) {
      locations.push({ location: file.location, editorText: file.before?.fromEditor ? file.before.text : undefined });
      if (file.moveTo) {
        locations.push({ location: file.moveTo });
      }
    }
    return Promise.all(
      locations.map(async ({ location, editorText }) => {
        const uri = toUri(location);
        const bytes = await readBytes(uri);
        return { uri, existed: bytes !== undefined, bytes, mode: await fileMode(uri), editorText };
      }),
    );
  }

  /** Puts every path back as it was; returns the paths it could not restore. */
  private async restore(restorables: readonly Restorable[]): Promise<string[]> {
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
        if (item.existed && item.bytes) {
          await vscode.workspace.fs.writeFile(item.uri, item.bytes);
          if (item.mode !== undefined) {
            await fs.chmod(item.uri.fsPath, item.mode);
          }
        } else if (await exists(item.uri)) {
          await vscode.workspace.fs.delete(item.uri, { useTrash: false });
        }
        if (item.editorText !== undefined && document && document.getText() !== item.editorText) {
          // The user's unsaved text goes back into the editor, still unsaved.
          await replaceDocumentText(document, item.editorText);
        }
      } catch {
        problems.push(item.uri.scheme === 'file' ? item.uri.fsPath : item.uri.toString());
      }
    }
    return problems;
  }

  private errorKeys(plan: ChangePlan): Map<string, Set<string>> {
    const keys = new Map<string, Set<string>>();
    for (const file of plan.files) {
      const uri = toUri(file.moveTo ?? file.location);
      keys.set(uri.toString(), new Set(errorsOf(uri).map(diagnosticKey)));
    }
    return keys;
  }

  /** Waits briefly for the language services to look at the changed files, then lists errors that are new. */
  private async newErrors(plan: ChangePlan, before: Map<string, Set<string>>): Promise<string[]> {
    const uris = plan.files.filter((file) => file.kind !== 'delete').map((file) => toUri(file.moveTo ?? file.location));
    // Plain text has no language service to wait for.
    const analysed = uris.some((uri) => (openDocument(uri)?.languageId ?? 'plaintext') !== 'plaintext');
    const hasNewErrors = (): boolean =>
      uris.some((uri) => {
        const known = before.get(uri.toString()) ?? new Set<string>();
        return errorsOf(uri).some((diagnostic) => !known.has(diagnosticKey(diagnostic)));
      });
    // The first diagnostics event after the write may still describe the old text, so wait until new
    // errors show up or the deadline passes; a clean edit of code costs the full (short) wait.
    await new Promise<void>((resolve) => {
      if (!analysed || hasNewErrors()) {
        resolve();
        return;
      }
      const timer = setTimeout(done, DIAGNOSTICS_WAIT_MS);
      const listener = vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((uri) => uris.some((wanted) => wanted.toString() === uri.toString())) && hasNewErrors()) {
          done();
        }
      });
      function done(): void {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
    const notes: string[] = [];
    for (const file of plan.files) {
      if (file.kind === 'delete') {
        continue;
      }
      const uri = toUri(file.moveTo ?? file.location);
      const known = before.get(uri.toString()) ?? new Set<string>();
      const fresh = errorsOf(uri).filter((diagnostic) => !known.has(diagnosticKey(diagnostic)));
      if (fresh.length > 0) {
        const lines = fresh.slice(0, 10).map((diagnostic) => `  line ${diagnostic.range.start.line + 1}: ${diagnostic.message}${diagnostic.source ? ` (${diagnostic.source})` : ''}`);
        const more = fresh.length > 10 ? [`  [${fresh.length - 10} more]`] : [];
        notes.push(`New errors reported in ${file.shownMoveTo ?? file.shownPath} after the edit:`, ...lines, ...more);
      }
    }
    return notes;
  }
}

function errorsOf(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error);
}

function diagnosticKey(diagnostic: vscode.Diagnostic): string {
  return `${diagnostic.source ?? ''}|${String(typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code ?? '')}|${diagnostic.message}`;
}
