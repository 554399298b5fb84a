// One workspace folder's private checkpoint repository: created once, then a checkpoint is
// classifyStatus() → stage() → commitState() → keepUnderCap(), every git call of the folder one at a
// time. The private index is kept between checkpoints as a stat cache, which is what makes a
// checkpoint of an unchanged tree cost one `git status`.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BugError } from '../../../errors';
import type { CheckpointLimits, RecordedEntry } from '../../../ports/checkpoints';
import { excludeLines } from '../../excludes';
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
  readonly forget: Buffer[];
  addedBytes: number;
  readonly notes: string[];
}

/** One folder's private repository; every git call of a folder runs one at a time. */
export class FolderStore {
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

  async git(args: readonly string[], input?: Buffer, okCodes: readonly number[] = [0]): Promise<Buffer> {
    // Run from the store, never from the workspace: on Windows a program is looked up in the
    // working folder first, and the workspace may hold a git.exe the model wrote.
    const result = await runGit(args, storeEnvironment(this.gitDir, this.folder), this.gitDir, input);
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
    const staging = await this.classifyStatus(limits);
    await this.stage(staging);
    const { state, head } = await this.commitState(id, staging);
    if (state !== head) {
      staging.notes.push(...(await this.keepUnderCap(staging.addedBytes, limits.maxTotalBytes, new Set([...keep, id]), head === undefined)));
    }
    return { state, notes: staging.notes };
  }

  /** What `git status` says changed since the last checkpoint: paths to record, paths to forget, notes. */
  private async classifyStatus(limits: CheckpointLimits): Promise<Staging> {
    const status = splitNul(await this.git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all']));
    const staging: Staging = { update: [], forget: [], addedBytes: 0, notes: [] };
    const paths = new StatusPaths(this.folder, limits.maxFileBytes);
    for (const field of status) {
      if (field.length < 4) {
        continue;
      }
      const rawPath = field.subarray(3);
      const verdict = paths.verdict(rawPath);
      if (verdict.record) {
        staging.update.push(rawPath);
        staging.addedBytes += verdict.bytes;
        continue;
      }
      if (verdict.note) {
        staging.notes.push(verdict.note);
      }
      // An untracked path ('??') is not in the private index: nothing to forget.
      if (verdict.forget && field.subarray(0, 2).toString('latin1') !== '??') {
        staging.forget.push(rawPath);
      }
    }
    if (staging.addedBytes > limits.maxTotalBytes) {
      // A folder far larger than the store may hold (a home folder opened as the workspace): refuse before hashing anything.
      throw new Error(`the files to record in ${path.basename(this.folder)} (${(staging.addedBytes / MB).toFixed(0)} MB in ${staging.update.length} files) exceed the checkpoint store's cap of ${(limits.maxTotalBytes / MB).toFixed(0)} MB; exclude large folders with .gitignore or files.exclude, or raise workspaceAgentTools.checkpoints.maxTotalSizeMB`);
    }
    return staging;
  }

  /** Writes the paths to record into the private index and drops the ones to forget. */
  private async stage(staging: Staging): Promise<void> {
    const { update, forget } = staging;
    // A path git refuses (a symlinked .gitmodules, say) is noted and left out, so it cannot fail every checkpoint.
    for (let refused = 0; update.length; refused += 1) {
      const result = await runGit(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], storeEnvironment(this.gitDir, this.folder), this.gitDir, joinNul(update));
      if (result.code === 0) {
        break;
      }
      const named = refusedPath(result.stderrBytes);
      const index = named === undefined ? -1 : update.findIndex((candidate) => candidate.toString('latin1') === named);
      if (index < 0 || refused >= MAX_REFUSED_PATHS) {
        throw new Error(`git update-index failed in the checkpoint store of ${this.folder} (exit ${result.code}): ${result.stderr.trim()}`);
      }
      const [skipped] = update.splice(index, 1);
      staging.notes.push(`${shown(skipped)} was not recorded: git refused it (${result.stderr.split('\n')[0].replace(/^error: /, '')}).`);
      forget.push(skipped);
    }
    if (forget.length) {
      await this.git(['update-index', '--force-remove', '-z', '--stdin'], joinNul(forget));
    }
  }

  /** The index as a commit (the last one when nothing changed), named by the checkpoint's ref. */
  private async commitState(id: string, staging: Staging): Promise<{ state: string; head: string | undefined }> {
    const head = await this.head();
    let state = head;
    // Nothing changed since the last checkpoint: the same state, without writing a tree.
    if (!head || staging.update.length || staging.forget.length) {
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
    return { state, head };
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
