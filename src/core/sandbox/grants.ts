// The retry inside the sandbox with one more writable folder (issue 21, item 4): when a sandboxed
// command failed because a write outside the writable folders was refused, its result names the
// folder, and a call again with `writable_path` asks the user (the extension's own question, before
// "Run Outside the Sandbox") to run it in the sandbox with that folder writable too. Secrets and
// execution config inside the folder stay hidden and read-only, as in the workspace.
import * as path from 'node:path';
import { isInsidePath } from '../location';

/** Lines that say the sandbox refused a write (bubblewrap's read-only root). */
const READ_ONLY = /read-only file system|EROFS|\[Errno 30\]|isn't writable|is not writable/i;
/** Absolute paths on such a line: quoted, or bare up to a space, quote or colon. */
const QUOTED_PATH = /['"`‘’](\/[^'"`‘’\n]*)['"`‘’]/g;
const BARE_PATH = /(?:^|[\s(=])(\/[^\s'"`:,;()]+)/g;

/** Folders never granted, nor anything that holds them: the system's. */
const SYSTEM_FOLDERS = ['/usr', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/boot', '/proc', '/sys', '/dev', '/run', '/var/run', '/var/lib', '/var/log', '/snap'];
/** The user's own mounts inside a system folder: removable drives (udisks) and GVFS's network shares. */
const USER_MOUNTS = /^\/run\/(media\/[^/]+\/[^/]+|user\/\d+\/gvfs\/[^/]+)(\/|$)/;

/**
 * The first absolute path the output says a write was refused to, outside the folders the command
 * could write (and /tmp, /dev and /proc, which are not the sandbox's doing); undefined when none.
 */
export function deniedWritePath(output: string, writable: readonly string[]): DeniedWrite | undefined {
  for (const line of output.split('\n')) {
    if (!READ_ONLY.test(line)) {
      continue;
    }
    const candidates = [...line.matchAll(QUOTED_PATH), ...line.matchAll(BARE_PATH)].map((match) => path.posix.normalize(match[1].replace(/[.]+$/, '')));
    const found = candidates.find((candidate) => candidate !== '/' && ![...writable, '/tmp', '/dev', '/proc'].some((folder) => isInsidePath(candidate, folder)));
    if (found) {
      return { path: found, folder: MAKING_FOLDER.test(line) };
    }
  }
  return undefined;
}

/** A refused write, and whether it was making a folder (mkdir, Python's makedirs) rather than a file. */
export interface DeniedWrite {
  readonly path: string;
  readonly folder: boolean;
}

/** Lines about making a folder: then a missing path may be offered as a new folder. */
const MAKING_FOLDER = /mkdir|create directory|makedirs|\[Errno 30\]/i;

/**
 * The folder to offer for a refused path: the path itself when it is a folder, else the nearest
 * folder that exists above it unless that one may not be granted, else the path itself (made as a
 * folder) when the command was making a folder there. `kind` answers what is at a path.
 */
export async function grantFor(refused: DeniedWrite, home: string, secrets: readonly string[], searchPath: readonly string[], kind: (p: string) => Promise<'file' | 'directory' | 'other' | undefined>): Promise<string | undefined> {
  const denied = refused.path;
  const here = await kind(denied);
  if (here === 'directory') {
    return refusedGrant(denied, home, secrets, searchPath) ? undefined : denied;
  }
  let parent = path.posix.dirname(denied);
  while (parent !== '/' && !(await kind(parent))) {
    parent = path.posix.dirname(parent);
  }
  if (!refusedGrant(parent, home, secrets, searchPath)) {
    return parent;
  }
  return here === undefined && refused.folder && !refusedGrant(denied, home, secrets, searchPath) ? denied : undefined;
}

/**
 * Why a folder may not be made writable in the sandbox, or undefined when it may (after the user's
 * yes). `secrets` are the hidden paths (credential folders, the extension's storage): a folder
 * inside one would uncover it; one that holds them keeps them hidden. `searchPath` are PATH's
 * folders: a program a command put in one would run outside the sandbox when its name is typed.
 */
export function refusedGrant(folder: string, home: string, secrets: readonly string[], searchPath: readonly string[] = []): string | undefined {
  if (!folder.startsWith('/') || path.posix.normalize(folder) !== folder.replace(/(.)\/$/, '$1')) {
    return `${folder} is not an absolute, normalised path`;
  }
  if (folder === '/' || isInsidePath(home, folder)) {
    return `${folder} holds your home folder: making it writable would let the command change your shell's and tools' start-up files`;
  }
  const system = USER_MOUNTS.test(folder) ? undefined : SYSTEM_FOLDERS.find((root) => isInsidePath(folder, root) || isInsidePath(root, folder));
  if (system) {
    return `${folder} is a system folder (${system})`;
  }
  const program = searchPath.find((entry) => entry.startsWith('/') && isInsidePath(folder, entry));
  if (program) {
    return `${folder} is on your PATH (${program}): a program the command put there would run outside the sandbox`;
  }
  const secret = secrets.find((hidden) => isInsidePath(folder, hidden));
  if (secret) {
    return `${folder} lies in ${secret}, which commands cannot read`;
  }
  return undefined;
}

/** The absolute folders of the host's PATH (the user's, before commands get theirs). */
export function searchPathOf(host: { environment(): Readonly<Record<string, string | undefined>> }): string[] {
  return (host.environment().PATH ?? '').split(':').filter((entry) => entry.startsWith('/')).map((entry) => path.posix.normalize(entry).replace(/(.)\/$/, '$1'));
}
