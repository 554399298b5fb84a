// The directory watch port over Node's fs.watch, in the extension host's own process: on Linux one
// inotify watch per folder. The kernel queues an event when the change is made, and libuv reads the
// whole queue when the loop polls, so two turns of the loop after a flush begins every event
// queued before it has reached its listener (VS Code's file watcher, in another process and
// debounced, cannot promise that).
import { lstatSync, readFileSync, statfsSync, statSync, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { DirectoryWatchHandle, DirectoryWatcher, WatchedEntry, WatchedEntryKind } from '../../ports/directoryWatch';

/** A number from /proc/sys, or undefined where there is none. */
function procNumber(file: string): number | undefined {
  try {
    const value = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** How many inotify watches this user may hold, shared with every other watcher (VS Code's own too). */
export function inotifyWatchLimit(): number | undefined {
  return procNumber('/proc/sys/fs/inotify/max_user_watches');
}

/**
 * The statfs magic numbers of local file systems, where every change is made through this kernel
 * and so raises its inotify event: ext2/3/4, xfs, btrfs, tmpfs, ramfs, f2fs, zfs, overlayfs,
 * reiserfs, jfs, bcachefs, nilfs. Anything else (nfs, smb/cifs, fuse and virtiofs, 9p, ceph) is
 * walked before every command, as before the index.
 */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x858458f6, 0xf2f52010, 0x2fc12fc1, 0x794c7630, 0x52654973, 0x3153464a, 0xca451a4e, 0x3434]);

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class InotifyWatcher implements DirectoryWatcher {
  readonly queueLimit = procNumber('/proc/sys/fs/inotify/max_queued_events');

  watch(directory: string, onEvent: (name: string | undefined, kind: 'rename' | 'change') => void, onError: (error: unknown) => void): DirectoryWatchHandle {
    // persistent: false, so a watch never keeps a process (a test, the bench) alive.
    const watcher = watch(directory, { persistent: false, encoding: 'utf8' }, (event, name) => onEvent(name ?? undefined, event === 'change' ? 'change' : 'rename'));
    watcher.on('error', onError);
    return { close: () => watcher.close() };
  }

  async flush(): Promise<void> {
    // The first turn may be the current one, whose poll phase has passed; the second turn polls
    // after the flush began, and libuv's inotify read drains the queue.
    await nextTurn();
    await nextTurn();
  }

  entry(file: string, follow: boolean): WatchedEntry | undefined {
    try {
      const stat = follow ? statSync(file) : lstatSync(file);
      return { kind: stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other', inode: stat.ino, device: stat.dev };
    } catch {
      return undefined;
    }
  }

  reportsEveryChange(directory: string): boolean {
    try {
      return LOCAL_FILE_SYSTEMS.has(statfsSync(directory).type);
    } catch {
      return false;
    }
  }

  async list(directory: string): Promise<{ name: string; kind: WatchedEntryKind }[]> {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries.map((entry) => ({ name: entry.name, kind: entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : 'other' }));
  }
}
