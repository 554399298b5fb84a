import * as path from 'node:path';
import { fileLocation, isWindowsDeviceName, withPath, type Location, type WorkspaceFolder } from '../location';
import type { WorkspaceInfo } from '../ports/workspace';
import type { ToolSettings } from '../settings';
import { ToolError } from '../errors';

/** `scheme:rest`, with a scheme of two characters or more (one letter is a Windows drive, `C:/x`). */
const URI_PREFIX = /^([a-zA-Z][a-zA-Z0-9+.-]+):(.*)$/s;
/** The rest of a URI after its scheme: `//authority` (up to the next slash), then the path. */
const URI_REST = /^(?:\/\/([^/]*))?(.*)$/s;

/**
 * Turns a tool's path argument into a normalised location, without touching the file system.
 * Accepts absolute paths, `~`, URIs (`scheme://authority/path`), paths relative to the first
 * workspace folder, and `<folderName>/rest` in a multi-root workspace. A URI must be `file:` with no
 * authority (the local disk), or the scheme and authority of a workspace folder or of a URI among
 * `allowedRoots` (the allowed-paths settings, which the user wrote): every other scheme
 * (`vscode-userdata:`, another remote, a host's UNC share) is refused, so each location the tools
 * reach is one the rule table was written for.
 */
export function resolveWorkspacePath(input: string, workspace: WorkspaceInfo, allowedRoots: readonly string[] = []): Location {
  if (workspace.platform !== 'win32') {
    return resolvePosixPath(input, workspace, allowedRoots);
  }
  const location = resolvePosixPath(windowsPath(input), workspace, allowedRoots);
  const device = location.scheme === 'file' ? location.path.split('/').find((part) => part !== '' && isWindowsDeviceName(part)) : undefined;
  if (device !== undefined) {
    throw new ToolError(`${input} names ${device}, a Windows device (CON, PRN, AUX, NUL, COM1-9, LPT1-9, CONIN$, CONOUT$, with any extension), not a file; opening it would reach the device. Pick another file name.`);
  }
  return location;
}

/** A drive path (`C:/x`, `c:`), and a drive-relative one (`C:x`), once backslashes are slashes. */
const DRIVE_PATH = /^([a-zA-Z]):(\/.*)?$/s;
const DRIVE_RELATIVE = /^[a-zA-Z]:[^/]/;

/**
 * A tool's path on a Windows host in the POSIX form Location uses, as VS Code's Uri.file builds it:
 * backslashes are separators like slashes (mixed freely), `C:\x` and `c:/x` are `/C:/x` and `/c:/x`,
 * `\\?\C:\x` is `C:\x`, and a UNC path `\\server\share\x` is the file: URI of authority `server`
 * (which must be a workspace folder's or an allowed path's). `\\?\UNC\`, `\\.\` device paths and
 * drive-relative paths (`C:x`) are refused. On any other host a backslash is part of a file name, as
 * POSIX says: the platform decides, never the path's look.
 */
function windowsPath(input: string): string {
  if (typeof input !== 'string') {
    return input;
  }
  let forward = input.replace(/\\/g, '/');
  if (/^\/\/[?.]\/unc(\/|$)/i.test(forward) || forward.startsWith('//./')) {
    throw new ToolError(`${input} is a Windows device or long UNC path (\\\\.\\ or \\\\?\\UNC\\), which the tools do not open. Pass a workspace-relative path or a drive path such as C:\\work\\file.txt.`);
  }
  if (forward.startsWith('//?/')) {
    forward = forward.slice(4);
  }
  if (forward.startsWith('//')) {
    return `file:${forward.split('/').map((part, index) => (index < 2 ? part : encodeURIComponent(part))).join('/')}`;
  }
  if (DRIVE_RELATIVE.test(forward)) {
    throw new ToolError(`${input} is relative to the current folder of drive ${forward[0]}:, which the tools do not track. Pass ${forward.slice(0, 2)}\\ and the full path, or a workspace-relative path.`);
  }
  const drive = DRIVE_PATH.exec(forward);
  return drive ? `/${drive[1]}:${drive[2] ?? '/'}` : forward;
}

function resolvePosixPath(input: string, workspace: WorkspaceInfo, allowedRoots: readonly string[]): Location {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ToolError('The path is empty. Pass a file path relative to the workspace root, or an absolute path.');
  }
  if (input.includes('\0')) {
    throw new ToolError('The path contains a NUL byte, which no file name can contain. Pass the path without it.');
  }
  const first = workspace.folders[0];
  const uri = URI_PREFIX.exec(input);
  if (uri) {
    const bases = [...workspace.folders.map((folder) => folder.location), ...allowedRoots.flatMap(uriBase)];
    return uriLocation(input, uri[1].toLowerCase(), uri[2], bases);
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

/** A tool's path argument as a location: resolveWorkspacePath with the allowed-paths settings' file systems reachable too. */
export function resolveToolPath(input: string, ctx: { readonly workspace: WorkspaceInfo; readonly settings: Pick<ToolSettings, 'allowedReadPaths' | 'allowedWritePaths'> }): Location {
  return resolveWorkspacePath(input, ctx.workspace, [...ctx.settings.allowedReadPaths, ...ctx.settings.allowedWritePaths]);
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

const REACH = "the tools only reach the local disk, the workspace folders' own file systems and those of the user's allowed-paths settings";

/** A URI's authority and path, decoded; a ToolError when the path is not absolute or an escape is broken. */
function uriParts(input: string, scheme: string, rest: string): { authority: string; path: string } {
  const parts = URI_REST.exec(rest) as RegExpExecArray;
  const rawPath = parts[2];
  if (parts[1] === undefined && !rawPath.startsWith('/')) {
    throw new ToolError(
      `${input} is a ${scheme}: URI whose path is not absolute. Pass a workspace-relative path, an absolute path or a URI with an absolute path (file:///...); to name a workspace file whose name holds a colon, start it with ./`,
    );
  }
  const uriPath = decoded(rawPath === '' ? '/' : rawPath, input);
  if (uriPath.includes('\0')) {
    throw new ToolError('The path contains a NUL byte, which no file name can contain. Pass the path without it.');
  }
  return { authority: decoded(parts[1] ?? '', input), path: path.posix.normalize(uriPath) };
}

/** The file system an allowed-paths entry that is a URI names (its scheme and authority); none for a path or a broken URI. */
function uriBase(entry: string): Location[] {
  const uri = URI_PREFIX.exec(entry);
  if (!uri) {
    return [];
  }
  try {
    return [{ scheme: uri[1].toLowerCase(), authority: uriParts(entry, uri[1], uri[2]).authority, path: '/' }];
  } catch {
    return [];
  }
}

/** A URI argument as a location, or a ToolError when it is not on the local disk or on a file system in `bases`. */
function uriLocation(input: string, scheme: string, rest: string, bases: readonly Location[]): Location {
  const { authority, path: normalised } = uriParts(input, scheme, rest);
  if (scheme === 'file' && authority === '') {
    return fileLocation(normalised);
  }
  const base = bases.find((candidate) => candidate.scheme.toLowerCase() === scheme && candidate.authority.toLowerCase() === authority.toLowerCase());
  if (base) {
    return withPath(base, normalised);
  }
  if (scheme === 'file') {
    throw new ToolError(`${input} is a file: URI with the host ${authority}, a network (UNC) path; ${REACH}. Pass a workspace-relative path, or a local path as /path or file:///path.`);
  }
  const where = authority === '' ? '' : ` on ${authority}`;
  const known = bases.some((candidate) => candidate.scheme.toLowerCase() === scheme) ? `, which no workspace folder or allowed path is on` : '';
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
