// Small reads of the extension host's disk, synchronous because each is a few microseconds of a
// cached inode. Modification times are read while ripgrep lists: a stat
// of a cached inode costs a few microseconds, while an asynchronous one waits its turn in libuv's
// four-thread pool and costs about ten times that. The caller reads one output chunk of ripgrep's
// (at most a few thousand paths) at a time, so the event loop is held a few milliseconds at most.
import { lstatSync, readFileSync, statSync } from 'node:fs';

/**
 * The modification time FileSystem.stat reports for a local path: the entry's own, or its target's
 * for a symlink (the link's own when the target is gone); undefined when the entry is gone.
 */
export function localMtime(fsPath: string): number | undefined {
  let link;
  try {
    link = lstatSync(fsPath, { throwIfNoEntry: false });
  } catch {
    // Unreadable (a permission error on the way): skipped, as a failed stat through the port is.
    return undefined;
  }
  if (!link?.isSymbolicLink()) {
    return link?.mtimeMs;
  }
  try {
    return statSync(fsPath, { throwIfNoEntry: false })?.mtimeMs ?? link.mtimeMs;
  } catch {
    // A loop: the entry exists but leads nowhere readable.
    return link.mtimeMs;
  }
}

/** A small text file's content, or undefined when it is missing or unreadable (an unreadable ignore file ignores nothing, as in git). */
export function readLocalText(fsPath: string): string | undefined {
  try {
    return readFileSync(fsPath, 'utf8');
  } catch {
    return undefined;
  }
}
