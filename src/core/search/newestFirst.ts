// The order of glob's answer: newest modification first, then by path. Only the first `limit`
// entries are printed, so only they are sorted: a listing of 78k files keeps `limit` candidates
// and compares most files once against the last of them, instead of sorting all of them.

export interface DatedPath {
  readonly path: string;
  readonly mtime: number;
}

/** a before b: newer first, then by path (code unit order), so equal times still give one order. */
export function compareNewestFirst(a: DatedPath, b: DatedPath): number {
  return b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** The first `limit` entries in compareNewestFirst order, as a full sort would give them. */
export function newestFirst(entries: Iterable<DatedPath>, limit: number): DatedPath[] {
  const kept: DatedPath[] = [];
  if (limit <= 0) {
    return kept;
  }
  for (const entry of entries) {
    if (kept.length === limit && compareNewestFirst(entry, kept[limit - 1]) >= 0) {
      continue;
    }
    // Binary search for the insertion point in the kept, sorted entries.
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareNewestFirst(kept[middle], entry) <= 0) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    kept.splice(low, 0, entry);
    if (kept.length > limit) {
      kept.pop();
    }
  }
  return kept;
}
