import { throwIfCancelled, type CancellationSignal } from '../errors';
import { capLine, cutLine, MAX_LINE_CHARS } from '../output/budget';
import type { FileReader } from '../ports/fileSystem';
import { createDecoder, type TextEncodingName } from '../text/encoding';
import { displayLines } from '../text/lineEndings';

/** A window of a file's lines, with what is known about the rest. */
export interface LineSlice {
  /** The selected lines, without line terminators, each cut to the line cap. */
  readonly lines: string[];
  /** 1-based number of the first selected line. */
  readonly firstLine: number;
  /** Lines in the whole file: exact when `totalIsExact`, else an estimate from the part read. */
  readonly totalLines: number;
  readonly totalIsExact: boolean;
  /** True when lines follow the slice. */
  readonly moreAfter: boolean;
  /** How many of the selected lines were cut. */
  readonly cutLines: number;
  /** The first cut line: its number and its full length in characters, so it can be read by characters. */
  readonly firstCut?: { readonly line: number; readonly length: number };
}

/** Selects lines [offset, offset + limit) of text already in memory. */
export function sliceLines(text: string, offset: number, limit: number): LineSlice {
  const all = displayLines(text);
  const selected = all.slice(offset - 1, offset - 1 + limit);
  let cutLines = 0;
  let firstCut: LineSlice['firstCut'];
  const lines = selected.map((line, index) => {
    if (line.length > MAX_LINE_CHARS) {
      cutLines += 1;
      firstCut ??= { line: offset + index, length: line.length };
    }
    return capLine(line);
  });
  return { lines, firstLine: offset, totalLines: all.length, totalIsExact: true, moreAfter: offset - 1 + limit < all.length, cutLines, ...(firstCut ? { firstCut } : {}) };
}

/** Files up to this size are counted to the end for an exact total; larger ones get an estimate. */
export const EXACT_COUNT_LIMIT = 64 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/**
 * Streams lines [offset, offset + limit) of an open file. Memory stays bounded whatever the file:
 * only the selected lines are kept, each at most the line cap, and reading stops after the slice
 * (files up to EXACT_COUNT_LIMIT are read on to count their lines).
 */
export async function readLineSlice(
  reader: FileReader,
  encoding: TextEncodingName,
  bomLength: number,
  offset: number,
  limit: number,
  token?: CancellationSignal,
): Promise<LineSlice> {
  const size = reader.size;
  const decoder = createDecoder(encoding);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const lines: string[] = [];
  const last = offset - 1 + limit; // 1-based number of the last selected line
  let lineNo = 0; // lines completed so far
  let partial = '';
  let partialExtra = 0; // characters of the current line beyond what `partial` keeps
  let partialHasContent = false;
  let cutLines = 0;
  let firstCut: LineSlice['firstCut'];
  let position = bomLength;
  let moreAfter = false;
  let countingOnly = false;

  const finishLine = (): void => {
    lineNo += 1;
    if (lineNo >= offset && lineNo <= last) {
      let line = partial;
      if (partialExtra === 0 && line.endsWith('\r')) {
        line = line.slice(0, -1);
      }
      const full = line.length + partialExtra;
      if (full > MAX_LINE_CHARS) {
        cutLines += 1;
        firstCut ??= { line: lineNo, length: full };
        line = cutLine(line, full);
      }
      lines.push(line);
    }
    partial = '';
    partialExtra = 0;
    partialHasContent = false;
  };

  const consume = (text: string): void => {
    let start = 0;
    while (start < text.length) {
      if (lineNo >= last) {
        // The slice is complete: anything further means more lines follow.
        moreAfter = true;
        if (!countingOnly) {
          countingOnly = true;
        }
        let index = text.indexOf('\n', start);
        while (index !== -1) {
          lineNo += 1;
          start = index + 1;
          index = text.indexOf('\n', start);
        }
        partialHasContent = start < text.length;
        return;
      }
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      if (lineNo + 1 >= offset) {
        const room = MAX_LINE_CHARS + 1 - partial.length;
        const piece = text.slice(start, end);
        if (piece.length <= room) {
          partial += piece;
        } else {
          partial += piece.slice(0, room);
          partialExtra += piece.length - room;
        }
      }
      partialHasContent = partialHasContent || end > start;
      if (newline === -1) {
        return;
      }
      finishLine();
      start = newline + 1;
    }
  };

  for (;;) {
    throwIfCancelled(token);
    if (countingOnly && size > EXACT_COUNT_LIMIT) {
      break;
    }
    const bytesRead = await reader.read(buffer, position);
    if (bytesRead === 0) {
      break;
    }
    position += bytesRead;
    consume(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }));
  }
  consume(decoder.decode());
  const atEnd = position >= size;
  if (atEnd) {
    if (partialHasContent) {
      if (countingOnly) {
        lineNo += 1;
      } else {
        finishLine();
      }
    }
    return { lines, firstLine: offset, totalLines: lineNo, totalIsExact: true, moreAfter: lineNo > last, cutLines, ...(firstCut ? { firstCut } : {}) };
  }
  // Stopped early in a huge file: estimate the total from the bytes per line seen so far.
  const bytesPerLine = (position - bomLength) / Math.max(lineNo, 1);
  const estimate = Math.max(lineNo + 1, Math.round((size - bomLength) / bytesPerLine));
  return { lines, firstLine: offset, totalLines: estimate, totalIsExact: false, moreAfter, cutLines, ...(firstCut ? { firstCut } : {}) };
}

/** Characters of one line, for lines longer than the line cut: read in full, a range at a time. */
export interface CharSlice {
  /** 1-based line number. */
  readonly line: number;
  /** The characters shown, without the line terminator. */
  readonly text: string;
  /** 1-based number of the first character shown. */
  readonly firstChar: number;
  /** The line's length in characters, when its end was read. */
  readonly lineLength?: number;
  /** True when characters of the line follow the ones shown. */
  readonly moreInLine: boolean;
  /** False when the file has fewer lines. */
  readonly lineExists: boolean;
  /** True when lines follow this one. */
  readonly moreLines: boolean;
}

/** Characters [charOffset, charOffset + charLimit) of line `line` of text already in memory. */
export function sliceLineChars(text: string, line: number, charOffset: number, charLimit: number): CharSlice {
  const all = displayLines(text);
  const whole = all[line - 1];
  if (whole === undefined) {
    return { line, text: '', firstChar: charOffset, moreInLine: false, lineExists: false, moreLines: false };
  }
  const shown = whole.slice(charOffset - 1, charOffset - 1 + charLimit);
  return { line, text: shown, firstChar: charOffset, lineLength: whole.length, moreInLine: charOffset - 1 + charLimit < whole.length, lineExists: true, moreLines: line < all.length };
}

/**
 * Streams characters [charOffset, charOffset + charLimit) of line `line` of an open file. Memory
 * stays bounded by charLimit whatever the line's length, and reading stops once they are read (and
 * the line's end, when it comes within the next chunk).
 */
export async function readLineChars(
  reader: FileReader,
  encoding: TextEncodingName,
  bomLength: number,
  line: number,
  charOffset: number,
  charLimit: number,
  token?: CancellationSignal,
): Promise<CharSlice> {
  const decoder = createDecoder(encoding);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const wanted = charOffset - 1 + charLimit;
  let lineNo = 1;
  let column = 0; // characters of the target line read so far
  let taken = '';
  let ended = false;
  let moreLines = false;
  let position = bomLength;
  let lineExists = false;
  const consume = (text: string): boolean => {
    let start = 0;
    while (lineNo < line) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) {
        return false;
      }
      lineNo += 1;
      start = newline + 1;
    }
    if (start < text.length) {
      lineExists = true;
    }
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    // Keep the wanted characters and up to two beyond (a CR before the newline, and one to tell more follow).
    const from = Math.max(start, start + (charOffset - 1 - column));
    const to = Math.min(end, start + (wanted + 2 - column));
    if (to > from) {
      taken += text.slice(from, to);
    }
    column += end - start;
    if (newline !== -1) {
      ended = true;
      lineExists = true;
      moreLines = newline + 1 < text.length;
      return true;
    }
    return column >= wanted + 2;
  };
  let done = false;
  while (!done) {
    throwIfCancelled(token);
    const bytesRead = await reader.read(buffer, position);
    if (bytesRead === 0) {
      done = consume(decoder.decode());
      break;
    }
    position += bytesRead;
    done = consume(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }));
  }
  if (ended && !moreLines && position < reader.size) {
    moreLines = true;
  }
  let lineLength: number | undefined;
  if (ended || position >= reader.size) {
    const cr = taken.endsWith('\r') && column <= wanted + 2 ? 1 : 0;
    lineLength = column - cr;
    taken = taken.slice(0, taken.length - cr);
  }
  const text = taken.slice(0, charLimit);
  const moreInLine = lineLength === undefined ? true : charOffset - 1 + charLimit < lineLength;
  return { line, text, firstChar: charOffset, ...(lineLength === undefined ? {} : { lineLength }), moreInLine, lineExists: lineExists || (line === 1 && reader.size > bomLength), moreLines };
}
