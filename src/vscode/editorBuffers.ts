import * as vscode from 'vscode';
import type { EditorBuffers } from '../core/ports/editor';
import type { Location } from '../core/location';
import { toUri } from './fileSystemPort';

/** Unsaved editor text, so tools see what the user sees. */
export class VsCodeEditorBuffers implements EditorBuffers {
  dirtyText(location: Location): string | undefined {
    const key = toUri(location).toString();
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === key);
    return document?.isDirty ? document.getText() : undefined;
  }
}
