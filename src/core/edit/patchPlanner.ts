// Plans a whole patch before anything changes: every chunk of every file is located (exactly, then
// with the tolerant rungs), and any failure names the file and the lines that were not found.
import { ToolError } from '../errors';
import { dominantLineEnding, replaceLineRange, type TextLine } from '../text/lineEndings';
import { closestRegion, findLineWindows, keepFileContext, LINE_TOLERANCES, numberLines, type LineTolerance } from './lineMatching';
import type { PatchChunk, PatchOperation } from './patchParser';

/** What is at a path of the patch before it applies. */
export type PatchFileState = { readonly kind: 'missing' } | { readonly kind: 'directory' } | { readonly kind: 'file'; readonly lines: readonly TextLine[] };

export type PlannedPatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly text: string }
  | { readonly kind: 'delete'; readonly path: string }
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly moveTo?: string;
      /** The whole file after its chunks. */
      readonly lines: TextLine[];
      /** The tolerant rungs some chunks needed, for the result. */
      readonly tolerances: readonly LineTolerance[];
    };

/** How the planner sees the workspace: the state of a path, and a key that is equal for two names of one file. */
export interface PatchWorkspace {
  state(path: string): PatchFileState;
  key(path: string): string;
}

function refuse(message: string): never {
  throw new ToolError(`${message} Nothing was changed.`);
}

/** Plans every operation; throws a ToolError (with nothing changed) when any of them cannot apply. */
export function planPatch(operations: readonly PatchOperation[], workspace: PatchWorkspace): PlannedPatchOperation[] {
  const touched = new Map<string, string>();
  const claim = (path: string, role: string): void => {
    const key = workspace.key(path);
    const previous = touched.get(key);
    if (previous !== undefined) {
      refuse(`The patch touches ${path} twice (${previous} and ${role}). Put all changes of one file in a single "*** Update File:" section.`);
    }
    touched.set(key, role);
  };
  return operations.map((operation): PlannedPatchOperation => {
    const state = workspace.state(operation.path);
    switch (operation.kind) {
      case 'add':
        claim(operation.path, 'Add File');
        if (state.kind !== 'missing') {
          refuse(`"*** Add File: ${operation.path}" would overwrite an existing ${state.kind}. Use "*** Update File:" to change an existing file, after reading it.`);
        }
        return { kind: 'add', path: operation.path, text: operation.content };
      case 'delete':
        claim(operation.path, 'Delete File');
        if (state.kind === 'missing') {
          refuse(`"*** Delete File: ${operation.path}": there is no such file.`);
        }
        if (state.kind === 'directory') {
          refuse(`"*** Delete File: ${operation.path}" names a directory; only files can be deleted by a patch.`);
        }
        return { kind: 'delete', path: operation.path };
      case 'update': {
        claim(operation.path, 'Update File');
        if (state.kind !== 'file') {
          refuse(`"*** Update File: ${operation.path}": ${state.kind === 'directory' ? 'that is a directory' : 'there is no such file'}. Check the path with workspace_glob, or use "*** Add File:" to create it.`);
        }
        if (operation.moveTo !== undefined && workspace.key(operation.moveTo) !== workspace.key(operation.path)) {
          claim(operation.moveTo, 'Move to');
          if (workspace.state(operation.moveTo).kind !== 'missing') {
            refuse(`"*** Move to: ${operation.moveTo}" would overwrite an existing file. Move to a free path, or delete that file first in a separate patch.`);
          }
        }
        const { lines, tolerances } = applyChunks(state.lines, operation.chunks, operation.path);
        return { kind: 'update', path: operation.path, moveTo: operation.moveTo, lines, tolerances };
      }
    }
  });
}

interface LocatedChunk {
  readonly start: number;
  readonly pattern: readonly string[];
  readonly replacement: readonly string[];
}

/** Finds a pattern at or after `from`: exact first (the first occurrence), then each tolerant rung (a unique window only). */
function seek(texts: readonly string[], pattern: readonly string[], from: number, endOfFile: boolean): { start: number; tolerance?: LineTolerance } | 'ambiguous' | undefined {
  if (pattern.length > texts.length) {
    return undefined;
  }
  const startAt = endOfFile ? texts.length - pattern.length : from;
  const exact = findLineWindows(texts, pattern, 'exact', startAt);
  if (exact.length > 0) {
    return { start: exact[0] };
  }
  for (const tolerance of LINE_TOLERANCES) {
    const windows = findLineWindows(texts, pattern, tolerance, startAt);
    if (windows.length > 1) {
      return 'ambiguous';
    }
    if (windows.length === 1) {
      return { start: windows[0], tolerance };
    }
  }
  return undefined;
}

function applyChunks(original: readonly TextLine[], chunks: readonly PatchChunk[], path: string): { lines: TextLine[]; tolerances: LineTolerance[] } {
  const texts = original.map((line) => line.text);
  const located: LocatedChunk[] = [];
  const tolerances: LineTolerance[] = [];
  let cursor = 0;
  chunks.forEach((chunk, chunkIndex) => {
    const which = `chunk ${chunkIndex + 1} of ${chunks.length} (patch line ${chunk.patchLine})`;
    if (chunk.context !== undefined) {
      const found = seek(texts, [chunk.context], cursor, false);
      if (found === undefined || found === 'ambiguous') {
        refuse(`In ${path}, ${which}: the "@@ ${chunk.context}" line was ${found === 'ambiguous' ? 'found only loosely and in several places' : 'not found'} after line ${cursor}. Read the file again and give a line that exists in it.`);
      }
      cursor = found.start + 1;
      if (found.tolerance) {
        tolerances.push(found.tolerance);
      }
    }
    if (chunk.oldLines.length === 0) {
      // A chunk with only added lines goes right after its "@@" line, or else at the end of the file.
      const at = chunk.context !== undefined && !chunk.endOfFile ? cursor : texts.length;
      located.push({ start: at, pattern: [], replacement: chunk.newLines });
      cursor = at;
      return;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let found = seek(texts, pattern, cursor, chunk.endOfFile);
    if (found === undefined && pattern[pattern.length - 1] === '') {
      // A trailing empty context line often stands for the end of the file rather than a blank line.
      pattern = pattern.slice(0, -1);
      replacement = replacement[replacement.length - 1] === '' ? replacement.slice(0, -1) : replacement;
      found = seek(texts, pattern, cursor, chunk.endOfFile);
    }
    if (found === undefined || found === 'ambiguous') {
      refuse(chunkNotFound(texts, chunk, path, which, cursor, found === 'ambiguous'));
    }
    if (found.tolerance) {
      tolerances.push(found.tolerance);
    }
    located.push({ start: found.start, pattern, replacement });
    cursor = found.start + pattern.length;
  });
  let lines: TextLine[] = [...original];
  const eol = dominantLineEnding(original);
  for (let i = located.length - 1; i >= 0; i -= 1) {
    const chunk = located[i];
    const previous = located[i - 1];
    if (previous && previous.start + previous.pattern.length > chunk.start) {
      refuse(`In ${path}, chunks ${i} and ${i + 1} overlap. Merge them into one chunk.`);
    }
    lines = replaceChunk(lines, chunk, eol);
  }
  return { lines, tolerances };
}

/** Replaces one located chunk; context lines keep the file's exact text, and the final newline's absence is kept. */
function replaceChunk(lines: TextLine[], chunk: LocatedChunk, eol: '\r\n' | '\n' | '\r'): TextLine[] {
  let start = chunk.start;
  let end = chunk.start + chunk.pattern.length;
  const fileLines = lines.slice(start, end).map((line) => line.text);
  const newTexts = keepFileContext(fileLines, chunk.pattern, chunk.replacement);
  const last = lines[lines.length - 1];
  const lastWithoutNewline = last !== undefined && last.eol === '';
  if (lastWithoutNewline && start === lines.length && newTexts.length > 0) {
    // Appending after a last line without a newline: that line gets one, the new last line does not.
    start -= 1;
    newTexts.unshift(last.text);
  }
  end = Math.max(end, start);
  const touchesEnd = end === lines.length;
  const keepWithoutNewline = touchesEnd && lastWithoutNewline;
  const text = newTexts.length === 0 ? '' : `${newTexts.join('\n')}${keepWithoutNewline ? '' : '\n'}`;
  return replaceLineRange(lines, start, end, text, eol);
}

function chunkNotFound(texts: readonly string[], chunk: PatchChunk, path: string, which: string, cursor: number, ambiguous: boolean): string {
  const expected = chunk.oldLines.map((line) => `  ${line}`).join('\n');
  const problem = ambiguous ? 'these lines match several places only when whitespace or punctuation is ignored' : `these lines were not found${cursor > 0 ? ` after line ${cursor}` : ''}`;
  let message = `In ${path}, ${which}: ${problem}:\n${expected}`;
  const closest = closestRegion(texts, chunk.oldLines);
  if (closest && !ambiguous) {
    message += `\nThe most similar lines in the file are ${closest.start + 1}-${closest.start + closest.length}:\n${numberLines(texts.slice(closest.start, closest.start + closest.length), closest.start + 1)}`;
  }
  return `${message}\nRead the file again and regenerate the chunk with its exact current lines.`;
}
