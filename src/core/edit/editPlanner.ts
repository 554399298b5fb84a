// Plans workspace_edit_file: finds old_string with the match ladder and computes the new lines,
// leaving every line outside the replaced region byte-identical.
import { ToolError } from '../errors';
import { dominantLineEnding, joinLines, normaliseLineEndings, replaceLineRange, type TextLine } from '../text/lineEndings';
import { closestRegion, findLineWindows, indentOf, keepFileContext, LINE_TOLERANCES, numberLines, reindentLine, type LineTolerance } from './lineMatching';

/** Which rung of the ladder found old_string. */
export type MatchLevel = 'exact' | 'line-endings' | LineTolerance;

export interface TextEditRequest {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

export interface TextEditOutcome {
  /** The whole file after the edit. */
  readonly lines: TextLine[];
  readonly level: MatchLevel;
  readonly replacements: number;
  /** 0-based [start, end) line ranges of the new file that the edit wrote. */
  readonly changedRanges: readonly { start: number; end: number }[];
}

const LEVEL_DESCRIPTIONS: Record<MatchLevel, string> = {
  exact: 'exact match',
  'line-endings': "matched after normalising line endings (old_string's line breaks differ from the file's)",
  'trailing-whitespace': 'matched ignoring trailing whitespace',
  indentation: 'matched ignoring indentation; new_string was re-indented to the file',
  'unicode-punctuation': 'matched ignoring typographic punctuation (smart quotes, dashes, non-breaking spaces) and indentation',
};

export function describeMatchLevel(level: MatchLevel): string {
  return LEVEL_DESCRIPTIONS[level];
}

/** A character range of the LF view of the file, and the LF text that replaces it. */
interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The file as LF text, with where each line starts in it and in the original text. */
class LfView {
  readonly text: string;
  readonly starts: number[] = [];
  readonly rawStarts: number[] = [];
  readonly raw: string;

  constructor(readonly lines: readonly TextLine[]) {
    let lf = 0;
    let raw = 0;
    for (const line of lines) {
      this.starts.push(lf);
      this.rawStarts.push(raw);
      lf += line.text.length + (line.eol === '' ? 0 : 1);
      raw += line.text.length + line.eol.length;
    }
    this.starts.push(lf);
    this.rawStarts.push(raw);
    this.text = lines.map((line) => line.text + (line.eol === '' ? '' : '\n')).join('');
    this.raw = joinLines(lines);
  }

  /** The 0-based line a position of the LF text is on. */
  lineOf(position: number): number {
    let low = 0;
    let high = this.lines.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= position) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  /** Maps a position of the original text into the LF text; undefined inside a CRLF pair. */
  fromRaw(position: number): number | undefined {
    let low = 0;
    let high = this.lines.length;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.rawStarts[mid] <= position) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    if (low === this.lines.length) {
      return this.text.length;
    }
    const offset = position - this.rawStarts[low];
    const line = this.lines[low];
    if (offset <= line.text.length) {
      return this.starts[low] + offset;
    }
    return undefined;
  }
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    found.push(at);
  }
  return found;
}

/** Greedy left-to-right occurrences that do not overlap, as replace_all replaces them. */
function nonOverlapping(starts: readonly number[], length: number): number[] {
  const kept: number[] = [];
  for (const start of starts) {
    if (kept.length === 0 || start >= kept[kept.length - 1] + length) {
      kept.push(start);
    }
  }
  return kept;
}

/**
 * Finds old_string and returns the new file. Throws a ToolError written for the model when
 * old_string is missing, ambiguous, or equal to new_string.
 */
export function planTextEdit(lines: readonly TextLine[], request: TextEditRequest, shownPath: string): TextEditOutcome {
  if (request.oldString === request.newString) {
    throw new ToolError(`old_string and new_string are identical, so the edit would change nothing in ${shownPath}. Pass the text to put in place of old_string as new_string.`);
  }
  if (request.oldString === '') {
    throw new ToolError(`old_string is empty but ${shownPath} already exists and is not empty. Give the exact text to replace as old_string, or use workspace_write_file to replace the whole file.`);
  }
  const view = new LfView(lines);
  const oldLf = normaliseLineEndings(request.oldString);
  const newLf = normaliseLineEndings(request.newString);

  // Rungs 1 and 2: character matches, in the original text, then with line endings normalised.
  const exact = occurrences(view.raw, request.oldString)
    .map((rawStart) => ({ start: view.fromRaw(rawStart), end: view.fromRaw(rawStart + request.oldString.length) }))
    .filter((range): range is { start: number; end: number } => range.start !== undefined && range.end !== undefined);
  const lfMatches = exact.length > 0 ? exact : occurrences(view.text, oldLf).map((start) => ({ start, end: start + oldLf.length }));
  if (lfMatches.length > 0) {
    const level: MatchLevel = exact.length > 0 ? 'exact' : 'line-endings';
    if (lfMatches.length > 1 && !request.replaceAll) {
      const where = lfMatches.map((range) => view.lineOf(range.start) + 1);
      throw new ToolError(
        `old_string occurs ${lfMatches.length} times in ${shownPath}, starting at lines ${where.join(', ')}. Include more surrounding lines in old_string so it matches only one place, or set replace_all to true to replace every occurrence.`,
      );
    }
    const length = lfMatches[0].end - lfMatches[0].start;
    const kept = request.replaceAll ? nonOverlapping(lfMatches.map((range) => range.start), length) : [lfMatches[0].start];
    return applyReplacements(view, kept.map((start) => ({ start, end: start + length, text: newLf })), level);
  }

  // Rungs 3 to 5: whole lines compared more and more leniently; only a unique window is accepted.
  const endsWithNewline = oldLf.endsWith('\n');
  const oldLines = (endsWithNewline ? oldLf.slice(0, -1) : oldLf).split('\n');
  const fileTexts = lines.map((line) => line.text);
  if (oldLines.some((line) => line.trim() !== '')) {
    for (const tolerance of LINE_TOLERANCES) {
      const windows = findLineWindows(fileTexts, oldLines, tolerance);
      if (windows.length > 1) {
        throw new ToolError(
          `old_string was not found exactly in ${shownPath}; ignoring ${toleranceWords(tolerance)} it matches ${windows.length} places, starting at lines ${windows.map((start) => start + 1).join(', ')}, so it is ambiguous and nothing was changed. Read the file again and copy old_string exactly, with enough surrounding lines to be unique.`,
        );
      }
      if (windows.length === 1) {
        const first = windows[0];
        const last = first + oldLines.length - 1;
        const start = view.starts[first];
        const end = endsWithNewline ? view.starts[last + 1] : view.starts[last] + lines[last].text.length;
        const text = tolerantReplacement(fileTexts.slice(first, last + 1), oldLines, newLf, tolerance);
        return applyReplacements(view, [{ start, end, text }], tolerance);
      }
    }
  }
  throw new ToolError(notFoundMessage(fileTexts, oldLines, shownPath));
}

function toleranceWords(tolerance: LineTolerance): string {
  return tolerance === 'trailing-whitespace' ? 'trailing whitespace' : tolerance === 'indentation' ? 'indentation' : 'indentation and typographic punctuation';
}

function notFoundMessage(fileTexts: readonly string[], oldLines: readonly string[], shownPath: string): string {
  const base = `old_string was not found in ${shownPath}, not even ignoring line endings, trailing whitespace, indentation and typographic punctuation.`;
  const closest = closestRegion(fileTexts, oldLines);
  if (!closest) {
    return `${base} Nothing in the file looks similar. Read the file with workspace_read_file and copy old_string exactly from it.`;
  }
  const region = fileTexts.slice(closest.start, closest.start + closest.length);
  return `${base} The most similar region is lines ${closest.start + 1}-${closest.start + closest.length}:\n${numberLines(region, closest.start + 1)}\nCopy old_string exactly from the current file (without the line-number prefixes), or read it again with workspace_read_file.`;
}

/**
 * new_string for a tolerant match: lines the model kept from old_string keep the file's exact text;
 * changed lines move to the file's indentation when indentation was ignored.
 */
function tolerantReplacement(fileLines: readonly string[], oldLines: readonly string[], newLf: string, tolerance: LineTolerance): string {
  const endsWithNewline = newLf.endsWith('\n');
  const newLines = newLf === '' ? [] : (endsWithNewline ? newLf.slice(0, -1) : newLf).split('\n');
  const anchor = oldLines.findIndex((line) => line.trim() !== '');
  const modelBase = indentOf(oldLines[anchor]);
  const fileBase = indentOf(fileLines[anchor]);
  const reindent = tolerance !== 'trailing-whitespace';
  const out = keepFileContext(fileLines, oldLines, newLines, reindent ? (line) => reindentLine(line, modelBase, fileBase) : undefined);
  return out.join('\n') + (endsWithNewline ? '\n' : '');
}

/** Applies non-overlapping replacements of the LF view, rewriting only the lines they touch. */
function applyReplacements(view: LfView, replacements: readonly Replacement[], level: MatchLevel): TextEditOutcome {
  const eol = dominantLineEnding(view.lines);
  // Group replacements that touch the same lines into one region of whole lines.
  const regions: { first: number; end: number; parts: Replacement[] }[] = [];
  for (const replacement of replacements) {
    const first = view.lineOf(replacement.start);
    const lastChar = replacement.end > replacement.start ? replacement.end - 1 : replacement.start;
    const end = Math.max(first + 1, view.lineOf(lastChar) + 1);
    const previous = regions[regions.length - 1];
    if (previous && first < previous.end) {
      previous.end = Math.max(previous.end, end);
      previous.parts.push(replacement);
    } else {
      regions.push({ first, end, parts: [replacement] });
    }
  }
  let lines: TextLine[] = [...view.lines];
  const changedRanges: { start: number; end: number }[] = [];
  let shift = 0;
  const planned = regions.map((region) => {
    const regionStart = view.starts[region.first];
    const regionEnd = view.starts[region.end];
    let text = '';
    let cursor = regionStart;
    for (const part of region.parts) {
      text += view.text.slice(cursor, part.start) + part.text;
      cursor = part.end;
    }
    text += view.text.slice(cursor, regionEnd);
    // The last line's terminator survives when the match stopped before it.
    const keepLastEnding = cursor < regionEnd;
    return { region, text, keepLastEnding };
  });
  for (const { region, text } of planned) {
    const count = lineCount(text);
    changedRanges.push({ start: region.first + shift, end: region.first + shift + count });
    shift += count - (region.end - region.first);
  }
  for (let i = planned.length - 1; i >= 0; i -= 1) {
    const { region, text, keepLastEnding } = planned[i];
    lines = replaceLineRange(lines, region.first, region.end, text, eol, keepLastEnding);
  }
  return { lines, level, replacements: replacements.length, changedRanges };
}

function lineCount(lfText: string): number {
  if (lfText === '') {
    return 0;
  }
  const breaks = lfText.split('\n').length - 1;
  return lfText.endsWith('\n') ? breaks : breaks + 1;
}
