// What a file holds before a write tool changes it, and whether the agent has seen that content.
import { createHash } from 'node:crypto';
import type { FileBaseline, ToolContext } from '../ports';
import type { WriteTarget } from '../guard/writeGuard';
import { formatSize } from '../text/format';
import { ToolError } from '../errors';
import { decodeText, encodeText, looksBinary } from '../text/encoding';

/** Files above this size are not edited: the whole text is held, diffed and shown for review. */
export const MAX_EDITABLE_BYTES = 16 * 1024 * 1024;

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

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
  const bytes = await ctx.fs.readFile(target.resolved);
  if (looksBinary(bytes.subarray(0, 8192))) {
    throw new ToolError(`${target.shown} is a binary file (${formatSize(bytes.length)}); it cannot be edited as text.`);
  }
  const { text, encoding } = decodeText(bytes);
  if (!sameBytes(encodeText(text, encoding), bytes)) {
    throw new ToolError(
      `${target.shown} is not valid ${encoding === 'utf16le' || encoding === 'utf16be' ? 'UTF-16' : 'UTF-8'} text (perhaps Latin-1 or another legacy encoding); writing it back would change bytes you did not edit. Convert the file to UTF-8 first, or edit it with a command that keeps its encoding.`,
    );
  }
  const editorText = ctx.buffers.dirtyText(target.literal) ?? ctx.buffers.dirtyText(target.resolved);
  return { bytes, encoding, text: editorText ?? text, fromEditor: editorText !== undefined };
}

export type Freshness = 'unread' | 'fresh' | 'changed';

/** Whether the content now is what the agent last read (by the ledger that read_file and the write tools keep). */
export function freshness(target: WriteTarget, baseline: FileBaseline, ctx: ToolContext): Freshness {
  const seen = ctx.reads.lookup(target.resolved) ?? ctx.reads.lookup(target.literal);
  if (!seen) {
    return 'unread';
  }
  if (baseline.fromEditor) {
    return seen.textSha256 !== undefined && seen.textSha256 === sha256(baseline.text) ? 'fresh' : 'changed';
  }
  if (seen.sha256 !== undefined) {
    return seen.sha256 === sha256(baseline.bytes) ? 'fresh' : 'changed';
  }
  if (seen.textSha256 !== undefined) {
    return seen.textSha256 === sha256(baseline.text) ? 'fresh' : 'changed';
  }
  return seen.size === baseline.bytes.length && seen.mtime === target.stat?.mtime ? 'fresh' : 'changed';
}

export function unreadMessage(shown: string): string {
  return `${shown} already exists and you have not read it. Read it with workspace_read_file first, then try again, so that nothing in it is overwritten by accident.`;
}

export function changedMessage(shown: string): string {
  return `${shown} has changed since you last read it (the user or another program edited it). Read it again with workspace_read_file and redo the change on its current content.`;
}
