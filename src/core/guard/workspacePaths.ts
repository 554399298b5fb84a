import * as path from 'node:path';
import { fileLocation, withPath, type Location, type WorkspaceFolder } from '../location';
import type { WorkspaceInfo } from '../ports/workspace';
import { ToolError } from '../errors';

/** `scheme:rest`, with a scheme of two characters or more (one letter is a Windows drive, `C:/x`). */
const URI_PREFIX = /^([a-zA-Z][a-zA-Z0-9+.-]+):(.*)$/s;
/** The rest of a URI after its scheme: `//authority` (up to the next slash), then the path. */
const URI_REST = /^(?:\/\/([^/]*))?(.*)$/s;

/**
 * Turns a tool's path argument into a normalised location, without touching the file system.
 * Accepts absolute paths, `~`, URIs (`scheme://authority/path`), paths relative to the first
 * workspace folder, and `<folderName>/rest` in a multi-root workspace. A URI must be `file:` with no
 * authority (the local disk) or a workspace folder's own scheme and authority: every other scheme
 * (`vscode-userdata:`, another remote, a host's UNC share) is refused, so each location the tools
 * reach is one the rule table was written for.
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
  if (uri) {
    return uriLocation(input, uri[1].toLowerCase(), uri[2], workspace.folders);
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

const REACH = "the tools only reach the workspace folders' own file systems and the local disk";

/** A URI argument as a location, or a ToolError when it is not on the local disk or a workspace folder's own file system. */
function uriLocation(input: string, scheme: string, rest: string, folders: readonly WorkspaceFolder[]): Location {
  const parts = URI_REST.exec(rest) as RegExpExecArray;
  const rawPath = parts[2];
  if (parts[1] === undefined && !rawPath.startsWith('/')) {
    throw new ToolError(
      `${input} is a ${scheme}: URI whose path is not absolute. Pass a workspace-relative path, an absolute path or a URI with an absolute path (file:///...); to name a workspace file whose name holds a colon, start it with ./`,
    );
  }
  const authority = decoded(parts[1] ?? '', input);
  const uriPath = decoded(rawPath === '' ? '/' : rawPath, input);
  if (uriPath.includes('\0')) {
    throw new ToolError('The path contains a NUL byte, which no file name can contain. Pass the path without it.');
  }
  const normalised = path.posix.normalize(uriPath);
  if (scheme === 'file' && authority === '') {
    return fileLocation(normalised);
  }
  const folder = folders.find((candidate) => candidate.location.scheme.toLowerCase() === scheme && candidate.location.authority.toLowerCase() === authority.toLowerCase());
  if (folder) {
    return withPath(folder.location, normalised);
  }
  if (scheme === 'file') {
    throw new ToolError(`${input} is a file: URI with the host ${authority}, a network (UNC) path; ${REACH}. Pass a workspace-relative path, or a local path as /path or file:///path.`);
  }
  const where = authority === '' ? '' : ` on ${authority}`;
  const known = folders.some((candidate) => candidate.location.scheme.toLowerCase() === scheme) ? `, and no workspace folder is on ${scheme}://${authority}` : '';
  throw new ToolError(`${input} is a ${scheme}: URI${where}${known}; ${REACH}. Pass a workspace-relative path.`);
}

/** A URI part with its percent-escapes decoded (`%2e%2e` is `..`, `%2F` a slash); a broken escape is refused. */
function decoded(value: string, input: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ToolError(`${input} has a broken percent-escape (a % not followed by two hex digits of valid UTF-8). Write the path without escapes, or escape % itself as %25.`);
  }
}
