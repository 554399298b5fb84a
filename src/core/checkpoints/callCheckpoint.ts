// The before and after checkpoints of one call. The tool says when it is about to change files
// (beforeChange); whoever runs the call finishes it when the call returns, or the tool defers that
// to when its change really ends (a background command). A checkpoint that fails is a note: the
// call still runs.
import type { CallCheckpoint, CallCheckpointOutcome, ChangedFile, Checkpoint, CheckpointLimits, CheckpointStore, DeferredCheckpoint, TouchedPaths } from '../ports/checkpoints';
import { hostPath, type WorkspaceFolder } from '../location';
import type { WorkspaceInfo } from '../ports/workspace';
import type { ToolSettings } from '../settings';
import { errorMessage } from '../errors';

const MB = 1024 * 1024;

/** The store's limits from the user's settings. */
export function checkpointLimits(settings: ToolSettings): CheckpointLimits {
  return { maxFileBytes: settings.checkpointMaxFileMB * MB, maxTotalBytes: settings.checkpointMaxTotalMB * MB, excludes: settings.filesExclude };
}

/** What checkpoints need of the workspace: its folders, and the host's platform that names them on its disk. */
export type CheckpointWorkspace = Pick<WorkspaceInfo, 'folders' | 'platform'>;

/**
 * A folder's path on the extension host's disk as the checkpoint store takes it, or undefined for a
 * folder elsewhere: the location's POSIX path, or on Windows the host's own spelling (`C:\work\app`
 * for `/C:/work/app`, `\\server\share\app`), never the URI's path, which Windows reads on the
 * current drive (`W:\C:\work\app`).
 */
export function checkpointFolder(folder: WorkspaceFolder, platform: string | undefined): string | undefined {
  if (folder.location.scheme !== 'file') {
    return undefined;
  }
  const local = hostPath(folder.location, platform ?? '');
  return platform === 'win32' ? local.replace(/\//g, '\\') : local;
}

/** The folders checkpoints record: those on the extension host's disk. */
export function checkpointFolders(workspace: CheckpointWorkspace): string[] {
  return workspace.folders.map((folder) => checkpointFolder(folder, workspace.platform)).filter((folder): folder is string => folder !== undefined);
}

/** A changed file's path as the user sees it: folder-relative, with the folder's name first in a multi-root workspace. */
export function shownChangedPath(file: ChangedFile, workspace: CheckpointWorkspace): string {
  const folder = workspace.folders.find((candidate) => checkpointFolder(candidate, workspace.platform) === file.folder);
  return workspace.folders.length > 1 && folder ? `${folder.name}/${file.path}` : file.path;
}

/**
 * The touched paths inside a checkpoint folder: those of the same folder, or of a folder it lies in
 * (re-rooted at it); undefined when nothing says (then it is recorded whole), or when a touched path
 * covers the folder itself. Host paths, `/`-separated (staged merges run on Linux).
 */
export function touchedIn(folder: string, touched: readonly TouchedPaths[]): string[] | undefined {
  const same = touched.find((part) => part.folder === folder);
  if (same) {
    return [...same.paths];
  }
  const outer = touched.find((part) => folder.startsWith(`${part.folder}/`));
  if (!outer) {
    return undefined;
  }
  const relative = folder.slice(outer.folder.length + 1);
  if (outer.paths.some((p) => p === relative || relative.startsWith(`${p}/`))) {
    return undefined;
  }
  return outer.paths.filter((p) => p.startsWith(`${relative}/`)).map((p) => p.slice(relative.length + 1));
}

export class CallCheckpoints implements CallCheckpoint {
  private before: Promise<Checkpoint | undefined> | undefined;
  /** The folders whose "after" records only touched paths (touchedOnly). */
  private touched: TouchedPaths[] = [];
  private outcome: Promise<CallCheckpointOutcome | undefined> | undefined;
  private deferred = false;
  private readonly notes: string[] = [];

  constructor(
    private readonly store: CheckpointStore,
    private readonly folders: readonly string[],
    private readonly limits: CheckpointLimits,
    /** Called once a deferred "after" was taken (the activity record is amended with it). */
    private readonly onDeferredFinish: (outcome: CallCheckpointOutcome | undefined) => void = () => undefined,
  ) {}

  beforeChange(): Promise<void> {
    this.before ??= this.takeNoting('before');
    return this.before.then(() => undefined);
  }

  async recordedBefore(): Promise<boolean> {
    return (await this.before) !== undefined;
  }

  async recordedBy(folder: string, paths: readonly string[]): Promise<ReadonlySet<string>> {
    const before = await this.before;
    const recorded = new Set<string>();
    if (!before || !this.store.recordedPaths) {
      return recorded;
    }
    // Each checkpoint folder at or below `folder` answers for the paths inside it.
    for (const part of before.folders) {
      const prefix = part.folder === folder ? '' : part.folder.startsWith(`${folder}/`) ? part.folder.slice(folder.length + 1) : undefined;
      if (prefix === undefined) {
        continue;
      }
      const inside = paths.filter((relative) => prefix === '' || relative.startsWith(`${prefix}/`)).map((relative) => relative.slice(prefix === '' ? 0 : prefix.length + 1));
      const found = inside.length ? await this.store.recordedPaths(before, part.folder, inside).catch(() => new Set<string>()) : new Set<string>();
      for (const relative of found) {
        recorded.add(prefix === '' ? relative : `${prefix}/${relative}`);
      }
    }
    return recorded;
  }

  touchedOnly(touched: readonly TouchedPaths[]): void {
    this.touched = this.folders.flatMap((folder) => {
      const paths = touchedIn(folder, touched);
      return paths ? [{ folder, paths }] : [];
    });
  }

  expectTouched(): void {
    this.store.expectTouched?.(this.folders);
  }

  deferAfter(): DeferredCheckpoint {
    this.deferred = true;
    return {
      finish: async () => {
        const outcome = await this.finishNow();
        this.onDeferredFinish(outcome);
        return outcome;
      },
    };
  }

  /** True when the tool deferred the "after" checkpoint: the caller must not finish it. */
  get isDeferred(): boolean {
    return this.deferred;
  }

  /** True once the call said it changes files. */
  get started(): boolean {
    return this.before !== undefined;
  }

  /** Notes of the checkpoints so far (for the call's result). */
  currentNotes(): readonly string[] {
    return [...this.notes];
  }

  /** Takes the "after" checkpoint (once) and compares it with "before". */
  finishNow(): Promise<CallCheckpointOutcome | undefined> {
    this.outcome ??= this.compare();
    return this.outcome;
  }

  /** The id of the "before" checkpoint, once taken. */
  async beforeId(): Promise<string | undefined> {
    return (await this.before)?.id;
  }

  private async compare(): Promise<CallCheckpointOutcome | undefined> {
    const before = await this.before;
    if (!before) {
      return undefined;
    }
    const after = await this.takeNoting('after', [before.id], this.touched);
    if (!after) {
      return { before: before.id, notes: this.unique(), changed: [] };
    }
    try {
      return { before: before.id, after: after.id, notes: this.unique(), changed: await this.store.changes(before, after) };
    } catch (error) {
      this.notes.push(`The changes of this call could not be listed: ${errorMessage(error)}`);
      return { before: before.id, after: after.id, notes: this.unique(), changed: [] };
    }
  }

  private unique(): string[] {
    return [...new Set(this.notes)];
  }

  private async takeNoting(which: 'before' | 'after', keep: readonly string[] = [], touched: readonly TouchedPaths[] = []): Promise<Checkpoint | undefined> {
    try {
      const checkpoint = await this.store.take(this.folders, this.limits, keep, touched);
      this.notes.push(...checkpoint.notes);
      return checkpoint;
    } catch (error) {
      this.notes.push(`No checkpoint was taken ${which} this call: ${errorMessage(error)}`);
      return undefined;
    }
  }
}
