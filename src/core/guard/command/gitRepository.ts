// Which repository a `git` started in a folder would use, decided the way git's discovery
// (setup_git_directory) decides it, and the filter drivers its configuration can name.
//
// git walks up from the folder: in each folder a `.git` file is a pointer to a git directory
// elsewhere, a `.git` directory is used when it is a valid git directory (HEAD, objects/, refs/),
// and otherwise the folder itself is used as a bare repository when it looks like one; then the
// parent. Any repository other than a workspace folder's own plain `.git` directory can carry a
// configuration (and hooks) the user never saw, so the policy only runs git without asking in that
// one repository, or where git would find none at all (it then only errors).
import * as path from 'node:path';

/** What is at a path, without following a final symbolic link. */
export interface EntryFacts {
  readonly kind: 'file' | 'directory' | 'other';
  readonly isSymlink: boolean;
}

/** The policy's read-only view of the disk for finding repositories. */
export interface RepositoryView {
  /** The workspace folders, as real absolute paths. */
  readonly workspaceFolders: readonly string[];
  /** The home folder, for the user's git configuration. */
  readonly home: string;
  /** What is at a path (a symbolic link is reported as one); undefined when nothing is. */
  entry(absolutePath: string): Promise<EntryFacts | undefined>;
  /** A small text file's contents; undefined when it cannot be read. */
  readText(absolutePath: string): Promise<string | undefined>;
  /** The path with every symbolic link resolved, as git sees its working folder after chdir. */
  realPath(absolutePath: string): Promise<string>;
}

/** The repository git would use from a folder. */
export type FoundRepository =
  /** A workspace folder's own plain `.git` directory. */
  | { readonly kind: 'own'; readonly top: string; readonly gitDir: string; readonly filterDrivers: readonly string[] }
  /** No repository at all up to the root: git only errors (or compares files, judged as reads). */
  | { readonly kind: 'none' }
  /** Anything else: why it asks. */
  | { readonly kind: 'other'; readonly reason: string };

const HEX_OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** git's is_git_directory: HEAD names a ref or an object, and objects/ and refs/ are folders. */
async function isValidGitDirectory(folder: string, view: RepositoryView): Promise<boolean> {
  const [objects, refs] = await Promise.all([view.entry(path.posix.join(folder, 'objects')), view.entry(path.posix.join(folder, 'refs'))]);
  if (objects?.kind !== 'directory' || refs?.kind !== 'directory') {
    return false;
  }
  const head = await view.readText(path.posix.join(folder, 'HEAD'));
  if (head === undefined) {
    return false;
  }
  const text = head.trim();
  return text.startsWith('ref: refs/') || HEX_OBJECT_ID.test(text);
}

/**
 * The repository git would use when started in `start`. Conservative where git is lenient: any
 * `.git` that is a file or a link, any folder with a HEAD entry on the way up, a `commondir` or a
 * linked `config` in the workspace's own `.git`, and any repository above the workspace folders
 * come back as 'other'.
 */
export async function findRepository(start: string, view: RepositoryView): Promise<FoundRepository> {
  let folder = await view.realPath(path.posix.normalize(start));
  for (;;) {
    const dotGit = path.posix.join(folder, '.git');
    const entry = await view.entry(dotGit);
    const isWorkspaceFolder = view.workspaceFolders.includes(folder);
    if (entry) {
      if (!isWorkspaceFolder) {
        return { kind: 'other', reason: `git would use the repository of ${folder} (its .git), which is not a workspace folder's own repository; its config and hooks can run programs` };
      }
      if (entry.isSymlink || entry.kind !== 'directory') {
        return { kind: 'other', reason: `${dotGit} is ${entry.isSymlink ? 'a symbolic link' : 'a file that points to a git directory elsewhere'}, whose config and hooks can run programs` };
      }
      if (await isValidGitDirectory(dotGit, view)) {
        return ownRepository(folder, dotGit, view);
      }
      // git passes over a .git folder that is not a valid git directory and looks further up.
    }
    if (await view.entry(path.posix.join(folder, 'HEAD'))) {
      const parent = path.posix.dirname(folder);
      if (path.posix.basename(folder) === '.git' && view.workspaceFolders.includes(parent) && (await isValidGitDirectory(folder, view))) {
        // Started inside a workspace folder's own .git: git uses that same directory.
        return ownRepository(parent, folder, view);
      }
      return { kind: 'other', reason: `${folder} has a HEAD entry, so git may use it as a bare repository, whose config can run programs` };
    }
    const parent = path.posix.dirname(folder);
    if (parent === folder) {
      return { kind: 'none' };
    }
    folder = parent;
  }
}

async function ownRepository(top: string, gitDir: string, view: RepositoryView): Promise<FoundRepository> {
  if (await view.entry(path.posix.join(gitDir, 'commondir'))) {
    return { kind: 'other', reason: `${gitDir} has a commondir file, so git would take its config from another folder` };
  }
  if ((await view.entry(path.posix.join(gitDir, 'config')))?.isSymlink) {
    return { kind: 'other', reason: `${gitDir}/config is a symbolic link, so its contents can live in a file commands may change` };
  }
  return { kind: 'own', top, gitDir, filterDrivers: await filterDriverNames(gitDir, view) };
}

/** git stops following include.path after this many levels. */
const MAX_INCLUDE_DEPTH = 10;

/**
 * The names of every filter driver (`[filter "name"]`) the configuration git reads for this
 * repository can define: the repository's config and config.worktree, the user's
 * ~/.gitconfig and ~/.config/git/config, /etc/gitconfig, and every file they include (whatever
 * the include's condition: more names only neutralise more drivers). A filter driver's clean
 * command runs whenever git hashes a working-tree file (status, diff), so each one is switched
 * off on the command line.
 */
export async function filterDriverNames(gitDir: string, view: RepositoryView): Promise<string[]> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = async (file: string, depth: number): Promise<void> => {
    if (depth > MAX_INCLUDE_DEPTH || seen.has(file)) {
      return;
    }
    seen.add(file);
    const text = await view.readText(file);
    if (text === undefined) {
      return;
    }
    const scanned = scanConfig(text);
    scanned.filters.forEach((name) => names.add(name));
    for (const include of scanned.includes) {
      const expanded = include.startsWith('~/') ? path.posix.join(view.home, include.slice(2)) : include;
      await visit(path.posix.resolve(path.posix.dirname(file), expanded), depth + 1);
    }
  };
  const sources = [
    path.posix.join(gitDir, 'config'),
    path.posix.join(gitDir, 'config.worktree'),
    path.posix.join(view.home, '.gitconfig'),
    path.posix.join(view.home, '.config', 'git', 'config'),
    '/etc/gitconfig',
  ];
  for (const source of sources) {
    await visit(source, 0);
  }
  return [...names].sort();
}

/** A config value as git reads it: quotes removed, escapes resolved, comments cut. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index];
    if (char === '\\' && index + 1 < raw.length) {
      const next = raw[index + 1];
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && (char === '#' || char === ';')) {
      break;
    } else {
      out += char;
    }
  }
  return out.trim();
}

/** The filter driver names and the include paths of one config file's text. */
export function scanConfig(text: string): { filters: string[]; includes: string[] } {
  const filters: string[] = [];
  const includes: string[] = [];
  let section = '';
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const name = header[1].toLowerCase();
      const subsection = header[2]?.replace(/\\(.)/g, '$1');
      section = subsection === undefined ? name : `${name} ${subsection}`;
      // The old spelling [filter.name] names the driver in lower case.
      const dotted = /^filter\.(.+)$/.exec(name);
      if (name === 'filter' && subsection !== undefined) {
        filters.push(subsection);
      } else if (dotted) {
        filters.push(dotted[1]);
      }
      line = line.slice(header[0].length).trim();
      if (line === '') {
        continue;
      }
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (entry && entry[1].toLowerCase() === 'path' && entry[2] !== undefined && (section === 'include' || section.startsWith('includeif '))) {
      includes.push(configValue(entry[2]));
    }
  }
  return { filters, includes };
}
