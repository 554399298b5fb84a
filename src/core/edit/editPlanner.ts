// Plans workspace_edit_file: finds old_string with the match ladder and computes the new lines,
// leaving every line outside the replaced region byte-identical.
import { BugError, ToolError } from '../errors';
import { dominantLineEnding, joinLines, normaliseLineEndings, replaceLineRange, splitLines, type TextLine } from '../text/lineEndings';
import { closestRegion, describeTolerance, findTolerantWindow, numberLines, placeMatchedLines, type LineTolerance } from './lineMatching';

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
  /** What was replaced, as ranges of the LF view of the file before the edit, in order. */
  readonly replaced: readonly Replacement[];
}

export function describeMatchLevel(level: MatchLevel): string {
  if (level === 'exact') {
    return 'exact match';
  }
  if (level === 'line-endings') {
    return "matched after normalising line endings (old_string's line breaks differ from the file's)";
  }
  return `matched ${describeTolerance(level)}${level === 'indentation' ? '; new_string was re-indented to the file' : ''}`;
}

/** A character range of the LF view of the file, and the LF text that replaces it. */
export interface Replacement {
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
  const match = oldLines.some((line) => line.trim() !== '') ? findTolerantWindow(fileTexts, oldLines) : { kind: 'missing' as const };
  if (match.kind === 'ambiguous') {
    throw new ToolError(
      `old_string was not found exactly in ${shownPath}; ${describeTolerance(match.tolerance)} it matches ${match.starts.length} places, starting at lines ${match.starts.map((start) => start + 1).join(', ')}, so it is ambiguous and nothing was changed. Read the file again and copy old_string exactly, with enough surrounding lines to be unique.`,
    );
  }
  if (match.kind === 'found') {
    const first = match.start;
    const last = first + oldLines.length - 1;
    const start = view.starts[first];
    // old_string's final newline stands for the window's last line ending; a last line without one
    // (the end of a file without a final newline) keeps having none: new_string's is dropped with it.
    const withEnding = endsWithNewline && lines[last].eol !== '';
    const end = withEnding ? view.starts[last + 1] : view.starts[last] + lines[last].text.length;
    const replacement = tolerantReplacement(fileTexts.slice(first, last + 1), oldLines, newLf, match.tolerance);
    const text = endsWithNewline && !withEnding && replacement.endsWith('\n') ? replacement.slice(0, -1) : replacement;
    return applyReplacements(view, [{ start, end, text }], match.tolerance);
  }
  throw new ToolError(notFoundMessage(fileTexts, oldLines, shownPath));
}

export interface MultiEditOutcome {
  /** The whole file after every edit. */
  readonly lines: TextLine[];
  /** The rung that found each edit's old_string, by index. */
  readonly levels: readonly MatchLevel[];
  /** Replacements made by all edits together. */
  readonly replacements: number;
  /** 0-based [start, end) line ranges of the new file that the edits wrote. */
  readonly changedRanges: readonly { start: number; end: number }[];
}

/** Text an earlier edit wrote: where it is now, and where what it replaced ends in the original. */
interface Written {
  start: number;
  end: number;
  readonly originalEnd: number;
  readonly edit: number;
}

/** Names one edit of a list in errors: its index in `edits` and its place in the list. */
export function editLabel(index: number, count: number): string {
  return `edits[${index}] (edit ${index + 1} of ${count})`;
}

/**
 * Plans several edits of one file, each found in the result of the ones before it with its own
 * uniqueness rule and ladder. An edit whose match overlaps text an earlier edit wrote is refused, so
 * every edit replaces original text; the edits are then applied to the original as one set of
 * replacements, which gives the same file and the lines they wrote. Throws a ToolError naming the
 * failing edit; nothing is planned when any edit fails.
 */
export function planTextEdits(lines: readonly TextLine[], requests: readonly TextEditRequest[], shownPath: string): MultiEditOutcome {
  const [first] = requests;
  if (lines.length === 0 && first?.oldString === '') {
    // An empty old_string on an empty or missing file: the first edit gives the whole text.
    const rest = composeEdits(splitLines(first.newString), requests, 1, shownPath);
    return { lines: rest.lines, levels: ['exact', ...rest.levels], replacements: rest.replacements + 1, changedRanges: [{ start: 0, end: rest.lines.length }] };
  }
  return composeEdits(lines, requests, 0, shownPath);
}

/** planTextEdits from the edit at index `from` on. */
function composeEdits(lines: readonly TextLine[], requests: readonly TextEditRequest[], from: number, shownPath: string): MultiEditOutcome {
  const label = (index: number): string => editLabel(index, requests.length);
  let current: readonly TextLine[] = lines;
  let written: Written[] = [];
  const composed: Replacement[] = [];
  const levels: MatchLevel[] = [];
  let replacements = 0;
  requests.forEach((request, index) => {
    if (index < from) {
      return;
    }
    let outcome: TextEditOutcome;
    try {
      outcome = planTextEdit(current, request, shownPath);
    } catch (error) {
      // One edit needs no label: its error is old_string's own.
      throw error instanceof ToolError && requests.length > 1 ? new ToolError(`${label(index)} failed, so none of the ${requests.length} edits was made: ${error.message}`) : error;
    }
    for (const part of outcome.replaced) {
      const hit = written.find((other) => part.start < other.end && other.start < part.end);
      if (hit) {
        throw new ToolError(
          `${label(index)} overlaps the text that ${label(hit.edit)} wrote (line ${new LfView(current).lineOf(hit.start) + 1} of ${shownPath} as the earlier edits left it), so none of the ${requests.length} edits was made. Each edit must replace text of the file that no earlier edit wrote: merge the two edits into one.`,
        );
      }
    }
    written = recordWrites(written, outcome.replaced, index, composed);
    levels.push(outcome.level);
    replacements += outcome.replacements;
    current = outcome.lines;
  });
  composed.sort((a, b) => a.start - b.start);
  const together = applyReplacements(new LfView(lines), composed, 'exact');
  if (new LfView(together.lines).text !== new LfView(current).text) {
    throw new BugError('the edits applied together differ from the edits applied one by one');
  }
  return { lines: together.lines, levels, replacements, changedRanges: together.changedRanges };
}

/**
 * Adds one edit's replacements (in the coordinates of the text before it) to the composed set, in
 * original coordinates, and returns the written ranges moved to the coordinates after it.
 */
function recordWrites(written: readonly Written[], parts: readonly Replacement[], edit: number, composed: Replacement[]): Written[] {
  // A position maps through the nearest write before it (the one that ends last; of two deletions
  // at one place, the one whose original text ends last). A match starts after a deletion at its
  // start and ends before one at its end.
  const toOriginal = (position: number, isEnd: boolean): number => {
    let nearest: Written | undefined;
    for (const other of written) {
      const before = other.end < position || (!isEnd && other.end === position);
      if (before && (!nearest || other.end > nearest.end || (other.end === nearest.end && other.originalEnd > nearest.originalEnd))) {
        nearest = other;
      }
    }
    return nearest ? position - nearest.end + nearest.originalEnd : position;
  };
  const originals = parts.map((part) => ({ start: toOriginal(part.start, false), end: toOriginal(part.end, true), text: part.text }));
  composed.push(...originals);
  const moved: Written[] = written.map((other) => {
    const shift = parts.filter((part) => part.end <= other.start).reduce((sum, part) => sum + part.text.length - (part.end - part.start), 0);
    return { ...other, start: other.start + shift, end: other.end + shift };
  });
  let delta = 0;
  parts.forEach((part, index) => {
    const start = part.start + delta;
    moved.push({ start, end: start + part.text.length, originalEnd: originals[index].end, edit });
    delta += part.text.length - (part.end - part.start);
  });
  return moved.sort((a, b) => a.start - b.start || a.end - b.end);
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

/** new_string for a tolerant match, written by the matching code apply_patch also uses. */
function tolerantReplacement(fileLines: readonly string[], oldLines: readonly string[], newLf: string, tolerance: LineTolerance): string {
  const endsWithNewline = newLf.endsWith('\n');
  const newLines = newLf === '' ? [] : (endsWithNewline ? newLf.slice(0, -1) : newLf).split('\n');
  return placeMatchedLines(fileLines, oldLines, newLines, tolerance).join('\n') + (endsWithNewline ? '\n' : '');
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
  return { lines, level, replacements: replacements.length, changedRanges, replaced: replacements };
}

function lineCount(lfText: string): number {
  if (lfText === '') {
    return 0;
  }
  const breaks = lfText.split('\n').length - 1;
  return lfText.endsWith('\n') ? breaks : breaks + 1;
}
