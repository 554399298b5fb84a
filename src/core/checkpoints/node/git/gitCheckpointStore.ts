// The checkpoint store as one private git repository per workspace folder, under the extension's
// storage. git is driven only through GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE pointing at the
// private repository, with every outside configuration neutralised (system and global config, the
// user's excludes file, attributes that convert line endings or run filters, hooks, fsmonitor:
// gitRunner.ts), so the user's `.git` (its index, refs, stash, hooks, config) is never read or
// written: git skips every `.git` entry of the work tree. One folder's repository: folderStore.ts.
//
// Recorded: regular files (bytes and the executable bit) and symlinks (their target), tracked or
// untracked, not ignored by the folder's `.gitignore` files or `files.exclude`, nested repositories'
// files included (recorded as their own work trees and grafted in: nestedRepositories.ts), never their
// `.git`. Not recorded, and noted: files over the size cap. Empty folders are not recorded (git has
// no entry for them).
import type { ChangedFile, ChangeKind, Checkpoint, CheckpointLimits, CheckpointStore, FolderCheckpoint, RecordedEntry, RestoreStep, StoreBuildRun, StoreBuildState, TouchedPaths } from '../../../ports/checkpoints';
import { FolderStore } from './folderStore';
import { shown } from './gitRunner';

/** Above this many changed files, a call's changes are listed without line counts. */
const MAX_COUNTED_FILES = 2000;
const ZERO = /^0+$/;

/** A build under way. */
interface RunningBuild {
  /** The folders it has yet to finish. */
  readonly folders: Set<string>;
  /** How far each folder is, from 0 to 1. */
  readonly fractions: Map<string, number>;
  /** Checkpoints waiting for it. */
  waiting: number;
  /** True once a checkpoint waited for it: the rest of it runs at normal priority. */
  hurried: boolean;
  readonly report: (state: StoreBuildState) => void;
}

function reportBuild(running: RunningBuild): void {
  const fractions = [...running.fractions.values()];
  running.report({ fraction: fractions.reduce((sum, fraction) => sum + fraction, 0) / Math.max(1, fractions.length), waiting: running.waiting });
}

/** Checkpoints in private git repositories under `storeRoot`, one per workspace folder. */
export class GitCheckpointStore implements CheckpointStore {
  private readonly folders = new Map<string, FolderStore>();
  private readonly checkpoints = new Map<string, Checkpoint>();
  private sequence = 0;

  /** `lowPriorityBuild: false` builds at normal priority from the start (tests whose subject is not the priority); users' builds run low. */
  constructor(
    private readonly storeRoot: string,
    private readonly options: { readonly lowPriorityBuild?: boolean } = {},
  ) {}

  private storeOf(folder: string): FolderStore {
    let store = this.folders.get(folder);
    if (!store) {
      store = new FolderStore(folder, this.storeRoot);
      this.folders.set(folder, store);
    }
    return store;
  }

  /** The private repository of a folder (tests and the bench look at it). */
  gitDirOf(folder: string): string {
    return this.storeOf(folder).gitDir;
  }

  /** How the folder's last checkpoint was taken (tests and the bench look at it). */
  lastTakeOf(folder: string): FolderStore['lastTake'] {
    return this.storeOf(folder).lastTake;
  }

  /** The builds under way: the folders each has yet to finish, how far each folder is, how many checkpoints wait for it, whether one ever did. */
  private readonly builds = new Set<RunningBuild>();

  /**
   * Builds the folders' stores (each at low priority until a checkpoint waits for it). Queued on
   * each folder's store at once, so a checkpoint asked for from now on comes after the build; a
   * folder whose store is up to date costs one `git status`.
   */
  async build(folders: readonly string[], limits: CheckpointLimits, run: StoreBuildRun = {}): Promise<readonly string[]> {
    const running: RunningBuild = { folders: new Set(folders), fractions: new Map(folders.map((folder) => [folder, 0])), waiting: 0, hurried: false, report: run.onState ?? (() => undefined) };
    this.builds.add(running);
    reportBuild(running);
    const keep = new Set([...this.checkpoints.keys()].slice(-2));
    const parts = folders.map((folder) => {
      const store = this.storeOf(folder);
      const onProgress = (fraction: number) => {
        running.fractions.set(folder, fraction);
        reportBuild(running);
      };
      const folderRun = { ...(run.signal ? { signal: run.signal } : {}), ...(run.hold ? { hold: run.hold } : {}), onProgress, lowPriority: () => this.options.lowPriorityBuild !== false && !running.hurried };
      return store.serial(() => store.build(limits, keep, folderRun)).finally(() => running.folders.delete(folder));
    });
    try {
      const settled = await Promise.allSettled(parts);
      const failed = settled.find((part): part is PromiseRejectedResult => part.status === 'rejected');
      if (failed) {
        throw failed.reason;
      }
      return settled.flatMap((part) => (part.status === 'fulfilled' ? part.value : []));
    } finally {
      this.builds.delete(running);
    }
  }

  async take(folders: readonly string[], limits: CheckpointLimits, pinned: readonly string[] = [], touched: readonly TouchedPaths[] = []): Promise<Checkpoint> {
    this.sequence += 1;
    const id = `${Date.now().toString(36)}-${process.pid.toString(36)}-${this.sequence}`;
    // The checkpoints of calls still open (their "before") are kept through pruning.
    const keep = new Set([...[...this.checkpoints.keys()].slice(-2), ...pinned]);
    // Behind a build of one of its folders this checkpoint waits (serial): the build is told, so it hurries and shows a waiting call.
    const joined = [...this.builds].filter((running) => folders.some((folder) => running.folders.has(folder)));
    for (const running of joined) {
      running.waiting += 1;
      running.hurried = true;
      reportBuild(running);
    }
    let parts: { state: string; notes: string[] }[];
    try {
      parts = await Promise.all(folders.map((folder) => this.storeOf(folder).serial(() => this.storeOf(folder).take(id, limits, keep, touched.find((part) => part.folder === folder)?.paths))));
    } finally {
      for (const running of joined) {
        running.waiting -= 1;
        if (this.builds.has(running)) {
          reportBuild(running);
        }
      }
    }
    const checkpoint: Checkpoint = {
      id,
      takenAt: Date.now(),
      folders: folders.map((folder, i): FolderCheckpoint => ({ folder, state: parts[i].state })),
      notes: parts.flatMap((part) => part.notes),
    };
    this.checkpoints.set(id, checkpoint);
    for (const folder of folders) {
      for (const dropped of this.storeOf(folder).dropped.splice(0)) {
        this.checkpoints.delete(dropped);
      }
    }
    return checkpoint;
  }

  expectTouched(folders: readonly string[]): void {
    for (const folder of folders) {
      this.storeOf(folder).expectTouched();
    }
  }

  /** Ends the git processes the folder stores started ahead of their next touched checkpoint; the stores stay usable. */
  async endAhead(): Promise<void> {
    await Promise.all([...this.folders.values()].map((store) => store.endAhead()));
  }

  get(id: string): Checkpoint | undefined {
    return this.checkpoints.get(id);
  }

  private pairs(from: Checkpoint, to: Checkpoint): { store: FolderStore; from: string; to: string }[] {
    return to.folders.flatMap((part) => {
      const earlier = from.folders.find((candidate) => candidate.folder === part.folder);
      return earlier ? [{ store: this.storeOf(part.folder), from: earlier.state, to: part.state }] : [];
    });
  }

  async changes(from: Checkpoint, to: Checkpoint): Promise<ChangedFile[]> {
    const changed: ChangedFile[] = [];
    for (const pair of this.pairs(from, to)) {
      if (pair.from === pair.to) {
        continue;
      }
      // Counting lines reads every changed file: skipped for changes as large as a branch switch.
      const [entries, counts] = await pair.store.serial(async () => {
        const raw = await pair.store.diff(pair.from, pair.to);
        return [raw, raw.length <= MAX_COUNTED_FILES ? await pair.store.lineCounts(pair.from, pair.to) : new Map<string, { added: number; deleted: number }>()] as const;
      });
      for (const entry of entries) {
        const kind: ChangeKind = ZERO.test(entry.fromSha) ? 'created' : ZERO.test(entry.toSha) ? 'deleted' : 'modified';
        const count = counts.get(entry.rawPath.toString('latin1'));
        changed.push({ folder: pair.store.folder, rawPath: entry.rawPath, path: shown(entry.rawPath), kind, ...(count ?? {}) });
      }
    }
    return changed;
  }

  async restoreSteps(target: Checkpoint, current: Checkpoint): Promise<RestoreStep[]> {
    const steps: RestoreStep[] = [];
    for (const pair of this.pairs(target, current)) {
      if (pair.from === pair.to) {
        continue;
      }
      const entries = await pair.store.serial(() => pair.store.diff(pair.to, pair.from));
      for (const entry of entries) {
        const base = { folder: pair.store.folder, rawPath: entry.rawPath, path: shown(entry.rawPath) };
        if (ZERO.test(entry.toSha)) {
          steps.push({ ...base, action: 'delete' });
          continue;
        }
        const recorded = pair.store.recorded(entry.toMode, entry.toSha);
        if (recorded) {
          steps.push({ ...base, action: 'write', entry: recorded });
        }
      }
    }
    return steps;
  }

  async recordedPaths(checkpoint: Checkpoint, folder: string, paths: readonly string[]): Promise<ReadonlySet<string>> {
    const part = checkpoint.folders.find((candidate) => candidate.folder === folder);
    if (!part) {
      return new Set();
    }
    const store = this.storeOf(folder);
    return store.serial(() => store.recordedPaths(part.state, paths));
  }

  async entry(checkpoint: Checkpoint, folder: string, rawPath: Uint8Array): Promise<RecordedEntry | undefined> {
    const part = checkpoint.folders.find((candidate) => candidate.folder === folder);
    if (!part) {
      return undefined;
    }
    const store = this.storeOf(folder);
    return store.serial(() => store.entry(part.state, rawPath));
  }
}
