// The directory watch port: what the sandbox's index of secret and protected files
// (sandbox/scanIndex.ts) needs from the machine to stay true between commands without a walk.
// The adapter (sandbox/node/inotifyWatch.ts) is Node's fs.watch in the extension host's own
// process: unlike VS Code's file watcher, which runs in another process and coalesces, its events
// can be flushed, which is what lets a file created just before a command count in it.

/** What one entry is, without following a symlink (ripgrep's walk lists regular files only, and never follows links). */
export type WatchedEntryKind = 'file' | 'directory' | 'other';

/** One entry looked at with lstat: its kind, inode (a directory renamed over another keeps its own) and device (a mount point changes it). */
export interface WatchedEntry {
  readonly kind: WatchedEntryKind;
  readonly inode: number;
  readonly device: number;
}

/** A watch on one directory; closing it twice is harmless. */
export interface DirectoryWatchHandle {
  close(): void;
}

export interface DirectoryWatcher {
  /**
   * Watches one directory, not its subdirectories. `onEvent` gets the name of the child that was
   * created, removed or renamed (`rename`), or whose contents or attributes changed (`change`);
   * undefined: something changed, name unknown. `onError`
   * fires when the watch broke (the directory is gone, the OS dropped it). Throws when the watch
   * cannot be added (no watches left: ENOSPC, a missing directory, a platform without it).
   */
  watch(directory: string, onEvent: (name: string | undefined, kind: 'rename' | 'change') => void, onError: (error: unknown) => void): DirectoryWatchHandle;
  /** Resolves once every event the OS queued before the call has been delivered to `onEvent`. */
  flush(): Promise<void>;
  /**
   * How many events the OS queues before it drops the rest silently (inotify's max_queued_events,
   * shared by every watch of this process); undefined when unknown, then any burst counts as one.
   */
  readonly queueLimit: number | undefined;
  /**
   * The entry now, synchronously (every change of the index follows a look at the disk made at
   * that moment, so a later change is a later event); undefined when nothing is there. `follow`:
   * through a symlink (a writable folder may be named by one).
   */
  entry(file: string, follow: boolean): WatchedEntry | undefined;
  /**
   * Whether the file system of a directory reports every change to the watch: a local one (ext4,
   * xfs, btrfs, tmpfs, ...). On a network or FUSE file system (NFS, SMB, 9p as WSL's /mnt/c,
   * virtiofs) a change made by another machine, or by the host's side, raises no event.
   */
  reportsEveryChange(directory: string): boolean;
  /** The children of a directory with their kinds (no link followed); throws when it cannot be read. */
  list(directory: string): Promise<{ readonly name: string; readonly kind: WatchedEntryKind }[]>;
}
