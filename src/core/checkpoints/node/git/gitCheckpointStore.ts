// The checkpoint store as one private git repository per workspace folder, under the extension's
// storage. git is driven only through GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE pointing at the
// private repository, with every outside configuration neutralised (system and global config, the
// user's excludes file, attributes that convert line endings or run filters, hooks, fsmonitor), so
// the user's `.git` (its index, refs, stash, hooks, config) is never read or written: git skips
// every `.git` entry of the work tree. The private index is kept between checkpoints as a stat
// cache, which is what makes a checkpoint of an unchanged tree cost one `git status`.
//
// Recorded: regular files (bytes and the executable bit) and symlinks (their target), tracked or
// untracked, not ignored by the folder's `.gitignore` files or `files.exclude`. Not recorded, and
// noted: files over the size cap, and nested repositories (a folder with its own `.git`: git would
// record only its commit, not its files). Empty folders are not recorded (git has no entry for them).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BugError } from '../../../errors';
import type { ChangedFile, ChangeKind, Checkpoint, CheckpointLimits, CheckpointStore, FolderCheckpoint, RecordedEntry, RestoreStep } from '../../../ports/checkpoints';
import { excludeLines } from '../../excludes';

const MB = 1024 * 1024;
/** How many times one checkpoint may prune (each round drops more of the oldest checkpoints). */
const MAX_PRUNE_ROUNDS = 4;
const REF_PREFIX = 'refs/checkpoints/';
/** Above this many changed files, a call's changes are listed without line counts. */
const MAX_COUNTED_FILES = 2000;
/** Attributes that would make stored bytes differ from the file's (line-ending conversion, filters, re-encoding). */
const PRIVATE_ATTRIBUTES = '* -text -filter -ident -working-tree-encoding\n';
const CONFIG: readonly [string, string][] = [
  ['core.bare', 'false'],
  ['core.autocrlf', 'false'],
  ['core.safecrlf', 'false'],
  ['core.fileMode', 'true'],
  ['core.symlinks', 'true'],
  ['core.ignoreCase', 'false'],
  // On by default everywhere: they refuse names such as GIT~1 or `.git.` (special only on NTFS and
  // HFS+), and one such file would make every checkpoint of the folder fail.
  ['core.protectNTFS', 'false'],
  ['core.protectHFS', 'false'],
  ['core.precomposeUnicode', 'false'],
  ['core.quotePath', 'false'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'true'],
  ['core.hooksPath', '/dev/null'],
  ['core.excludesFile', '/dev/null'],
  ['core.attributesFile', '/dev/null'],
  ['core.logAllRefUpdates', 'false'],
  ['core.splitIndex', 'false'],
  ['gc.auto', '0'],
  ['index.threads', 'true'],
  ['status.showUntrackedFiles', 'all'],
  ['submodule.recurse', 'false'],
];

interface GitResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  /** stderr with every byte kept (latin1), to match the paths git names in it. */
  readonly stderrBytes: string;
  readonly code: number;
}

/** How many paths git may refuse in one checkpoint before the checkpoint fails. */
const MAX_REFUSED_PATHS = 20;

/** The path git names when update-index refuses one (a symlinked .gitmodules, say), with every byte kept. */
function refusedPath(stderrBytes: string): string | undefined {
  return /invalid path '(.*)'$/m.exec(stderrBytes)?.[1] ?? /Unable to process path (.*)$/m.exec(stderrBytes)?.[1];
}

/** Runs git with exactly this environment (nothing of the user's GIT_* variables or config). */
function runGit(args: readonly string[], env: Record<string, string>, cwd: string, input?: Buffer): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stderr = Buffer.concat(err);
      resolve({ stdout: Buffer.concat(out), stderr: stderr.toString('utf8'), stderrBytes: stderr.toString('latin1'), code: code ?? -1 });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? Buffer.alloc(0));
  });
}

/** Splits NUL-terminated output into its fields. */
function splitNul(buffer: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < buffer.length; i += 1) {
    if (buffer[i] === 0) {
      fields.push(buffer.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < buffer.length) {
    fields.push(buffer.subarray(start));
  }
  return fields;
}

function joinNul(paths: readonly Uint8Array[]): Buffer {
  return Buffer.concat(paths.flatMap((p) => [Buffer.from(p), Buffer.from([0])]));
}

function shown(rawPath: Uint8Array): string {
  return Buffer.from(rawPath).toString('utf8');
}

/** True when every folder between `root` and the path is a real folder (not a symlink, a file or missing). */
function insideRealFolders(root: Buffer, rawPath: Buffer, cache: Map<string, boolean>): boolean {
  for (let i = 0; i < rawPath.length; i += 1) {
    if (rawPath[i] !== 0x2f) {
      continue;
    }
    const folder = rawPath.subarray(0, i);
    const key = folder.toString('latin1');
    let real = cache.get(key);
    if (real === undefined) {
      try {
        real = fs.lstatSync(Buffer.concat([root, folder])).isDirectory();
      } catch {
        real = false;
      }
      cache.set(key, real);
    }
    if (!real) {
      return false;
    }
  }
  return true;
}

/** One folder's private repository; every git call of a folder runs one at a time. */
class FolderStore {
  private queue: Promise<unknown> = Promise.resolve();
  private ready = false;
  private excludesWritten: string | undefined;
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

  private env(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_DIR: this.gitDir,
      GIT_INDEX_FILE: path.join(this.gitDir, 'checkpoint-index'),
      GIT_WORK_TREE: this.folder,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      // Older git reads ~/.gitconfig and ~/.config/git/{config,ignore,attributes} through these.
      HOME: this.gitDir,
      XDG_CONFIG_HOME: this.gitDir,
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Workspace Agent Tools',
      GIT_AUTHOR_EMAIL: 'checkpoints@workspace-agent-tools.invalid',
      GIT_COMMITTER_NAME: 'Workspace Agent Tools',
      GIT_COMMITTER_EMAIL: 'checkpoints@workspace-agent-tools.invalid',
      LC_ALL: 'C',
    };
  }

  async git(args: readonly string[], input?: Buffer, okCodes: readonly number[] = [0]): Promise<Buffer> {
    // Run from the store, never from the workspace: on Windows a program is looked up in the
    // working folder first, and the workspace may hold a git.exe the model wrote.
    const result = await runGit(args, this.env(), this.gitDir, input);
    if (!okCodes.includes(result.code)) {
      throw new Error(`git ${args[0]} failed in the checkpoint store of ${this.folder} (exit ${result.code}): ${result.stderr.trim()}`);
    }
    return result.stdout;
  }

  /** Creates the private repository once, and rewrites its exclude file when files.exclude changed. */
  private async prepare(excludes: readonly string[]): Promise<void> {
    if (!this.ready) {
      if (!fs.existsSync(path.join(this.gitDir, 'HEAD'))) {
        // Owner-only: the store holds every recorded file, .env files included.
        fs.mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
        fs.chmodSync(this.gitDir, 0o700);
        const env = { ...this.env() };
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
      fs.writeFileSync(path.join(this.gitDir, 'info', 'attributes'), PRIVATE_ATTRIBUTES);
      // Hooks of the template are never run (core.hooksPath), but keep the store free of them.
      fs.rmSync(path.join(this.gitDir, 'hooks'), { recursive: true, force: true });
      this.ready = true;
    }
    const lines = excludeLines(excludes).join('\n');
    if (lines !== this.excludesWritten) {
      fs.writeFileSync(path.join(this.gitDir, 'info', 'exclude'), `${lines}\n`);
      this.excludesWritten = lines;
    }
  }

  private async head(): Promise<string | undefined> {
    const out = await this.git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], undefined, [0, 1]);
    const sha = out.toString('utf8').trim();
    return sha || undefined;
  }

  /** Records the folder now; returns the commit and what it could not record. */
  async take(id: string, limits: CheckpointLimits, keep: ReadonlySet<string>): Promise<{ state: string; notes: string[] }> {
    await this.prepare(limits.excludes);
    const notes: string[] = [];
    const status = splitNul(await this.git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all']));
    const update: Buffer[] = [];
    const forget: Buffer[] = [];
    let addedBytes = 0;
    const realFolders = new Map<string, boolean>();
    const root = Buffer.from(this.folder.endsWith('/') ? this.folder : `${this.folder}/`);
    for (const field of status) {
      if (field.length < 4) {
        continue;
      }
      const code = field.subarray(0, 2).toString('latin1');
      const rawPath = field.subarray(3);
      if (rawPath[rawPath.length - 1] === 0x2f) {
        notes.push(`${shown(rawPath)} is a nested git repository; its files are not recorded in checkpoints.`);
        continue;
      }
      // A recorded file whose folder became a symlink is gone: lstat would follow the link (out of the folder, maybe).
      let stat: fs.Stats | undefined;
      try {
        stat = insideRealFolders(root, rawPath, realFolders) ? fs.lstatSync(Buffer.concat([root, rawPath])) : undefined;
      } catch {
        stat = undefined;
      }
      if (!stat) {
        if (code !== '??') {
          forget.push(rawPath);
        }
        continue;
      }
      if (stat.isFile() && stat.size > limits.maxFileBytes) {
        notes.push(`${shown(rawPath)} (${(stat.size / MB).toFixed(1)} MB) is over the checkpoint size cap of ${(limits.maxFileBytes / MB).toFixed(0)} MB and was not recorded; a restore leaves it as it is.`);
        if (code !== '??') {
          forget.push(rawPath);
        }
        continue;
      }
      if (!stat.isFile() && !stat.isSymbolicLink()) {
        if (code !== '??') {
          forget.push(rawPath);
        }
        continue;
      }
      update.push(rawPath);
      addedBytes += stat.size;
    }
    if (addedBytes > limits.maxTotalBytes) {
      // A folder far larger than the store may hold (a home folder opened as the workspace): refuse before hashing anything.
      throw new Error(`the files to record in ${path.basename(this.folder)} (${(addedBytes / MB).toFixed(0)} MB in ${update.length} files) exceed the checkpoint store's cap of ${(limits.maxTotalBytes / MB).toFixed(0)} MB; exclude large folders with .gitignore or files.exclude, or raise workspaceAgentTools.checkpoints.maxTotalSizeMB`);
    }
    // A path git refuses (a symlinked .gitmodules, say) is noted and left out, so it cannot fail every checkpoint.
    for (let refused = 0; update.length; refused += 1) {
      const result = await runGit(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], this.env(), this.gitDir, joinNul(update));
      if (result.code === 0) {
        break;
      }
      const named = refusedPath(result.stderrBytes);
      const index = named === undefined ? -1 : update.findIndex((candidate) => candidate.toString('latin1') === named);
      if (index < 0 || refused >= MAX_REFUSED_PATHS) {
        throw new Error(`git update-index failed in the checkpoint store of ${this.folder} (exit ${result.code}): ${result.stderr.trim()}`);
      }
      const [skipped] = update.splice(index, 1);
      notes.push(`${shown(skipped)} was not recorded: git refused it (${result.stderr.split('\n')[0].replace(/^error: /, '')}).`);
      forget.push(skipped);
    }
    if (forget.length) {
      await this.git(['update-index', '--force-remove', '-z', '--stdin'], joinNul(forget));
    }
    const head = await this.head();
    let state = head;
    // Nothing changed since the last checkpoint: the same state, without writing a tree.
    if (!head || update.length || forget.length) {
      const tree = (await this.git(['write-tree'])).toString('utf8').trim();
      if (!head || (await this.git(['rev-parse', `${head}^{tree}`])).toString('utf8').trim() !== tree) {
        state = (await this.git(['commit-tree', tree, '-m', `checkpoint ${id}`])).toString('utf8').trim();
        await this.git(['update-ref', '--no-deref', 'HEAD', state]);
      }
    }
    if (!state) {
      throw new BugError('no checkpoint state after recording');
    }
    await this.git(['update-ref', `${REF_PREFIX}${id}`, state]);
    if (state !== head) {
      notes.push(...(await this.keepUnderCap(addedBytes, limits.maxTotalBytes, new Set([...keep, id]), head === undefined)));
    }
    return { state, notes };
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

const ZERO = /^0+$/;

/** Checkpoints in private git repositories under `storeRoot`, one per workspace folder. */
export class GitCheckpointStore implements CheckpointStore {
  private readonly folders = new Map<string, FolderStore>();
  private readonly checkpoints = new Map<string, Checkpoint>();
  private sequence = 0;

  constructor(private readonly storeRoot: string) {}

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

  async take(folders: readonly string[], limits: CheckpointLimits, pinned: readonly string[] = []): Promise<Checkpoint> {
    this.sequence += 1;
    const id = `${Date.now().toString(36)}-${process.pid.toString(36)}-${this.sequence}`;
    // The checkpoints of calls still open (their "before") are kept through pruning.
    const keep = new Set([...[...this.checkpoints.keys()].slice(-2), ...pinned]);
    const parts = await Promise.all(folders.map((folder) => this.storeOf(folder).serial(() => this.storeOf(folder).take(id, limits, keep))));
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

  async entry(checkpoint: Checkpoint, folder: string, rawPath: Uint8Array): Promise<RecordedEntry | undefined> {
    const part = checkpoint.folders.find((candidate) => candidate.folder === folder);
    if (!part) {
      return undefined;
    }
    const store = this.storeOf(folder);
    return store.serial(() => store.entry(part.state, rawPath));
  }
}
