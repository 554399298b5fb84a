// Many stats through the FileSystem port at once, in bounded batches so a folder of 100k files
// neither floods a remote file system nor ignores a cancellation for long. Locations are made and
// stats dropped batch by batch: a glob over a large tree keeps only what its caller keeps.
import { throwIfCancelled, type CancellationSignal } from '../errors';
import type { Location } from '../location';
import type { EntryStat, FileSystem } from '../ports/fileSystem';

export interface StatManyOptions<T> {
  readonly fs: FileSystem;
  /** Where an item is. */
  locationOf(item: T): Location;
  /** How many stats run at once. */
  readonly concurrency: number;
  readonly token: CancellationSignal;
}

/** Stats each item's location and hands every item that exists there to `found`, in order. Failed stats are skipped. */
export async function statEach<T>(items: readonly T[], options: StatManyOptions<T>, found: (item: T, stat: EntryStat) => void): Promise<void> {
  for (let start = 0; start < items.length; start += options.concurrency) {
    throwIfCancelled(options.token);
    const batch = items.slice(start, start + options.concurrency);
    const stats = await Promise.all(batch.map((item) => options.fs.stat(options.locationOf(item)).catch(() => undefined)));
    batch.forEach((item, index) => {
      const stat = stats[index];
      if (stat) {
        found(item, stat);
      }
    });
  }
}
