import * as vscode from 'vscode';
import type { DirectoryEntry, EntryKind, EntryStat, FileReader, FileSystem } from '../../core/ports/fileSystem';
import type { Location } from '../../core/location';
import { NodeFileSystem } from '../../core/fs/node/nodeFileSystem';
import { toUri } from './uris';

function kindOf(type: vscode.FileType): EntryKind {
  if (type & vscode.FileType.Directory) {
    return 'directory';
  }
  return type & vscode.FileType.File ? 'file' : 'other';
}

/**
 * The FileSystem port: the local disk through Node (streaming, realpath, device detection) when the
 * extension host runs where the files are, and vscode.workspace.fs for every other scheme.
 */
export class VsCodeFileSystem implements FileSystem {
  private readonly local = new NodeFileSystem();

  async stat(location: Location): Promise<EntryStat | undefined> {
    if (location.scheme === 'file') {
      return this.local.stat(location);
    }
    try {
      const stat = await vscode.workspace.fs.stat(toUri(location));
      return { kind: kindOf(stat.type), isSymlink: (stat.type & vscode.FileType.SymbolicLink) !== 0, size: stat.size, mtime: stat.mtime };
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
        return undefined;
      }
      throw error;
    }
  }

  readFile(location: Location): Promise<Uint8Array> {
    return location.scheme === 'file' ? this.local.readFile(location) : Promise.resolve(vscode.workspace.fs.readFile(toUri(location)));
  }

  async openReader(location: Location): Promise<FileReader | undefined> {
    // VS Code's file system API reads whole files only; elsewhere the tools read the file once.
    return location.scheme === 'file' ? this.local.openReader(location) : undefined;
  }

  async readDirectory(location: Location): Promise<DirectoryEntry[]> {
    if (location.scheme === 'file') {
      return this.local.readDirectory(location);
    }
    const entries = await vscode.workspace.fs.readDirectory(toUri(location));
    return entries.map(([name, type]) => ({ name, kind: kindOf(type), isSymlink: (type & vscode.FileType.SymbolicLink) !== 0 }));
  }

  realpath(location: Location): Promise<Location> {
    return location.scheme === 'file' ? this.local.realpath(location) : Promise.resolve(location);
  }

  localPath(location: Location): string | undefined {
    return this.local.localPath(location);
  }
}
