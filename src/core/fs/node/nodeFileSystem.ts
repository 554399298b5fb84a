// The file scheme's FileSystem: the extension host's disk through Node, for the extension (whose
// VS Code adapter uses it for file: locations) and for unit tests.
import * as fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { BugError } from '../../errors';
import { fileLocation, hostPath, withPath, type Location } from '../../location';
import type { DirectoryEntry, EntryKind, EntryStat, FileReader, FileSystem } from '../../ports/fileSystem';

function kindOf(stats: Stats): EntryKind {
  return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
}

export class NodeFileSystem implements FileSystem {
  async stat(location: Location): Promise<EntryStat | undefined> {
    const fsPath = this.requireLocal(location);
    let link: Stats;
    try {
      link = await fs.lstat(fsPath);
    } catch {
      return undefined;
    }
    if (!link.isSymbolicLink()) {
      return { kind: kindOf(link), isSymlink: false, size: link.size, mtime: link.mtimeMs, linkCount: link.nlink };
    }
    try {
      const target = await fs.stat(fsPath);
      return { kind: kindOf(target), isSymlink: true, size: target.size, mtime: target.mtimeMs, linkCount: target.nlink };
    } catch {
      // A dangling link or a loop: the entry exists but leads nowhere readable.
      return { kind: 'other', isSymlink: true, size: link.size, mtime: link.mtimeMs };
    }
  }

  async readFile(location: Location): Promise<Uint8Array> {
    return fs.readFile(this.requireLocal(location));
  }

  async openReader(location: Location): Promise<FileReader> {
    const handle = await fs.open(this.requireLocal(location), 'r');
    const size = (await handle.stat()).size;
    return {
      size,
      read: async (into, position) => (await handle.read(into, 0, into.length, position)).bytesRead,
      close: () => handle.close(),
    };
  }

  async readDirectory(location: Location): Promise<DirectoryEntry[]> {
    const directory = this.requireLocal(location);
    const dirents = await fs.readdir(directory, { withFileTypes: true });
    return Promise.all(
      dirents.map(async (dirent): Promise<DirectoryEntry> => {
        if (!dirent.isSymbolicLink()) {
          return { name: dirent.name, kind: dirent.isFile() ? 'file' : dirent.isDirectory() ? 'directory' : 'other', isSymlink: false };
        }
        try {
          return { name: dirent.name, kind: kindOf(await fs.stat(path.join(directory, dirent.name))), isSymlink: true };
        } catch {
          return { name: dirent.name, kind: 'other', isSymlink: true };
        }
      }),
    );
  }

  async realpath(location: Location): Promise<Location> {
    this.requireLocal(location);
    // Walked up in the location's own POSIX path, so a Windows drive's root (`/C:`) is met as one
    // and `/` ends the walk: on Windows it is no folder of a drive (Node would take the current one).
    let current = location.path;
    const rest: string[] = [];
    for (;;) {
      if (current === '/') {
        return withPath(location, path.posix.join('/', ...rest.reverse()));
      }
      try {
        const real = fileLocation(await fs.realpath(hostPath(withPath(location, current), process.platform)));
        return rest.length ? withPath(real, path.posix.join(real.path, ...rest.reverse())) : real;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') {
          // A symlink loop resolves nowhere; keep the literal path so the rules judge where it points.
          return withPath(location, path.posix.join(current, ...rest.reverse()));
        }
        const parent = path.posix.dirname(current);
        if (parent === current) {
          return location;
        }
        rest.push(path.posix.basename(current));
        current = parent;
      }
    }
  }

  localPath(location: Location): string | undefined {
    return location.scheme === 'file' ? hostPath(location, process.platform) : undefined;
  }

  private requireLocal(location: Location): string {
    if (location.scheme !== 'file') {
      throw new BugError(`NodeFileSystem cannot open ${location.scheme}: locations`);
    }
    return hostPath(location, process.platform);
  }
}
