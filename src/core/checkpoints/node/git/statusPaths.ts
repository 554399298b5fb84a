// What a checkpoint does with each path `git status` names: record it, forget it (drop it from the
// private index), leave it, with a note when the model should know, or record it as a work tree of
// its own (a nested repository, which git names with a trailing slash and would not enter). Looked
// at with lstat, never through a symlinked folder.
import * as fs from 'node:fs';
import { shown } from './gitRunner';

const MB = 1024 * 1024;

/** The mode git records a file or link with (core.fileMode: the owner's executable bit). */
export type RecordedMode = '100644' | '100755' | '120000';

/**
 * One path of `git status`: recorded (with its size), not (and then maybe forgotten, maybe noted),
 * or a nested repository's root (without its trailing slash), whose files are recorded on their own.
 */
export type PathVerdict =
  | { readonly record: true; readonly bytes: number; readonly mode: RecordedMode }
  | { readonly record: false; readonly forget: boolean; readonly note?: string }
  | { readonly record: 'nested'; readonly root: Buffer };

/**
 * Classifies the paths of one work tree's `git status` (a workspace folder, or a nested repository
 * `prefix` inside it); it caches which folders are real. Notes name paths from the folder.
 */
export class StatusPaths {
  private readonly realFolders = new Map<string, boolean>();
  private readonly root: Buffer;

  constructor(folder: string, private readonly maxFileBytes: number, private readonly prefix: Buffer = Buffer.alloc(0)) {
    this.root = Buffer.concat([Buffer.from(folder.endsWith('/') ? folder : `${folder}/`), prefix]);
  }

  verdict(rawPath: Buffer): PathVerdict {
    if (rawPath[rawPath.length - 1] === 0x2f) {
      const root = rawPath.subarray(0, rawPath.length - 1);
      // git names a folder with its own `.git` this way; entered only when it is a real folder on a real path.
      return this.lstat(root)?.isDirectory() ? { record: 'nested', root } : { record: false, forget: false };
    }
    const stat = this.lstat(rawPath);
    if (!stat) {
      return { record: false, forget: true };
    }
    if (stat.isFile() && stat.size > this.maxFileBytes) {
      const note = `${shown(Buffer.concat([this.prefix, rawPath]))} (${(stat.size / MB).toFixed(1)} MB) is over the checkpoint size cap of ${(this.maxFileBytes / MB).toFixed(0)} MB and was not recorded; a restore leaves it as it is.`;
      return { record: false, forget: true, note };
    }
    if (!stat.isFile() && !stat.isSymbolicLink()) {
      return { record: false, forget: true };
    }
    return { record: true, bytes: stat.size, mode: stat.isSymbolicLink() ? '120000' : stat.mode & 0o100 ? '100755' : '100644' };
  }

  /** The path's lstat, or undefined when it is gone. A recorded file whose folder became a symlink is gone: lstat would follow the link (out of the folder, maybe). */
  private lstat(rawPath: Buffer): fs.Stats | undefined {
    try {
      return this.outermostUnreal(rawPath) === undefined ? fs.lstatSync(Buffer.concat([this.root, rawPath])) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The outermost folder between the root and the path that is not a real folder (a symlink, a file, missing), if any. */
  outermostUnreal(rawPath: Buffer): Buffer | undefined {
    for (let i = 0; i < rawPath.length; i += 1) {
      if (rawPath[i] !== 0x2f) {
        continue;
      }
      const folder = rawPath.subarray(0, i);
      const key = folder.toString('latin1');
      let real = this.realFolders.get(key);
      if (real === undefined) {
        try {
          real = fs.lstatSync(Buffer.concat([this.root, folder])).isDirectory();
        } catch {
          real = false;
        }
        this.realFolders.set(key, real);
      }
      if (!real) {
        return folder;
      }
    }
    return undefined;
  }
}

/** True when `rawPath` lies below the folder `root` (both relative, without a trailing slash). */
export function isBelow(rawPath: Buffer, root: Buffer): boolean {
  return rawPath.length > root.length && rawPath[root.length] === 0x2f && rawPath.subarray(0, root.length).equals(root);
}

/** The paths sorted, each once, without those below another. */
export function outermostPaths(paths: readonly Buffer[]): Buffer[] {
  const depthOf = (p: Buffer): number => p.filter((byte) => byte === 0x2f).length;
  const kept = new Set<string>();
  const outermost: Buffer[] = [];
  for (const p of [...paths].sort((a, b) => depthOf(a) - depthOf(b))) {
    const key = p.toString('latin1');
    const parts = key.split('/');
    if (parts.some((_, i) => kept.has(parts.slice(0, i + 1).join('/')))) {
      continue;
    }
    kept.add(key);
    outermost.push(p);
  }
  return outermost.sort(Buffer.compare);
}
