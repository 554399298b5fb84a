// The change ports: core plans what to write; the host shows the plan to the user and writes it.
import type { CancellationSignal } from '../errors';
import type { Location } from '../location';
import type { TextEncodingName } from '../text/encoding';

/** What a file held when a change was planned: the basis the user reviews and the writer checks. */
export interface FileBaseline {
  /** The file's bytes on disk at planning time. */
  readonly bytes: Uint8Array;
  readonly encoding: TextEncodingName;
  /** The text the change was computed from: the editor's unsaved text when there is some, else the decoded file. */
  readonly text: string;
  /** True when `text` came from an editor with unsaved changes. */
  readonly fromEditor: boolean;
}

/** New content of a file, as text with its final line endings and as bytes in the file's encoding. */
export interface PlannedContent {
  readonly text: string;
  readonly bytes: Uint8Array;
  readonly encoding: TextEncodingName;
}

/** One file of a planned change. */
export interface PlannedFileChange {
  readonly kind: 'create' | 'modify' | 'delete';
  /** The file really written (symlinks resolved, so a link stays a link). */
  readonly location: Location;
  /** For a modify that also renames the file: its new location. */
  readonly moveTo?: Location;
  /** Workspace-relative paths as the user and the model see them. */
  readonly shownPath: string;
  readonly shownMoveTo?: string;
  /** The current content (absent when creating). */
  readonly before?: FileBaseline;
  /** The new content (absent when deleting). */
  readonly after?: PlannedContent;
  /**
   * For an edit of one notebook cell: the cell and its new text. A notebook open in a notebook
   * editor is changed through that cell (its unsaved changes kept, one undo there); `after` is the
   * whole file as it will be saved.
   */
  readonly notebookCell?: { readonly index: number; readonly text: string };
  /** Why the user must review this file even where auto-approve would skip it (a guard rule that warned). */
  readonly alwaysAsk?: string;
}

/** Everything one tool call would change: reviewed as one decision and written as one step. */
export interface ChangePlan {
  /** The tool that proposes it: its name for the model, its display name for the user. */
  readonly tool: { readonly name: string; readonly displayName: string };
  /** One line for the user, e.g. "Edit src/a.ts". */
  readonly summary: string;
  readonly files: readonly PlannedFileChange[];
  /** Report errors that the language services find in the changed files afterwards. */
  readonly reportDiagnostics?: boolean;
  /** The client whose call proposes it, when it must be named (an MCP client); set for the reviewer only. */
  readonly caller?: string;
}

/** What writing reports back to the model beyond the change itself. */
export interface AppliedChange {
  /** Extra lines for the result, such as new errors in the edited files. */
  readonly notes: readonly string[];
}

/** Shows a planned change to the user (a diff) and resolves true when the user accepts it. */
export interface ChangeReviewer {
  /** Resolves false on rejection and on cancellation. */
  review(plan: ChangePlan, token: CancellationSignal): Promise<boolean>;
}

/** Writes an accepted plan as one step. Core never writes files itself. */
export interface ChangeWriter {
  /** Writes the whole plan; on failure restores what it had written and throws. */
  write(plan: ChangePlan, token: CancellationSignal): Promise<AppliedChange>;
}
