import type { Location } from '../../core/location';
import type { EditorBuffers } from '../../core/ports/editor';
import { notebookCellTexts, openDocument, openNotebook } from './documents';
import { toUri } from './uris';

/** Unsaved editor text, so tools see what the user sees. */
export class VsCodeEditorBuffers implements EditorBuffers {
  dirtyText(location: Location): string | undefined {
    const document = openDocument(toUri(location));
    return document?.isDirty ? document.getText() : undefined;
  }

  dirtyNotebookCells(location: Location): readonly string[] | undefined {
    const notebook = openNotebook(toUri(location));
    return notebook?.isDirty ? notebookCellTexts(notebook) : undefined;
  }
}
