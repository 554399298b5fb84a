// Whether the agent has seen what a file holds now, by the ledger that read_file and the write tools
// keep: a write to a file the agent has not read, or that changed since, is refused.
import type { ToolContext } from '../context';
import type { WriteTarget } from '../guard/writeGuard';
import type { FileBaseline } from '../ports/changes';
import type { FileFingerprint } from '../ports/readLedger';
import { sha256 } from '../text/bytes';
import { normaliseLineEndings } from '../text/lineEndings';

/** What the ledger remembers of a file read whole; `text` is its decoded text, when it is text. */
export function bytesFingerprint(bytes: Uint8Array, mtime: number, text?: string): FileFingerprint {
  return { size: bytes.length, mtime, sha256: sha256(bytes), ...(text === undefined ? {} : { lfTextSha256: lfTextHash(text) }) };
}

function lfTextHash(text: string): string {
  return sha256(normaliseLineEndings(text));
}

/** What the ledger remembers of an editor's unsaved text. */
export function editorTextFingerprint(text: string): FileFingerprint {
  return { size: text.length, mtime: 0, textSha256: sha256(text), lfTextSha256: lfTextHash(text) };
}

export type Freshness = 'unread' | 'fresh' | 'changed';

/**
 * Whether the content now is what the agent last read (by the ledger that read_file and the write
 * tools keep). Content decides, never the modification time alone: a file touched, saved unchanged
 * or checked out identically is fresh, and so is one whose line endings alone were rewritten (git's
 * autocrlf), whose edits then keep the line endings it has now.
 */
export function freshness(target: WriteTarget, baseline: FileBaseline, ctx: ToolContext): Freshness {
  const seen = ctx.session.reads.lookup(target.resolved) ?? ctx.session.reads.lookup(target.literal);
  if (!seen) {
    return 'unread';
  }
  if (baseline.fromEditor) {
    const same = (seen.textSha256 !== undefined && seen.textSha256 === sha256(baseline.text)) || (seen.lfTextSha256 !== undefined && seen.lfTextSha256 === lfTextHash(baseline.text));
    return same ? 'fresh' : 'changed';
  }
  if (seen.sha256 !== undefined) {
    if (seen.sha256 === sha256(baseline.bytes)) {
      return 'fresh';
    }
    return seen.lfTextSha256 !== undefined && seen.lfTextSha256 === lfTextHash(baseline.text) ? 'fresh' : 'changed';
  }
  if (seen.textSha256 !== undefined) {
    return seen.textSha256 === sha256(baseline.text) || seen.lfTextSha256 === lfTextHash(baseline.text) ? 'fresh' : 'changed';
  }
  return seen.size === baseline.bytes.length && seen.mtime === target.stat?.mtime ? 'fresh' : 'changed';
}

export function unreadMessage(shown: string): string {
  return `${shown} already exists and you have not read it. Read it with workspace_read_file first, then try again, so that nothing in it is overwritten by accident.`;
}

export function changedMessage(shown: string): string {
  return `${shown} has changed since you last read it (the user or another program edited it). Read it again with workspace_read_file and redo the change on its current content.`;
}
