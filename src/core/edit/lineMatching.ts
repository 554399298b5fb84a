// The tolerant rungs of the match ladder, shared by edit_file and apply_patch: comparing whole lines
// while ignoring trailing whitespace, indentation, or typographic punctuation; writing the new lines
// of a matched region; and finding the region most like some lines, to show the model when nothing matched.
import { diffArrays } from 'diff';

/** How forgiving a whole-line comparison is, from strict to lenient. */
export type LineTolerance = 'trailing-whitespace' | 'indentation' | 'unicode-punctuation';

export const LINE_TOLERANCES: readonly LineTolerance[] = ['trailing-whitespace', 'indentation', 'unicode-punctuation'];

const PUNCTUATION: readonly (readonly [RegExp, string])[] = [
  [/[\u2018\u2019\u201a\u201b\u2032\u2035]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, ' '],
  [/\u2026/g, '...'],
];

/** Smart quotes, dashes, ellipses and non-breaking spaces turned into their ASCII forms. */
export function normalisePunctuation(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PUNCTUATION) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

/** The key two lines must share to be equal at a tolerance. */
export function lineKey(line: string, tolerance: LineTolerance): string {
  switch (tolerance) {
    case 'trailing-whitespace':
      return line.trimEnd();
    case 'indentation':
      return line.trim();
    case 'unicode-punctuation':
      return normalisePunctuation(line).trim();
  }
}

/** Every index i from `from` where lines[i..i+pattern.length) equal the pattern at a tolerance. */
export function findLineWindows(lines: readonly string[], pattern: readonly string[], tolerance: LineTolerance | 'exact', from = 0): number[] {
  const key = (line: string): string => (tolerance === 'exact' ? line : lineKey(line, tolerance));
  const wanted = pattern.map(key);
  const found: number[] = [];
  if (wanted.length === 0) {
    return found;
  }
  const keys = lines.map(key);
  for (let i = from; i + wanted.length <= keys.length; i += 1) {
    let same = true;
    for (let k = 0; k < wanted.length; k += 1) {
      if (keys[i + k] !== wanted[k]) {
        same = false;
        break;
      }
    }
    if (same) {
      found.push(i);
    }
  }
  return found;
}

/** The leading whitespace of a line. */
export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/**
 * Moves a line from the model's indentation to the file's: the part of its indent that matched
 * `modelBase` is replaced by `fileBase`, so relative indentation is kept. Blank lines stay blank.
 */
export function reindentLine(line: string, modelBase: string, fileBase: string): string {
  if (line.trim() === '') {
    return line;
  }
  const indent = indentOf(line);
  if (indent.startsWith(modelBase)) {
    return fileBase + line.slice(modelBase.length);
  }
  // Less indented than the model's base: drop the same amount from the file's base, if it has it.
  const missing = modelBase.length - indent.length;
  const base = missing <= fileBase.length ? fileBase.slice(0, fileBase.length - missing) : '';
  return base + line.slice(indent.length);
}

/** Where a pattern of lines is in a file when it is not there exactly: the first rung that finds it. */
export type TolerantMatch =
  | { readonly kind: 'found'; readonly start: number; readonly tolerance: LineTolerance }
  | { readonly kind: 'ambiguous'; readonly starts: readonly number[]; readonly tolerance: LineTolerance }
  | { readonly kind: 'missing' };

/**
 * The tolerant rungs of the ladder, strict to lenient, from line `from`: the first rung with any
 * window decides, and a rung with several windows is ambiguous (never a guess).
 */
export function findTolerantWindow(lines: readonly string[], pattern: readonly string[], from = 0): TolerantMatch {
  for (const tolerance of LINE_TOLERANCES) {
    const windows = findLineWindows(lines, pattern, tolerance, from);
    if (windows.length > 1) {
      return { kind: 'ambiguous', starts: windows, tolerance };
    }
    if (windows.length === 1) {
      return { kind: 'found', start: windows[0], tolerance };
    }
  }
  return { kind: 'missing' };
}

const TOLERANCE_WORDS: Record<LineTolerance, string> = {
  'trailing-whitespace': 'ignoring trailing whitespace',
  indentation: 'ignoring indentation',
  'unicode-punctuation': 'ignoring typographic punctuation (smart quotes, dashes, non-breaking spaces) and indentation',
};

/** How a rung matched, in words: "ignoring indentation". */
export function describeTolerance(tolerance: LineTolerance): string {
  return TOLERANCE_WORDS[tolerance];
}

/** True when a rung ignores indentation, so the lines written there must move to the file's indentation. */
export function ignoresIndentation(tolerance: LineTolerance | 'exact'): boolean {
  return tolerance === 'indentation' || tolerance === 'unicode-punctuation';
}

/** How one old line's indentation moved from the model's text to the file's. */
interface IndentShift {
  readonly model: string;
  readonly file: string;
}

/**
 * The new lines of a region matched at some rung, the one place edit_file and apply_patch write a
 * match. Lines the model kept from its old lines take the file's exact text (the match may have
 * ignored whitespace or punctuation in them). Where the match ignored indentation, added lines move
 * from the model's indentation to the file's line by line, never by a shift seen elsewhere in the
 * region: lines that replace old lines take the shift of the first of the lines they replace (so a
 * block keeps its own relative indentation), and a pure insertion takes the shift of the line just
 * above it in the new text, else the line just below, else the nearest ones further out.
 */
export function placeMatchedLines(fileLines: readonly string[], oldLines: readonly string[], newLines: readonly string[], tolerance: LineTolerance | 'exact'): string[] {
  const reindent = ignoresIndentation(tolerance);
  const shiftOf = (index: number): IndentShift | undefined =>
    index >= 0 && index < oldLines.length && oldLines[index].trim() !== '' ? { model: indentOf(oldLines[index]), file: indentOf(fileLines[index]) } : undefined;
  /** The shift of the nearest old line with text, looking from `index` by `step`. */
  const nearest = (index: number, step: 1 | -1): IndentShift | undefined => {
    for (let at = index; at >= 0 && at < oldLines.length; at += step) {
      const shift = shiftOf(at);
      if (shift) {
        return shift;
      }
    }
    return undefined;
  };
  /** The shift of the first line with text among the old lines [from, to) a hunk replaces. */
  const replacedShift = (from: number, to: number): IndentShift | undefined => {
    for (let at = from; at < to; at += 1) {
      const shift = shiftOf(at);
      if (shift) {
        return shift;
      }
    }
    return undefined;
  };
  const out: string[] = [];
  let oldIndex = 0;
  const changes = diffArrays([...oldLines], [...newLines]);
  for (let c = 0; c < changes.length; c += 1) {
    if (!changes[c].added && !changes[c].removed) {
      for (let k = 0; k < changes[c].value.length; k += 1) {
        out.push(fileLines[oldIndex]);
        oldIndex += 1;
      }
      continue;
    }
    // One hunk: the removed and added runs between two kept lines, in either order.
    const removedStart = oldIndex;
    const added: string[] = [];
    for (; c < changes.length && (changes[c].added || changes[c].removed); c += 1) {
      if (changes[c].added) {
        added.push(...changes[c].value);
      } else {
        oldIndex += changes[c].value.length;
      }
    }
    c -= 1;
    if (added.length === 0) {
      continue;
    }
    const shift = !reindent
      ? undefined
      : replacedShift(removedStart, oldIndex) ??
        shiftOf(removedStart - 1) ??
        shiftOf(oldIndex) ??
        nearest(removedStart - 1, -1) ??
        nearest(oldIndex, 1);
    out.push(...added.map((line) => (shift ? reindentLine(line, shift.model, shift.file) : line)));
  }
  return out;
}

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  const squeezed = text.replace(/\s+/g, ' ').trim();
  for (let i = 0; i < squeezed.length - 1; i += 1) {
    const gram = squeezed.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

function dice(a: Map<string, number>, b: Map<string, number>, aText: string, bText: string): number {
  if (aText.trim() === bText.trim()) {
    return 1;
  }
  let sizeA = 0;
  let sizeB = 0;
  let shared = 0;
  for (const count of a.values()) {
    sizeA += count;
  }
  for (const [gram, count] of b) {
    sizeB += count;
    shared += Math.min(count, a.get(gram) ?? 0);
  }
  return sizeA + sizeB === 0 ? 0 : (2 * shared) / (sizeA + sizeB);
}

/** Bounds the work of the closest-region search on very large files (lines x pattern lines). */
const MAX_COMPARISONS = 2_000_000;

/**
 * The window of lines most similar to the pattern (average bigram similarity per line), for an
 * error that shows the model what the file really says. Undefined when nothing is even similar.
 */
export function closestRegion(lines: readonly string[], pattern: readonly string[]): { start: number; length: number; score: number } | undefined {
  const wanted = pattern.length > 0 ? pattern : [''];
  const length = Math.min(wanted.length, lines.length);
  if (length === 0) {
    return undefined;
  }
  const patternGrams = wanted.map(bigrams);
  const lineGrams = lines.map(bigrams);
  const windows = lines.length - length + 1;
  const step = Math.max(1, Math.ceil((windows * length) / MAX_COMPARISONS));
  let best: { start: number; length: number; score: number } | undefined;
  for (let start = 0; start < windows; start += step) {
    let total = 0;
    for (let k = 0; k < length; k += 1) {
      total += dice(patternGrams[k], lineGrams[start + k], wanted[k], lines[start + k]);
    }
    const score = total / length;
    if (!best || score > best.score) {
      best = { start, length, score };
    }
  }
  return best && best.score >= 0.3 ? best : undefined;
}

/** Lines numbered like workspace_read_file output, so the model can compare them directly. */
export function numberLines(lines: readonly string[], firstLineNumber: number, maxLines = 40): string {
  const shown = lines.slice(0, maxLines).map((line, index) => `${String(firstLineNumber + index).padStart(6, ' ')}\t${line}`);
  if (lines.length > maxLines) {
    shown.push(`[${lines.length - maxLines} more lines not shown]`);
  }
  return shown.join('\n');
}
