// Git directories found by what they hold, not by their name: a bare repository can be called
// anything (`plainbare/` with HEAD, objects and refs), and git obeys its config and hooks all the
// same. The guard judges a write inside one by the GIT_DIRECTORY_CONFIG rows of protectedNames.ts;
// the sandbox's walk (sandbox/plan.ts) finds them the same way.
import * as path from 'node:path';
import { isInside, type Location } from '../location';
import type { FileSystem } from '../ports/fileSystem';
import { GIT_DIRECTORY_MARKER } from './protectedNames';

/** True when a folder holds a git directory's marks: HEAD, and objects and refs or a commondir. */
export async function isGitDirectory(fs: FileSystem, folder: Location): Promise<boolean> {
  const at = (name: string): Location => ({ ...folder, path: path.posix.join(folder.path, name) });
  if ((await fs.stat(at(GIT_DIRECTORY_MARKER)))?.kind !== 'file') {
    return false;
  }
  if ((await fs.stat(at('commondir')))?.kind === 'file') {
    return true;
  }
  return (await fs.stat(at('objects')))?.kind === 'directory' && (await fs.stat(at('refs')))?.kind === 'directory';
}

/**
 * The nearest folder above `location` (itself excluded) that is a git directory, looking no higher
 * than the root that holds it (in any letter case where `ignoresCase` says the root's volume ignores
 * it); undefined when none is, or when no root holds the location.
 */
export async function enclosingGitDirectory(fs: FileSystem, location: Location, roots: readonly Location[], ignoresCase: (root: Location) => boolean = () => false): Promise<string | undefined> {
  const root = roots.find((candidate) => isInside(location, candidate, ignoresCase(candidate)));
  if (!root) {
    return undefined;
  }
  for (let folder = path.posix.dirname(location.path); ; folder = path.posix.dirname(folder)) {
    const here = { ...location, path: folder };
    if (!isInside(here, root, ignoresCase(root))) {
      return undefined;
    }
    if (await isGitDirectory(fs, here)) {
      return folder;
    }
    if (folder === root.path || folder === '/') {
      return undefined;
    }
  }
}
