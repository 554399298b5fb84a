import * as assert from 'node:assert/strict';
import { compareNewestFirst, newestFirst, type DatedPath } from '../../../../src/core/search/newestFirst';

/** Entries with many equal times, so the order by path is exercised as much as the order by time. */
function entries(count: number, seed: number): DatedPath[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: count }, (_, index) => ({ path: `dir${next() % 7}/file${index}.c`, mtime: 1_700_000_000_000 + (next() % 50) * 1000 }));
}

describe('search/newestFirst', () => {
  it('orders newer files first', () => {
    const result = newestFirst([{ path: 'a', mtime: 1 }, { path: 'b', mtime: 3 }, { path: 'c', mtime: 2 }], 10);
    assert.deepEqual(result.map((entry) => entry.path), ['b', 'c', 'a']);
  });

  it('orders files of the same time by path', () => {
    const result = newestFirst([{ path: 'src/b', mtime: 5 }, { path: 'src/a', mtime: 5 }, { path: 'Z', mtime: 5 }], 10);
    assert.deepEqual(result.map((entry) => entry.path), ['Z', 'src/a', 'src/b']);
  });

  it('keeps exactly the first entries a full sort gives, for any limit', () => {
    for (const seed of [1, 2, 3]) {
      const all = entries(2000, seed);
      const sorted = [...all].sort(compareNewestFirst);
      for (const limit of [1, 37, 100, 1999, 2000, 5000]) {
        assert.deepEqual(newestFirst(all, limit), sorted.slice(0, limit), `seed ${seed}, limit ${limit}`);
      }
    }
  });

  it('keeps nothing for a limit of zero', () => {
    assert.deepEqual(newestFirst(entries(10, 4), 0), []);
  });
});
