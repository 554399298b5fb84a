// A folder store's build and the object writing it shares with checkpoints. A build records the
// folder ahead of the first call, in the background, without a checkpoint of its own: at low
// priority until a call waits for it, reporting progress, stoppable. Large sets of paths are hashed
// by several git runs side by side (prewriteObjects) before the one update-index of the index.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkTree } from './nestedRepositories';
import { joinNul, runGit } from './gitRunner';

/**
 * From this many paths on, update-index streams the files it hashes into one pack (git's bulk
 * check-in, which it uses for files over core.bigFileThreshold) instead of one loose object file
 * each: on a first record of a large tree that is most of the file system work `git add -A` does.
 * Level 1, as git's loose objects. Only for these runs: above the threshold git also treats files
 * as binary in diffs, and the line counts of a call's changes need text diffs.
 */
const BULK_PATHS = 256;
const BULK_CONFIG = ['-c', 'core.bigFileThreshold=1', '-c', 'pack.compression=1'];
/** update-index taking NUL-separated paths on its input: each is added, updated or removed as the work tree has it. */
const UPDATE_INDEX = ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'];
/** Paths per piece of update-index's input: progress is reported as git reads each piece. */
const PIECE_PATHS = 256;
/**
 * From this many paths on, the objects are written first by several update-index runs side by side
 * (prewriteObjects): compressing is most of a first record's CPU time, and one git uses one core.
 */
export const PREWRITE_PATHS = 2048;
/** At most this many git runs write objects side by side. */
const MAX_WRITERS = 4;
/** The share of a build's progress that writing the objects side by side stands for: the serial update-index after it only hashes. */
const PREWRITE_SHARE = 0.8;

/** How many git runs write objects side by side on this machine. */
export function objectWriters(): number {
  return Math.min(MAX_WRITERS, os.availableParallelism());
}

/** update-index's input for `paths` in pieces of PIECE_PATHS, and the bytes of the paths before each piece. */
function piecesOf(paths: readonly Buffer[], bytes: readonly number[]): { pieces: Buffer[]; before: number[] } {
  const pieces: Buffer[] = [];
  const before: number[] = [];
  let sum = 0;
  for (let start = 0; start < paths.length; start += PIECE_PATHS) {
    pieces.push(joinNul(paths.slice(start, start + PIECE_PATHS)));
    before.push(sum);
    sum += bytes.slice(start, start + PIECE_PATHS).reduce((piece, size) => piece + size, 0);
  }
  return { pieces, before };
}

/** `count` contiguous ranges [start, end) of the paths, about equal in bytes (each path stays next to its neighbours: git reads folder by folder). */
export function byteShares(bytes: readonly number[], count: number): [number, number][] {
  const total = bytes.reduce((sum, size) => sum + size, 0);
  const shares: [number, number][] = [];
  let start = 0;
  let sum = 0;
  for (let i = 0; i < bytes.length && shares.length < count - 1; i += 1) {
    sum += bytes[i];
    if (sum >= (total * (shares.length + 1)) / count) {
      shares.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < bytes.length) {
    shares.push([start, bytes.length]);
  }
  return shares;
}

/** How a build runs: at low priority until a call waits for it, reporting progress, stoppable. */
export interface BuildRun {
  readonly signal?: AbortSignal;
  /** From 0 to 1: the share of the bytes to record that git has read (the walk before it counts as 0). */
  readonly onProgress?: (fraction: number) => void;
  /** Asked at each git run: false once a call waits for the build (a git run already started keeps its priority). */
  readonly lowPriority: () => boolean;
  /** Tests hold a started build open to send a call into it. */
  readonly hold?: Promise<void>;
}

/** A build stopped by its signal (checkpoints were turned off, the window closes). */
export class BuildStopped extends Error {
  constructor() {
    super('the checkpoint store build was stopped');
  }
}

/** One folder store's build under way, if any, and the object writing that reports its progress. */
export class StoreBuild {
  private running: BuildRun | undefined;

  constructor(private readonly gitDir: string) {}

  /** The options of a git run now: at the build's priority, stopped by its signal. */
  runOptions(): { lowPriority?: boolean; signal?: AbortSignal } {
    return this.running ? { lowPriority: this.running.lowPriority(), ...(this.running.signal ? { signal: this.running.signal } : {}) } : {};
  }

  throwIfStopped(): void {
    if (this.running?.signal?.aborted) {
      throw new BuildStopped();
    }
  }

  /**
   * Builds the store ahead of the first call: `record` makes the private index record the folder
   * and HEAD its state, as a checkpoint would, without a checkpoint of its own, then fills git's
   * untracked cache, so the first call's "before" costs what a checkpoint of an unchanged tree
   * costs. At low priority while no call waits for it. A call that needs a checkpoint meanwhile
   * queues behind it (serial): its "before" is taken once the build is done and before the call
   * changes anything, so it is the folder as it was, whatever the build saw.
   */
  async build(run: BuildRun, record: () => Promise<string[]>): Promise<string[]> {
    this.running = run;
    try {
      run.onProgress?.(0);
      await run.hold;
      this.throwIfStopped();
      const notes = await record();
      run.onProgress?.(1);
      return notes;
    } finally {
      this.running = undefined;
    }
  }

  /**
   * update-index of these paths; a build writes them piece by piece and reports the bytes git has
   * read (of the folder's own work tree only). After prewriteObjects, git finds every object written
   * and only hashes: no bulk check-in then, which would compress each file again before it looks.
   */
  updateIndex(tree: WorkTree, update: readonly Buffer[], updateBytes: readonly number[], prewritten: boolean) {
    const args = [...(update.length >= BULK_PATHS && !prewritten ? BULK_CONFIG : []), ...UPDATE_INDEX];
    const onProgress = tree.prefix.length === 0 ? this.running?.onProgress : undefined;
    if (!onProgress) {
      return runGit(args, tree.env, this.gitDir, joinNul(update), this.runOptions());
    }
    const { pieces, before } = piecesOf(update, updateBytes);
    const total = updateBytes.reduce((sum, bytes) => sum + bytes, 0) || 1;
    const [from, share] = prewritten ? [PREWRITE_SHARE, 1 - PREWRITE_SHARE] : [0, 1];
    // What git has read once the pipe took a piece: the pieces before it (the pipe holds about one).
    return runGit(args, tree.env, this.gitDir, pieces, { ...this.runOptions(), onPieceTaken: (index) => onProgress(from + (share * before[index]) / total) });
  }

  /**
   * Writes the objects of many paths before the work tree's index is updated: one update-index run
   * per core (at most MAX_WRITERS), each over its share of the paths into a throwaway index and a
   * pack of its own, side by side. The update-index of the real index that follows finds every
   * object and only hashes, so the compressing, most of a first record's CPU time, is spread over the
   * cores. Best effort: a run that fails (a path git refuses, a file gone meanwhile) leaves the rest
   * of its share to that update-index, which deals with refusals. False when it did not run.
   */
  async prewriteObjects(tree: WorkTree, update: readonly Buffer[], updateBytes: readonly number[]): Promise<boolean> {
    const writers = objectWriters();
    if (update.length < PREWRITE_PATHS || writers < 2) {
      return false;
    }
    const onProgress = tree.prefix.length === 0 ? this.running?.onProgress : undefined;
    const total = updateBytes.reduce((sum, bytes) => sum + bytes, 0) || 1;
    const shares = byteShares(updateBytes, writers);
    const read = shares.map(() => 0);
    const indexFiles = shares.map((_, i) => path.join(this.gitDir, `prewrite-index-${i}`));
    const args = [...BULK_CONFIG, ...UPDATE_INDEX];
    try {
      await Promise.all(
        shares.map(([start, end], i) => {
          const { pieces, before } = piecesOf(update.slice(start, end), updateBytes.slice(start, end));
          const onPieceTaken = (index: number): void => {
            read[i] = before[index];
            onProgress?.((PREWRITE_SHARE * read.reduce((sum, bytes) => sum + bytes, 0)) / total);
          };
          return runGit(args, { ...tree.env, GIT_INDEX_FILE: indexFiles[i] }, this.gitDir, pieces, { ...this.runOptions(), onPieceTaken });
        }),
      );
    } finally {
      for (const file of indexFiles) {
        fs.rmSync(file, { force: true });
      }
    }
    this.throwIfStopped();
    return true;
  }
}
