// Where things are: a location is a URI's scheme, authority and POSIX path, so the same code works on
// the local disk, remote machines and virtual file systems. Containment compares whole components.
import * as path from 'node:path';

/** A location in some file system: the scheme, authority and POSIX path of a URI. */
export interface Location {
  /** `file` for the extension host's disk; anything else goes through VS Code's file system. */
  readonly scheme: string;
  /** The host part of the URI ('' for local files). */
  readonly authority: string;
  /** The absolute POSIX path. */
  readonly path: string;
}

/** A workspace folder: its name (for `name/rest` paths) and where it is. */
export interface WorkspaceFolder {
  readonly name: string;
  readonly location: Location;
  /** True when the folder's volume ignores letter case (exFAT, NTFS, APFS, WSL's /mnt/c), as measured for this folder. */
  readonly caseInsensitive?: boolean;
}

/** A location's identity as a string: scheme, authority and path. */
export function locationKey(location: Location): string {
  return location.authority === '' ? `${location.scheme}:${location.path}` : `${location.scheme}://${location.authority}${location.path}`;
}

export function fileLocation(fsPath: string): Location {
  return { scheme: 'file', authority: '', path: fsPath };
}

export function withPath(location: Location, newPath: string): Location {
  return { scheme: location.scheme, authority: location.authority, path: newPath };
}

export function joinLocation(location: Location, ...segments: string[]): Location {
  return withPath(location, path.posix.join(location.path, ...segments));
}

export function parentLocation(location: Location): Location {
  return withPath(location, path.posix.dirname(location.path));
}

export function baseName(location: Location): string {
  return path.posix.basename(location.path);
}

/** Path components, so `/a/bc` is never inside `/a/b`. */
function components(p: string): string[] {
  return p.split('/').filter((part) => part !== '' && part !== '.');
}

/** True when the absolute POSIX path `child` is `parent` or below it, by whole components. */
export function isInsidePath(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/** True when `location` is `root` or below it, comparing whole path components. */
export function isInside(location: Location, root: Location): boolean {
  if (location.scheme !== root.scheme || location.authority.toLowerCase() !== root.authority.toLowerCase()) {
    return false;
  }
  const child = components(location.path);
  const parent = components(root.path);
  if (parent.length > child.length) {
    return false;
  }
  return parent.every((part, index) => child[index] === part);
}

/** The folder that contains the location, if any (the deepest, where folders nest). */
export function containingFolder(location: Location, folders: readonly WorkspaceFolder[]): WorkspaceFolder | undefined {
  let best: WorkspaceFolder | undefined;
  for (const folder of folders) {
    if (isInside(location, folder.location) && (!best || folder.location.path.length > best.location.path.length)) {
      best = folder;
    }
  }
  return best;
}

/**
 * How a location is shown to the model: workspace-relative with `/` separators (prefixed with the
 * folder name in a multi-root workspace), else the absolute path.
 */
export function displayPath(location: Location, workspace: { readonly folders: readonly WorkspaceFolder[] }): string {
  const folder = containingFolder(location, workspace.folders);
  if (!folder) {
    return location.scheme === 'file' ? location.path : locationKey(location);
  }
  const relative = path.posix.relative(folder.location.path, location.path);
  if (workspace.folders.length > 1) {
    return relative === '' ? folder.name : `${folder.name}/${relative}`;
  }
  return relative === '' ? '.' : relative;
}
