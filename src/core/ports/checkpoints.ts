// The checkpoint ports: a private record of the workspace folders' files taken before and after
// every call that can change them, and what a restore must write to go back to one.

/** What a checkpoint records and how big the store may grow. */
export interface CheckpointLimits {
  /** Files larger than this are not recorded (the checkpoint notes each one). */
  readonly maxFileBytes: number;
  /** The store of one workspace folder is pruned, oldest checkpoint first, above this size. */
  readonly maxTotalBytes: number;
  /** Globs relative to a folder that are not recorded (VS Code's `files.exclude`), besides `.gitignore`. */
  readonly excludes: readonly string[];
}

/** One folder's part of a checkpoint. */
export interface FolderCheckpoint {
  /** The folder's path on the extension host's disk. */
  readonly folder: string;
  /** The store's own name for the recorded state (a commit of the private repository). */
  readonly state: string;
}

/** The recorded files of every workspace folder at one moment. */
export interface Checkpoint {
  readonly id: string;
  readonly takenAt: number;
  readonly folders: readonly FolderCheckpoint[];
  /** What was not recorded and why (a file over the size cap, the store over its cap). */
  readonly notes: readonly string[];
}

export type ChangeKind = 'created' | 'modified' | 'deleted';

/** One file that differs between two checkpoints. */
export interface ChangedFile {
  /** The folder (path on disk) the file is in. */
  readonly folder: string;
  /** The path inside the folder, exactly as the file system has it (names need not be UTF-8). */
  readonly rawPath: Uint8Array;
  /** The path inside the folder for display, `/`-separated (invalid UTF-8 shown as U+FFFD). */
  readonly path: string;
  readonly kind: ChangeKind;
  /** Lines added and removed; absent for binary files and when a change is too large to count. */
  readonly added?: number;
  readonly deleted?: number;
}

/** What a file is in a checkpoint. */
export interface RecordedEntry {
  readonly type: 'file' | 'symlink';
  /** True for a file recorded as executable. */
  readonly executable: boolean;
  /** The file's bytes, or the symlink's target. */
  read(): Promise<Uint8Array>;
}

/** One step of a restore: put back the recorded entry, or delete what was not there. */
export interface RestoreStep {
  readonly folder: string;
  readonly rawPath: Uint8Array;
  readonly path: string;
  /** `write` puts `entry` back (the file was deleted or changed since); `delete` removes a file created since. */
  readonly action: 'write' | 'delete';
  readonly entry?: RecordedEntry;
}

/**
 * The paths a change wrote or removed in one folder (a staged command's merge), each standing for
 * itself and everything below it: relative to the folder, `/`-separated.
 */
export interface TouchedPaths {
  readonly folder: string;
  readonly paths: readonly string[];
}

/** The private store of checkpoints. It never reads or writes the user's `.git`. */
export interface CheckpointStore {
  /**
   * Records every folder's files now (tracked and untracked, not ignored); notes what it could not
   * record. Pruning never drops the checkpoints in `keep` (a call's "before", when its "after" is taken).
   * A folder named in `touched` is recorded at those paths only, as a full record would record them
   * there (ignored files, excludes, the size cap, nested repositories alike), the rest of it as the
   * store last recorded it: no walk of the folder. The other folders are recorded whole.
   */
  take(folders: readonly string[], limits: CheckpointLimits, keep?: readonly string[], touched?: readonly TouchedPaths[]): Promise<Checkpoint>;
  /**
   * Says a call whose "after" records touched paths only (a staged command) has started in these
   * folders: the store may start what that "after" needs once the "before" is taken (absent: it
   * needs nothing ahead).
   */
  expectTouched?(folders: readonly string[]): void;
  /** The checkpoint with this id, while the store still holds it. */
  get(id: string): Checkpoint | undefined;
  /** The files that differ from `from` to `to`, with line counts. */
  changes(from: Checkpoint, to: Checkpoint): Promise<ChangedFile[]>;
  /** The steps that turn the files recorded in `current` back into those recorded in `target`. */
  restoreSteps(target: Checkpoint, current: Checkpoint): Promise<RestoreStep[]>;
  /** A file as a checkpoint recorded it, or undefined when it was not there. */
  entry(checkpoint: Checkpoint, folder: string, rawPath: Uint8Array): Promise<RecordedEntry | undefined>;
  /** Which of `paths` (folder-relative, `/`-separated) the checkpoint recorded, as a file or a link: one listing, not a read per path. */
  recordedPaths?(checkpoint: Checkpoint, folder: string, paths: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * Prepares the folders' stores ahead of the first call, in the background (absent: a store that
   * needs no preparing). A checkpoint asked for meanwhile waits for it, then records the folders as
   * they are. Resolves with what could not be recorded; rejects when it failed or was stopped.
   */
  build?(folders: readonly string[], limits: CheckpointLimits, run: StoreBuildRun): Promise<readonly string[]>;
}

/** How far a store build is. */
export interface StoreBuildState {
  /** From 0 to 1 over every folder built. */
  readonly fraction: number;
  /** Checkpoints waiting for the build (a changing call's "before"). */
  readonly waiting: number;
}

/** One run of a store build. */
export interface StoreBuildRun {
  /** Stops the build (what it recorded so far is kept; the next checkpoint records the rest). */
  readonly signal?: AbortSignal;
  /** Told each time the build goes further or a checkpoint starts or stops waiting for it. */
  readonly onState?: (state: StoreBuildState) => void;
  /** Tests hold a started build open (until this settles) to send a call into it. */
  readonly hold?: Promise<void>;
}

/** What a call's before and after checkpoints found. */
export interface CallCheckpointOutcome {
  readonly before: string;
  /** Absent while a deferred "after" is pending. */
  readonly after?: string;
  readonly notes: readonly string[];
  readonly changed: readonly ChangedFile[];
}

/**
 * The checkpoints of one call. A tool calls `beforeChange` right before it first changes files (after
 * the user approved); whoever runs the call takes the "after" checkpoint when the call returns,
 * unless the tool deferred it.
 */
export interface CallCheckpoint {
  /** Records the folders before the change; only the first call per tool call records. Never throws. */
  beforeChange(): Promise<void>;
  /** After beforeChange: whether the "before" checkpoint was recorded (a failure is only a note); absent: not known. */
  recordedBefore?(): Promise<boolean>;
  /**
   * After beforeChange: which of `paths` (relative to `folder`, a workspace folder or one holding
   * workspace folders) the "before" recorded, so a restore can bring them back; none when it was
   * not taken. What a checkpoint leaves out (ignored, over the size cap) is not among them.
   */
  recordedBy?(folder: string, paths: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * Says the call changed files only at these paths since its "before" (a staged command's merge,
   * which knows what it wrote): the "after" records a folder named here at those paths only, so it
   * costs O(changed files) and what someone else changed elsewhere meanwhile is not the call's. A
   * folder not named (the merge could not say) is recorded whole.
   */
  touchedOnly?(touched: readonly TouchedPaths[]): void;
  /** Says, as the call starts, that its "after" will likely record touched paths only (a staged command): the store may prepare for it. */
  expectTouched?(): void;
  /**
   * For a change that outlives the call (a background command): the "after" checkpoint is taken
   * when the returned `finish` is called (the command stopped or exited), not when the call returns.
   */
  deferAfter(): DeferredCheckpoint;
}

/** A call's "after" checkpoint, taken later. */
export interface DeferredCheckpoint {
  /** Takes the "after" checkpoint and reports the call's changes; later calls return the same outcome. */
  finish(): Promise<CallCheckpointOutcome | undefined>;
}

/** Writes a restore into the workspace folders (the host's side of a restore). */
export interface RestoreWriter {
  /** The paths of the steps whose files are open in an editor with unsaved text (the restore replaces it). */
  unsaved(steps: readonly RestoreStep[]): readonly string[];
  /** Applies the steps, deletes first; one line per path that could not be restored. */
  write(steps: readonly RestoreStep[]): Promise<string[]>;
}
