// Parses the `*** Begin Patch` format: Add File, Delete File, Update File (with Move to), `@@`
// chunks (stacked `@@` lines narrow the search step by step) with context, removed and added lines,
// and `*** End of File`. Blank lines between sections are separators. A few common slips whose
// reading is unambiguous are accepted and reported; anything else is refused with the patch line.
import { ToolError } from '../errors';

/** One located change inside an Update File: the lines it expects and the lines it leaves. */
export interface PatchChunk {
  /** The texts after `@@ ` that locate the chunk, outermost first: each is a line of the file, found after the one before. */
  readonly anchors: readonly string[];
  /** Context and removed lines, in file order: what the file must contain. */
  readonly oldLines: readonly string[];
  /** Context and added lines, in file order: what replaces them. */
  readonly newLines: readonly string[];
  /** Set by `*** End of File`: the chunk ends at the end of the file. */
  readonly endOfFile: boolean;
  /** The 1-based line of the patch where the chunk starts, for errors. */
  readonly patchLine: number;
  /**
   * How many of the chunk's last context lines were bare empty lines of the patch (no leading
   * space): each may be an empty line of the file or a separator before what follows.
   */
  readonly trailingBareBlanks: number;
}

export type PatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'update'; readonly path: string; readonly moveTo?: string; readonly chunks: readonly PatchChunk[] };

export interface ParsedPatch {
  readonly operations: readonly PatchOperation[];
  /** Slips in the format that were read the one way they can be read, worded for the result. */
  readonly tolerated: readonly string[];
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';
/** A unified-diff hunk header (`@@ -12,7 +12,8 @@ text`): the numbers are ignored, the text after it is the anchor. */
const UNIFIED_RANGE = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@(?: (.*))?$/;

function fail(message: string): never {
  throw new ToolError(`The patch is not valid, so nothing was changed: ${message}`);
}

/** Drops a shell heredoc wrapper (`<<'EOF'` ... `EOF`) that models sometimes copy from their examples. */
function unwrapHeredoc(lines: string[]): string[] {
  const first = lines[0]?.trim() ?? '';
  const last = lines[lines.length - 1]?.trim() ?? '';
  if (lines.length >= 4 && /^(apply_patch\s+)?<<\s*['"]?EOF['"]?$/.test(first) && last === 'EOF') {
    return lines.slice(1, -1);
  }
  return lines;
}

/** Parses a patch; throws a ToolError naming the patch line when the text does not follow the format. */
export function parsePatch(patchText: string): ParsedPatch {
  let lines = patchText.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') {
    lines.pop();
  }
  lines = unwrapHeredoc(lines);
  if (lines.length === 0 || lines[0].trim() !== BEGIN) {
    fail(`the first line must be "${BEGIN}".`);
  }
  const tolerated: string[] = [];
  let body: string[];
  if (lines[lines.length - 1].trim() === END) {
    body = lines.slice(1, -1);
  } else {
    body = lines.slice(1);
    tolerated.push(`The patch had no "${END}" line; it was read to its last line.`);
  }
  const operations: PatchOperation[] = [];
  let index = 0;
  const lineNumber = (i: number): number => i + 2;
  while (index < body.length) {
    const header = body[index].trim();
    if (header === '') {
      index += 1;
      continue;
    }
    if (header === END) {
      fail(`line ${lineNumber(index)}: "${END}" must be the last line of the patch; send one patch per call and nothing after it.`);
    }
    if (header.startsWith(ADD)) {
      const path = requirePath(header.slice(ADD.length), lineNumber(index));
      index += 1;
      const content = parseAddedFile(body, index, lineNumber, path, tolerated);
      index = content.next;
      operations.push({ kind: 'add', path, content: content.lines.length ? `${content.lines.join('\n')}\n` : '' });
    } else if (header.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: requirePath(header.slice(DELETE.length), lineNumber(index)) });
      index += 1;
    } else if (header.startsWith(UPDATE)) {
      const path = requirePath(header.slice(UPDATE.length), lineNumber(index));
      index += 1;
      while (index < body.length && body[index].trim() === '') {
        index += 1;
      }
      let moveTo: string | undefined;
      if (index < body.length && body[index].trim().startsWith(MOVE)) {
        moveTo = requirePath(body[index].trim().slice(MOVE.length), lineNumber(index));
        index += 1;
      }
      const parsed = parseChunks(body, index, lineNumber, path, tolerated);
      index = parsed.next;
      if (parsed.chunks.length === 0) {
        fail(`"${UPDATE}${path}" (line ${lineNumber(index - 1)}) has no changes; give at least one chunk of "-" and "+" lines.`);
      }
      operations.push({ kind: 'update', path, moveTo, chunks: parsed.chunks });
    } else {
      fail(`line ${lineNumber(index)} ("${body[index]}") is not a file header; expected "${ADD}<path>", "${DELETE}<path>" or "${UPDATE}<path>".`);
    }
  }
  if (operations.length === 0) {
    fail('it contains no file operations. Add at least one "*** Add File:", "*** Delete File:" or "*** Update File:" section.');
  }
  return { operations, tolerated };
}

/** The lines of an Add File section. Blank lines around them separate sections; a blank line between them is an empty line whose "+" was dropped. */
function parseAddedFile(body: readonly string[], start: number, lineNumber: (i: number) => number, path: string, tolerated: string[]): { lines: string[]; next: number } {
  let end = start;
  while (end < body.length && !isFileHeader(body[end])) {
    end += 1;
  }
  let first = start;
  let last = end;
  while (first < last && body[first] === '') {
    first += 1;
  }
  while (last > first && body[last - 1] === '') {
    last -= 1;
  }
  const lines: string[] = [];
  for (let i = first; i < last; i += 1) {
    const line = body[i];
    if (line === '') {
      tolerated.push(`Line ${lineNumber(i)} (inside "${ADD}${path}") was blank without its "+"; it was read as an empty line of the new file.`);
      lines.push('');
    } else if (line.startsWith('+')) {
      lines.push(line.slice(1));
    } else {
      fail(`line ${lineNumber(i)} of the patch is inside "${ADD}${path}" but does not start with "+": every line of an added file needs a "+" prefix.`);
    }
  }
  return { lines, next: end };
}

function isFileHeader(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE) || trimmed === END;
}

function requirePath(raw: string, patchLine: number): string {
  const path = raw.trim();
  if (path === '') {
    fail(`line ${patchLine} names no file.`);
  }
  return path;
}

interface OpenChunk {
  anchors: string[];
  oldLines: string[];
  newLines: string[];
  endOfFile: boolean;
  patchLine: number;
  trailingBareBlanks: number;
}

/** A chunk that so far holds only bare blank lines: nothing that locates or changes anything. */
function isBlankSoFar(chunk: OpenChunk): boolean {
  return chunk.oldLines.length === chunk.trailingBareBlanks && chunk.newLines.length === chunk.trailingBareBlanks;
}

/** The anchor of an `@@` line: the text after `@@ `, or after a unified-diff range (reported as tolerated). */
function anchorOf(line: string, patchLine: number, tolerated: string[]): string | undefined {
  const trimmed = line.trim();
  const unified = UNIFIED_RANGE.exec(trimmed);
  if (unified) {
    tolerated.push(`Line ${patchLine}: the line numbers of "${trimmed}" were ignored; the chunk was located by its lines${unified[1]?.trim() ? ' and the text after the second "@@"' : ''}.`);
    return unified[1]?.trim() ? unified[1] : undefined;
  }
  if (trimmed === '@@') {
    return undefined;
  }
  const text = line.slice(3);
  return text.trim() === '' ? undefined : text;
}

function parseChunks(body: readonly string[], start: number, lineNumber: (i: number) => number, path: string, tolerated: string[]): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = [];
  let index = start;
  let current: OpenChunk | undefined;
  const close = (): void => {
    if (!current) {
      return;
    }
    if (isBlankSoFar(current)) {
      if (current.anchors.length === 0 && !current.endOfFile) {
        // Only blank lines: a separator, not a chunk.
        current = undefined;
        return;
      }
      fail(`the chunk at line ${current.patchLine} of "${UPDATE}${path}" has no lines; after its "@@" line give the unchanged (" "), removed ("-") and added ("+") lines.`);
    }
    const { anchors, oldLines, newLines, endOfFile, patchLine, trailingBareBlanks } = current;
    chunks.push({ anchors, oldLines, newLines, endOfFile, patchLine, trailingBareBlanks });
    current = undefined;
  };
  while (index < body.length && !isFileHeader(body[index])) {
    const line = body[index];
    const trimmed = line.trim();
    if (trimmed === '@@' || line.startsWith('@@ ')) {
      const anchor = anchorOf(line, lineNumber(index), tolerated);
      if (current && isBlankSoFar(current)) {
        // Stacked "@@" lines (blank lines between them are separators): each narrows the search.
        current.oldLines = [];
        current.newLines = [];
        current.trailingBareBlanks = 0;
      } else {
        close();
        current = { anchors: [], oldLines: [], newLines: [], endOfFile: false, patchLine: lineNumber(index), trailingBareBlanks: 0 };
      }
      if (anchor !== undefined) {
        current.anchors.push(anchor);
      }
    } else if (trimmed === END_OF_FILE) {
      if (!current) {
        fail(`line ${lineNumber(index)}: "${END_OF_FILE}" must end a chunk of "${UPDATE}${path}".`);
      }
      current.endOfFile = true;
      close();
    } else if (line === '') {
      // A bare blank line: a separator outside a chunk; inside one, an empty line of the file whose
      // leading space was dropped, or (at the chunk's end) a separator. The planner decides which.
      if (current) {
        current.oldLines.push('');
        current.newLines.push('');
        current.trailingBareBlanks += 1;
      }
    } else {
      // The first chunk of a file may leave out its "@@" line.
      current ??= { anchors: [], oldLines: [], newLines: [], endOfFile: false, patchLine: lineNumber(index), trailingBareBlanks: 0 };
      if (current.endOfFile) {
        fail(`line ${lineNumber(index)}: nothing may follow "${END_OF_FILE}" in the same chunk.`);
      }
      current.trailingBareBlanks = 0;
      const marker = line[0];
      const text = line.slice(1);
      if (marker === ' ') {
        current.oldLines.push(text);
        current.newLines.push(text);
      } else if (marker === '-') {
        current.oldLines.push(text);
      } else if (marker === '+') {
        current.newLines.push(text);
      } else if (trimmed.startsWith('***') || trimmed.startsWith('@@')) {
        fail(`line ${lineNumber(index)} ("${line}") in "${UPDATE}${path}" is not a known "***" or "@@" line; expected "${ADD}", "${DELETE}", "${UPDATE}", "${MOVE}" (right after Update File), "${END_OF_FILE}" or "${END}".`);
      } else {
        // A context line that lost its leading space: the only way to read it.
        tolerated.push(`Line ${lineNumber(index)} ("${line.length > 60 ? `${line.slice(0, 57)}...` : line}") had no leading " ", "-" or "+"; it was read as an unchanged line.`);
        current.oldLines.push(line);
        current.newLines.push(line);
      }
    }
    index += 1;
  }
  close();
  return { chunks, next: index };
}
