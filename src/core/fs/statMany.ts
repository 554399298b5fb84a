// Many stats through the FileSystem port at once, in bounded batches so a folder of 100k files
// neither floods a remote file system nor ignores a cancellation for long.
import { throwIfCancelled, type CancellationSignal } from '../errors';
import type { Location } from '../location';
import type { EntryStat, FileSystem } from '../ports/fileSystem';

/** The stat of each location, in order; undefined where nothing is there or the stat failed. */
export async function statMany(fs: FileSystem, locations: readonly Location[], concurrency: number, token: CancellationSignal): Promise<(EntryStat | undefined)[]> {
  const stats: (EntryStat | undefined)[] = [];
  for (let start = 0; start < locations.length; start += concurrency) {
    throwIfCancelled(token);
    const batch = locations.slice(start, start + concurrency);
    stats.push(...(await Promise.all(batch.map((location) => fs.stat(location).catch(() => undefined)))));
  }
  return stats;
}
