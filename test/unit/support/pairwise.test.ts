// The all-pairs selection the engine parity grid runs: every pair of values is met, with far fewer
// rows than the whole product, and the same rows every run.
import * as assert from 'node:assert/strict';
import { allPairs, pairsMet } from './pairwise';

interface Row {
  readonly a: number;
  readonly b: string;
  readonly c: boolean;
  readonly d: number | undefined;
  readonly e: boolean;
}
const KEYS = ['a', 'b', 'c', 'd', 'e'] as const;

function product(): Row[] {
  const rows: Row[] = [];
  for (const a of [0, 1, 2, 3]) {
    for (const b of ['w', 'x', 'y', 'z']) {
      for (const c of [false, true]) {
        for (const d of [undefined, 2, 30]) {
          for (const e of [false, true]) {
            // A constraint, as the grid's context only goes with the content mode: d = 2 never with e.
            if (!(d === 2 && e)) rows.push({ a, b, c, d, e });
          }
        }
      }
    }
  }
  return rows;
}

describe('support/pairwise', () => {
  it('meets every pair of values of any two parameters that a candidate meets, with far fewer rows', () => {
    const candidates = product();
    const rows = allPairs(candidates, KEYS);
    assert.deepEqual([...pairsMet(rows, KEYS)].sort(), [...pairsMet(candidates, KEYS)].sort());
    // 4 x 4 values need at least 16 rows; the product has 160.
    assert.ok(rows.length >= 16 && rows.length <= 24, `${rows.length} rows`);
    assert.ok(rows.every((row) => candidates.includes(row)));
  });

  it('keeps the rows it starts from and adds only what they leave unmet', () => {
    const candidates = product();
    const start = candidates.filter((_, index) => index % 6 === 1);
    const rows = allPairs(candidates, KEYS, start);
    assert.deepEqual(rows.slice(0, start.length), start);
    assert.deepEqual([...pairsMet(rows, KEYS)].sort(), [...pairsMet(candidates, KEYS)].sort());
    assert.deepEqual(allPairs(candidates, KEYS, rows), rows);
  });

  it('tells undefined from the string "undefined"', () => {
    const rows = allPairs<{ x: string | undefined; y: number }>([{ x: undefined, y: 1 }, { x: 'undefined', y: 1 }], ['x', 'y']);
    assert.equal(rows.length, 2);
  });

  it('chooses the same rows every run', () => {
    assert.deepEqual(allPairs(product(), KEYS), allPairs(product(), KEYS));
  });
});
