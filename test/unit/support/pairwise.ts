// All-pairs selection for test grids: instead of every combination of the parameters, rows such
// that every pair of values of any two parameters (that some candidate row has) is met by at least
// one row. Greedy and deterministic: it starts from the rows given, then adds, while a pair is
// unmet, the first candidate that meets the most unmet pairs.

/** A pair of values of two parameters, as a key: `a=1&b="x"`. */
function pairsOf<T extends object>(row: T, keys: readonly (keyof T & string)[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < keys.length; i += 1) {
    for (let j = i + 1; j < keys.length; j += 1) {
      pairs.push(`${keys[i]}=${String(JSON.stringify(row[keys[i]]))}&${keys[j]}=${String(JSON.stringify(row[keys[j]]))}`);
    }
  }
  return pairs;
}

/** The pairs of values of any two of `keys` that `rows` meet. */
export function pairsMet<T extends object>(rows: readonly T[], keys: readonly (keyof T & string)[]): Set<string> {
  return new Set(rows.flatMap((row) => pairsOf(row, keys)));
}

/**
 * `start`, then the fewest candidates the greedy choice finds so that every pair of values of any
 * two of `keys` met by some candidate is met by a row. Candidates are the valid rows (a pair no
 * candidate has is never asked for).
 */
export function allPairs<T extends object>(candidates: readonly T[], keys: readonly (keyof T & string)[], start: readonly T[] = []): T[] {
  const candidatePairs = candidates.map((row) => pairsOf(row, keys));
  const unmet = pairsMet(candidates, keys);
  for (const pair of pairsMet(start, keys)) {
    unmet.delete(pair);
  }
  const rows = [...start];
  while (unmet.size > 0) {
    let best = -1;
    let bestGain = 0;
    candidatePairs.forEach((pairs, index) => {
      const gain = pairs.filter((pair) => unmet.has(pair)).length;
      if (gain > bestGain) {
        best = index;
        bestGain = gain;
      }
    });
    rows.push(candidates[best]!);
    for (const pair of candidatePairs[best]!) {
      unmet.delete(pair);
    }
  }
  return rows;
}
