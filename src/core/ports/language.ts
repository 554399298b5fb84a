// The language port: what the editor's language services know about the workspace (problems,
// symbols, definitions and references, hover text, renames), whatever extension provides them.
// Positions are VS Code's: 0-based lines and UTF-16 characters; core turns them into 1-based text.
import type { CancellationSignal } from '../errors';
import type { Location } from '../location';

export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint';

/** A place in a document: 0-based line and character. */
export interface TextPosition {
  readonly line: number;
  readonly character: number;
}

export interface TextRange {
  readonly start: TextPosition;
  readonly end: TextPosition;
}

/** One problem a language service reports. */
export interface ReportedDiagnostic {
  readonly location: Location;
  readonly range: TextRange;
  readonly severity: DiagnosticSeverity;
  /** Who reported it, e.g. `ts`, `json`, `css`. */
  readonly source?: string;
  readonly code?: string;
  readonly message: string;
}

/** A symbol of a document outline or of the workspace symbol search. */
export interface FoundSymbol {
  readonly name: string;
  /** The kind in lower case words, e.g. `function`, `class`, `property`. */
  readonly kind: string;
  /** The symbol it is declared in, when the provider says. */
  readonly container?: string;
  readonly location: Location;
  /** Where its name is (outline: the selection range; search: the location's range). */
  readonly range: TextRange;
  /** Nesting in a document outline (0 at the top). */
  readonly depth: number;
}

/** A location a definition, reference, implementation or type definition provider answered. */
export interface FoundLocation {
  readonly location: Location;
  readonly range: TextRange;
}

export type LocationKind = 'definition' | 'references' | 'implementations' | 'type_definition';

/** One text replacement of a rename. */
export interface TextReplacement {
  readonly range: TextRange;
  readonly newText: string;
}

/** A rename provider's answer: the text edits per file, and what else it would do (file renames) described. */
export interface RenameEdits {
  readonly files: readonly { readonly location: Location; readonly edits: readonly TextReplacement[] }[];
  readonly otherOperations: readonly string[];
}

/** A provider's refusal (a rename that clashes, a symbol that cannot be renamed), in its own words. */
export interface ProviderRefusal {
  readonly refused: string;
}

/** The editor's language services. Every query may wait for a language server; the caller bounds the wait. */
export interface LanguageFeatures {
  /** Every diagnostic VS Code knows now, in every file. */
  diagnostics(): readonly ReportedDiagnostic[];
  /**
   * Resolves after `ms`, on cancellation, or once diagnostics of `locations` (any file when empty)
   * changed, `done()` holds (when given), and they then stayed quiet for a moment.
   */
  settleDiagnostics(locations: readonly Location[], ms: number, token: CancellationSignal, done?: () => boolean): Promise<void>;
  /**
   * Opens the document (so its language service looks at it) and returns its language id, e.g.
   * `typescript`. `show`: also in an editor tab (a preview, without focus), for the language
   * services that check only files shown in tabs (TypeScript, and the servers that pull diagnostics).
   */
  open(location: Location, show?: boolean): Promise<string>;
  /** The outline of a document; undefined when no provider answered for its language. */
  documentSymbols(location: Location): Promise<readonly FoundSymbol[] | undefined>;
  /** The workspace symbol search of every provider. */
  workspaceSymbols(query: string): Promise<readonly FoundSymbol[]>;
  /** Definitions, references, implementations or type definitions at a position. */
  locations(kind: LocationKind, location: Location, position: TextPosition): Promise<readonly FoundLocation[]>;
  /** The hover texts at a position (Markdown as the provider wrote it). */
  hover(location: Location, position: TextPosition): Promise<readonly string[]>;
  /** The rename provider's edit, or its refusal. */
  rename(location: Location, position: TextPosition, newName: string): Promise<RenameEdits | ProviderRefusal>;
}
