// The editor port: what the user has typed but not saved is the truth the tools read and change.
import type { Location } from '../location';

/** The text of documents open in an editor. */
export interface EditorBuffers {
  /** The text of an open document with unsaved changes at this location, else undefined. */
  dirtyText(location: Location): string | undefined;
  /** The cells' texts, in order, of a notebook open in a notebook editor with unsaved changes at this location, else undefined. */
  dirtyNotebookCells(location: Location): readonly string[] | undefined;
}
