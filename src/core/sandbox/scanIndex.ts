// The sandbox's index of what its walk finds (plan.ts scanWorkspace: the files ripgrep's
// workspaceScanGlobs select, i.e. every secret file, every file of the execution config, every
// HEAD), per writable folder, so that a command starts without walking the tree. Built once in
// the background with a watch on every folder, and kept true by the watches' events; a command
// first flushes the watcher (every event queued before it is then handled) and waits for the
// folders it is still reading, so a `.env` created just before a command, or inside a folder that
// appeared during the previous one, is in the answer. A folder the index cannot vouch for
// (building, its watch failed, the OS may have dropped events) is walked as before.
// The same watches also keep which folders hold a `.gitignore`, for the search engine's name globs
// (ports/search.ts IgnoreFileIndex): ripgrep then need not list them on every glob.
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import type { DirectoryWatchHandle, DirectoryWatcher, WatchedEntryKind } from '../ports/directoryWatch';
import type { IgnoreFileIndex } from '../ports/search';
import { isInsidePath } from '../location';
import { workspaceScanGlobs } from '../guard/protectedNames';
import { IGNORE_FILE } from '../search/ignoreRules';

/** The globs as ripgrep's overrides read them: a glob without `/` matches the name, the last glob that matches decides. */
export class ScanGlobs {
  private readonly rules: { readonly negated: boolean; readonly test: (relative: string) => boolean }[];

  constructor(globs: readonly string[] = workspaceScanGlobs()) {
    this.rules = globs.map((glob) => {
      const negated = glob.startsWith('!');
      const body = negated ? glob.slice(1) : glob;
      // ripgrep's --glob-case-insensitive; `*` and `**` match names starting with a dot, as in ripgrep.
      const regex = minimatch.makeRe(body, { dot: true, nocase: true, nonegate: true, nocomment: true });
      if (!regex) {
        throw new Error(`The scan glob ${glob} does not compile`);
      }
      const test = body.includes('/') ? (relative: string) => regex.test(relative) : (relative: string) => regex.test(relative.slice(relative.lastIndexOf('/') + 1));
      return { negated, test };
    });
  }

  /** The last glob that matches, or undefined. */
  private last(relative: string): { readonly negated: boolean } | undefined {
    for (let index = this.rules.length - 1; index >= 0; index -= 1) {
      if (this.rules[index].test(relative)) {
        return this.rules[index];
      }
    }
    return undefined;
  }

  /** ripgrep lists a file when a glob selects it last (with any glob given, a file none matches is left out). */
  selectsFile(relative: string): boolean {
    return this.last(relative)?.negated === false;
  }

  /** ripgrep walks into a folder unless a `!` glob matches it last (git's object store, refs, logs). */
  entersFolder(relative: string): boolean {
    return this.last(relative)?.negated !== true;
  }
}

/** One watched folder of a tree: its watch, its subfolders, the names of its selected files. */
interface FolderNode {
  readonly path: string;
  /** The device it lies on, when known (a folder on another device than its parent's is a mount point). */
  readonly device: number | undefined;
  handle?: DirectoryWatchHandle;
  readonly folders: Map<string, FolderNode>;
  readonly files: Set<string>;
  /** Whether a regular file named .gitignore is in it: not a link, which git does not follow and the search's own listing never named. */
  ignoreFile: boolean;
  closed: boolean;
}

/** Why a folder is not answered from the index. */
type RootState = 'building' | 'ready' | 'failed';

/** One writable folder's index. */
interface RootIndex {
  readonly path: string;
  state: RootState;
  /** Bumped by every rebuild: work of an earlier build is dropped when it lands. */
  generation: number;
  node: FolderNode;
  /** The root's inode when the build began (a folder renamed away and another put there is rebuilt). */
  inode: number | undefined;
  /** Every selected file, absolute. */
  readonly selected: Set<string>;
  /** Every folder holding a .gitignore, absolute. */
  readonly ignoreFolders: Set<string>;
  /** Listings of folders under way: a lookup waits for them. */
  readonly pending: Set<Promise<void>>;
  /** How many folders are watched. */
  watched: number;
  /** Why the folder is walked instead, for tests and the bench. */
  reason?: string;
}

/** What a lookup answers: the files of the folders the index vouches for, and the folders to walk. */
export interface ScanLookup {
  readonly files: string[];
  readonly unindexed: string[];
}

export interface ScanIndexOptions {
  /** The most folders watched in all (a share of the user's inotify watches, which VS Code's own watcher also needs); undefined: no limit. */
  readonly maxWatches?: number;
  /** The globs (workspaceScanGlobs by default). */
  readonly globs?: readonly string[];
  /** How long after a burst of events the folders are indexed again (1 s by default). */
  readonly burstPauseMs?: number;
}

export class ScanIndex implements IgnoreFileIndex {
  private readonly globs: ScanGlobs;
  private readonly roots = new Map<string, RootIndex>();
  /**
   * Events delivered in the current turn of the event loop. The OS drops events only when its
   * queue is full, and a full queue is read to its end in one turn (libuv reads until nothing is
   * left), so a turn that delivers close to the queue's size may have lost some: every folder is
   * then verified by a new build. A quarter of the size leaves room for events of the same queue
   * that never reach us (other watchers of this process, watches already closed).
   */
  private eventsThisTurn = 0;
  private turnScheduled = false;
  private readonly burstLimit: number;
  private readonly maxWatches: number;
  private readonly burstPauseMs: number;
  private disposed = false;

  constructor(private readonly watcher: DirectoryWatcher, options: ScanIndexOptions = {}) {
    this.globs = new ScanGlobs(options.globs);
    this.burstLimit = watcher.queueLimit === undefined ? 1 : Math.max(1, Math.floor(watcher.queueLimit / 4));
    this.maxWatches = options.maxWatches ?? Number.POSITIVE_INFINITY;
    this.burstPauseMs = options.burstPauseMs ?? 1000;
  }

  /**
   * Indexes these folders from now on (each built in the background, once). `only`: and stops
   * indexing the others (the workspace's folders changed: a folder removed is not watched any more).
   */
  track(folders: readonly string[], only = false): void {
    if (this.disposed) {
      return;
    }
    for (const [folder, root] of this.roots) {
      if (only && !folders.includes(folder)) {
        this.close(root.node, root);
        this.roots.delete(folder);
      }
    }
    for (const folder of folders) {
      if (!this.roots.has(folder)) {
        const root: RootIndex = { path: folder, state: 'building', generation: 0, node: newNode(folder, undefined), inode: undefined, selected: new Set(), ignoreFolders: new Set(), pending: new Set(), watched: 0 };
        this.roots.set(folder, root);
        this.build(root);
      }
    }
  }

  /**
   * The selected files of the folders the index vouches for, as ripgrep would list them now, and
   * the folders it cannot answer for (not tracked, building, failed): the caller walks those.
   * First every event queued before the call is handled and every folder being read is read.
   */
  async lookup(folders: readonly string[]): Promise<ScanLookup> {
    await this.caughtUp(folders.map((folder) => this.roots.get(folder)));
    const files: string[] = [];
    const unindexed: string[] = [];
    for (const folder of folders) {
      const root = this.roots.get(folder);
      if (root?.state === 'ready' && this.rootUnmoved(root)) {
        files.push(...[...root.selected].sort());
      } else {
        unindexed.push(folder);
      }
    }
    return { files, unindexed };
  }

  /**
   * The folders under `folder` that hold a .gitignore, relative to it ('' for itself), as a look
   * at the disk now would find them (every event queued before the call counted); undefined when
   * no tracked folder holds `folder` (a path without links) or the index cannot vouch for it.
   */
  async ignoreFileFolders(folder: string): Promise<string[] | undefined> {
    const root = [...this.roots.values()].find((each) => isInsidePath(folder, each.path));
    if (!root) {
      return undefined;
    }
    await this.caughtUp([root]);
    // The folder must be one the index entered (not through a link, not inside git's object store).
    if (root.state !== 'ready' || !this.rootUnmoved(root) || !nodeAt(root, folder)) {
      return undefined;
    }
    return [...root.ignoreFolders].filter((each) => isInsidePath(each, folder)).map((each) => (each === folder ? '' : relativeTo(folder, each)));
  }

  /** Every event queued before the call handled, and every folder the ready roots were reading read. */
  private async caughtUp(roots: readonly (RootIndex | undefined)[]): Promise<void> {
    await this.watcher.flush();
    for (const root of roots) {
      while (root && root.state === 'ready' && root.pending.size > 0) {
        await Promise.all([...root.pending]);
      }
    }
  }

  /** Where each tracked folder stands (for tests and the bench). */
  status(): { folder: string; state: RootState; watched: number; reason?: string }[] {
    return [...this.roots.values()].map((root) => ({ folder: root.path, state: root.state, watched: root.watched, ...(root.reason ? { reason: root.reason } : {}) }));
  }

  /** Resolves when no tracked folder is building any more. */
  async settled(): Promise<void> {
    for (const root of this.roots.values()) {
      while (root.state === 'building' || root.pending.size > 0) {
        await Promise.all([...root.pending]);
        if (root.state === 'building' && root.pending.size === 0) {
          // A build that was just started has its first listing queued on the next turn.
          await this.watcher.flush();
        }
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const root of this.roots.values()) {
      this.close(root.node, root);
    }
    this.roots.clear();
  }

  /** True while the folder is the one the index was built for (not renamed away and replaced). */
  private rootUnmoved(root: RootIndex): boolean {
    const now = this.watcher.entry(root.path, true);
    if (now?.kind === 'directory' && now.inode === root.inode) {
      return true;
    }
    this.rebuild(root, 'the folder was replaced');
    return false;
  }

  private build(root: RootIndex): void {
    root.state = 'building';
    const entry = this.watcher.entry(root.path, true);
    root.inode = entry?.inode;
    root.node = newNode(root.path, entry?.device);
    if (!this.watcher.reportsEveryChange(root.path)) {
      this.fail(root, 'not a local file system: a change made elsewhere raises no event');
      return;
    }
    this.open(root, root.node, root.generation);
  }

  /** Indexes the folder again, after `delayMs` (commands walk it meanwhile). */
  private rebuild(root: RootIndex, reason: string, delayMs = 0): void {
    if (this.disposed || this.roots.get(root.path) !== root) {
      return;
    }
    this.close(root.node, root);
    root.selected.clear();
    root.ignoreFolders.clear();
    root.pending.clear();
    root.watched = 0;
    root.generation += 1;
    root.reason = reason;
    if (delayMs === 0) {
      this.build(root);
      return;
    }
    root.state = 'building';
    const generation = root.generation;
    const later = new Promise<void>((resolve) => setTimeout(resolve, delayMs).unref()).then(() => {
      if (!this.disposed && root.generation === generation && this.roots.get(root.path) === root) {
        this.build(root);
      }
    });
    this.hold(root, generation, later);
  }

  private fail(root: RootIndex, reason: string): void {
    this.close(root.node, root);
    root.selected.clear();
    root.ignoreFolders.clear();
    root.generation += 1;
    root.state = 'failed';
    root.reason = reason;
  }

  /** Watches a folder, then lists it: whatever appears between the two is in the listing, whatever after is an event. */
  private open(root: RootIndex, node: FolderNode, generation: number): void {
    if (root.watched >= this.maxWatches) {
      this.fail(root, `more than ${this.maxWatches} folders to watch`);
      return;
    }
    try {
      node.handle = this.watcher.watch(node.path, (name, kind) => this.heard(root, node, generation, name, kind), () => this.broken(root, node, generation));
      root.watched += 1;
    } catch (error) {
      // A subfolder gone already is its parent's event; the root itself must be watched.
      if (node === root.node || this.watcher.entry(node.path, false)?.kind === 'directory') {
        this.fail(root, `a folder could not be watched (${describe(error)})`);
      }
      return;
    }
    this.hold(root, generation, this.list(root, node, generation));
  }

  /** Keeps a folder's reading pending until it lands; the build is done when the last of its readings lands. */
  private hold(root: RootIndex, generation: number, reading: Promise<void>): void {
    root.pending.add(reading);
    void reading.finally(() => {
      root.pending.delete(reading);
      if (root.generation === generation && root.state === 'building' && root.pending.size === 0) {
        root.state = 'ready';
      }
    });
  }

  private async list(root: RootIndex, node: FolderNode, generation: number): Promise<void> {
    let children: { readonly name: string; readonly kind: WatchedEntryKind }[];
    try {
      children = await this.watcher.list(node.path);
    } catch (error) {
      if (root.generation === generation && !node.closed && this.watcher.entry(node.path, node === root.node)?.kind === 'directory') {
        // ripgrep's walk fails the same way (a folder it cannot read): the walk reports it.
        this.fail(root, `a folder could not be read (${describe(error)})`);
      }
      return;
    }
    if (root.generation !== generation || node.closed) {
      return;
    }
    for (const child of children) {
      // A plain file the globs do not select needs no look: nothing is recorded for it.
      if (child.kind === 'file' && child.name !== IGNORE_FILE && !this.globs.selectsFile(relativeTo(root.path, path.posix.join(node.path, child.name)))) {
        continue;
      }
      this.look(root, node, child.name, generation, true);
    }
  }

  private heard(root: RootIndex, node: FolderNode, generation: number, name: string | undefined, kind: 'rename' | 'change'): void {
    if (root.generation !== generation || node.closed) {
      return;
    }
    this.eventsThisTurn += 1;
    if (!this.turnScheduled) {
      this.turnScheduled = true;
      setImmediate(() => {
        this.turnScheduled = false;
        this.eventsThisTurn = 0;
      });
    }
    if (this.eventsThisTurn >= this.burstLimit) {
      this.eventsThisTurn = 0;
      for (const each of this.roots.values()) {
        if (each.state !== 'failed') {
          // After a pause: a burst (an install, a checkout) often goes on, and each build walks the tree.
          this.rebuild(each, 'the watcher may have dropped events', this.burstPauseMs);
        }
      }
      return;
    }
    if (name === undefined) {
      // Which entry changed is unknown: every entry of the folder is looked at again.
      const names = new Set([...node.folders.keys(), ...node.files]);
      const listing = this.watcher.list(node.path).then(
        (children) => {
          children.forEach((child) => names.add(child.name));
          if (root.generation === generation && !node.closed) {
            names.forEach((each) => this.look(root, node, each, generation, true));
          }
        },
        () => undefined,
      );
      this.hold(root, generation, listing);
      return;
    }
    // A change of contents or attributes (most events: every write) neither makes nor removes an
    // entry: only a selected file or a known folder can need a look.
    if (kind === 'change' && !node.folders.has(name) && !this.globs.selectsFile(relativeTo(root.path, path.posix.join(node.path, name)))) {
      return;
    }
    this.look(root, node, name, generation, kind === 'rename');
  }

  /**
   * Brings one entry of a folder up to date from a look at the disk made now (so a later change
   * is a later event). A folder that was created, renamed or removed (`renamed`) is dropped and,
   * if one is there now, opened afresh: its inode may be a new folder's.
   */
  private look(root: RootIndex, parent: FolderNode, name: string, generation: number, renamed: boolean): void {
    const full = path.posix.join(parent.path, name);
    const relative = relativeTo(root.path, full);
    const entry = this.watcher.entry(full, false);
    if (name === IGNORE_FILE) {
      markIgnoreFile(root, parent, entry?.kind === 'file');
    }
    const known = parent.folders.get(name);
    if (entry?.kind === 'directory' && this.globs.entersFolder(relative)) {
      forget(root, parent, name);
      if (known && !renamed) {
        return;
      }
      if (known) {
        this.close(known, root);
        parent.folders.delete(name);
      }
      const node = newNode(full, entry.device);
      parent.folders.set(name, node);
      // A file system mounted inside the folder must report every change too.
      if (entry.device !== parent.device && !this.watcher.reportsEveryChange(full)) {
        this.fail(root, `${full} is not on a local file system: a change made elsewhere raises no event`);
        return;
      }
      this.open(root, node, generation);
      return;
    }
    if (known) {
      this.close(known, root);
      parent.folders.delete(name);
    }
    if (entry?.kind === 'file' && this.globs.selectsFile(relative)) {
      parent.files.add(name);
      root.selected.add(full);
    } else {
      forget(root, parent, name);
    }
  }

  private broken(root: RootIndex, node: FolderNode, generation: number): void {
    if (root.generation !== generation || node.closed) {
      return;
    }
    if (this.watcher.entry(node.path, node === root.node)?.kind === 'directory') {
      this.rebuild(root, 'a watch broke');
    }
  }

  /** Closes a folder's watch and everything under it, and forgets their files. */
  private close(node: FolderNode, root: RootIndex): void {
    node.closed = true;
    if (node.handle) {
      node.handle.close();
      root.watched -= 1;
    }
    for (const name of node.files) {
      root.selected.delete(path.posix.join(node.path, name));
    }
    if (node.ignoreFile) {
      markIgnoreFile(root, node, false);
    }
    for (const child of node.folders.values()) {
      this.close(child, root);
    }
  }
}

function newNode(folder: string, device: number | undefined): FolderNode {
  return { path: folder, device, folders: new Map(), files: new Set(), ignoreFile: false, closed: false };
}

/** The node of a folder under the root, if the index entered it. */
function nodeAt(root: RootIndex, folder: string): FolderNode | undefined {
  let node: FolderNode | undefined = root.node;
  for (const name of relativeTo(root.path, folder).split('/').filter(Boolean)) {
    node = node.folders.get(name);
    if (!node) {
      return undefined;
    }
  }
  return node;
}

function markIgnoreFile(root: RootIndex, node: FolderNode, present: boolean): void {
  node.ignoreFile = present;
  if (present) {
    root.ignoreFolders.add(node.path);
  } else {
    root.ignoreFolders.delete(node.path);
  }
}

function forget(root: RootIndex, parent: FolderNode, name: string): void {
  if (parent.files.delete(name)) {
    root.selected.delete(path.posix.join(parent.path, name));
  }
}

function relativeTo(root: string, file: string): string {
  return file.slice(root.endsWith('/') ? root.length : root.length + 1);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    return 'code' in error && typeof error.code === 'string' ? error.code : error.message;
  }
  return String(error);
}
