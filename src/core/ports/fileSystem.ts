// The file system port: read access to wherever the workspace lives (local disk, remote, virtual).
import type { Location } from '../location';

/** What an entry is once symlinks are followed; 'other' covers devices, FIFOs, sockets, dangling links and loops. */
export type EntryKind = 'file' | 'directory' | 'other';

/** Metadata of one entry, following symlinks. */
export interface EntryStat {
  readonly kind: EntryKind;
  /** True when the entry itself is a symbolic link. */
  readonly isSymlink: boolean;
  /** Size in bytes (of the link's target when the entry is a link). */
  readonly size: number;
  /** Modification time in milliseconds since the epoch. */
  readonly mtime: number;
  /** How many names (hard links) the file has, where the file system reports it. */
  readonly linkCount?: number;
}

/** One child of a directory as the file system lists it. */
export interface DirectoryEntry {
  readonly name: string;
  /** The kind after following a symlink; 'other' also for a dangling link. */
  readonly kind: EntryKind;
  readonly isSymlink: boolean;
}

/** Random access to one open file, so part of a large file is read without loading all of it. */
export interface FileReader {
  /** The file's size in bytes when it was opened. */
  readonly size: number;
  /** Reads into `into` from byte `position`; resolves to the bytes read (0 at the end of the file). */
  read(into: Uint8Array, position: number): Promise<number>;
  close(): Promise<void>;
}

/** Read access to any file system the workspace lives on. Core never writes: see ChangeWriter. */
export interface FileSystem {
  /** The entry's metadata, or undefined when nothing exists there. */
  stat(location: Location): Promise<EntryStat | undefined>;
  /** The whole file's bytes. */
  readFile(location: Location): Promise<Uint8Array>;
  /** Opens a file for reading parts of it; undefined where the file system has no random access (remote, virtual). */
  openReader(location: Location): Promise<FileReader | undefined>;
  /** The children of a directory, in no particular order. */
  readDirectory(location: Location): Promise<DirectoryEntry[]>;
  /** Resolves symlinks of the location, or of its deepest existing ancestor when it does not exist. */
  realpath(location: Location): Promise<Location>;
  /**
   * The path on the extension host's disk, only to hand to a process (ripgrep, a command's cwd).
   * Files are read through this port: lint refuses node:fs outside the adapters.
   */
  localPath(location: Location): string | undefined;
}
