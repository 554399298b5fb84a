// Plans a whole patch before anything changes: every chunk of every file is located (exactly, then
// with the tolerant rungs), and any failure names the file and the lines that were not found.
import { ToolError } from '../errors';
import { dominantLineEnding, replaceLineRange, type TextLine } from '../text/lineEndings';
import { closestRegion, describeTolerance, findLineWindows, findTolerantWindow, numberLines, placeMatchedLines, type LineTolerance } from './lineMatching';
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
      /** True when moveTo is an existing file, whose content the moved file replaces. */
      readonly overwrites?: boolean;
      /** The whole file after its chunks. */
      readonly lines: TextLine[];
      /** The chunks and anchors that matched only at a tolerant rung, for the result. */
      readonly tolerances: readonly LooseMatch[];
    };

/** A chunk (or one of its "@@" lines) found only at a tolerant rung. */
export interface LooseMatch {
  /** 1-based, in the file's section of the patch. */
  readonly chunk: number;
  readonly anchor?: string;
  readonly tolerance: LineTolerance;
}

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
        // A move onto an existing file replaces it, as every peer's patch does; the review shows it as such.
        let overwrites = false;
        if (operation.moveTo !== undefined && workspace.key(operation.moveTo) !== workspace.key(operation.path)) {
          claim(operation.moveTo, 'Move to');
          const destination = workspace.state(operation.moveTo).kind;
          if (destination === 'directory') {
            refuse(`"*** Move to: ${operation.moveTo}" names a directory. Give the path of the file to move to.`);
          }
          overwrites = destination === 'file';
        }
        const { lines, tolerances } = applyChunks(state.lines, operation.chunks, operation.path);
        return { kind: 'update', path: operation.path, moveTo: operation.moveTo, ...(overwrites ? { overwrites } : {}), lines, tolerances };
      }
    }
  });
}

interface LocatedChunk {
  /** 1-based, in patch order. */
  readonly number: number;
  readonly start: number;
  readonly pattern: readonly string[];
  readonly replacement: readonly string[];
  readonly tolerance: LineTolerance | 'exact';
}

type Seek = { readonly start: number; readonly tolerance: LineTolerance | 'exact' } | 'ambiguous' | undefined;

/** Finds a pattern at or after `from`: exact first (the first occurrence), then each tolerant rung (a unique window only). */
function seek(texts: readonly string[], pattern: readonly string[], from: number, endOfFile: boolean): Seek {
  if (pattern.length > texts.length) {
    return undefined;
  }
  const startAt = endOfFile ? texts.length - pattern.length : from;
  const exact = findLineWindows(texts, pattern, 'exact', startAt);
  if (exact.length > 0) {
    return { start: exact[0], tolerance: 'exact' };
  }
  const loose = findTolerantWindow(texts, pattern, startAt);
  return loose.kind === 'found' ? { start: loose.start, tolerance: loose.tolerance } : loose.kind === 'ambiguous' ? 'ambiguous' : undefined;
}

/** A chunk placed with its "@@" lines: where it applies, and the anchors found only loosely on the way. */
interface PlacedChunk {
  readonly placed: Omit<LocatedChunk, 'number'>;
  /** Just after the last "@@" line: where a chunk of added lines only goes. */
  readonly afterAnchors: number;
  readonly looseAnchors: readonly { readonly anchor: string; readonly tolerance: LineTolerance }[];
}

/**
 * Places a chunk after its "@@" lines, from the cursor and before `limit` (where the next candidate
 * of an outer "@@" line starts). An "@@" line found exactly takes its first occurrence; one found
 * only loosely in several places is resolved together with the rest of the chunk: the chunk must
 * fit after exactly one of them (before the next), and is refused when it fits after none or several.
 */
function placeAfterAnchors(texts: readonly string[], chunk: PatchChunk, anchorIndex: number, cursor: number, limit: number, path: string, which: string): PlacedChunk {
  if (anchorIndex === chunk.anchors.length) {
    const placed = locateChunk(texts, chunk, cursor, path, which);
    if (placed.pattern.length > 0 && placed.start >= limit) {
      refuse(chunkNotFound(texts, chunk.oldLines, path, which, cursor, false));
    }
    return { placed, afterAnchors: cursor, looseAnchors: [] };
  }
  const anchor = chunk.anchors[anchorIndex];
  const within = anchorIndex > 0 ? ` after "@@ ${chunk.anchors[anchorIndex - 1]}" (line ${cursor})` : cursor > 0 ? ` after line ${cursor}` : '';
  const exact = findLineWindows(texts, [anchor], 'exact', cursor).filter((start) => start < limit);
  if (exact.length > 0) {
    return placeAfterAnchors(texts, chunk, anchorIndex + 1, exact[0] + 1, limit, path, which);
  }
  const loose = findTolerantWindow(texts, [anchor], cursor);
  const starts = loose.kind === 'found' ? [loose.start] : loose.kind === 'ambiguous' ? loose.starts.filter((start) => start < limit) : [];
  if (loose.kind === 'missing' || starts.length === 0) {
    refuse(`In ${path}, ${which}: the "@@ ${anchor}" line was not found${within}. Read the file again and give a line that exists in it.`);
  }
  const tolerance = loose.tolerance;
  if (starts.length === 1) {
    const rest = placeAfterAnchors(texts, chunk, anchorIndex + 1, starts[0] + 1, limit, path, which);
    return { ...rest, looseAnchors: [{ anchor, tolerance }, ...rest.looseAnchors] };
  }
  const fits: { start: number; rest: PlacedChunk }[] = [];
  starts.forEach((start, index) => {
    try {
      fits.push({ start, rest: placeAfterAnchors(texts, chunk, anchorIndex + 1, start + 1, starts[index + 1] ?? limit, path, which) });
    } catch (error) {
      if (!(error instanceof ToolError)) {
        throw error;
      }
    }
  });
  const lines = (list: readonly number[]): string => list.map((start) => start + 1).join(', ');
  if (fits.length === 0) {
    refuse(
      `In ${path}, ${which}: the "@@ ${anchor}" line was found only ${describeTolerance(tolerance)}, at lines ${lines(starts)}${within}, and the chunk's lines fit after none of them. Read the file again and regenerate the chunk with its exact current lines.`,
    );
  }
  if (fits.length > 1) {
    refuse(
      `In ${path}, ${which}: the "@@ ${anchor}" line was found only ${describeTolerance(tolerance)}, at lines ${lines(starts)}${within}, and the chunk fits after ${fits.length} of them (lines ${lines(fits.map((fit) => fit.start))}). Give the "@@" line exactly as the file has it, or add unchanged lines that occur in only one of those places.`,
    );
  }
  return { ...fits[0].rest, looseAnchors: [{ anchor, tolerance }, ...fits[0].rest.looseAnchors] };
}

function applyChunks(original: readonly TextLine[], chunks: readonly PatchChunk[], path: string): { lines: TextLine[]; tolerances: LooseMatch[] } {
  const texts = original.map((line) => line.text);
  const located: LocatedChunk[] = [];
  const tolerances: LooseMatch[] = [];
  let cursor = 0;
  chunks.forEach((chunk, chunkIndex) => {
    const number = chunkIndex + 1;
    const which = `chunk ${number} of ${chunks.length} (patch line ${chunk.patchLine})`;
    const { placed, afterAnchors, looseAnchors } = placeAfterAnchors(texts, chunk, 0, cursor, texts.length + 1, path, which);
    tolerances.push(...looseAnchors.map(({ anchor, tolerance }) => ({ chunk: number, anchor, tolerance })));
    if (placed.pattern.length === 0) {
      // Only added lines: right after the last "@@" line, or else at the end of the file. The end
      // does not move the cursor, so a later chunk may still be found earlier in the file.
      const at = chunk.anchors.length > 0 && !chunk.endOfFile ? afterAnchors : texts.length;
      located.push({ number, start: at, pattern: [], replacement: placed.replacement, tolerance: 'exact' });
      if (chunk.anchors.length > 0) {
        cursor = afterAnchors;
      }
      return;
    }
    if (placed.tolerance !== 'exact') {
      tolerances.push({ chunk: number, tolerance: placed.tolerance });
    }
    located.push({ number, ...placed });
    cursor = placed.start + placed.pattern.length;
  });
  // Chunks apply bottom-up; an insertion at the end may come before chunks earlier in the file.
  const ordered = [...located].sort((a, b) => a.start - b.start || a.number - b.number);
  let lines: TextLine[] = [...original];
  const eol = dominantLineEnding(original);
  for (let i = ordered.length - 1; i >= 0; i -= 1) {
    const chunk = ordered[i];
    const previous = ordered[i - 1];
    if (previous && previous.start + previous.pattern.length > chunk.start) {
      refuse(`In ${path}, chunks ${Math.min(previous.number, chunk.number)} and ${Math.max(previous.number, chunk.number)} overlap. Merge them into one chunk.`);
    }
    lines = replaceChunk(lines, chunk, eol);
  }
  return { lines, tolerances };
}

/**
 * Where a chunk's lines are, at or after the cursor. Its trailing empty context lines are read
 * both ways when they may not belong to it: blank lines the patch wrote bare may be separators,
 * and an empty last context line often stands for the end of the file. The chunk applies only
 * where the readings agree or one alone fits; readings that fit different places are refused.
 */
function locateChunk(texts: readonly string[], chunk: PatchChunk, cursor: number, path: string, which: string): Omit<LocatedChunk, 'number'> {
  const full = { pattern: chunk.oldLines, replacement: chunk.newLines };
  let dropped = 0;
  while (dropped < chunk.oldLines.length && chunk.oldLines[chunk.oldLines.length - 1 - dropped] === '' && chunk.newLines[chunk.newLines.length - 1 - dropped] === '') {
    dropped += 1;
  }
  const trimmed = { pattern: chunk.oldLines.slice(0, chunk.oldLines.length - dropped), replacement: chunk.newLines.slice(0, chunk.newLines.length - dropped) };
  if (full.pattern.length === 0 || (trimmed.pattern.length === 0 && dropped === chunk.trailingBareBlanks)) {
    // Only added lines, and bare blank lines after them that are separators: a lone blank line
    // never locates a chunk (it would mean "before some empty line somewhere below").
    return { start: cursor, pattern: [], replacement: trimmed.replacement, tolerance: 'exact' };
  }
  const found = seek(texts, full.pattern, cursor, chunk.endOfFile);
  if (found === 'ambiguous') {
    refuse(chunkNotFound(texts, chunk.oldLines, path, which, cursor, true));
  }
  if (found !== undefined) {
    const withoutBare = chunk.oldLines.slice(0, chunk.oldLines.length - chunk.trailingBareBlanks);
    if (chunk.trailingBareBlanks > 0 && withoutBare.length > 0) {
      const without = seek(texts, withoutBare, cursor, chunk.endOfFile);
      if (without === 'ambiguous' || (without !== undefined && without.start !== found.start)) {
        refuse(
          `In ${path}, ${which}: the blank line${chunk.trailingBareBlanks > 1 ? 's' : ''} at its end could be an empty line of the file or a separator, and the chunk fits line ${found.start + 1} with ${chunk.trailingBareBlanks > 1 ? 'them' : 'it'} but ${without === 'ambiguous' ? 'several places' : `line ${without.start + 1}`} without. Start a blank line that belongs to the chunk with a space, or remove it, or add unchanged lines so the chunk fits one place.`,
        );
      }
    }
    return { start: found.start, ...full, tolerance: found.tolerance };
  }
  if (trimmed.pattern.length > 0 && dropped > 0) {
    const without = seek(texts, trimmed.pattern, cursor, chunk.endOfFile);
    if (without === 'ambiguous') {
      refuse(chunkNotFound(texts, trimmed.pattern, path, which, cursor, true));
    }
    if (without !== undefined) {
      return { start: without.start, ...trimmed, tolerance: without.tolerance };
    }
  }
  refuse(chunkNotFound(texts, chunk.oldLines, path, which, cursor, false));
}

/** Replaces one located chunk; context lines keep the file's exact text, and the final newline's absence is kept. */
function replaceChunk(lines: TextLine[], chunk: LocatedChunk, eol: '\r\n' | '\n' | '\r'): TextLine[] {
  let start = chunk.start;
  let end = chunk.start + chunk.pattern.length;
  const fileLines = lines.slice(start, end).map((line) => line.text);
  const newTexts = placeMatchedLines(fileLines, chunk.pattern, chunk.replacement, chunk.tolerance);
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

function chunkNotFound(texts: readonly string[], oldLines: readonly string[], path: string, which: string, cursor: number, ambiguous: boolean): string {
  const expected = oldLines.map((line) => `  ${line}`).join('\n');
  const problem = ambiguous ? 'these lines match several places only when whitespace or punctuation is ignored' : `these lines were not found${cursor > 0 ? ` after line ${cursor}` : ''}`;
  let message = `In ${path}, ${which}: ${problem}:\n${expected}`;
  const closest = closestRegion(texts, oldLines);
  if (closest && !ambiguous) {
    message += `\nThe most similar lines in the file are ${closest.start + 1}-${closest.start + closest.length}:\n${numberLines(texts.slice(closest.start, closest.start + closest.length), closest.start + 1)}`;
  }
  return `${message}\nRead the file again and regenerate the chunk with its exact current lines.`;
}
