// Whether a folder's volume ignores letter case (exFAT, NTFS, APFS, FAT, WSL's /mnt/c, a case-folding
// ext4 folder), measured for that folder and never guessed from the platform. Read-only: it creates
// nothing in the user's folder.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** The name with every letter's case swapped (`.Git` -> `.gIT`); the same string when it has no cased letter. */
function swapped(name: string): string {
  return [...name].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join('');
}

/** How many names of a folder are tried at most: the first that has letters nearly always decides. */
const TRIES = 8;

/**
 * True when `directory` looks names up ignoring case, judged by `names` (entries it holds): a name
 * whose case-swapped spelling is not itself listed but resolves is the same entry under another
 * spelling. Undefined when no name has a cased letter whose swap is free.
 */
async function looksUpIgnoringCase(directory: string, names: readonly string[], listing: readonly string[] = names): Promise<boolean | undefined> {
  const listed = new Set(listing);
  let tried = 0;
  for (const name of names) {
    const other = swapped(name);
    if (other === name || listed.has(other)) {
      continue;
    }
    try {
      await fs.lstat(path.join(directory, other));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return false;
      }
    }
    if (++tried >= TRIES) {
      return undefined;
    }
  }
  return undefined;
}

/**
 * True when the folder's volume ignores letter case. First by the folder's own entries (looked up in
 * the folder itself), then by the folder's name and its ancestors' names, each looked up in its
 * parent while that parent is on the same volume (a mount point's own name is looked up by the
 * volume below it). False, case-sensitive, when no name decides (an empty volume root with no
 * letter in its path): that keeps containment exact, which judges other spellings outside.
 */
export async function ignoresCase(folder: string): Promise<boolean> {
  try {
    const decided = await looksUpIgnoringCase(folder, await fs.readdir(folder));
    if (decided !== undefined) {
      return decided;
    }
    const device = (await fs.stat(folder)).dev;
    for (let current = folder, parent = path.dirname(folder); parent !== current; current = parent, parent = path.dirname(parent)) {
      if ((await fs.stat(parent)).dev !== device) {
        break;
      }
      // A parent that cannot be listed (execute-only) is judged by the name alone.
      const name = path.basename(current);
      const byName = await looksUpIgnoringCase(parent, [name], await fs.readdir(parent).catch(() => [name]));
      if (byName !== undefined) {
        return byName;
      }
    }
  } catch {
    // A folder that cannot be read: nothing decides.
  }
  return false;
}
