// A folder store's packs. A touched checkpoint keeps the pack its fast-import wrote (unpacking it
// into loose objects is one more process on the command's path), so small packs gather. Once there
// are more than MAX_PACKS, they are rolled up into one (`git repack -d --geometric=2`), off the
// call's path and at low priority, beside the store's other git runs: git lets a repack run beside
// readers and writers; only a prune must wait for it (StoreSize). The large packs (the store's
// build, earlier roll-ups) are marked kept for the roll-up, so it costs what the small packs hold,
// never a rewrite of the whole store.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitResult } from './gitRunner';

/** More packs than this are rolled up. */
export const MAX_PACKS = 16;
/** A pack at least this large is left as it is by a roll-up. */
const LARGE_PACK_BYTES = 8 * 1024 * 1024;
/** What a `.keep` file the roll-up wrote says (only those are removed). */
const KEEP_MARK = 'workspace-agent-tools: left out of a roll-up of small packs\n';

/** The folder store as its packs are kept: its private repository, and git run at low priority beside its other runs. */
interface PackedStore {
  readonly gitDir: string;
  runLowPriority(args: readonly string[]): Promise<GitResult>;
}

export class StorePacks {
  constructor(private readonly store: PackedStore) {}

  /** Whether fast-import keeps its pack: false once this git cannot roll packs up (`--geometric` came in git 2.32). */
  keep = true;

  private running: Promise<void> | undefined;

  private get packFolder(): string {
    return path.join(this.store.gitDir, 'objects', 'pack');
  }

  /** Rolls the small packs up when there are more than MAX_PACKS, not waited for (the store asks after its whole records). */
  tidy(): void {
    if (this.running || this.packs().length <= MAX_PACKS) {
      return;
    }
    // A roll-up that failed is tried again after the next kept pack.
    this.running = this.rollUp()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Waits for a roll-up that is running (a prune may not run beside it). */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Removes the marks a roll-up left behind (its window closed during it); never git's own `.keep` files. */
  clearMarks(): void {
    for (const name of this.names().filter((entry) => entry.endsWith('.keep'))) {
      const file = path.join(this.packFolder, name);
      if (readOr(file) === KEEP_MARK) {
        fs.rmSync(file, { force: true });
      }
    }
  }

  private names(): string[] {
    try {
      return fs.readdirSync(this.packFolder);
    } catch {
      return [];
    }
  }

  /** The store's packs, by their `.pack` file. */
  private packs(): string[] {
    return this.names().filter((name) => name.endsWith('.pack'));
  }

  private async rollUp(): Promise<void> {
    const marks: string[] = [];
    try {
      for (const name of this.packs()) {
        const keepFile = path.join(this.packFolder, name.replace(/\.pack$/, '.keep'));
        if (sizeOf(path.join(this.packFolder, name)) >= LARGE_PACK_BYTES && !fs.existsSync(keepFile)) {
          fs.writeFileSync(keepFile, KEEP_MARK, { flag: 'wx' });
          marks.push(keepFile);
        }
      }
      const run = await this.store.runLowPriority(['repack', '-d', '-q', '--geometric=2']);
      if (run.code !== 0 && /geometric/.test(run.stderr)) {
        // An older git: packs are unpacked again, as fast-import does by default; the ones kept so far stay until a prune repacks.
        this.keep = false;
      }
    } finally {
      for (const file of marks) {
        fs.rmSync(file, { force: true });
      }
    }
  }
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function readOr(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
