// Protected entries that are symbolic links (`.vscode -> cfg`, `.git/hooks -> ../tools/hooks`,
// `~/.bashrc -> dotfiles/bashrc`): what they lead to is execution config too, since VS Code, git and
// the shells follow them. Found without a walk, by looking at the places where such an entry can
// be: each writable folder's own entries named by a row of the workspace table, the rows of the
// git directories given (a workspace folder's `.git`, and those the sandbox's scan found), and the
// home table's rows. A link deeper in the tree (`sub/.vscode`, `pkg/.gitattributes`) is not looked
// for: ripgrep's walk lists no links, and the guard does not walk.
import * as path from 'node:path';
import { fileLocation, isInsidePath } from '../location';
import type { FileSystem } from '../ports/fileSystem';
import { GIT_DIRECTORY_CONFIG, homeExecutionConfigPaths, isExecutionConfigPath, isHomeExecutionConfig, isWorkspaceExecutionConfig } from './protectedNames';

/** A protected entry that is a symbolic link, and the real path it leads to. */
export interface ProtectedLink {
  readonly link: string;
  readonly target: string;
  /** What is at the target: a folder, a file (or something else); undefined when the link leads nowhere. */
  readonly targetKind: 'file' | 'directory' | 'other' | undefined;
}

/**
 * The protected links among each folder's own entries, each git directory's rows and the home
 * table's rows (when `home` is given). Paths are local and absolute. A link that leads nowhere
 * (its target missing) is left out: the file system port cannot read where it points.
 */
export async function protectedLinks(fs: FileSystem, folders: readonly string[], gitDirectories: readonly string[], home: string | undefined): Promise<ProtectedLink[]> {
  const candidates = new Set<string>();
  const gitFolders = new Set(gitDirectories);
  for (const folder of folders) {
    for (const entry of await fs.readDirectory(fileLocation(folder)).catch(() => [])) {
      const entryPath = path.posix.join(folder, entry.name);
      if (entry.isSymlink && isWorkspaceExecutionConfig(entryPath)) {
        candidates.add(entryPath);
      } else if (entry.name.toLowerCase() === '.git' && entry.kind === 'directory') {
        gitFolders.add(entryPath);
      }
    }
  }
  for (const gitDirectory of gitFolders) {
    GIT_DIRECTORY_CONFIG.forEach((row) => candidates.add(path.posix.join(gitDirectory, row.name)));
  }
  if (home) {
    homeExecutionConfigPaths(home).forEach((entry) => candidates.add(entry));
  }
  const links: ProtectedLink[] = [];
  for (const candidate of candidates) {
    const stat = await fs.stat(fileLocation(candidate));
    if (!stat?.isSymlink) {
      continue;
    }
    const target = fs.localPath(await fs.realpath(fileLocation(candidate)));
    if (target && target !== candidate && stat.kind !== 'other') {
      links.push({ link: candidate, target, targetKind: stat.kind });
    }
  }
  return links;
}

/**
 * The protected link a path is reached through: the path lies at or under a link's target, and the
 * same path seen through the link (`.vscode/settings.json` for `cfg/settings.json`) is execution
 * config of the workspace or home table. Undefined when none.
 */
export function linkLeadingTo(p: string, links: readonly ProtectedLink[], home: string): string | undefined {
  for (const { link, target } of links) {
    if (!isInsidePath(p, target)) {
      continue;
    }
    const seen = p === target ? link : path.posix.join(link, path.posix.relative(target, p));
    if (isExecutionConfigPath(seen) || isHomeExecutionConfig(seen, home)) {
      return link;
    }
  }
  return undefined;
}
