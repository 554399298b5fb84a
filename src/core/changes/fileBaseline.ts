// What a file holds before a write tool changes it: the bytes on disk, or the editor's unsaved text.
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import type { Location } from '../location';
import type { WriteTarget } from '../guard/writeGuard';
import type { FileBaseline } from '../ports/changes';
import { withEditorCells } from '../read/notebook';
import { sameBytes } from '../text/bytes';
import { decodeText, encodeText, looksBinary } from '../text/encoding';
import { formatSize } from '../text/format';

/** Files above this size are not edited: the whole text is held, diffed and shown for review. */
export const MAX_EDITABLE_BYTES = 16 * 1024 * 1024;

/**
 * Reads the current content of an existing file: the editor's unsaved text when there is some, so
 * nothing the user typed is lost. Refuses files that could not be written back byte for byte.
 */
export async function loadBaseline(target: WriteTarget, ctx: ToolContext): Promise<FileBaseline | undefined> {
  if (!target.stat) {
    return undefined;
  }
  if (target.stat.size > MAX_EDITABLE_BYTES) {
    throw new ToolError(`${target.shown} is ${formatSize(target.stat.size)}; files over ${formatSize(MAX_EDITABLE_BYTES)} cannot be edited by these tools. Use workspace_run_command with a script that edits it in place.`);
  }
  const bytes = await ctx.host.fs.readFile(target.resolved);
  if (looksBinary(bytes.subarray(0, 8192))) {
    throw new ToolError(`${target.shown} is a binary file (${formatSize(bytes.length)}); it cannot be edited as text.`);
  }
  const { text, encoding } = decodeText(bytes);
  if (!sameBytes(encodeText(text, encoding), bytes)) {
    throw new ToolError(
      `${target.shown} is not valid ${encoding === 'utf16le' || encoding === 'utf16be' ? 'UTF-16' : 'UTF-8'} text (perhaps Latin-1 or another legacy encoding); writing it back would change bytes you did not edit. Convert the file to UTF-8 first, or edit it with a command that keeps its encoding.`,
    );
  }
  const editorText = ctx.host.buffers.dirtyText(target.literal) ?? ctx.host.buffers.dirtyText(target.resolved) ?? notebookEditorText(text, target, ctx);
  return { bytes, encoding, text: editorText ?? text, fromEditor: editorText !== undefined };
}

/** A notebook open in a notebook editor with unsaved cells: the file's JSON with the editor's cell texts. */
export function notebookEditorText(fileText: string, target: { readonly literal: Location; readonly resolved: Location; readonly shown: string }, ctx: ToolContext): string | undefined {
  if (!/\.ipynb$/i.test(target.resolved.path)) {
    return undefined;
  }
  const cells = ctx.host.buffers.dirtyNotebookCells(target.literal) ?? ctx.host.buffers.dirtyNotebookCells(target.resolved);
  return cells && withEditorCells(fileText, cells, target.shown);
}
