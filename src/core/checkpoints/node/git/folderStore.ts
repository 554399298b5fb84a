// One workspace folder's private checkpoint repository: created once, then a checkpoint is
// classifyStatus() → stage() → commitState() → keepUnderCap() (storeSize.ts), every git call of the
// folder one at a time (a roll-up of packs, storePacks.ts, runs beside them). The private index is
// kept between checkpoints as a stat cache, which is what makes a checkpoint of an unchanged tree
// cost one `git status`. A checkpoint of the paths a change touched (a staged command's "after")
// skips the index (touchedCheckpoint.ts), which the next record brings up to date before it reads
// it; its git processes are started ahead, after a whole record. A build (storeBuild.ts) records the
// folder the same way ahead of the first call, in the background, without a checkpoint of its own.
//
// A nested repository (a folder with its own `.git`) is recorded as a work tree of its own and its
// tree grafted into the folder's (nestedRepositories.ts), so a checkpoint is still one commit. git
// skips every `.git` entry, so the user's repository (objects, refs, index, stash, config) is never
// recorded or written.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BugError } from '../../../errors';
import type { CheckpointLimits, RecordedEntry } from '../../../ports/checkpoints';
import { excludeLines, excludeLinesUnder } from '../../excludes';
import { CONFIG_TEXT, joinNul, PRIVATE_ATTRIBUTES, refusedPath, runGit, shown, splitNul, startGit, storeEnvironment, treeEntryOf, type GitConversation } from './gitRunner';
import { hasChanges, MAX_NESTING, NESTED_FOLDER, NestedRepositories, nestedRootsOf, type RecordedTree, type Staging, type WorkTree } from './nestedRepositories';
import { isBelow, outermostPaths, StatusPaths } from './statusPaths';
import { StoreBuild, type BuildRun } from './storeBuild';
import { StorePacks } from './storePacks';
import { REF_PREFIX, StoreSize } from './storeSize';
import { checkIgnoreArgs, importArgs, noIndexEnv, touchedCheckpoint } from './touchedCheckpoint';

const MB = 1024 * 1024;
/** How many paths git may refuse in one checkpoint before the checkpoint fails. */
const MAX_REFUSED_PATHS = 20;

/** What one checkpoint adds up over the folder and its nested repositories. */
interface Totals {
  addedBytes: number;
  files: number;
  readonly notes: string[];
}

/** Paths classified between two turns of the event loop (each is an lstat): the extension host stays responsive during a build. */
const PATHS_PER_TURN = 2000;

/** One folder's private repository; every git call of a folder runs one at a time. */
export class FolderStore {
  private queue: Promise<unknown> = Promise.resolve();
  private ready = false;
  private readonly excludesWritten = new Map<string, string>();
  readonly gitDir: string;

  constructor(readonly folder: string, storeRoot: string) {
    const key = createHash('sha256').update(folder).digest('hex').slice(0, 16);
    this.gitDir = path.join(storeRoot, `${path.basename(folder).replace(/[^\w.-]/g, '_')}-${key}`);
    this.building = new StoreBuild(this.gitDir);
    this.nestedRepositories = new NestedRepositories(this);
    this.sizes = new StoreSize(this);
    this.packs = new StorePacks({ gitDir: this.gitDir, runLowPriority: (args) => runGit(args, this.rootTree.env, this.gitDir, undefined, { lowPriority: true }) });
  }

  private readonly building: StoreBuild;
  private readonly nestedRepositories: NestedRepositories;
  private readonly sizes: StoreSize;
  private readonly packs: StorePacks;

  /** Checkpoint ids pruned since the last look. */
  get dropped(): string[] {
    return this.sizes.dropped;
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
    const result = await runGit(args, env, this.gitDir, input, this.building.runOptions());
    if (!okCodes.includes(result.code)) {
      this.building.throwIfStopped();
      throw new Error(`git ${args[0]} failed in the checkpoint store of ${this.folder} (exit ${result.code}): ${result.stderr.trim()}`);
    }
    return result.stdout;
  }

  /** Set once this window took a touched checkpoint (or a staged command started): from then on its processes wait ahead of the next one. */
  private touchedTaken = false;
  /** The next touched checkpoint's fast-import (with whether it keeps its pack) and check-ignore, started after a whole record, off its path. */
  private importerAhead: { keepPack: boolean; conversation: GitConversation } | undefined;
  private checkerAhead: GitConversation | undefined;

  /** A fast-import for a touched checkpoint (touchedCheckpoint.ts): the one started ahead when it was started so, else one started now. */
  importer(keepPack: boolean): GitConversation {
    const ahead = this.importerAhead;
    this.importerAhead = undefined;
    if (ahead?.keepPack === keepPack) {
      ahead.conversation.hold(true);
      return ahead.conversation;
    }
    void ahead?.conversation.end().catch(() => undefined);
    return startGit(importArgs(keepPack), this.rootTree.env, this.gitDir);
  }

  /** A check-ignore for a touched checkpoint: the one started ahead, else one started now. */
  ignoreChecker(): GitConversation {
    const ahead = this.checkerAhead;
    this.checkerAhead = undefined;
    ahead?.hold(true);
    return ahead ?? startGit(checkIgnoreArgs(this.rootTree), noIndexEnv(this.rootTree), this.gitDir);
  }

  /** A staged command started: its "after" is a touched checkpoint, whose processes start once what is queued (its "before") is done. */
  expectTouched(): void {
    if (this.touchedTaken || process.platform === 'win32') {
      return;
    }
    this.touchedTaken = true;
    void this.serial(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      this.startAhead();
    }).catch(() => undefined);
  }

  /** Starts the next touched checkpoint's processes, once this window takes them: they wait without holding the window open. */
  private startAhead(): void {
    if (!this.touchedTaken || process.platform === 'win32') {
      return;
    }
    if (!this.importerAhead) {
      const conversation = startGit(importArgs(this.packs.keep), this.rootTree.env, this.gitDir);
      conversation.hold(false);
      this.importerAhead = { keepPack: this.packs.keep, conversation };
    }
    if (!this.checkerAhead) {
      this.checkerAhead = startGit(checkIgnoreArgs(this.rootTree), noIndexEnv(this.rootTree), this.gitDir);
      this.checkerAhead.hold(false);
    }
  }

  /** Ends the check-ignore started ahead: it read the excludes file when it started, and that file changed. */
  private dropCheckerAhead(): void {
    void this.checkerAhead?.end().catch(() => undefined);
    this.checkerAhead = undefined;
  }

  /**
   * What a prune waits for (StoreSize): a roll-up of packs running beside the store's git runs, and
   * the processes waiting ahead ended, since a prune removes the temporary pack fast-import opened.
   */
  async beforePrune(): Promise<void> {
    await this.packs.settled();
    await this.endAheadNow();
  }

  /** Ends the processes waiting ahead, after what is queued (a start of them included), and waits for them to exit. */
  endAhead(): Promise<void> {
    return this.serial(() => this.endAheadNow());
  }

  /** Ends the processes waiting ahead (told nothing, fast-import writes nothing) and waits for them to exit. */
  private async endAheadNow(): Promise<void> {
    const waiting = [this.importerAhead?.conversation, this.checkerAhead];
    this.importerAhead = undefined;
    this.checkerAhead = undefined;
    await Promise.all(waiting.map((conversation) => conversation?.end().catch(() => undefined)));
  }

  /** The folder as a work tree: the private index `checkpoint-index`, the folder's exclude lines. */
  private get rootTree(): WorkTree {
    return { prefix: Buffer.alloc(0), env: storeEnvironment(this.gitDir, this.folder), excludesFile: path.join(this.gitDir, 'info', 'exclude-folder') };
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
      // CONFIG in one append, not a git run per key (23 process starts each time a store opened): git
      // takes a key's last value, so the block wins over what git init wrote; appended again only
      // when the file does not already end with it (a store of an older version of CONFIG).
      const configFile = path.join(this.gitDir, 'config');
      const config = fs.readFileSync(configFile, 'utf8');
      if (!config.endsWith(CONFIG_TEXT)) {
        fs.appendFileSync(configFile, `${config === '' || config.endsWith('\n') ? '' : '\n'}${CONFIG_TEXT}`);
      }
      fs.mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
      fs.mkdirSync(path.join(this.gitDir, NESTED_FOLDER), { recursive: true });
      fs.writeFileSync(path.join(this.gitDir, 'info', 'attributes'), PRIVATE_ATTRIBUTES);
      // Every work tree reads info/exclude: files.exclude goes in each work tree's own file (core.excludesFile).
      fs.writeFileSync(path.join(this.gitDir, 'info', 'exclude'), '');
      // Hooks of the template are never run (core.hooksPath), but keep the store free of them.
      fs.rmSync(path.join(this.gitDir, 'hooks'), { recursive: true, force: true });
      this.packs.clearMarks();
      this.ready = true;
    }
  }

  /** Writes a work tree's exclude file when files.exclude changed. */
  private writeExcludes(tree: WorkTree, excludes: readonly string[]): void {
    const lines = excludeLinesUnder(excludeLines(excludes), tree.prefix.toString('utf8')).join('\n');
    if (this.excludesWritten.get(tree.excludesFile) !== lines) {
      fs.writeFileSync(tree.excludesFile, `${lines}\n`);
      this.excludesWritten.set(tree.excludesFile, lines);
      if (tree.excludesFile === this.rootTree.excludesFile) {
        this.dropCheckerAhead();
      }
    }
  }

  private async head(): Promise<string | undefined> {
    const out = await this.git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], undefined, [0, 1]);
    const sha = out.toString('utf8').trim();
    return sha || undefined;
  }

  /** Builds the store ahead of the first call (storeBuild.ts): the folder recorded, without a checkpoint of its own. */
  build(limits: CheckpointLimits, keep: ReadonlySet<string>, run: BuildRun): Promise<string[]> {
    return this.building.build(run, async () => {
      const { state, head, totals } = await this.recordState('store build', limits);
      if (state !== head) {
        totals.notes.push(...(await this.sizes.keepUnderCap(totals.addedBytes, limits.maxTotalBytes, keep, head === undefined)));
      }
      await this.status(this.rootTree);
      return totals.notes;
    });
  }

  /**
   * Records the folder now; returns the commit and what it could not record. With `touched`
   * (relative paths, `/`-separated), only those paths and what is below them are looked at, the
   * rest of the folder taken as last recorded (see recordTouched).
   */
  async take(id: string, limits: CheckpointLimits, keep: ReadonlySet<string>, touchedPaths?: readonly string[]): Promise<{ state: string; notes: string[] }> {
    const touched = touchedPaths && this.widenedToNewRepositories(touchedPaths);
    const quick = touched ? await this.takeTouched(id, limits, keep, touched) : undefined;
    this.lastTake = quick ? 'touched tree' : touched ? 'touched index' : 'whole';
    if (quick) {
      return quick;
    }
    const { state, head, totals } = await this.recordState(`checkpoint ${id}`, limits, touched);
    await this.git(['update-ref', `${REF_PREFIX}${id}`, state]);
    if (state !== head) {
      totals.notes.push(...(await this.sizes.keepUnderCap(totals.addedBytes, limits.maxTotalBytes, new Set([...keep, id]), head === undefined)));
    }
    if (!touched && this.touchedTaken) {
      // A whole record is a call's "before" (a staged command runs meanwhile), or an "after" off a
      // staged path: the next touched checkpoint's fast-import starts here, off its path, a turn after
      // the caller has this one (a process start blocks the extension host), and so does a roll-up of
      // the packs touched checkpoints keep. A window that takes none queues nothing here, so an
      // unstaged call's changes never wait a turn behind it.
      void this.serial(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        this.packs.tidy();
        this.startAhead();
      }).catch(() => undefined);
    }
    return { state, notes: totals.notes };
  }

  /**
   * A touched path inside a repository the change made (a folder along it holds `.git`, and this
   * store does not record it as a nested repository yet) becomes that repository's folder: a whole
   * record takes it as a repository of its own, which a status limited to a file inside it never sees.
   */
  private widenedToNewRepositories(touched: readonly string[]): string[] {
    const known = new Set(this.headRecorded?.children.map((child) => child.root.toString('utf8')));
    return touched.map((relative) => {
      const parts = relative.split('/');
      for (let i = 1; i < parts.length; i += 1) {
        const along = parts.slice(0, i).join('/');
        if (known.has(along)) {
          // A nested repository this store records: recordTouched goes into it.
          return relative;
        }
        if (fs.existsSync(path.join(this.folder, along, '.git'))) {
          return along;
        }
      }
      return relative;
    });
  }

  /** How the last checkpoint was taken (tests and the bench look at it): the touched paths without the index, through it, or the whole folder. */
  lastTake: 'touched tree' | 'touched index' | 'whole' | undefined;

  /**
   * A checkpoint of the touched paths without the private index (touchedCheckpoint.ts): one fast-import
   * writes their blobs, the trees along them, the commit, HEAD and the checkpoint's ref; the index
   * is brought up to date by the next record, before it reads it (syncIndex). Undefined when it
   * cannot record them exactly (before this window knows what HEAD holds, a path it cannot name, a
   * nested repository along one): through the index then.
   */
  private async takeTouched(id: string, limits: CheckpointLimits, keep: ReadonlySet<string>, touched: readonly string[]): Promise<{ state: string; notes: string[] } | undefined> {
    const head = this.headCommit;
    const last = this.headRecorded;
    const pathspecs = touchedPathspecs(touched);
    if (!head || !last || this.headNestedRoots === undefined || !pathspecs || pathspecs.length === 0) {
      return undefined;
    }
    await this.prepare();
    this.writeExcludes(this.rootTree, limits.excludes);
    this.headTree ??= (await this.git(['rev-parse', `${head}^{tree}`])).toString('utf8').trim();
    let taken: Awaited<ReturnType<typeof touchedCheckpoint>>;
    try {
      taken = await touchedCheckpoint(this, this.rootTree, { commit: head, tree: this.headTree }, pathspecs, last, limits, `${REF_PREFIX}${id}`, `checkpoint ${id}`, this.packs.keep);
    } catch {
      // A file gone or changed into a folder while it was read, say. HEAD may have moved: the whole folder, its tree compared.
      this.forgetHead();
      // A fast-import that failed leaves a report of its last commands (paths) in the store: not kept.
      for (const name of fs.readdirSync(this.gitDir).filter((entry) => entry.startsWith('fast_import_crash_'))) {
        fs.rmSync(path.join(this.gitDir, name), { force: true });
      }
      return undefined;
    }
    if (!taken) {
      return undefined;
    }
    this.touchedTaken = true;
    this.headCommit = taken.state;
    this.headTree = taken.tree;
    // Brought into the index by the next record (recordState), not now: the call's changes, listed
    // next, never read the index, so they do not wait for it.
    this.pendingIndex.push(taken.indexInfo);
    return { state: taken.state, notes: [...taken.notes, ...(await this.sizes.keepUnderCap(taken.addedBytes, limits.maxTotalBytes, new Set([...keep, id]), false))] };
  }

  /** This window no longer knows what HEAD holds: the next record is whole and compares its tree with HEAD's. */
  private forgetHead(): void {
    this.headRecorded = undefined;
    this.headNestedRoots = undefined;
    this.headCommit = undefined;
    this.headTree = undefined;
  }

  /** update-index input of checkpoints taken without the index, oldest first: what HEAD holds at their paths, which the index does not yet. */
  private readonly pendingIndex: Buffer[] = [];

  /**
   * Makes the private index hold what HEAD holds at the paths of checkpoints taken without it. The
   * entries come from HEAD, not from the files (which may have changed since), with no stat data:
   * the next status hashes those files again and finds any change, a change back included. When it
   * fails, this window no longer trusts HEAD to be the index's tree: the next record is whole and
   * compares the trees.
   */
  private async syncIndex(): Promise<void> {
    if (this.pendingIndex.length === 0) {
      return;
    }
    const info = Buffer.concat(this.pendingIndex.splice(0));
    try {
      await this.git(['update-index', '--add', '--replace', '-z', '--index-info'], info);
    } catch {
      this.forgetHead();
    }
  }

  /** The commit HEAD is at, and its tree, as this window last wrote or confirmed them; unknown as headNestedRoots is. */
  private headCommit: string | undefined;
  private headTree: string | undefined;

  /** Brings the private indexes up to date and makes HEAD their state (a new commit when it changed). */
  private async recordState(message: string, limits: CheckpointLimits, touched?: readonly string[]): Promise<{ state: string; head: string | undefined; totals: Totals }> {
    await this.prepare();
    await this.syncIndex();
    // Until this checkpoint is committed, HEAD is not known to match the indexes (a failure half-way).
    const known = this.headNestedRoots;
    const last = this.headRecorded;
    let headTree = known === undefined ? undefined : this.headTree;
    this.forgetHead();
    const totals: Totals = { addedBytes: 0, files: 0, notes: [] };
    // Only the touched paths, when this window knows what HEAD holds; otherwise (or when they cannot be named to git exactly) the whole folder.
    const pathspecs = touched && last && known !== undefined ? touchedPathspecs(touched) : undefined;
    const recorded = pathspecs && last ? await this.recordTouched(this.rootTree, pathspecs, last, limits, totals, 0) : await this.record(this.rootTree, limits, totals, 0);
    const head = await this.head();
    const nestedRoots = nestedRootsOf(recorded);
    let state = head;
    // Nothing changed since the last checkpoint, in the folder or any nested repository: the same state, without writing a tree.
    if (!head || hasChanges(recorded) || nestedRoots !== known) {
      const tree = await this.nestedRepositories.treeOf(recorded);
      if (!head || (await this.git(['rev-parse', `${head}^{tree}`])).toString('utf8').trim() !== tree) {
        state = (await this.git(['commit-tree', tree, '-m', message])).toString('utf8').trim();
        await this.git(['update-ref', '--no-deref', 'HEAD', state]);
      }
      headTree = tree;
    }
    if (!state) {
      throw new BugError('no checkpoint state after recording');
    }
    this.headNestedRoots = nestedRoots;
    this.headRecorded = settled(recorded);
    this.headCommit = state;
    this.headTree = headTree;
    return { state, head, totals };
  }

  /** The nested repositories HEAD's tree holds (as nestedRootsOf says), HEAD being the indexes' tree; unknown until this window wrote or confirmed HEAD. */
  private headNestedRoots: string | undefined;
  /** The work trees HEAD's tree was recorded from (the folder's and its nested repositories', nothing left to stage); unknown as headNestedRoots is. */
  private headRecorded: RecordedTree | undefined;

  /** Brings a work tree's private index up to date, and those of the nested repositories inside it. */
  private async record(tree: WorkTree, limits: CheckpointLimits, totals: Totals, depth: number): Promise<RecordedTree> {
    const staging = await this.classifyStatus(tree, limits, totals);
    await this.stage(tree, staging, totals);
    return { tree, staging, children: await this.recordNested(tree, staging.nested, limits, totals, depth) };
  }

  /** The nested repositories `git status` named in a work tree, each recorded whole. */
  private async recordNested(tree: WorkTree, roots: readonly Buffer[], limits: CheckpointLimits, totals: Totals, depth: number): Promise<RecordedTree['children'][number][]> {
    const children: RecordedTree['children'][number][] = [];
    for (const root of roots) {
      const prefix = Buffer.concat([tree.prefix, root, Buffer.from('/')]);
      const nested = depth < MAX_NESTING ? this.nestedRepositories.nestedTree(prefix) : undefined;
      if (!nested) {
        totals.notes.push(`${shown(prefix)} is a nested git repository ${depth < MAX_NESTING ? 'whose path is not UTF-8' : `more than ${MAX_NESTING} repositories deep`}; its files are not recorded in checkpoints.`);
        continue;
      }
      children.push({ root, recorded: await this.record(nested, limits, totals, depth + 1) });
    }
    return children;
  }

  /**
   * Brings a work tree's private index up to date at the touched paths only (relative to it), and
   * those of its nested repositories that hold touched paths: `git status` limited to the paths
   * decides, so exactly what a full record leaves out is left out (ignored, excluded, over the cap,
   * a `.git`), and what is elsewhere stays as `last` (the record HEAD holds) has it, the index a
   * true stat cache for the next full record. A nested repository HEAD knows is recorded at its own
   * touched paths; one a touched path covers (deleted, replaced) is looked for again by the status,
   * and one it finds there, or a new one, is recorded whole.
   */
  private async recordTouched(tree: WorkTree, paths: readonly Buffer[], last: RecordedTree, limits: CheckpointLimits, totals: Totals, depth: number): Promise<RecordedTree> {
    const level: Buffer[] = [];
    const inside = new Map<number, Buffer[]>();
    for (const touched of paths) {
      const child = last.children.findIndex((candidate) => isBelow(touched, candidate.root));
      if (child < 0) {
        level.push(touched);
      } else {
        inside.set(child, [...(inside.get(child) ?? []), touched.subarray(last.children[child].root.length + 1)]);
      }
    }
    const staging: Staging = level.length ? await this.classifyStatus(tree, limits, totals, level) : { update: [], updateBytes: [], forget: [], nested: [] };
    await this.stage(tree, staging, totals);
    const children: RecordedTree['children'][number][] = [];
    for (const [i, child] of last.children.entries()) {
      // Covered by a touched path: the status looked for it again (below, when it is still there).
      if (level.some((touched) => touched.equals(child.root) || isBelow(child.root, touched))) {
        continue;
      }
      const own = inside.get(i);
      children.push({ root: child.root, recorded: own ? await this.recordTouched(child.recorded.tree, own, child.recorded, limits, totals, depth + 1) : child.recorded });
    }
    children.push(...(await this.recordNested(tree, staging.nested, limits, totals, depth)));
    children.sort((a, b) => Buffer.compare(a.root, b.root));
    return { tree, staging, children };
  }

  /** What `git status` says changed in a work tree since its last checkpoint: paths to record, paths to forget, nested repositories, notes. */
  private async classifyStatus(tree: WorkTree, limits: CheckpointLimits, totals: Totals, pathspecs?: readonly Buffer[]): Promise<Staging> {
    this.writeExcludes(tree, limits.excludes);
    const status = await this.status(tree, pathspecs);
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

  /** The work tree's `git status`, NUL-separated: what changed since its private index, untracked files each named; only at `pathspecs` (literal paths, each with what is below it) when given. */
  private async status(tree: WorkTree, pathspecs?: readonly Buffer[]): Promise<Buffer[]> {
    const limited = pathspecs ? ['--', ...pathspecs.map((pathspec) => pathspec.toString('utf8'))] : [];
    return splitNul(await this.git(['--literal-pathspecs', '-c', `core.excludesFile=${tree.excludesFile}`, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', ...limited], undefined, [0], tree.env));
  }

  /** Writes the paths to record into the work tree's private index and drops the ones to forget. */
  private async stage(tree: WorkTree, staging: Staging, totals: Totals): Promise<void> {
    const { update, updateBytes, forget } = staging;
    const prewritten = await this.building.prewriteObjects(tree, update, updateBytes);
    // A path git refuses (a symlinked .gitmodules, say) is noted and left out, so it cannot fail every checkpoint.
    for (let refused = 0; update.length; refused += 1) {
      const result = await this.building.updateIndex(tree, update, updateBytes, prewritten);
      if (result.code === 0) {
        break;
      }
      this.building.throwIfStopped();
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

  /** Which of `paths` the state records as a file or a link (one listing of its tree; a name that is not UTF-8 is never among them). */
  async recordedPaths(state: string, paths: readonly string[]): Promise<ReadonlySet<string>> {
    const listed = new Set(splitNul(await this.git(['ls-tree', '-r', '-z', '--full-tree', '--name-only', state])).map((name) => name.toString('utf8')));
    return new Set(paths.filter((relative) => listed.has(relative)));
  }

  async entry(state: string, rawPath: Uint8Array): Promise<RecordedEntry | undefined> {
    // A path argument cannot carry every byte (names with newlines, not UTF-8): read the whole tree.
    const listing = splitNul(await this.git(['ls-tree', '-r', '-z', '--full-tree', state]));
    const wanted = Buffer.from(rawPath);
    for (const line of listing) {
      const listed = treeEntryOf(line);
      if (listed?.rawPath.equals(wanted)) {
        return this.recorded(listed.mode, listed.id);
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

/** At most this many paths go to one limited `git status` (its argv, and git matches every index entry against each): more are widened to their folders. */
export const MAX_PATHSPECS = 256;

/**
 * The touched paths as the literal pathspecs of a limited record: none below another, at most
 * MAX_PATHSPECS (the deepest widened to their folders first); undefined when the whole folder must
 * be recorded: a path that is not plain (empty, `.`, `..`, absolute) or that git cannot be given
 * exactly (a name that was not UTF-8, shown with U+FFFD), or too many at the top.
 */
export function touchedPathspecs(touched: readonly string[]): Buffer[] | undefined {
  if (touched.some((p) => p.includes('\uFFFD') || p.split('/').some((part) => part === '' || part === '.' || part === '..'))) {
    return undefined;
  }
  let paths = outermostPaths(touched.map((p) => Buffer.from(p)));
  while (paths.length > MAX_PATHSPECS) {
    const deepest = Math.max(...paths.map((p) => p.filter((byte) => byte === 0x2f).length));
    if (deepest === 0) {
      return undefined;
    }
    paths = outermostPaths(paths.map((p) => (p.filter((byte) => byte === 0x2f).length === deepest ? p.subarray(0, p.lastIndexOf(0x2f)) : p)));
  }
  return paths;
}

/** A recorded tree with nothing left to stage, as HEAD holds it: what a later limited record starts from. */
function settled(recorded: RecordedTree): RecordedTree {
  return { tree: recorded.tree, staging: { update: [], updateBytes: [], forget: [], nested: [] }, children: recorded.children.map((child) => ({ root: child.root, recorded: settled(child.recorded) })) };
}
