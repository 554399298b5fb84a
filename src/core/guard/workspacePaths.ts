import * as path from 'node:path';
import { fileLocation, withPath, type Location, type WorkspaceFolder } from '../location';
import type { WorkspaceInfo } from '../ports/workspace';
import { ToolError } from '../errors';

const URI_PREFIX = /^([a-zA-Z][a-zA-Z0-9+.-]+):(\/\/([^/]*))?(\/.*)?$/;

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
