// Parses the `*** Begin Patch` format: Add File, Delete File, Update File (with Move to), `@@`
// chunks with context, removed and added lines, and `*** End of File`.
import { ToolError } from '../errors';

/** One located change inside an Update File: the lines it expects and the lines it leaves. */
export interface PatchChunk {
  /** The text after `@@ ` that locates the chunk (a line of the file), if any. */
  readonly context?: string;
  /** Context and removed lines, in file order: what the file must contain. */
  readonly oldLines: readonly string[];
  /** Context and added lines, in file order: what replaces them. */
  readonly newLines: readonly string[];
  /** Set by `*** End of File`: the chunk ends at the end of the file. */
  readonly endOfFile: boolean;
  /** The 1-based line of the patch where the chunk starts, for errors. */
  readonly patchLine: number;
}

export type PatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'update'; readonly path: string; readonly moveTo?: string; readonly chunks: readonly PatchChunk[] };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

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
export function parsePatch(patchText: string): PatchOperation[] {
  let lines = patchText.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') {
    lines.pop();
  }
  lines = unwrapHeredoc(lines);
  if (lines.length === 0 || lines[0].trim() !== BEGIN) {
    fail(`the first line must be "${BEGIN}".`);
  }
  if (lines[lines.length - 1].trim() !== END) {
    fail(`the last line must be "${END}".`);
  }
  const body = lines.slice(1, -1);
  const operations: PatchOperation[] = [];
  let index = 0;
  const lineNumber = (i: number): number => i + 2;
  while (index < body.length) {
    const header = body[index].trim();
    if (header === '') {
      index += 1;
      continue;
    }
    if (header.startsWith(ADD)) {
      const path = requirePath(header.slice(ADD.length), lineNumber(index));
      index += 1;
      const content: string[] = [];
      while (index < body.length && !isFileHeader(body[index])) {
        const line = body[index];
        if (!line.startsWith('+')) {
          fail(`line ${lineNumber(index)} of the patch is inside "${ADD}${path}" but does not start with "+": every line of an added file needs a "+" prefix.`);
        }
        content.push(line.slice(1));
        index += 1;
      }
      operations.push({ kind: 'add', path, content: content.length ? `${content.join('\n')}\n` : '' });
    } else if (header.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: requirePath(header.slice(DELETE.length), lineNumber(index)) });
      index += 1;
    } else if (header.startsWith(UPDATE)) {
      const path = requirePath(header.slice(UPDATE.length), lineNumber(index));
      index += 1;
      let moveTo: string | undefined;
      if (index < body.length && body[index].trim().startsWith(MOVE)) {
        moveTo = requirePath(body[index].trim().slice(MOVE.length), lineNumber(index));
        index += 1;
      }
      const parsed = parseChunks(body, index, lineNumber, path);
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
  return operations;
}

function isFileHeader(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE);
}

function requirePath(raw: string, patchLine: number): string {
  const path = raw.trim();
  if (path === '') {
    fail(`line ${patchLine} names no file.`);
  }
  return path;
}

function parseChunks(body: readonly string[], start: number, lineNumber: (i: number) => number, path: string): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = [];
  let index = start;
  let current: { context?: string; oldLines: string[]; newLines: string[]; endOfFile: boolean; patchLine: number; changes: number } | undefined;
  const close = (): void => {
    if (current) {
      if (current.oldLines.length === 0 && current.newLines.length === 0) {
        fail(`the chunk at line ${current.patchLine} of "${UPDATE}${path}" has no lines.`);
      }
      chunks.push({ context: current.context, oldLines: current.oldLines, newLines: current.newLines, endOfFile: current.endOfFile, patchLine: current.patchLine });
      current = undefined;
    }
  };
  while (index < body.length && !isFileHeader(body[index])) {
    const line = body[index];
    const trimmed = line.trim();
    if (trimmed === '@@' || line.startsWith('@@ ')) {
      close();
      const context = trimmed === '@@' ? undefined : line.slice(3);
      current = { context: context === undefined || context.trim() === '' ? undefined : context, oldLines: [], newLines: [], endOfFile: false, patchLine: lineNumber(index), changes: 0 };
    } else if (trimmed === END_OF_FILE) {
      if (!current) {
        fail(`line ${lineNumber(index)}: "${END_OF_FILE}" must end a chunk of "${UPDATE}${path}".`);
      }
      current.endOfFile = true;
      close();
    } else {
      // The first chunk of a file may leave out its "@@" line.
      current ??= { oldLines: [], newLines: [], endOfFile: false, patchLine: lineNumber(index), changes: 0 };
      if (current.endOfFile) {
        fail(`line ${lineNumber(index)}: nothing may follow "${END_OF_FILE}" in the same chunk.`);
      }
      const marker = line[0];
      const text = line.slice(1);
      if (line === '') {
        // An empty line in a chunk is an empty context line whose leading space was stripped.
        current.oldLines.push('');
        current.newLines.push('');
      } else if (marker === ' ') {
        current.oldLines.push(text);
        current.newLines.push(text);
      } else if (marker === '-') {
        current.oldLines.push(text);
        current.changes += 1;
      } else if (marker === '+') {
        current.newLines.push(text);
        current.changes += 1;
      } else {
        fail(`line ${lineNumber(index)} ("${line}") in "${UPDATE}${path}" must start with " " (context), "-" (remove), "+" (add) or "@@".`);
      }
    }
    index += 1;
  }
  close();
  return { chunks, next: index };
}
