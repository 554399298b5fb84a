// The interfaces core needs from its host. The vscode layer implements them with VS Code's APIs;
// unit tests implement them with plain Node. Nothing here imports 'vscode'.
import type { TextEncodingName } from './text/encoding';
import type { GuardVerdict } from './decisions';
import type { CancellationSignal } from './errors';
import type { Location, WorkspaceFolder } from './location';

/** What an entry is once symlinks are followed; 'other' covers devices, FIFOs and sockets. */
export type EntryKind = 'file' | 'directory' | 'other';

/** Metadata of one entry, following symlinks. */
export interface EntryStat {
  readonly kind: EntryKind;
  /** True when the entry itself is a symbolic link. */
  readonly isSymlink: boolean;
  readonly size: number;
  /** Modification time in milliseconds since the epoch. */
  readonly mtime: number;
}

/** One child of a directory as the file system lists it. */
export interface DirectoryEntry {
  readonly name: string;
  /** The kind after following a symlink; 'other' also for a dangling link. */
  readonly kind: EntryKind;
  readonly isSymlink: boolean;
}

/** Read access to any file system the workspace lives on (local disk, remote, virtual). */
export interface FileSystem {
  /** The entry's metadata, or undefined when nothing exists there. */
  stat(location: Location): Promise<EntryStat | undefined>;
  /** The whole file's bytes. */
  readFile(location: Location): Promise<Uint8Array>;
  /** The children of a directory, in no particular order. */
  readDirectory(location: Location): Promise<DirectoryEntry[]>;
  /** Resolves symlinks of the location, or of its deepest existing ancestor when it does not exist. */
  realpath(location: Location): Promise<Location>;
  /** The path on the local disk when the location is a local file, so streaming and processes can use it. */
  localPath(location: Location): string | undefined;
}

/** The text of documents open in an editor. */
export interface EditorBuffers {
  /** The text of an open document with unsaved changes at this location, else undefined. */
  dirtyText(location: Location): string | undefined;
}

/** A question for the user; the answer decides whether the tool goes on. */
export interface ApprovalRequest {
  /** Why approval is needed: a guard warning, a file change or a command. */
  readonly kind: 'guard' | 'change' | 'command';
  /** One line naming the tool and the subject. */
  readonly title: string;
  /** The reason, with the rule id where a guard rule asked. */
  readonly detail: string;
  readonly rule?: string;
  readonly path?: string;
}

/** Asks the user and answers true when the user allowed it. */
export interface Approver {
  /** Resolves to true on approval, false on refusal or cancellation. */
  confirm(request: ApprovalRequest, token: CancellationSignal): Promise<boolean>;
}

/** What the tools need to know about the open workspace. */
export interface WorkspaceInfo {
  readonly folders: readonly WorkspaceFolder[];
  /** False in Restricted Mode: only read tools may work. */
  readonly trusted: boolean;
  /** The user's home directory on the machine the extension host runs on, for `~` and sensitive paths. */
  readonly home: string;
}

/** The guard's column of the rule table. */
export type RiskLevel = 'low' | 'medium' | 'high';

/** The user's settings as the tools see them at the moment of a call. */
export interface ToolSettings {
  readonly riskLevel: RiskLevel;
  readonly planMode: boolean;
  /** When non-empty, replaces the workspace folders as the roots reads may use. */
  readonly allowedReadPaths: readonly string[];
  /** When non-empty, replaces the workspace folders as the roots writes may use. */
  readonly allowedWritePaths: readonly string[];
  /** Replace credentials in results with markers before the model sees them. Default true. */
  readonly redactSecrets?: boolean;
  /** workspaceAgentTools.runCommand.allow: command prefixes or /regex/ that run without asking. */
  readonly runCommandAllow?: readonly string[];
  /** workspaceAgentTools.runCommand.deny: command prefixes or /regex/ that are refused; undefined means the defaults. */
  readonly runCommandDeny?: readonly string[];
  /** Globs (relative to a workspace folder) of files and folders the search tools hide, as VS Code's files.exclude. */
  readonly filesExclude?: readonly string[];
  /** workspaceAgentTools.output.maxResultChars: the most characters of text one tool result may hold. */
  readonly maxResultChars?: number;
  /** workspaceAgentTools.output.commandOutputChars: characters kept of each of a command's stdout and stderr (head and tail). */
  readonly commandOutputChars?: number;
}

/** Hears what happens inside a call, for the activity log. */
export interface CallObserver {
  /** A guard verdict was reached for a path (allow verdicts of plain paths included). */
  onGuardVerdict(verdict: GuardVerdict, subject: string): void;
}

/** Remembers what the tools have read, so writes can refuse to overwrite what the agent has not seen. */
export interface ReadLedger {
  /** Records that the agent saw this file with this fingerprint. */
  record(location: Location, fingerprint: FileFingerprint): void;
  /** The fingerprint recorded at the last read, if any. */
  lookup(location: Location): FileFingerprint | undefined;
}

/** Identifies a version of a file: a content hash when the whole file was read, else size and mtime. */
export interface FileFingerprint {
  readonly size: number;
  readonly mtime: number;
  readonly sha256?: string;
  /** SHA-256 of the UTF-8 of an editor's unsaved text, when the agent read that instead of the file. */
  readonly textSha256?: string;
}

/** Wall-clock time, so tests can control it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Where a running command's output is shown to the user as it arrives. */
export interface CommandTerminal {
  /** Shows a chunk of the command's output (raw, as the process wrote it). */
  write(text: string): void;
  /** Shows the closing line (exit code, duration) and marks the terminal finished. */
  finish(summary: string): void;
  /** Fires when the user asks to stop the command (Ctrl+C in its terminal, or closing it). */
  onInterrupt(listener: () => void): { dispose(): void };
}

/** What workspace_run_command needs from the host: a shell, a place for logs, a terminal. */
export interface CommandHost {
  /** The POSIX shell that runs command lines with `-c`. */
  readonly shell: string;
  /** A local folder where full command logs are written; reads of it are allowed. */
  readonly logDirectory: string;
  /** Opens (or reuses) the terminal the user watches for one command. */
  openTerminal(commandLine: string, cwd: string): CommandTerminal;
}

/** What a file held when a change was planned: the basis the user reviews and the applier checks. */
export interface FileBaseline {
  /** The file's bytes on disk at planning time. */
  readonly bytes: Uint8Array;
  readonly encoding: TextEncodingName;
  /** The text the change was computed from: the editor's unsaved text when there is some, else the decoded file. */
  readonly text: string;
  /** True when `text` came from an editor with unsaved changes. */
  readonly fromEditor: boolean;
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
  /** The new content with its final line endings, and its bytes in the file's encoding (absent when deleting). */
  readonly after?: { readonly text: string; readonly bytes: Uint8Array; readonly encoding: TextEncodingName };
  /** Why the user must review this file even where auto-approve would skip it (a guard rule that warned). */
  readonly alwaysAsk?: string;
}

/** Everything one tool call would change: reviewed as one decision and applied as one step. */
export interface ChangePlan {
  /** The tool that proposes it, e.g. workspace_edit_file. */
  readonly tool: string;
  /** One line for the user, e.g. "Edit src/a.ts". */
  readonly summary: string;
  readonly files: readonly PlannedFileChange[];
  /** Report errors that the language services find in the changed files afterwards. */
  readonly reportDiagnostics?: boolean;
}

/** What applying reports back to the model beyond the change itself. */
export interface AppliedChange {
  /** Extra lines for the result, such as new errors in the edited files. */
  readonly notes: readonly string[];
}

/** Shows planned changes to the user and writes them. Core never writes files itself. */
export interface ChangeApplier {
  /** Shows the change (or skips the question where auto-approve allows) and resolves true when accepted. */
  review(plan: ChangePlan, token: CancellationSignal): Promise<boolean>;
  /** Writes the whole plan as one step; on failure restores what it had written and throws. */
  apply(plan: ChangePlan, token: CancellationSignal): Promise<AppliedChange>;
}

/** Everything a tool's run function may use. */
export interface ToolContext {
  readonly fs: FileSystem;
  readonly buffers: EditorBuffers;
  readonly approver: Approver;
  readonly workspace: WorkspaceInfo;
  readonly settings: ToolSettings;
  readonly reads: ReadLedger;
  readonly clock: Clock;
  readonly token: CancellationSignal;
  /** Optional listener for the activity log. */
  readonly observer?: CallObserver;
  /** Present where commands can run (a local file workspace); absent on virtual workspaces. */
  readonly commands?: CommandHost;
  /** Extra folders reads may use without the outside-workspace rule, such as the command log folder. */
  readonly extraReadRoots?: readonly Location[];
  /** True when VS Code's chat already showed this call's confirmation and the user accepted it. */
  readonly confirmedInChat?: boolean;
  /** Reviews and applies file changes; absent where the host cannot write (the write tools then refuse). */
  readonly changes?: ChangeApplier;
  /** A ripgrep binary on the extension host's disk; without it the search tools walk the FileSystem port. */
  readonly ripgrepPath?: string;
}
