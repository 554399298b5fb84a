// A file's text as lines that each remember their own terminator, so an edit can change some lines
// and give every other line back byte for byte (CRLF, LF, lone CR, mixed, no final newline).
import { diffArrays } from 'diff';

export type LineEnding = '\r\n' | '\n' | '\r';

/** One line of a file: its text without the terminator, and the terminator ('' for a last line without one). */
export interface TextLine {
  readonly text: string;
  readonly eol: LineEnding | '';
}

/** Splits text into lines, each with its own terminator. "a\n" is one line; "" is no line. */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      lines.push({ text: text.slice(start, i), eol: '\n' });
      start = i + 1;
    } else if (code === 13) {
      const crlf = text.charCodeAt(i + 1) === 10;
      lines.push({ text: text.slice(start, i), eol: crlf ? '\r\n' : '\r' });
      i += crlf ? 1 : 0;
      start = i + 1;
    }
  }
  if (start < text.length) {
    lines.push({ text: text.slice(start), eol: '' });
  }
  return lines;
}

/**
 * The lines as read_file and grep show them: `\n` ends a line and a `\r` before it belongs to the
 * terminator (a lone `\r` is part of the line, as ripgrep reads it). Unlike splitLines, the
 * terminators are dropped.
 */
export function displayLines(text: string): string[] {
  if (text === '') {
    return [];
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

export function joinLines(lines: readonly TextLine[]): string {
  let out = '';
  for (const line of lines) {
    out += line.text + line.eol;
  }
  return out;
}

/** The terminator most lines use; on a tie the one seen first; LF when the file has none. */
export function dominantLineEnding(lines: readonly TextLine[]): LineEnding {
  const counts = new Map<LineEnding, number>();
  let best: LineEnding | undefined;
  for (const line of lines) {
    if (line.eol === '') {
      continue;
    }
    const count = (counts.get(line.eol) ?? 0) + 1;
    counts.set(line.eol, count);
    if (best === undefined || count > (counts.get(best) ?? 0)) {
      best = line.eol;
    }
  }
  return best ?? '\n';
}

/** True when the lines use more than one kind of terminator. */
export function hasMixedLineEndings(lines: readonly TextLine[]): boolean {
  const seen = new Set(lines.map((line) => line.eol).filter((eol) => eol !== ''));
  return seen.size > 1;
}

/** Every terminator (CRLF, lone CR) turned into LF: the text as the model reads and writes it. */
export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * Replaces lines [start, end) of a file by new lines given as LF text, and returns the whole new
 * file's lines. Lines of the new text equal to a replaced line (by a line diff) keep that line's
 * terminator; other new lines get `newLineEnding`. When `keepLastEnding` is set, the last replaced
 * line's terminator was not part of what the caller replaced, so the last new line keeps it.
 * A new text that ends without a newline at the end of the file keeps the file without one.
 */
/**
 * A line ending in a lone CR followed by an empty line ending in LF would read back as one CRLF,
 * and the empty line would be lost. In a file of mixed endings a replacement can make such a pair
 * (the original cannot have one); the placed line of the pair takes an ending that keeps both.
 */
function keepEmptyLinesApart(before: TextLine | undefined, placed: TextLine[], after: TextLine | undefined): void {
  const merges = (first: TextLine | undefined, second: TextLine | undefined): boolean => first?.eol === '\r' && second?.text === '' && second.eol.startsWith('\n');
  if (placed.length > 0 && merges(before, placed[0])) {
    placed[0] = { text: '', eol: '\r' };
  }
  for (let i = 0; i + 1 < placed.length; i += 1) {
    if (merges(placed[i], placed[i + 1])) {
      placed[i + 1] = { text: '', eol: '\r' };
    }
  }
  const last = placed.length - 1;
  if (last >= 0 && merges(placed[last], after)) {
    placed[last] = { text: placed[last].text, eol: '\r\n' };
  }
}

export function replaceLineRange(
  lines: readonly TextLine[],
  start: number,
  end: number,
  newText: string,
  newLineEnding: LineEnding,
  keepLastEnding = false,
): TextLine[] {
  const oldRegion = lines.slice(start, end);
  const newRegion = splitLfText(newText);
  const placed: TextLine[] = new Array<TextLine>(newRegion.length);
  const changes = diffArrays(
    oldRegion.map((line) => line.text),
    newRegion.map((line) => line.text),
  );
  let oldIndex = 0;
  let newIndex = 0;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    for (let k = 0; k < count; k += 1) {
      if (change.added) {
        placed[newIndex] = { text: newRegion[newIndex].text, eol: newRegion[newIndex].hasNewline ? newLineEnding : '' };
        newIndex += 1;
      } else if (change.removed) {
        oldIndex += 1;
      } else {
        const old = oldRegion[oldIndex];
        // An unchanged line keeps its terminator, unless the new text drops or adds the final newline.
        const eol = newRegion[newIndex].hasNewline ? (old.eol === '' ? newLineEnding : old.eol) : '';
        placed[newIndex] = { text: newRegion[newIndex].text, eol };
        oldIndex += 1;
        newIndex += 1;
      }
    }
  }
  const last = placed.length - 1;
  const oldLast = oldRegion[oldRegion.length - 1];
  if (keepLastEnding && last >= 0 && oldLast && newRegion[last].hasNewline === (oldLast.eol !== '')) {
    placed[last] = { text: placed[last].text, eol: oldLast.eol };
  }
  keepEmptyLinesApart(lines[start - 1], placed, lines[end]);
  return [...lines.slice(0, start), ...placed, ...lines.slice(end)];
}

/** LF text as lines with a flag for whether each ended with a newline. */
function splitLfText(text: string): { text: string; hasNewline: boolean }[] {
  if (text === '') {
    return [];
  }
  const parts = text.split('\n');
  const endsWithNewline = parts[parts.length - 1] === '';
  if (endsWithNewline) {
    parts.pop();
  }
  return parts.map((part, index) => ({ text: part, hasNewline: index < parts.length - 1 || endsWithNewline }));
}
