// A folder store's size against its cap: measured only when an estimate says it may be over, then
// the oldest checkpoints pruned (never those still needed) until it is under again.
import * as fs from 'node:fs';
import * as path from 'node:path';

const MB = 1024 * 1024;
/** How many times one checkpoint may prune (each round drops more of the oldest checkpoints). */
const MAX_PRUNE_ROUNDS = 4;
/** The refs that name a folder store's checkpoints. */
export const REF_PREFIX = 'refs/checkpoints/';

/** The folder store as its size is kept: its folder, its private repository, git run one call at a time. */
interface SizedStore {
  readonly folder: string;
  readonly gitDir: string;
  git(args: readonly string[], input?: Buffer): Promise<Buffer>;
  /** Waits for what a prune may not run beside (a roll-up of packs, a fast-import waiting ahead). */
  beforePrune(): Promise<void>;
}

/** One folder store's size, its checkpoint ids, and the ones pruned. */
export class StoreSize {
  constructor(private readonly store: SizedStore) {}

  /**
   * The store's size is measured (count-objects looks at every loose object, which costs as much as
   * a checkpoint on a large tree) only when an upper-bound estimate, kept in the store, says it may
   * be over the cap: the estimate grows by the bytes of every file recorded anew.
   */
  async keepUnderCap(addedBytes: number, maxBytes: number, keep: ReadonlySet<string>, fresh: boolean): Promise<string[]> {
    const file = path.join(this.store.gitDir, 'size-estimate');
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
    const text = (await this.store.git(['count-objects', '-v'])).toString('utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return (kib('size') + kib('size-pack') + kib('size-garbage')) * 1024;
  }

  /** Checkpoint ids of this folder, oldest first. */
  async ids(): Promise<string[]> {
    const out = (await this.store.git(['for-each-ref', '--sort=committerdate', '--format=%(refname)', REF_PREFIX])).toString('utf8');
    return out.split('\n').filter(Boolean).map((ref) => ref.slice(REF_PREFIX.length));
  }

  /** Drops the oldest checkpoints (never those in `keep`) until the store is under its cap. */
  private async pruneToCap(maxBytes: number, keep: ReadonlySet<string>): Promise<string[]> {
    // A prune removes objects a roll-up is packing, and the temporary pack of a fast-import waiting ahead.
    await this.store.beforePrune();
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
      await this.store.git(['update-ref', '--stdin'], input);
      this.dropped.push(...drop);
      await this.store.git(['prune', '--expire=now']);
      await this.store.git(['repack', '-a', '-d', '-q']);
      await this.store.git(['prune-packed']);
      if ((await this.size()) <= maxBytes) {
        return [];
      }
    }
    return [`The checkpoint store of ${path.basename(this.store.folder)} is over its cap of ${(maxBytes / MB).toFixed(0)} MB even after pruning every older checkpoint; raise workspaceAgentTools.checkpoints.maxTotalSizeMB or exclude large generated files.`];
  }

  /** Checkpoint ids pruned since the last look. */
  readonly dropped: string[] = [];
}
