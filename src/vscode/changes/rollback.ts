// What the paths of a plan held before it was written, and putting it back when a later step fails.
import * as vscode from 'vscode';
import type { Location } from '../../core/location';
import type { ChangePlan } from '../../core/ports/changes';
import { decodeText } from '../../core/text/encoding';
import { openDocument } from '../host/documents';
import { toUri } from '../host/uris';
import { replaceDocumentText } from './documentWrites';
import { exists, fileMode, readBytes, setFileMode } from './vscodeFiles';

/** What a path held before the change. */
export interface Restorable {
  readonly uri: vscode.Uri;
  readonly existed: boolean;
  readonly bytes?: Uint8Array;
  readonly mode?: number;
  /** The unsaved editor text the user had, to put back into the editor. */
  readonly editorText?: string;
}

/** Every path the plan writes, as it is now. */
export async function snapshot(plan: ChangePlan): Promise<Restorable[]> {
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
export async function restore(restorables: readonly Restorable[]): Promise<string[]> {
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
          await setFileMode(item.uri, item.mode);
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
