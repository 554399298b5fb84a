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

/** A Windows path as the host's Node gives it: a drive (`C:\x`, `C:/x`) or a UNC share (`\\server\share\x`, backslashes: `//x` is POSIX's). */
const WINDOWS_NATIVE = /^(?:[a-zA-Z]:(?:[\\/]|$)|\\\\[^\\/?.])/;

/**
 * A local file's location from an absolute path of the host. A Windows path (`C:\work\x`,
 * `\\server\share\x`; no POSIX absolute path starts so) takes the form of VS Code's Uri.file:
 * `/C:/work/x`, and the UNC share's server as the authority, so paths from VS Code, from Node's
 * realpath and from the model compare alike whatever their separators.
 */
export function fileLocation(fsPath: string): Location {
  if (!WINDOWS_NATIVE.test(fsPath)) {
    return { scheme: 'file', authority: '', path: fsPath };
  }
  const forward = fsPath.replace(/\\/g, '/');
  if (forward.startsWith('//')) {
    const slash = forward.indexOf('/', 2);
    return { scheme: 'file', authority: slash === -1 ? forward.slice(2) : forward.slice(2, slash), path: slash === -1 ? '/' : forward.slice(slash) };
  }
  return { scheme: 'file', authority: '', path: `/${forward}` };
}

/** The host's path of a local location: the POSIX path, or on Windows `C:/x`, `C:/` and `//server/share/x` (Node takes either separator). */
export function hostPath(location: Location, platform: string): string {
  if (platform !== 'win32') {
    return location.path;
  }
  if (location.authority !== '') {
    return `//${location.authority}${location.path}`;
  }
  if (/^\/[a-zA-Z]:$/.test(location.path)) {
    // The drive's root: `C:` alone is the drive's current folder to Windows.
    return `${location.path.slice(1)}/`;
  }
  return /^\/[a-zA-Z]:(\/|$)/.test(location.path) ? location.path.slice(1) : location.path;
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

/** A Windows drive as a path's first component (`c:`), whose letter is never told apart by case. */
const DRIVE = /^[a-z]:$/i;

/**
 * True when `location` is `root` or below it, comparing whole path components: exactly, or by
 * letter case folded when `ignoreCase` (the root is on a volume that ignores case). Only case is
 * folded here: a wider key (NFC, trailing dots) could make a sibling on NTFS look inside, and a
 * path judged outside is the safe side. A drive letter is compared in any case.
 */
export function isInside(location: Location, root: Location, ignoreCase = false): boolean {
  if (location.scheme !== root.scheme || location.authority.toLowerCase() !== root.authority.toLowerCase()) {
    return false;
  }
  const child = components(location.path);
  const parent = components(root.path);
  if (parent.length > child.length) {
    return false;
  }
  const same = (a: string, b: string, index: number): boolean => a === b || ((ignoreCase || (index === 0 && DRIVE.test(a))) && foldCase(a) === foldCase(b));
  return parent.every((part, index) => same(child[index], part, index));
}

/** The folder that contains the location, if any (the deepest, where folders nest). */
export function containingFolder(location: Location, folders: readonly WorkspaceFolder[]): WorkspaceFolder | undefined {
  let best: WorkspaceFolder | undefined;
  for (const folder of folders) {
    if (isInside(location, folder.location, folder.caseInsensitive === true) && (!best || folder.location.path.length > best.location.path.length)) {
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
  const relative = components(location.path).slice(components(folder.location.path).length).join('/');
  if (workspace.folders.length > 1) {
    return relative === '' ? folder.name : `${folder.name}/${relative}`;
  }
  return relative === '' ? '.' : relative;
}

// --- names as case-insensitive file systems see them -------------------------------------------

/** Text whose case folding is toLowerCase's. */
const ASCII = /^[\x00-\x7f]*$/;
/** An ASCII name with no stream and no trailing dot or space: its key is its lower case (`.` and `..` included). */
const PLAIN_ASCII = /^(?:\.{1,2}|[\x00-\x39\x3b-\x7f]*[^\x00-\x1f :.\x80-\uffff])$/;

/** Code points HFS+ ignores in names (as git's is_hfs_dotgit): joiners, direction marks, the BOM. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/**
 * Letter case folded one code point at a time, the way NTFS, exFAT and APFS compare names: upper
 * case then lower case, so `ſ` (U+017F) is `s` and the Kelvin sign `K` is `k`; a letter whose
 * case mapping is longer (`ß`, `İ`) stays itself, as on those file systems.
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) {
    return text.toLowerCase();
  }
  let folded = '';
  for (const char of text) {
    const upper = char.toUpperCase();
    const single = [...upper].length === 1 ? upper : char;
    const lower = single.toLowerCase();
    folded += [...lower].length === 1 ? lower : single;
  }
  return folded;
}

/**
 * A path component's comparison key, as the file systems that ignore case or normalise see it:
 * HFS+'s ignored code points removed, Unicode NFC, case folded, an alternate data stream suffix
 * (`:stream`, `::$DATA`, `::$INDEX_ALLOCATION`) cut, and Windows' trailing dots and spaces removed
 * (`.` and `..` stay; a drive `c:` keeps its colon). Two names with one key may be one file somewhere, so every protected-name
 * check matches through it: matching more is the safe direction, and on Linux these spellings are
 * no one's real names.
 */
export function nameKey(component: string): string {
  if (PLAIN_ASCII.test(component)) {
    return component.toLowerCase();
  }
  let name = foldCase(component.replace(HFS_IGNORED, '').normalize('NFC')).normalize('NFC');
  const colon = name.indexOf(':');
  if (colon > 0 && !DRIVE.test(name)) {
    name = name.slice(0, colon);
  }
  const trimmed = name.replace(/[. ]+$/, '');
  return trimmed === '' || name === '.' || name === '..' ? name : trimmed;
}

/** A POSIX path with every component replaced by its key. */
export function pathKey(p: string): string {
  return p.split('/').map((part) => (part === '' ? part : nameKey(part))).join('/');
}

/** An 8.3 short name (`GIT~1`, `GITMOD~1`, `CONFIG~1.WOR`, `GI7EBA~1`), as a key: its stem before the `~`, the digits and the extension. */
const SHORT_NAME = /^([^~.]{1,6})~([0-9]+)(?:\.([^.]{1,3}))?$/;

/** True when a component's key is shaped like an 8.3 short name. */
export function isShortNameShape(key: string): boolean {
  return SHORT_NAME.test(key);
}

/**
 * True when a component (its key) may be the 8.3 short name NTFS gave the long name: the long name
 * upper-cased with its leading dots, spaces and inner dots dropped, cut to a stem of up to six
 * characters and `~N`, and the first three characters of its extension; or, for the fifth such name
 * and on, the first two characters and four of a hash (which cannot be computed here, so any
 * four). As git's is_ntfs_dot_generic for `.git` and `.gitmodules`, generalised to every name.
 */
export function couldBeShortName(key: string, longName: string): boolean {
  const shape = SHORT_NAME.exec(key);
  if (!shape) {
    return false;
  }
  const [, stem, , extension] = shape;
  const long = nameKey(longName).replace(/^[. ]+/, '');
  const lastDot = long.lastIndexOf('.');
  const longStem = (lastDot === -1 ? long : long.slice(0, lastDot)).replace(/[. ]/g, '');
  const longExtension = lastDot === -1 ? '' : long.slice(lastDot + 1).replace(/ /g, '');
  const stemMatches = longStem.startsWith(stem) || (stem.length === 6 && longStem.startsWith(stem.slice(0, 2)));
  const extensionMatches = extension === undefined || longExtension.startsWith(extension);
  return stemMatches && extensionMatches;
}

/** Windows' reserved device names, by key: with any extension, in any case, with trailing dots and spaces. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3]|conin\$|conout\$)(\..*)?$/;

/** True when the component names a Windows device (`CON`, `nul.txt`, `COM1 `, `CONOUT$`) rather than a file. */
export function isWindowsDeviceName(component: string): boolean {
  return DEVICE_NAME.test(nameKey(component.replace(/ +(?=\.|$)/g, '')));
}
