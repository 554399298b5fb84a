// The one table of the names the guard and the command sandbox protect: the execution config that
// git and VS Code obey, and the files that hold secrets. Every consumer derives from these rows:
// the guard's predicates (rules.ts), the ripgrep globs the sandbox finds them with
// (node/machineSandbox.ts), the bubblewrap plan (plan.ts), the Seatbelt regexes (seatbelt.ts), and the
// sentences of the launcher summary and the run-command tool. To protect a path, add one row here.
//
// Depth is decided once: inside a workspace every row applies at any depth (nested repositories,
// submodules' git directories, a bare repository, a `.vscode` of a subfolder), for the guard,
// bubblewrap and Seatbelt alike.
//
// Every name is compared by its key (location.ts nameKey: case folded, NFC, HFS+'s ignored code
// points, Windows' trailing dots and spaces and `:stream` suffixes gone), and a component shaped
// like an 8.3 short name (`GIT~1`) counts as each name of the table it may stand for: pathForms.
import * as path from 'node:path';
import { couldBeShortName, isInsidePath, isShortNameShape, nameKey, pathKey } from '../location';

/** One protected name: a file or folder name (lower case), or `*suffix` for a file name ending. */
export interface ProtectedName {
  readonly name: string;
  readonly kind: 'file' | 'folder';
  /** What the name configures, for the documentation and the tool's description. */
  readonly why: string;
  /** Named in the short phrase of every command's result (the rest only in the tool's description). */
  readonly brief?: true;
}

/** Names in any folder of a workspace that VS Code or git obey. */
export const WORKSPACE_EXECUTION_CONFIG: readonly ProtectedName[] = [
  { name: '.vscode', brief: true, kind: 'folder', why: 'VS Code tasks, launch configurations and workspace settings' },
  { name: '*.code-workspace', brief: true, kind: 'file', why: 'a workspace\'s folders, settings and tasks' },
  { name: '.gitmodules', brief: true, kind: 'file', why: 'submodule URLs and paths git clones and checks out' },
  { name: '.gitattributes', brief: true, kind: 'file', why: 'the filters and diff drivers git runs on files' },
  { name: '.git', kind: 'file', why: 'a .git file points git at another repository' },
  { name: '.gitconfig', kind: 'file', why: 'git configuration an include can pull in' },
];

/**
 * Entries of a git directory that git obeys. A git directory is a `.git` folder, a bare repository
 * (by convention a folder named `*.git`; the sandbox also finds bare repositories of any name by
 * their HEAD and objects), and a submodule's `<git dir>/modules/<name>` (names may hold slashes).
 */
export const GIT_DIRECTORY_CONFIG: readonly ProtectedName[] = [
  { name: 'config', brief: true, kind: 'file', why: 'the repository\'s configuration (fsmonitor, pager, aliases, filters: programs git runs)' },
  { name: 'config.worktree', kind: 'file', why: 'configuration for one worktree' },
  { name: 'commondir', kind: 'file', why: 'points git at another repository\'s configuration' },
  { name: 'hooks', brief: true, kind: 'folder', why: 'programs git runs on commit, checkout, merge and push' },
  { name: 'info/attributes', kind: 'file', why: 'attributes (filters, diff drivers) for every path' },
  { name: 'worktrees', kind: 'folder', why: 'linked worktrees\' git directories (their HEAD, config and commondir)' },
];

/** The folder of a git directory under which submodules' git directories live. */
const SUBMODULE_FOLDER = 'modules';

/** File names whose contents are secrets wherever they are, and `.env.<anything>` but its committed templates. */
export const SECRET_NAMES = {
  exact: ['.env', '.envrc', '.netrc', '_netrc', '.npmrc', '.pypirc', '.git-credentials'],
  variantsOf: '.env',
  templates: ['example', 'sample', 'template', 'dist', 'defaults'],
} as const;

/**
 * Credentials in the home folder (relative to it): hidden from commands and denied to the file
 * tools (read and write). Shell and REPL histories are here too: they hold pasted tokens.
 * `~/.yarnrc.yml` holds Yarn 2+'s npmAuthToken; Yarn 1's `~/.yarnrc` holds none and stays.
 */
export const HOME_SECRETS: readonly string[] = [
  '.ssh', '.gnupg', '.aws', '.config/gcloud', '.azure', '.kube',
  '.netrc', '_netrc', '.git-credentials', '.config/git/credentials', '.config/gh', '.config/hub',
  '.npmrc', '.yarnrc.yml', '.pypirc', '.docker/config.json', '.cargo/credentials', '.cargo/credentials.toml',
  '.gem/credentials', '.m2/settings-security.xml', '.terraform.d/credentials.tfrc.json', '.vault-token',
  '.password-store', '.local/share/keyrings',
  // Build tools' and databases' passwords, and the coding agents' own tokens.
  '.m2/settings.xml', '.gradle/gradle.properties', '.ivy2/.credentials', '.sbt/.credentials', '.my.cnf', '.pgpass', '.s3cfg', '.boto',
  '.config/rclone', '.config/github-copilot', '.claude/.credentials.json', '.codex/auth.json', '.gemini/oauth_creds.json',
  '.bash_history', '.zsh_history', '.local/share/fish/fish_history', '.python_history', '.node_repl_history',
  '.psql_history', '.mysql_history', '.sqlite_history', '.rediscli_history', '.lesshst',
];

/**
 * Entries of the home folder (relative to it) that run programs outside any sandbox: whenever git
 * runs anywhere (VS Code's git extension included), at every shell start, at login, or by name
 * from PATH. Denied to the file tools at every level, and read-only to commands even in a writable
 * folder a user setting names (`~/.config`); the home folder itself is never writable (plan.ts).
 * Whole folders where one file would do (`.config/git`: config, attributes and ignore rules alike),
 * and the folders login scripts put on PATH when they exist (`~/bin`, `~/.local/bin`).
 */
export const HOME_EXECUTION_CONFIG: readonly ProtectedName[] = [
  { name: '.gitconfig', kind: 'file', why: 'git\'s global configuration: fsmonitor, pager, aliases and filters run by every git' },
  { name: '.config/git', kind: 'folder', why: 'git\'s global configuration, attributes and ignore rules' },
  { name: '.profile', kind: 'file', why: 'runs at login' },
  { name: '.bash_profile', kind: 'file', why: 'runs when bash starts a login shell' },
  { name: '.bash_login', kind: 'file', why: 'runs when bash starts a login shell' },
  { name: '.bash_logout', kind: 'file', why: 'runs when a bash login shell ends' },
  { name: '.bashrc', kind: 'file', why: 'runs at every bash start' },
  { name: '.bashrc.d', kind: 'folder', why: 'scripts .bashrc runs (Fedora)' },
  { name: '.zshenv', kind: 'file', why: 'runs at every zsh start, scripts included' },
  { name: '.zprofile', kind: 'file', why: 'runs when zsh starts a login shell' },
  { name: '.zshrc', kind: 'file', why: 'runs at every interactive zsh start' },
  { name: '.zlogin', kind: 'file', why: 'runs when zsh starts a login shell' },
  { name: '.zlogout', kind: 'file', why: 'runs when a zsh login shell ends' },
  { name: '.config/fish', kind: 'folder', why: 'fish\'s start-up scripts and functions' },
  { name: '.inputrc', kind: 'file', why: 'readline key bindings, which can type whole commands' },
  { name: '.pam_environment', kind: 'file', why: 'variables set at login (LD_PRELOAD, PATH)' },
  { name: '.config/environment.d', kind: 'folder', why: 'variables systemd sets for the user\'s session' },
  { name: '.xprofile', kind: 'file', why: 'runs when the graphical session starts' },
  { name: '.xsessionrc', kind: 'file', why: 'runs when the graphical session starts' },
  { name: '.xinitrc', kind: 'file', why: 'runs when startx starts the graphical session' },
  { name: '.config/autostart', kind: 'folder', why: 'programs the desktop starts at login' },
  { name: '.config/systemd/user', kind: 'folder', why: 'services systemd starts for the user' },
  { name: 'Library/LaunchAgents', kind: 'folder', why: 'programs launchd starts at login (macOS)' },
  { name: '.local/bin', kind: 'folder', why: 'programs on PATH, found before the system\'s' },
  { name: 'bin', kind: 'folder', why: 'programs on PATH once it exists (Debian\'s and Ubuntu\'s .profile)' },
];

/** The home table's entries as absolute paths. */
export function homeExecutionConfigPaths(home: string): string[] {
  return HOME_EXECUTION_CONFIG.map((row) => path.posix.join(home, row.name));
}

/** True when the path is, or lies inside, a row of HOME_EXECUTION_CONFIG (names compared by their keys). */
export function isHomeExecutionConfig(p: string, home: string): boolean {
  const entries = homeExecutionConfigPaths(home).map(pathKey);
  return matchesAnyForm(p, (target) => entries.some((entry) => isInsidePath(target, entry)));
}

/** System files that hold secrets. */
export const SYSTEM_SECRETS: readonly string[] = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers'];

/** Files in VS Code's user data folders (`User`, `User/profiles/<id>`, a server's `Machine`) that VS Code obeys. */
const USER_CONFIG_FILES = new Set(['settings.json', 'tasks.json', 'keybindings.json', 'mcp.json', 'launch.json']);
/** Folders whose `extensions` subfolder holds installed extensions, which VS Code runs. */
const EXTENSION_HOMES = new Set(['.vscode', '.vscode-insiders', '.vscode-server', '.vscode-server-insiders', '.vscode-oss', '.cursor', 'code-server']);

function components(p: string): string[] {
  return p.split('/').filter(Boolean);
}

// --- the forms of a path ----------------------------------------------------------------------

/** Every name of the tables above, one component each, by key: what an 8.3 short name may stand for. */
let tableNames: readonly string[] | undefined;
function namesOfTheTable(): readonly string[] {
  const rows = [...WORKSPACE_EXECUTION_CONFIG, ...GIT_DIRECTORY_CONFIG, ...HOME_EXECUTION_CONFIG].map((row) => row.name);
  tableNames ??= [
    ...new Set(
      [...rows, ...SECRET_NAMES.exact, ...HOME_SECRETS, ...SYSTEM_SECRETS, ...USER_CONFIG_FILES, ...EXTENSION_HOMES, SUBMODULE_FOLDER, 'user', 'machine', 'profiles', 'extensions']
        .flatMap((name) => name.split('/'))
        .filter((name) => name !== '' && !name.includes('*'))
        .map(nameKey),
    ),
  ];
  return tableNames;
}

/** The names of the table a component may be: its key, and for an 8.3 short name every name it may stand for, wildcard rows (`*.code-workspace`, `*.git`, `.env.*`) included. */
function nameForms(component: string): string[] {
  const key = nameKey(component);
  if (!isShortNameShape(key)) {
    return [key];
  }
  const [stem, extension] = [key.slice(0, key.indexOf('~')), key.includes('.') ? key.slice(key.lastIndexOf('.') + 1) : undefined];
  const wildcards = [`${stem}.code-workspace`, `${stem}.git`, ...(extension === undefined ? [] : [`${SECRET_NAMES.variantsOf}.${extension}`])];
  return [key, ...[...namesOfTheTable(), ...wildcards].filter((name) => couldBeShortName(key, name))];
}

/** macOS's /var, /tmp and /etc are links to /private/var, /private/tmp and /private/etc: one place under two names. */
const PRIVATE = /^\/private(?=\/(?:var|tmp|etc)(?:\/|$))/;

/** A path whose only form is its lower case: printable ASCII without `:` or `~`, not under /private, no component ending in a dot or a space. */
const PLAIN_PATH = /^(?!\/private(?:\/|$))[\x20-\x39\x3b-\x7d]*$/;
const ENDS_IN_DOT_OR_SPACE = /[. ](?:\/|$)/;

/** A path with more 8.3 short names than this (each a handful of forms) counts as every protected name: fail closed. */
const MAX_FORMS = 256;

/**
 * Every form a path may take on some file system, by key: each component by nameForms, and macOS's
 * `/private/var` also as `/var`. Undefined when there are too many to try.
 */
export function pathForms(p: string): string[] | undefined {
  if (PLAIN_PATH.test(p) && !ENDS_IN_DOT_OR_SPACE.test(p)) {
    return [p.toLowerCase()];
  }
  let forms = [''];
  for (const [index, part] of p.split('/').entries()) {
    const options = part === '' ? [''] : nameForms(part);
    forms = forms.flatMap((form) => options.map((option) => (index === 0 ? option : `${form}/${option}`)));
    if (forms.length > MAX_FORMS) {
      return undefined;
    }
  }
  return [...forms, ...forms.filter((form) => PRIVATE.test(form)).map((form) => form.replace(PRIVATE, ''))];
}

/** True when any form of the path passes the test, or when it has too many forms to try (fail closed). */
export function matchesAnyForm(p: string, test: (form: string) => boolean): boolean {
  return pathForms(p)?.some(test) ?? true;
}

/**
 * True when the path is, or lies inside, execution config of the workspace table: a row of
 * WORKSPACE_EXECUTION_CONFIG in any folder, or a row of GIT_DIRECTORY_CONFIG in any git directory.
 * It is the Seatbelt profile's regexes run in JavaScript, so the guard and Seatbelt cannot disagree.
 */
export function isWorkspaceExecutionConfig(p: string): boolean {
  const absolute = p.startsWith('/') ? p : `/${p}`;
  return matchesAnyForm(absolute, (form) => protectedRegexes().paths.some((regex) => regex.test(form)));
}

/**
 * The entry the sandbox binds read-only for a file it listed under `root`: the shallowest
 * protected folder below the root that holds it (`.vscode`, a git directory's `hooks`), else the
 * file itself if it is protected.
 */
export function protectedEntryOf(file: string, root: string): string | undefined {
  const { folders } = protectedRegexes();
  const parts = file.split('/');
  for (let end = root.split('/').length + 1; end < parts.length; end += 1) {
    const prefix = parts.slice(0, end).join('/');
    if (folders.some((regex) => regex.test(prefix))) {
      return prefix;
    }
  }
  return isWorkspaceExecutionConfig(file) ? file : undefined;
}

/**
 * Files whose contents VS Code, git or this extension execute or obey: the workspace table, plus
 * VS Code's user settings, tasks, keybindings and MCP servers, and installed extensions (outside
 * any workspace: the sandbox keeps them read-only with the rest of the disk).
 */
export function isExecutionConfigPath(p: string): boolean {
  return isWorkspaceExecutionConfig(p) || matchesAnyForm(p, isUserExecutionConfig);
}

/** VS Code's user settings, tasks, keybindings and MCP servers, and installed extensions; `p` is a form by key. */
function isUserExecutionConfig(p: string): boolean {
  const parts = components(p);
  const name = parts[parts.length - 1] ?? '';
  const parent = parts[parts.length - 2] ?? '';
  // <user data>/User/settings.json, .../User/profiles/<id>/tasks.json, .../Machine/settings.json
  const userDataFolder = parent === 'user' || parent === 'machine' || (parts[parts.length - 3] === 'profiles' && parts[parts.length - 4] === 'user');
  if (USER_CONFIG_FILES.has(name) && userDataFolder) {
    return true;
  }
  const extensionsIndex = parts.indexOf('extensions');
  return extensionsIndex > 0 && extensionsIndex < parts.length - 1 && EXTENSION_HOMES.has(parts[extensionsIndex - 1]);
}

/** A committed template such as `.env.example`, which anyone may read. */
function isTemplate(name: string): boolean {
  return SECRET_NAMES.templates.some((template) => name.endsWith(`.${template}`));
}

/** Files whose contents are secrets wherever they are: `.env` and its variants (not the templates), `.envrc`, netrc, `.npmrc`, `.pypirc`, `.git-credentials`. */
export function isSecretFile(p: string): boolean {
  return nameForms(path.posix.basename(p)).some(isSecretName);
}

/** A secret file's name, by key. */
function isSecretName(name: string): boolean {
  if ((SECRET_NAMES.exact as readonly string[]).includes(name)) {
    return true;
  }
  return name.startsWith(`${SECRET_NAMES.variantsOf}.`) && !isTemplate(name);
}

/** The home credentials and system secret files, as absolute paths, for the sandbox to hide. */
export function sensitiveLocalPaths(home: string): string[] {
  return [...HOME_SECRETS.map((entry) => path.posix.join(home, entry)), ...SYSTEM_SECRETS];
}

/** What a protected entry configures, from the row that protects it. */
export function whyProtected(p: string): string {
  const absolute = p.startsWith('/') ? p : `/${p}`;
  const rows = [...WORKSPACE_EXECUTION_CONFIG, ...GIT_DIRECTORY_CONFIG];
  const index = protectedRegexes().paths.findIndex((regex) => matchesAnyForm(absolute, (form) => regex.test(form)));
  return index === -1 ? 'execution config' : rows[index].why;
}

// --- ripgrep -----------------------------------------------------------------------------------

/** The file every git directory has; the sandbox finds repositories (nested, bare, submodules) by it. */
export const GIT_DIRECTORY_MARKER = 'HEAD';

/**
 * The ripgrep globs (`--files`, hidden and ignored files included, case-insensitive) that list the
 * workspace's secret files, its protected files, every file inside a protected folder, and the
 * HEAD of every git directory. The walk stays out of git's object store, refs and logs.
 */
/** The secret file names as globs of one path component: every exact name, and `.env.*`. */
export function secretFileGlobs(): string[] {
  return [...SECRET_NAMES.exact, `${SECRET_NAMES.variantsOf}.*`];
}

export function workspaceScanGlobs(): string[] {
  const rowGlob = (row: ProtectedName): string => (row.kind === 'folder' ? `${row.name}/**` : row.name);
  const workspaceGlobs = WORKSPACE_EXECUTION_CONFIG.map((row) => `**/${rowGlob(row)}`);
  const gitGlobs = GIT_DIRECTORY_CONFIG.flatMap((row) => [`**/*.git/${rowGlob(row)}`, `**/*.git/${SUBMODULE_FOLDER}/**/${rowGlob(row)}`]);
  const secretGlobs = secretFileGlobs();
  // Last, so they win over the names above: the object store can be most of a repository's files.
  const skipped = ['objects', 'refs', 'logs', 'lfs'].flatMap((folder) => [`!**/*.git/${folder}`, `!**/*.git/${SUBMODULE_FOLDER}/**/${folder}`]);
  return [...secretGlobs, ...workspaceGlobs, ...gitGlobs, GIT_DIRECTORY_MARKER, ...skipped];
}

// --- Seatbelt ----------------------------------------------------------------------------------

/** A regex that matches the text in either letter case (APFS ignores case), metacharacters escaped. */
export function anyCase(text: string): string {
  return [...text].map((char) => (/[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : /[.^$*+?()[\]{}|\\]/.test(char) ? `\\${char}` : char)).join('');
}

/** The row's name as a regex, without the end: `$` for the entry itself, `(/|$)` for a folder and what it holds. */
function nameRegex(row: ProtectedName): string {
  return row.name.startsWith('*') ? `[^/]*${anyCase(row.name.slice(1))}` : anyCase(row.name);
}

/** One row as a regex over absolute paths of the entry itself, without the end. */
interface ProtectedPattern {
  readonly pattern: string;
  readonly kind: 'file' | 'folder';
}

/** The rows as regexes of the entries themselves (ending in `$`). */
function entryPatterns(): ProtectedPattern[] {
  const gitDirectory = `/[^/]*${anyCase('.git')}(/${anyCase(SUBMODULE_FOLDER)}/.+)?/`;
  return [
    ...WORKSPACE_EXECUTION_CONFIG.map((row) => ({ pattern: `/${nameRegex(row)}`, kind: row.kind })),
    ...GIT_DIRECTORY_CONFIG.map((row) => ({ pattern: `${gitDirectory}${nameRegex(row)}`, kind: row.kind })),
  ];
}

/** The rows as regexes of the protected paths: an entry, and for a folder everything in it. */
function protectedPatterns(): string[] {
  return entryPatterns().map(({ pattern, kind }) => (kind === 'folder' ? `${pattern}(/|$)` : `${pattern}$`));
}

interface CompiledPatterns {
  readonly paths: readonly RegExp[];
  readonly folders: readonly RegExp[];
}
let compiled: CompiledPatterns | undefined;
/** `s`: `.` matches a newline, as in Seatbelt's POSIX regexes (a folder name may hold one). */
function protectedRegexes(): CompiledPatterns {
  compiled ??= {
    paths: protectedPatterns().map((pattern) => new RegExp(pattern, 's')),
    folders: entryPatterns().filter((row) => row.kind === 'folder').map(({ pattern }) => new RegExp(`${pattern}$`, 's')),
  };
  return compiled;
}

/**
 * Regexes (Seatbelt's `#"..."`, POSIX extended) that match the workspace table's paths at any
 * depth, in any letter case; the profile scopes them to the writable folders.
 */
export function seatbeltProtectedPatterns(): string[] {
  return protectedPatterns();
}

/** Regexes of the secret names, wherever they are; the templates are read again by seatbeltTemplatePattern. */
export function seatbeltSecretPatterns(): string[] {
  return [
    `/(${SECRET_NAMES.exact.map(anyCase).join('|')})$`,
    `/${anyCase(SECRET_NAMES.variantsOf)}\\.[^/]*$`,
  ];
}

let gitDirectoryConfigRegexes: readonly RegExp[] | undefined;
/**
 * True when a path relative to a git directory (a `.git` folder, a bare repository of any name) is
 * one of its GIT_DIRECTORY_CONFIG entries, or inside one, its own or a submodule's under `modules/`.
 */
export function isGitDirectoryConfig(relative: string): boolean {
  gitDirectoryConfigRegexes ??= GIT_DIRECTORY_CONFIG.map(
    (row) => new RegExp(`^(${anyCase(SUBMODULE_FOLDER)}/.+/)?${nameRegex(row)}${row.kind === 'folder' ? '(/|$)' : '$'}`, 's'),
  );
  const regexes = gitDirectoryConfigRegexes;
  return matchesAnyForm(relative, (form) => regexes.some((regex) => regex.test(form)));
}

/** The committed templates of the `.env` variants, which stay readable. */
export function seatbeltTemplatePattern(): string {
  return `/${anyCase(SECRET_NAMES.variantsOf)}\\.([^/]*\\.)?(${SECRET_NAMES.templates.map(anyCase).join('|')})$`;
}

// --- sentences ---------------------------------------------------------------------------------

/** How a row reads in a sentence: folders with a trailing slash. */
function shown(row: ProtectedName): string {
  return row.kind === 'folder' ? `${row.name}/` : row.name;
}

/**
 * The protected names in one phrase: every row for the tool's description, the brief rows for
 * the line every sandboxed result carries.
 */
export function describeProtected(form: 'brief' | 'full' = 'full'): string {
  const pick = (rows: readonly ProtectedName[]): string => rows.filter((row) => form === 'full' || row.brief).map(shown).join(', ');
  return `${pick(WORKSPACE_EXECUTION_CONFIG)} and every repository's (nested, submodule, bare) ${pick(GIT_DIRECTORY_CONFIG)}`;
}

/** The secrets in one phrase. */
export function describeSecrets(): string {
  return `~/.ssh, ~/.aws, ~/.git-credentials and other credential files, ${SECRET_NAMES.exact.filter((name) => !name.startsWith('_')).join(', ')} and .env.* files`;
}
