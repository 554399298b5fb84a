// One workspace folder's private checkpoint repository: created once, then a checkpoint is
// classifyStatus() → stage() → commitState() → keepUnderCap(), every git call of the folder one at a
// time. The private index is kept between checkpoints as a stat cache, which is what makes a
// checkpoint of an unchanged tree cost one `git status`. A build (build()) records the folder the
// same way ahead of the first call, in the background, without a checkpoint of its own.
//
// A nested repository (a folder with its own `.git`: a clone, a submodule's work tree) is a work
// tree git will not enter from the folder's, so it is recorded as a work tree of its own: a private
// git directory under `nested/` (the same config, its own index and HEAD) over the folder store's
// objects, `GIT_WORK_TREE` at its root. Its tree is grafted into the folder's at its path (ls-tree
// and mktree along the paths only), so a checkpoint is still one commit and diffs and restores see
// its files as any others. git skips every `.git` entry, so the user's repository (objects, refs,
// index, stash, config) is never recorded or written. A folder without nested repositories costs
// nothing more; each nested one costs a `git status` of its own files.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BugError } from '../../../errors';
import type { CheckpointLimits, RecordedEntry } from '../../../ports/checkpoints';
import { excludeLines, excludeLinesUnder } from '../../excludes';
import { CONFIG, joinNul, PRIVATE_ATTRIBUTES, refusedPath, runGit, shown, splitNul, storeEnvironment } from './gitRunner';
import { StatusPaths } from './statusPaths';

const MB = 1024 * 1024;
/** How many times one checkpoint may prune (each round drops more of the oldest checkpoints). */
const MAX_PRUNE_ROUNDS = 4;
const REF_PREFIX = 'refs/checkpoints/';
/** How many paths git may refuse in one checkpoint before the checkpoint fails. */
const MAX_REFUSED_PATHS = 20;

/** What one checkpoint writes into the private index and drops from it, and what it noted. */
interface Staging {
  readonly update: Buffer[];
  /** The size of each path of `update` (progress of a build is counted in bytes hashed). */
  readonly updateBytes: number[];
  readonly forget: Buffer[];
  /** Nested repositories' roots, relative to the work tree. */
  readonly nested: Buffer[];
}

/** What one checkpoint adds up over the folder and its nested repositories. */
interface Totals {
  addedBytes: number;
  files: number;
  readonly notes: string[];
}

/** A work tree the store records: the folder (empty prefix), or a nested repository at `prefix` (ending in `/`). */
interface WorkTree {
  readonly prefix: Buffer;
  readonly env: Record<string, string>;
  /** The exclude file of this work tree (files.exclude re-rooted at it). */
  readonly excludesFile: string;
  /** A nested repository's own private git directory (its index and HEAD; objects are the folder store's), and its name there. */
  readonly nested?: { readonly gitDir: string; readonly key: string };
}

/** A work tree whose private index is up to date, and the nested repositories inside it. */
interface RecordedTree {
  readonly tree: WorkTree;
  readonly staging: Staging;
  readonly children: readonly { readonly root: Buffer; readonly recorded: RecordedTree }[];
}

function hasChanges(recorded: RecordedTree): boolean {
  return recorded.staging.update.length > 0 || recorded.staging.forget.length > 0 || recorded.children.some((child) => hasChanges(child.recorded));
}

/** Every nested repository's path in the folder, as one string to compare. */
function nestedRootsOf(recorded: RecordedTree): string {
  return recorded.children.map((child) => `${child.recorded.tree.prefix.toString('latin1')}\0${nestedRootsOf(child.recorded)}`).join('');
}

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
/** Paths classified between two turns of the event loop (each is an lstat): the extension host stays responsive during a build. */
const PATHS_PER_TURN = 2000;

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

/** How deep nested repositories inside nested repositories are followed. */
const MAX_NESTING = 8;
/** The folder of the store that holds the nested repositories' indexes and exclude files. */
const NESTED_FOLDER = 'nested';
/** Refs of the folder store that keep each nested repository's private HEAD from pruning. */
const NESTED_REF_PREFIX = 'refs/nested/';

/** A relative path's components. */
function splitPath(rawPath: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= rawPath.length; i += 1) {
    if (i === rawPath.length || rawPath[i] === 0x2f) {
      parts.push(rawPath.subarray(start, i));
      start = i + 1;
    }
  }
  return parts;
}

/** A build stopped by its signal (checkpoints were turned off, the window closes). */
export class BuildStopped extends Error {
  constructor() {
    super('the checkpoint store build was stopped');
  }
}

/** One folder's private repository; every git call of a folder runs one at a time. */
export class FolderStore {
  private queue: Promise<unknown> = Promise.resolve();
  private ready = false;
  private readonly excludesWritten = new Map<string, string>();
  readonly gitDir: string;

  constructor(readonly folder: string, storeRoot: string) {
    const key = createHash('sha256').update(folder).digest('hex').slice(0, 16);
    this.gitDir = path.join(storeRoot, `${path.basename(folder).replace(/[^\w.-]/g, '_')}-${key}`);
  }

  /** Runs `body` after every earlier operation on this folder has finished. */
  serial<T>(body: () => Promise<T>): Promise<T> {
    const next = this.queue.then(body, body);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async git(args: readonly string[], input?: Buffer, okCodes: readonly number[] = [0], env: Record<string, string> = this.rootTree.env): Promise<Buffer> {
    // Run from the store, never from the workspace: on Windows a program is looked up in the
    // working folder first, and the workspace may hold a git.exe the model wrote.
    const result = await runGit(args, env, this.gitDir, input, this.runOptions());
    if (!okCodes.includes(result.code)) {
      this.throwIfStopped();
      throw new Error(`git ${args[0]} failed in the checkpoint store of ${this.folder} (exit ${result.code}): ${result.stderr.trim()}`);
    }
    return result.stdout;
  }

  private running: BuildRun | undefined;

  private runOptions(): { lowPriority?: boolean; signal?: AbortSignal } {
    return this.running ? { lowPriority: this.running.lowPriority(), ...(this.running.signal ? { signal: this.running.signal } : {}) } : {};
  }

  private throwIfStopped(): void {
    if (this.running?.signal?.aborted) {
      throw new BuildStopped();
    }
  }

  /** The folder as a work tree: the private index `checkpoint-index`, the folder's exclude lines. */
  private get rootTree(): WorkTree {
    return { prefix: Buffer.alloc(0), env: storeEnvironment(this.gitDir, this.folder), excludesFile: path.join(this.gitDir, 'info', 'exclude-folder') };
  }

  /**
   * A nested repository at `prefix` as a work tree with a private git directory of its own (config,
   * index, HEAD: its status compares with its own last tree, not the whole folder's) whose objects
   * are the folder store's; undefined when its path cannot be passed to git (not UTF-8).
   */
  private nestedTree(prefix: Buffer): WorkTree | undefined {
    const relative = prefix.toString('utf8');
    if (!Buffer.from(relative).equals(prefix)) {
      return undefined;
    }
    const key = createHash('sha256').update(prefix).digest('hex').slice(0, 16);
    const gitDir = path.join(this.gitDir, NESTED_FOLDER, key);
    if (!this.preparedNested.has(key)) {
      fs.mkdirSync(path.join(gitDir, 'refs'), { recursive: true });
      fs.mkdirSync(path.join(gitDir, 'info'), { recursive: true });
      fs.copyFileSync(path.join(this.gitDir, 'config'), path.join(gitDir, 'config'));
      fs.writeFileSync(path.join(gitDir, 'info', 'attributes'), PRIVATE_ATTRIBUTES);
      fs.writeFileSync(path.join(gitDir, 'info', 'exclude'), '');
      if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
        fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/checkpoint\n');
      }
      this.preparedNested.add(key);
    }
    return {
      prefix,
      env: { ...storeEnvironment(gitDir, path.join(this.folder, relative)), GIT_OBJECT_DIRECTORY: path.join(this.gitDir, 'objects') },
      excludesFile: path.join(gitDir, 'exclude-folder'),
      nested: { gitDir, key },
    };
  }

  private readonly preparedNested = new Set<string>();
  /** Per nested repository, the tree its private HEAD holds (as this window last wrote it). */
  private readonly nestedHeads = new Map<string, string>();

  /** Makes a nested repository's private HEAD its index's tree, kept from pruning by a ref of the folder store. */
  private async moveNestedHead(tree: WorkTree, own: string): Promise<void> {
    if (!tree.nested || this.nestedHeads.get(tree.nested.key) === own) {
      return;
    }
    const commit = (await this.git(['commit-tree', own, '-m', 'nested repository'], undefined, [0], tree.env)).toString('utf8').trim();
    await this.git(['update-ref', `${NESTED_REF_PREFIX}${tree.nested.key}`, commit]);
    fs.writeFileSync(path.join(tree.nested.gitDir, 'HEAD'), `${commit}\n`);
    this.nestedHeads.set(tree.nested.key, own);
  }

  /** Creates the private repository once. */
  private async prepare(): Promise<void> {
    if (!this.ready) {
      if (!fs.existsSync(path.join(this.gitDir, 'HEAD'))) {
        // Owner-only: the store holds every recorded file, .env files included.
        fs.mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
        fs.chmodSync(this.gitDir, 0o700);
        const env = { ...storeEnvironment(this.gitDir, this.folder) };
        delete (env as Partial<Record<string, string>>).GIT_WORK_TREE;
        delete (env as Partial<Record<string, string>>).GIT_DIR;
        const init = await runGit(['init', '-q', '--bare', this.gitDir], env, this.gitDir);
        if (init.code !== 0) {
          throw new Error(`Could not create the checkpoint store in ${this.gitDir}: ${init.stderr.trim()}`);
        }
      }
      for (const [key, value] of CONFIG) {
        await this.git(['config', key, value]);
      }
      fs.mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
      fs.mkdirSync(path.join(this.gitDir, NESTED_FOLDER), { recursive: true });
      fs.writeFileSync(path.join(this.gitDir, 'info', 'attributes'), PRIVATE_ATTRIBUTES);
      // Every work tree reads info/exclude: files.exclude goes in each work tree's own file (core.excludesFile).
      fs.writeFileSync(path.join(this.gitDir, 'info', 'exclude'), '');
      // Hooks of the template are never run (core.hooksPath), but keep the store free of them.
      fs.rmSync(path.join(this.gitDir, 'hooks'), { recursive: true, force: true });
      this.ready = true;
    }
  }

  /** Writes a work tree's exclude file when files.exclude changed. */
  private writeExcludes(tree: WorkTree, excludes: readonly string[]): void {
    const lines = excludeLinesUnder(excludeLines(excludes), tree.prefix.toString('utf8')).join('\n');
    if (this.excludesWritten.get(tree.excludesFile) !== lines) {
      fs.writeFileSync(tree.excludesFile, `${lines}\n`);
      this.excludesWritten.set(tree.excludesFile, lines);
    }
  }

  private async head(): Promise<string | undefined> {
    const out = await this.git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], undefined, [0, 1]);
    const sha = out.toString('utf8').trim();
    return sha || undefined;
  }

  /**
   * Builds the store ahead of the first call: the private index records the folder and HEAD its
   * state, as a checkpoint would, without a checkpoint of its own; then a `git status` fills git's
   * untracked cache, so the first call's "before" costs what a checkpoint of an unchanged tree
   * costs. At low priority while no call waits for it. A call that needs a checkpoint meanwhile
   * queues behind it (serial): its "before" is taken once the build is done and before the call
   * changes anything, so it is the folder as it was, whatever the build saw.
   */
  async build(limits: CheckpointLimits, keep: ReadonlySet<string>, run: BuildRun): Promise<string[]> {
    this.running = run;
    try {
      run.onProgress?.(0);
      await run.hold;
      this.throwIfStopped();
      const { state, head, totals } = await this.recordState('store build', limits);
      if (state !== head) {
        totals.notes.push(...(await this.keepUnderCap(totals.addedBytes, limits.maxTotalBytes, keep, head === undefined)));
      }
      await this.status(this.rootTree);
      run.onProgress?.(1);
      return totals.notes;
    } finally {
      this.running = undefined;
    }
  }

  /** Records the folder now; returns the commit and what it could not record. */
  async take(id: string, limits: CheckpointLimits, keep: ReadonlySet<string>): Promise<{ state: string; notes: string[] }> {
    const { state, head, totals } = await this.recordState(`checkpoint ${id}`, limits);
    await this.git(['update-ref', `${REF_PREFIX}${id}`, state]);
    if (state !== head) {
      totals.notes.push(...(await this.keepUnderCap(totals.addedBytes, limits.maxTotalBytes, new Set([...keep, id]), head === undefined)));
    }
    return { state, notes: totals.notes };
  }

  /** Brings the private indexes up to date and makes HEAD their state (a new commit when it changed). */
  private async recordState(message: string, limits: CheckpointLimits): Promise<{ state: string; head: string | undefined; totals: Totals }> {
    await this.prepare();
    // Until this checkpoint is committed, HEAD is not known to match the indexes (a failure half-way).
    const known = this.headNestedRoots;
    this.headNestedRoots = undefined;
    const totals: Totals = { addedBytes: 0, files: 0, notes: [] };
    const recorded = await this.record(this.rootTree, limits, totals, 0);
    const head = await this.head();
    const nestedRoots = nestedRootsOf(recorded);
    let state = head;
    // Nothing changed since the last checkpoint, in the folder or any nested repository: the same state, without writing a tree.
    if (!head || hasChanges(recorded) || nestedRoots !== known) {
      const tree = await this.treeOf(recorded);
      if (!head || (await this.git(['rev-parse', `${head}^{tree}`])).toString('utf8').trim() !== tree) {
        state = (await this.git(['commit-tree', tree, '-m', message])).toString('utf8').trim();
        await this.git(['update-ref', '--no-deref', 'HEAD', state]);
      }
    }
    if (!state) {
      throw new BugError('no checkpoint state after recording');
    }
    this.headNestedRoots = nestedRoots;
    return { state, head, totals };
  }

  /** The nested repositories HEAD's tree holds (as nestedRootsOf says), HEAD being the indexes' tree; unknown until this window wrote or confirmed HEAD. */
  private headNestedRoots: string | undefined;

  /** Brings a work tree's private index up to date, and those of the nested repositories inside it. */
  private async record(tree: WorkTree, limits: CheckpointLimits, totals: Totals, depth: number): Promise<RecordedTree> {
    const staging = await this.classifyStatus(tree, limits, totals);
    await this.stage(tree, staging, totals);
    const children: RecordedTree['children'][number][] = [];
    for (const root of staging.nested) {
      const prefix = Buffer.concat([tree.prefix, root, Buffer.from('/')]);
      const nested = depth < MAX_NESTING ? this.nestedTree(prefix) : undefined;
      if (!nested) {
        totals.notes.push(`${shown(prefix)} is a nested git repository ${depth < MAX_NESTING ? 'whose path is not UTF-8' : `more than ${MAX_NESTING} repositories deep`}; its files are not recorded in checkpoints.`);
        continue;
      }
      children.push({ root, recorded: await this.record(nested, limits, totals, depth + 1) });
    }
    return { tree, staging, children };
  }

  /** The work tree's index as a tree, with the trees of the nested repositories it holds grafted in at their paths. */
  private async treeOf(recorded: RecordedTree): Promise<string> {
    const nested = recorded.tree.nested;
    const roots = nestedRootsOf(recorded);
    const cached = nested && this.nestedTrees.get(nested.key);
    // A nested repository whose index and nested repositories did not change since this window wrote its tree.
    if (cached && cached.roots === roots && !hasChanges(recorded)) {
      return cached.tree;
    }
    const written = (await this.git(['write-tree'], undefined, [0], recorded.tree.env)).toString('utf8').trim();
    await this.moveNestedHead(recorded.tree, written);
    const grafts: { parts: Buffer[]; child: string }[] = [];
    const empty = await this.emptyTree();
    for (const { root, recorded: child } of recorded.children) {
      const childTree = await this.treeOf(child);
      // A repository without recorded files is an empty folder to git: no entry.
      if (childTree !== empty) {
        grafts.push({ parts: splitPath(root), child: childTree });
      }
    }
    const tree = grafts.length ? await this.graft(written, grafts) : written;
    if (nested) {
      this.nestedTrees.set(nested.key, { roots, tree });
    }
    return tree;
  }

  /** Per nested repository, its tree with its own nested repositories grafted in, as this window last wrote it. */
  private readonly nestedTrees = new Map<string, { readonly roots: string; readonly tree: string }>();

  private emptyTreeId: string | undefined;

  private async emptyTree(): Promise<string> {
    this.emptyTreeId ??= (await this.git(['mktree', '-z'], Buffer.alloc(0))).toString('utf8').trim();
    return this.emptyTreeId;
  }

  /**
   * `tree` with each child tree at its path (replacing whatever was there), rewriting only the trees
   * along those paths: one ls-tree and one mktree per tree rewritten, however many children it gets.
   */
  private async graft(tree: string | undefined, grafts: readonly { readonly parts: readonly Buffer[]; readonly child: string }[]): Promise<string> {
    const byName = new Map<string, { name: Buffer; child?: string; deeper: { parts: readonly Buffer[]; child: string }[] }>();
    for (const { parts, child } of grafts) {
      const [name, ...rest] = parts;
      const key = name.toString('latin1');
      const group = byName.get(key) ?? { name, deeper: [] };
      if (rest.length) {
        group.deeper.push({ parts: rest, child });
      } else {
        group.child = child;
      }
      byName.set(key, group);
    }
    const entries = tree ? splitNul(await this.git(['ls-tree', '-z', tree])) : [];
    const existing = new Map<string, string>();
    const kept = entries.filter((line) => {
      const tab = line.indexOf(0x09);
      const key = line.subarray(tab + 1).toString('latin1');
      if (!byName.has(key)) {
        return true;
      }
      const [, type, sha] = line.subarray(0, tab).toString('latin1').split(' ');
      if (type === 'tree') {
        existing.set(key, sha);
      }
      return false;
    });
    const added: Buffer[] = [];
    for (const [key, group] of byName) {
      // A nested repository inside another one is grafted into that one's tree already (treeOf); here only paths of this tree.
      const sub = group.child ?? (await this.graft(existing.get(key), group.deeper));
      added.push(Buffer.concat([Buffer.from(`040000 tree ${sub}\t`), group.name]));
    }
    return (await this.git(['mktree', '-z'], joinNul([...kept, ...added]))).toString('utf8').trim();
  }

  /** What `git status` says changed in a work tree since its last checkpoint: paths to record, paths to forget, nested repositories, notes. */
  private async classifyStatus(tree: WorkTree, limits: CheckpointLimits, totals: Totals): Promise<Staging> {
    this.writeExcludes(tree, limits.excludes);
    const status = await this.status(tree);
    const staging: Staging = { update: [], updateBytes: [], forget: [], nested: [] };
    const paths = new StatusPaths(this.folder, limits.maxFileBytes, tree.prefix);
    for (const [i, field] of status.entries()) {
      if (i > 0 && i % PATHS_PER_TURN === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (field.length < 4) {
        continue;
      }
      // The second column compares the work tree with this work tree's index; the first compares the
      // index with HEAD, which holds the other work trees too (nested repositories grafted in): ignored.
      if (field[1] === 0x20) {
        continue;
      }
      const rawPath = field.subarray(3);
      const verdict = paths.verdict(rawPath);
      if (verdict.record === 'nested') {
        staging.nested.push(verdict.root);
        continue;
      }
      if (verdict.record) {
        staging.update.push(rawPath);
        staging.updateBytes.push(verdict.bytes);
        totals.addedBytes += verdict.bytes;
        totals.files += 1;
        continue;
      }
      if (verdict.note) {
        totals.notes.push(verdict.note);
      }
      // An untracked path ('??') is not in the private index: nothing to forget.
      if (verdict.forget && field.subarray(0, 2).toString('latin1') !== '??') {
        staging.forget.push(rawPath);
      }
    }
    if (totals.addedBytes > limits.maxTotalBytes) {
      // A folder far larger than the store may hold (a home folder opened as the workspace): refuse before hashing anything.
      throw new Error(`the files to record in ${path.basename(this.folder)} (${(totals.addedBytes / MB).toFixed(0)} MB in ${totals.files} files) exceed the checkpoint store's cap of ${(limits.maxTotalBytes / MB).toFixed(0)} MB; exclude large folders with .gitignore or files.exclude, or raise workspaceAgentTools.checkpoints.maxTotalSizeMB`);
    }
    return staging;
  }

  /** The work tree's `git status`, NUL-separated: what changed since its private index, untracked files each named. */
  private async status(tree: WorkTree): Promise<Buffer[]> {
    return splitNul(await this.git(['-c', `core.excludesFile=${tree.excludesFile}`, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'], undefined, [0], tree.env));
  }

  /**
   * update-index of these paths; a build writes them piece by piece and reports the bytes git has
   * read (of the folder's own work tree only). After prewriteObjects, git finds every object written
   * and only hashes: no bulk check-in then, which would compress each file again before it looks.
   */
  private updateIndex(tree: WorkTree, update: readonly Buffer[], updateBytes: readonly number[], prewritten: boolean) {
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
  private async prewriteObjects(tree: WorkTree, update: readonly Buffer[], updateBytes: readonly number[]): Promise<boolean> {
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

  /** Writes the paths to record into the work tree's private index and drops the ones to forget. */
  private async stage(tree: WorkTree, staging: Staging, totals: Totals): Promise<void> {
    const { update, updateBytes, forget } = staging;
    const prewritten = await this.prewriteObjects(tree, update, updateBytes);
    // A path git refuses (a symlinked .gitmodules, say) is noted and left out, so it cannot fail every checkpoint.
    for (let refused = 0; update.length; refused += 1) {
      const result = await this.updateIndex(tree, update, updateBytes, prewritten);
      if (result.code === 0) {
        break;
      }
      this.throwIfStopped();
      const named = refusedPath(result.stderrBytes);
      const index = named === undefined ? -1 : update.findIndex((candidate) => candidate.toString('latin1') === named);
      if (index < 0 || refused >= MAX_REFUSED_PATHS) {
        throw new Error(`git update-index failed in the checkpoint store of ${this.folder} (exit ${result.code}): ${result.stderr.trim()}`);
      }
      const [skipped] = update.splice(index, 1);
      updateBytes.splice(index, 1);
      totals.notes.push(`${shown(Buffer.concat([tree.prefix, skipped]))} was not recorded: git refused it (${result.stderr.split('\n')[0].replace(/^error: /, '')}).`);
      forget.push(skipped);
    }
    if (forget.length) {
      await this.git(['update-index', '--force-remove', '-z', '--stdin'], joinNul(forget), [0], tree.env);
    }
  }

  /**
   * The store's size is measured (count-objects looks at every loose object, which costs as much as
   * a checkpoint on a large tree) only when an upper-bound estimate, kept in the store, says it may
   * be over the cap: the estimate grows by the bytes of every file recorded anew.
   */
  private async keepUnderCap(addedBytes: number, maxBytes: number, keep: ReadonlySet<string>, fresh: boolean): Promise<string[]> {
    const file = path.join(this.gitDir, 'size-estimate');
    let estimate = Number.NaN;
    try {
      estimate = Number(fs.readFileSync(file, 'utf8'));
    } catch {
      // First checkpoint of this store, or the file was lost: measured below.
    }
    // A fresh store holds what was just added, at most: no need to count its objects.
    estimate = Number.isFinite(estimate) ? estimate + addedBytes : fresh ? addedBytes : await this.size();
    let notes: string[] = [];
    if (estimate > maxBytes) {
      notes = await this.pruneToCap(maxBytes, keep);
      estimate = await this.size();
    }
    fs.writeFileSync(file, String(estimate));
    return notes;
  }

  /** Bytes the private repository takes on disk (loose objects and packs). */
  async size(): Promise<number> {
    const text = (await this.git(['count-objects', '-v'])).toString('utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return (kib('size') + kib('size-pack') + kib('size-garbage')) * 1024;
  }

  /** Checkpoint ids of this folder, oldest first. */
  async ids(): Promise<string[]> {
    const out = (await this.git(['for-each-ref', '--sort=committerdate', '--format=%(refname)', REF_PREFIX])).toString('utf8');
    return out.split('\n').filter(Boolean).map((ref) => ref.slice(REF_PREFIX.length));
  }

  /** Drops the oldest checkpoints (never those in `keep`) until the store is under its cap. */
  private async pruneToCap(maxBytes: number, keep: ReadonlySet<string>): Promise<string[]> {
    if ((await this.size()) <= maxBytes) {
      return [];
    }
    for (let round = 0; round < MAX_PRUNE_ROUNDS; round += 1) {
      const candidates = (await this.ids()).filter((id) => !keep.has(id));
      if (candidates.length === 0) {
        break;
      }
      const drop = candidates.slice(0, Math.max(1, Math.ceil(candidates.length / 2 ** (MAX_PRUNE_ROUNDS - 1 - round))));
      const input = Buffer.from(drop.map((id) => `delete ${REF_PREFIX}${id}\n`).join(''));
      await this.git(['update-ref', '--stdin'], input);
      this.dropped.push(...drop);
      await this.git(['prune', '--expire=now']);
      await this.git(['repack', '-a', '-d', '-q']);
      await this.git(['prune-packed']);
      if ((await this.size()) <= maxBytes) {
        return [];
      }
    }
    return [`The checkpoint store of ${path.basename(this.folder)} is over its cap of ${(maxBytes / MB).toFixed(0)} MB even after pruning every older checkpoint; raise workspaceAgentTools.checkpoints.maxTotalSizeMB or exclude large generated files.`];
  }

  /** Checkpoint ids pruned since the last look. */
  readonly dropped: string[] = [];

  async entry(state: string, rawPath: Uint8Array): Promise<RecordedEntry | undefined> {
    // A path argument cannot carry every byte (names with newlines, not UTF-8): read the whole tree.
    const listing = splitNul(await this.git(['ls-tree', '-r', '-z', '--full-tree', state]));
    const wanted = Buffer.from(rawPath);
    for (const line of listing) {
      const tab = line.indexOf(0x09);
      if (tab >= 0 && line.subarray(tab + 1).equals(wanted)) {
        const [mode, , sha] = line.subarray(0, tab).toString('latin1').split(' ');
        return this.recorded(mode, sha);
      }
    }
    return undefined;
  }

  recorded(mode: string, sha: string): RecordedEntry | undefined {
    if (mode !== '100644' && mode !== '100755' && mode !== '120000') {
      return undefined;
    }
    return {
      type: mode === '120000' ? 'symlink' : 'file',
      executable: mode === '100755',
      read: () => this.serial(() => this.git(['cat-file', 'blob', sha])),
    };
  }

  /** The raw diff from one state to another: per path, the modes and blobs on both sides. */
  async diff(from: string, to: string): Promise<{ rawPath: Buffer; fromMode: string; toMode: string; fromSha: string; toSha: string }[]> {
    const fields = splitNul(await this.git(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', from, to]));
    const entries = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [fromMode, toMode, fromSha, toSha] = fields[i].toString('latin1').replace(/^:/, '').split(' ');
      entries.push({ rawPath: fields[i + 1], fromMode, toMode, fromSha, toSha });
    }
    return entries;
  }

  /** Lines added and removed per path from one state to another (binary files absent). */
  async lineCounts(from: string, to: string): Promise<Map<string, { added: number; deleted: number }>> {
    const fields = splitNul(await this.git(['diff-tree', '-r', '-z', '--numstat', '--no-renames', from, to]));
    const counts = new Map<string, { added: number; deleted: number }>();
    for (const field of fields) {
      const text = field.toString('latin1');
      const match = /^(\d+|-)\t(\d+|-)\t/.exec(text);
      if (match && match[1] !== '-') {
        counts.set(field.subarray(match[0].length).toString('latin1'), { added: Number(match[1]), deleted: Number(match[2]) });
      }
    }
    return counts;
  }
}
