import * as path from 'node:path';
import type { Location, WorkspaceFolder, WorkspaceInfo } from '../ports';
import { ToolError } from '../tools/toolSpec';

const URI_PREFIX = /^([a-zA-Z][a-zA-Z0-9+.-]+):(\/\/([^/]*))?(\/.*)?$/;

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

/**
 * Turns a tool's path argument into a normalised location, without touching the file system.
 * Accepts absolute paths, `~`, URIs (`scheme://authority/path`), paths relative to the first
 * workspace folder, and `<folderName>/rest` in a multi-root workspace.
 */
export function resolveWorkspacePath(input: string, workspace: WorkspaceInfo): Location {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ToolError('The path is empty. Pass a file path relative to the workspace root, or an absolute path.');
  }
  if (input.includes('\0')) {
    throw new ToolError('The path contains a NUL byte, which no file name can contain. Pass the path without it.');
  }
  const first = workspace.folders[0];
  const uri = URI_PREFIX.exec(input);
  if (uri && uri[1].length > 1 && (uri[2] !== undefined || uri[4] !== undefined)) {
    return { scheme: uri[1].toLowerCase(), authority: uri[3] ?? '', path: path.posix.normalize(decodeURIComponentSafe(uri[4] ?? '/')) };
  }
  if (input === '~' || input.startsWith('~/')) {
    return fileLocation(path.posix.normalize(path.posix.join(workspace.home, input.slice(1))));
  }
  if (input.startsWith('/')) {
    const base = first?.location ?? fileLocation('/');
    return withPath(base, path.posix.normalize(input));
  }
  if (!first) {
    throw new ToolError(`No workspace folder is open, so the relative path "${input}" has nothing to be relative to. Open a folder or pass an absolute path.`);
  }
  const folder = folderForRelativePath(input, workspace.folders) ?? { folder: first, rest: input };
  return withPath(folder.folder.location, path.posix.normalize(path.posix.join(folder.folder.location.path, folder.rest)));
}

function folderForRelativePath(input: string, folders: readonly WorkspaceFolder[]): { folder: WorkspaceFolder; rest: string } | undefined {
  if (folders.length < 2) {
    return undefined;
  }
  const normalised = input.replace(/^\.\//, '');
  const slash = normalised.indexOf('/');
  const head = slash === -1 ? normalised : normalised.slice(0, slash);
  const folder = folders.find((candidate) => candidate.name === head);
  return folder ? { folder, rest: slash === -1 ? '.' : normalised.slice(slash + 1) } : undefined;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Path components, so `/a/bc` is never inside `/a/b`. */
function components(p: string): string[] {
  return p.split('/').filter((part) => part !== '' && part !== '.');
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

/** The folder that contains the location, if any. */
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
export function displayPath(location: Location, workspace: WorkspaceInfo): string {
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
