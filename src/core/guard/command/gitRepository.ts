// Which repository a `git` started in a folder would use, decided the way git's discovery
// (setup_git_directory) decides it, whether its own config is one git may run with unasked
// (gitConfig.ts), and the filter drivers the user's configuration can name.
//
// git walks up from the folder: in each folder a `.git` file is a pointer to a git directory
// elsewhere, a `.git` directory is used when it is a valid git directory (HEAD, objects/, refs/),
// and otherwise the folder itself is used as a bare repository when it looks like one; then the
// parent. Any repository other than a workspace folder's own plain `.git` directory can carry a
// configuration (and hooks) the user never saw, so the policy only runs git without asking in that
// one repository, or where git would find none at all (it then only errors). Even that one may
// have arrived with the folder (a tarball, a copy), so its config must be read whole and hold only
// settings known to be harmless.
import * as path from 'node:path';
import { configTextOf, GIT_CONFIG_MAX_BYTES, parseGitConfig, repositoryConfigProblem } from './gitConfig';

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
  /**
   * True on a Windows host, where paths are Location paths (`/C:/work/x`): git's walk up ends at
   * the drive's root (`/C:`), as `/` there is no folder of that disk (a port would read the
   * current drive's root instead).
   */
  readonly windows?: boolean;
  /** What is at a path (a symbolic link is reported as one); undefined when nothing is. */
  entry(absolutePath: string): Promise<EntryFacts | undefined>;
  /** A small text file's contents; undefined when it cannot be read. */
  readText(absolutePath: string): Promise<string | undefined>;
  /** A whole file's bytes (a final symbolic link followed), unless it is larger than `maxBytes`, not a regular file or unreadable. */
  readWhole(absolutePath: string, maxBytes: number): Promise<WholeFile>;
  /** The path with every symbolic link resolved, as git sees its working folder after chdir. */
  realPath(absolutePath: string): Promise<string>;
}

/** A file read whole, or why not. */
export type WholeFile =
  | { readonly kind: 'absent' }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'unreadable'; readonly why: string };

/** The repository git would use from a folder. */
export type FoundRepository =
  /** A workspace folder's own plain `.git` directory. */
  | { readonly kind: 'own'; readonly top: string; readonly gitDir: string; readonly filterDrivers: readonly string[] }
  /** No repository at all up to the root: git only errors (or compares files, judged as reads). */
  | { readonly kind: 'none' }
  /** Anything else: why it asks. */
  | { readonly kind: 'other'; readonly reason: string };

/** A Windows drive's root as a Location path (`/C:`, `/c:/`). */
const DRIVE_ROOT = /^\/[a-zA-Z]:\/?$/;
/** A network share's path (`//server/share/x`), which path.posix would make `/server/share/x`. */
const SHARE = /^\/\/[^/]/;

/** A Windows path from a drive's root (`C:/x`, separators already forward). */
const WINDOWS_DRIVE_PATH = /^[a-zA-Z]:\//;

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
  if (SHARE.test(start)) {
    return { kind: 'other', reason: `${start} is on a network share, where the policy does not follow git's lookup yet` };
  }
  let folder = await view.realPath(path.posix.normalize(start));
  if (SHARE.test(folder)) {
    return { kind: 'other', reason: `${start} leads to ${folder}, a network share, where the policy does not follow git's lookup yet` };
  }
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
    if (parent === folder || (view.windows === true && DRIVE_ROOT.test(folder))) {
      return { kind: 'none' };
    }
    folder = parent;
  }
}

async function ownRepository(top: string, gitDir: string, view: RepositoryView): Promise<FoundRepository> {
  if (await view.entry(path.posix.join(gitDir, 'commondir'))) {
    return { kind: 'other', reason: `${gitDir} has a commondir file, so git would take its config from another folder` };
  }
  for (const name of ['config', 'config.worktree']) {
    if ((await view.entry(path.posix.join(gitDir, name)))?.isSymlink) {
      return { kind: 'other', reason: `${gitDir}/${name} is a symbolic link, so its contents can live in a file commands may change` };
    }
  }
  const problem = await repositoryConfigFilesProblem(gitDir, view);
  if (problem !== undefined) {
    return { kind: 'other', reason: problem };
  }
  const drivers = await filterDriverNames(view);
  if ('problem' in drivers) {
    return { kind: 'other', reason: drivers.problem };
  }
  return { kind: 'own', top, gitDir, filterDrivers: drivers.drivers };
}

/** git stops following include.path after this many levels. */
const MAX_INCLUDE_DEPTH = 10;

/** The configuration git reads besides the repository's own: the user's and the system's. */
function userConfigFiles(home: string): string[] {
  return [path.posix.join(home, '.gitconfig'), path.posix.join(home, '.config', 'git', 'config'), '/etc/gitconfig'];
}

/** A config file's text when it is there and readable whole: undefined when there is none, a problem when it cannot be read. */
async function configText(file: string, view: RepositoryView): Promise<{ text?: string; problem?: string }> {
  const read = await view.readWhole(file, GIT_CONFIG_MAX_BYTES);
  if (read.kind === 'absent') {
    return {};
  }
  if (read.kind === 'unreadable') {
    return { problem: `${file} cannot be read whole (${read.why})` };
  }
  const text = configTextOf(read.bytes);
  return text === undefined ? { problem: `${file} is not valid UTF-8` } : { text };
}

/**
 * The names of every filter driver (`[filter "name"]`) the user's and the system's configuration
 * can define (~/.gitconfig, ~/.config/git/config, /etc/gitconfig), and every file they include
 * (whatever the include's condition: more names only neutralise more drivers). A filter driver's
 * clean command runs whenever git hashes a working-tree file (status, diff), so each one is
 * switched off on the command line. The repository's own config defines none: a filter setting
 * there asks (repositoryConfigProblem). A file that is there but cannot be read and parsed whole
 * is a problem: its drivers would stay on.
 */
export async function filterDriverNames(view: RepositoryView): Promise<{ drivers: string[] } | { problem: string }> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = async (file: string, depth: number): Promise<string | undefined> => {
    if (depth > MAX_INCLUDE_DEPTH || seen.has(file)) {
      return undefined;
    }
    seen.add(file);
    const { text, problem } = await configText(file, view);
    if (problem !== undefined || text === undefined) {
      return problem;
    }
    const parsed = parseGitConfig(text);
    if (!parsed.ok) {
      return `${file} line ${parsed.line} is not valid git config (${parsed.problem})`;
    }
    for (const entry of parsed.entries) {
      if (entry.section === 'filter' && entry.subsection !== undefined) {
        names.add(entry.subsection);
      }
      const include = entry.name === 'path' && entry.value !== undefined && ((entry.section === 'include' && entry.subsection === undefined) || (entry.section === 'includeif' && entry.subsection !== undefined));
      if (include) {
        // Git for Windows takes \ as a separator and C:/x as an absolute path: both made Location paths
        // (~\x, which git fails on, is read as ~/x: reading more files only switches off more drivers).
        const value = view.windows ? (entry.value ?? '').replace(/\\/g, '/') : (entry.value ?? '');
        const expanded = value.startsWith('~/') ? path.posix.join(view.home, value.slice(2)) : view.windows && WINDOWS_DRIVE_PATH.test(value) ? `/${value}` : value;
        if (view.windows && SHARE.test(expanded)) {
          // path.posix would drop the server and read the current drive's folder of that name.
          return `${file} includes ${JSON.stringify(entry.value)}, on a network share, which the policy does not read`;
        }
        const inner = await visit(path.posix.resolve(path.posix.dirname(file), expanded), depth + 1);
        if (inner !== undefined) {
          return inner;
        }
      }
    }
    return undefined;
  };
  if (view.windows && SHARE.test(view.home)) {
    return { problem: `the home folder ${view.home} is on a network share, where the policy does not read the user's git configuration, so it cannot switch off the filter drivers it may define` };
  }
  for (const source of userConfigFiles(view.home)) {
    const problem = await visit(source, 0);
    if (problem !== undefined) {
      return { problem: `${problem}, so the policy cannot switch off the filter drivers it may define` };
    }
  }
  return { drivers: [...names].sort() };
}

/**
 * Why git should not run unasked with this git directory's own config files (config, and
 * config.worktree, read when extensions.worktreeConfig is on), or undefined: each must be absent or
 * read whole, parse as git parses it, and hold only settings on the closed list of gitConfig.ts.
 */
async function repositoryConfigFilesProblem(gitDir: string, view: RepositoryView): Promise<string | undefined> {
  for (const name of ['config', 'config.worktree']) {
    const file = path.posix.join(gitDir, name);
    const read = await view.readWhole(file, GIT_CONFIG_MAX_BYTES);
    if (read.kind === 'unreadable') {
      return `${file} cannot be read whole (${read.why}), so the policy cannot tell which settings git would read from it`;
    }
    const problem = read.kind === 'bytes' ? repositoryConfigProblem(file, read.bytes) : undefined;
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}
