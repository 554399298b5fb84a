// What a sandboxed command may touch, worked out from the guard's table of protected and secret
// names (guard/protectedNames.ts) before each run: the folders writes may use, the execution
// config inside them that stays read-only (at any depth), the folders pinned so no protected path
// can be renamed away and replaced, and the secrets and sockets that cannot be reached.
// bubblewrap.ts and seatbelt.ts turn the plan into a launcher; lease.ts holds it for one run.
import * as path from 'node:path';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import { fileLocation, isInsidePath } from '../location';
import type { FileSystem } from '../ports/fileSystem';
import type { SandboxHost } from '../ports/process';
import type { CacheBind } from './caches';
import { resolveRoots } from '../guard/judgeLocation';
import { isGitDirectory } from '../guard/gitDirectories';
import { GIT_DIRECTORY_CONFIG, GIT_DIRECTORY_MARKER, homeExecutionConfigPaths, isSecretFile, protectedEntryOf, secretFileGlobs, sensitiveLocalPaths, workspaceScanGlobs } from '../guard/protectedNames';
import { protectedLinks } from '../guard/protectedLinks';
import { refusedGrant } from './grants';

/** Everything a launcher needs; paths are absolute on the extension host's disk. */
export interface SandboxPlan {
  /** The folders writes may use (the workspace folders, or allowedWritePaths), symlinks resolved. */
  readonly writable: readonly string[];
  /** Workspace folders or allowedWritePaths entries that stay read-only, and why (see splitWritable); none when left out. */
  readonly notWritable?: readonly NotWritable[];
  /**
   * Folders inside the writable ones bound onto themselves, shallowest first: every folder between
   * a writable folder and a protected entry. A mount point cannot be renamed or removed (EBUSY),
   * so no protected path can be moved away and replaced (`mv .git x && mkdir .git`).
   */
  readonly pinned: readonly string[];
  /** Existing execution config inside the writable folders, at any depth (see protectedNames.ts). */
  readonly readOnly: readonly string[];
  /** Protected folders that do not exist yet (`.vscode`, a repository's `hooks`): bound read-only to an empty folder. */
  readonly readOnlyMissing: readonly string[];
  /** Secret folders (in the home folder, the extension's storage), shown empty and read-only. */
  readonly hiddenDirectories: readonly string[];
  /** Secret files (system files, home credentials, `.env` and the like in the workspace) and agent sockets, shown as /dev/null. */
  readonly hiddenFiles: readonly string[];
  /**
   * Where hidden folders and files lead once their links are resolved, where that is another path
   * (`~/.aws` a link into a dotfiles folder, a `.env` linked to a file of another name): Seatbelt
   * matches resolved paths, so it hides these too; bubblewrap's mounts follow the links themselves.
   */
  readonly hiddenTargets?: readonly string[];
  /** Folders of the session's unix sockets (/run, $XDG_RUNTIME_DIR), replaced by an empty tmpfs before anything else is bound. */
  readonly emptiedRuntime: readonly string[];
  /** Folders under an emptied one bound back read-only: the folder of /etc/resolv.conf's target, for commands with the network. */
  readonly keptRuntime: readonly string[];
  /** Package managers' caches, bound writable at their usual folders (caches.ts). */
  readonly caches: readonly CacheBind[];
  /** The private folder the command gets as /tmp. */
  readonly tempDirectory: string;
  /** An empty folder to bind where a protected folder is missing. */
  readonly emptyDirectory: string;
  /** False for commands that ran without asking: no network at all, loopback included. */
  readonly network: boolean;
  /**
   * How an approved command (network: true) reaches the extension's proxy, its only way out, and
   * how a background command's servers are reached; none when the machine has no proxy, and then
   * an approved command has no network either.
   */
  readonly proxy?: SandboxProxy;
  /**
   * A background command: the servers it starts are reachable on the machine's loopback while it
   * runs (forwarded by the relay on Linux, so `proxy` is set; allowed to listen there on macOS).
   */
  readonly serves?: boolean;
}

/**
 * The command's network endpoint as the launcher needs it. On Linux the folder of its unix sockets,
 * bound into the command's own network namespace, and the relay that serves them there: the proxy
 * on loopback ports and the machine's loopback ports (`local`) for an approved command, its
 * listening ports forwarded to the machine (`ports`) for a background one (ports.ts). On macOS the
 * proxy's loopback TCP ports and the machine's loopback ports the command may reach, the only
 * network the profile allows, and for a background command its own listening ports there.
 */
export type SandboxProxy =
  | { readonly transport: 'unix'; readonly directory: string; readonly relay: { readonly program: string; readonly script: string }; readonly proxy: boolean; readonly ports: boolean; readonly local: readonly number[] }
  | { readonly transport: 'tcp'; readonly http: number; readonly socks: number; readonly local: readonly number[] };

/** A folder the settings or the workspace name as writable that the sandbox keeps read-only. */
export interface NotWritable {
  readonly folder: string;
  readonly why: string;
}

/**
 * The writable folders split into those the sandbox makes writable and those it keeps read-only
 * whatever a setting or a workspace file says: the home folder, any folder that holds it (`/`,
 * `/home`), a system folder or one that holds one, a folder on PATH or inside one (a program put
 * there runs outside the sandbox when its name is typed), and a folder inside a hidden one. A
 * folder is judged as named and with its links resolved (bubblewrap binds what a link leads to).
 * `searchPath`: the host's PATH folders, as named and resolved.
 */
export async function splitWritable(ctx: ToolContext, folders: readonly string[], searchPath: readonly string[], hidden: readonly string[]): Promise<{ writable: string[]; notWritable: NotWritable[] }> {
  const fs = ctx.host.fs;
  const home = ctx.workspace.home;
  const writable: string[] = [];
  const notWritable: NotWritable[] = [];
  for (const folder of folders) {
    const real = fs.localPath(await fs.realpath(fileLocation(folder)).catch(() => fileLocation(folder))) ?? folder;
    const why = refusedGrant(folder, home, hidden, searchPath) ?? (real === folder ? undefined : refusedGrant(real, home, hidden, searchPath));
    if (why) {
      notWritable.push({ folder, why });
    } else {
      writable.push(folder);
    }
  }
  return { writable, notWritable };
}

/** PATH's absolute folders as named and with their links resolved (`/bin` is often `/usr/bin`). */
export async function resolvedSearchPath(ctx: ToolContext, entries: readonly string[]): Promise<string[]> {
  const fs = ctx.host.fs;
  const folders = new Set<string>();
  for (const entry of entries) {
    if (!entry.startsWith('/')) {
      continue;
    }
    const named = path.posix.normalize(entry).replace(/(.)\/$/, '$1');
    folders.add(named);
    folders.add(fs.localPath(await fs.realpath(fileLocation(named)).catch(() => fileLocation(named))) ?? named);
  }
  return [...folders];
}

/** What the walk of the writable folders found, before the missing folders are held. */
export interface WorkspaceScan {
  readonly secrets: readonly string[];
  /** Existing protected files and folders. */
  readonly protectedEntries: readonly string[];
  /** Protected folders that must exist as mount points even when missing: each root's `.vscode`, each repository's `hooks`. */
  readonly mustExist: readonly string[];
  /**
   * Protected entries that are links (guard/protectedLinks.ts), as `link -> target`: their targets
   * are bound read-only, but a link is no mount point, so bubblewrap cannot keep it from being
   * renamed away and replaced; the lease reports a link that changed (addedSince).
   */
  readonly links: readonly string[];
}

/**
 * One ripgrep walk of the writable folders with the table's globs: the secret files, the protected
 * files and folders at any depth, and the git directories (by their HEAD: nested repositories,
 * submodules' git directories, bare repositories of any name), whose config, hooks and the rest of
 * GIT_DIRECTORY_CONFIG are then looked up. Throws a ToolError when the walk did not finish in time.
 */
export async function scanWorkspace(ctx: ToolContext, host: SandboxHost, writable: readonly string[], searchPath: readonly string[] = []): Promise<WorkspaceScan> {
  const fs = ctx.host.fs;
  const files = await scannedFiles(ctx, host, writable);
  if (!files) {
    throw new ToolError('The sandbox could not be prepared: searching the workspace for secret files (.env) and protected files (.git/config, .vscode) took too long. Ask the user to run the command, or to open a smaller folder.');
  }
  const secrets: string[] = [];
  const entries = new Set<string>();
  const gitDirectories = new Set<string>();
  for (const file of files) {
    const root = writable.find((folder) => isInsidePath(file, folder));
    if (!root) {
      continue;
    }
    if (isSecretFile(file)) {
      secrets.push(file);
    }
    const entry = protectedEntryOf(file, root);
    if (entry) {
      entries.add(entry);
    }
    if (path.posix.basename(file) === GIT_DIRECTORY_MARKER && (await isGitDirectory(ctx.host.fs, fileLocation(path.posix.dirname(file))))) {
      gitDirectories.add(path.posix.dirname(file));
    }
  }
  const mustExist: string[] = [];
  for (const root of writable) {
    const rootEntries = await fs.readDirectory(fileLocation(root)).catch(() => []);
    mustExist.push(path.posix.join(root, rootEntries.find((entry) => entry.name.toLowerCase() === '.vscode')?.name ?? '.vscode'));
    // A workspace folder's own `.git` folder counts by its name, as the guard's table says.
    const git = rootEntries.find((entry) => entry.name.toLowerCase() === '.git');
    if (git && (await fs.stat(fileLocation(path.posix.join(root, git.name))))?.kind === 'directory') {
      gitDirectories.add(path.posix.join(root, git.name));
    }
  }
  for (const gitDirectory of gitDirectories) {
    for (const row of GIT_DIRECTORY_CONFIG) {
      const entry = path.posix.join(gitDirectory, row.name);
      if (row.name === 'hooks') {
        mustExist.push(entry);
      } else if (await fs.stat(fileLocation(entry))) {
        entries.add(entry);
      }
    }
  }
  // What a protected link leads to is protected too: VS Code, git and the shells follow the link.
  const links: string[] = [];
  for (const { link, target, targetKind } of await protectedLinks(fs, writable, [...gitDirectories], ctx.workspace.home)) {
    if (writable.some((folder) => isInsidePath(link, folder))) {
      links.push(`${link} -> ${target}`);
    }
    const root = writable.find((folder) => isInsidePath(target, folder) && target !== folder);
    if (root && !(path.posix.basename(link).toLowerCase() === '.git' && targetKind === 'directory')) {
      entries.add(target);
    }
  }
  // The home table's entries and PATH's folders inside a writable folder (a user setting named
  // `~/.config`, or a folder that holds `~/.local/bin`) stay read-only, existing or not.
  for (const entry of [...homeExecutionConfigPaths(ctx.workspace.home), ...searchPath]) {
    const root = writable.find((folder) => isInsidePath(entry, folder) && entry !== folder);
    const hold = root ? await holdOf(ctx, root, entry) : undefined;
    if (hold?.kind === 'readOnly') {
      entries.add(hold.path);
    } else if (hold) {
      mustExist.push(hold.path);
    }
  }
  const protectedEntries = [...entries].filter((entry) => !mustExist.includes(entry));
  // A folder inside an entry that is bound read-only anyway (a linked worktree's git directory in
  // `worktrees/`) cannot be made as a mount point there, and needs none.
  const insideReadOnly = (folder: string): boolean => protectedEntries.some((entry) => folder !== entry && isInsidePath(folder, entry));
  return { secrets, protectedEntries, mustExist: [...new Set(mustExist)].filter((folder) => !insideReadOnly(folder)), links };
}

/**
 * What keeps an entry inside a writable folder from being written: the entry itself when it
 * exists (bound read-only), else the shallowest missing folder on the way to it (an empty
 * read-only folder there, so nothing can be made under it), or an existing file on the way (bound
 * read-only: a mount point cannot be removed to make a folder in its place).
 */
async function holdOf(ctx: ToolContext, root: string, entry: string): Promise<{ kind: 'readOnly' | 'mustExist'; path: string }> {
  const parts = path.posix.relative(root, entry).split('/');
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = path.posix.join(current, part);
    const stat = await ctx.host.fs.stat(fileLocation(current));
    if (!stat) {
      return { kind: 'mustExist', path: current };
    }
    if (index < parts.length - 1 && stat.kind !== 'directory') {
      return { kind: 'readOnly', path: current };
    }
  }
  return { kind: 'readOnly', path: entry };
}

/**
 * What the walk lists: from the index for the folders it vouches for (sandbox/scanIndex.ts), from
 * a ripgrep walk for the others (not indexed yet, a watch that failed, events maybe dropped).
 */
async function scannedFiles(ctx: ToolContext, host: SandboxHost, writable: readonly string[]): Promise<string[] | undefined> {
  const indexed = host.scanIndex ? await host.scanIndex.lookup(writable) : { files: [], unindexed: writable };
  const walked = indexed.unindexed.length > 0 ? await host.listFiles(indexed.unindexed, workspaceScanGlobs(), ctx.call.token) : [];
  return walked && [...indexed.files, ...walked];
}

/**
 * The secret files in workspace folders the sandbox keeps read-only (the home folder opened as a
 * folder, a folder on PATH, a system folder), outside every writable one: read-only is not hidden,
 * so they are found and hidden as the writable folders' are. Nothing is written there, so nothing
 * else of the table needs keeping. A folder that holds the home folder (`/`, `/home`) is the whole
 * machine, not a workspace: there the home and system tables are what is hidden, as everywhere
 * outside the workspace. Undefined when the walk did not finish.
 */
export async function readOnlySecrets(ctx: ToolContext, host: SandboxHost, notWritable: readonly NotWritable[], writable: readonly string[]): Promise<string[] | undefined> {
  const home = ctx.workspace.home;
  const holdsHome = (folder: string): boolean => folder !== home && isInsidePath(home, folder);
  const folders = notWritable.map((entry) => entry.folder).filter((folder) => !holdsHome(folder) && !writable.some((root) => isInsidePath(folder, root)));
  const files = await host.listFiles(folders, secretFileGlobs(), ctx.call.token);
  return files?.filter((file) => isSecretFile(file));
}

/** Spellings a volume may give a name besides its own: the other letter case, a `:` stream suffix (ntfs-3g's Windows streams), a trailing dot or space (Windows). */
export function otherSpellingsOf(name: string): string[] {
  const swapped = [...name].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');
  return [...new Set([swapped, `${name}:`, `${name}.`, `${name} `])].filter((spelling) => spelling !== name);
}

/**
 * The folders, among those holding an entry the sandbox keeps read-only or hides, where another
 * spelling of that entry reaches something the folder does not list. bubblewrap's mount covers the
 * spelling it was made on, and on such a folder (a volume that ignores case through FUSE or 9p, one
 * folder of WSL's /mnt/c whose case flag differs from its workspace folder's, ntfs-3g's streams)
 * another spelling gets past it. One entry is tried per folder: the volume decides, not the name.
 */
export async function foldersWithOtherSpellings(fs: FileSystem, entries: readonly string[]): Promise<string[]> {
  const oneEntry = new Map<string, string>();
  for (const entry of entries) {
    const folder = path.posix.dirname(entry);
    if (!oneEntry.has(folder)) {
      oneEntry.set(folder, path.posix.basename(entry));
    }
  }
  // A stat of each spelling first (cheap, and nothing on most volumes), all at once; the listing tells an alias from an entry of that name.
  const aliased = await Promise.all(
    [...oneEntry].map(async ([folder, name]) => {
      const reached = (await Promise.all(otherSpellingsOf(name).map(async (other) => ((await fs.stat(fileLocation(path.posix.join(folder, other)))) ? other : undefined)))).filter((other): other is string => other !== undefined);
      if (reached.length === 0) {
        return undefined;
      }
      const listed = new Set((await fs.readDirectory(fileLocation(folder)).catch(() => [])).map((entry) => entry.name));
      return reached.some((other) => !listed.has(other)) ? folder : undefined;
    }),
  );
  return aliased.filter((folder): folder is string => folder !== undefined);
}

/** The folders strictly between a writable folder and each entry: bound onto themselves so none can be renamed. */
export function pinnedFolders(writable: readonly string[], entries: readonly string[]): string[] {
  const pinned = new Set<string>();
  for (const entry of entries) {
    const root = writable.find((folder) => isInsidePath(entry, folder) && entry !== folder);
    if (!root) {
      continue;
    }
    for (let folder = path.posix.dirname(entry); folder !== root && isInsidePath(folder, root); folder = path.posix.dirname(folder)) {
      pinned.add(folder);
    }
  }
  return byDepth([...pinned]);
}

/** Shallowest first, so a later bind never covers an earlier one inside it. */
export function byDepth(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** The folders the writable roots resolve to, on the local disk. */
export async function writableFolders(ctx: ToolContext): Promise<string[]> {
  const fs = ctx.host.fs;
  const roots = (await resolveRoots('write', ctx)).filter((root) => root.scheme === 'file');
  const writable: string[] = [];
  for (const root of roots) {
    const rootPath = fs.localPath(root);
    // resolveRoots gives each root as written and with links resolved: often the same path twice.
    if (rootPath && !writable.includes(rootPath) && (await fs.stat(root))?.kind === 'directory') {
      writable.push(rootPath);
    }
  }
  return writable;
}

/** What the command's environment says about the session's sockets. */
export interface SessionSockets {
  readonly XDG_RUNTIME_DIR?: string;
  readonly SSH_AUTH_SOCK?: string;
  readonly GNUPGHOME?: string;
}

/**
 * The session's unix sockets: /run and $XDG_RUNTIME_DIR are emptied (the system and session
 * buses, the keyring, the gpg agent, the Docker and Podman sockets, the desktop's sockets live there); the ssh agent's socket is hidden where it lies
 * outside them. A folder that holds a writable folder is left alone (the command needs it).
 */
async function runtimePlan(ctx: ToolContext, env: SessionSockets, writable: readonly string[], network: boolean): Promise<Pick<SandboxPlan, 'emptiedRuntime' | 'keptRuntime'> & { sockets: string[] }> {
  const fs = ctx.host.fs;
  const emptied: string[] = [];
  // /var/run is usually a link to /run (then it is emptied once); where it is a folder of its own,
  // the Docker socket and the like live there.
  for (const folder of ['/run', '/var/run', env.XDG_RUNTIME_DIR]) {
    if (!folder || !folder.startsWith('/')) {
      continue;
    }
    const real = fs.localPath(await fs.realpath(fileLocation(folder)).catch(() => fileLocation(folder))) ?? folder;
    if (emptied.some((done) => isInsidePath(real, done))) {
      continue;
    }
    if ((await fs.stat(fileLocation(real)))?.kind === 'directory' && !writable.some((root) => isInsidePath(root, real))) {
      emptied.push(real);
    }
  }
  const kept: string[] = [];
  if (network) {
    // systemd-resolved and NetworkManager keep resolv.conf under /run: without it no name resolves.
    const resolv = fs.localPath(await fs.realpath(fileLocation('/etc/resolv.conf')).catch(() => fileLocation('/etc/resolv.conf')));
    const folder = resolv ? path.posix.dirname(resolv) : undefined;
    if (folder && emptied.some((done) => isInsidePath(folder, done) && folder !== done)) {
      kept.push(folder);
    }
  }
  const sockets: string[] = [];
  const agent = env.SSH_AUTH_SOCK;
  if (agent && agent.startsWith('/') && !emptied.some((done) => isInsidePath(agent, done)) && (await fs.stat(fileLocation(agent)))) {
    sockets.push(agent);
  }
  return { emptiedRuntime: emptied, keptRuntime: kept, sockets };
}

/**
 * More secret files than this directly in one folder, and the folder is hidden whole (empty and
 * read-only to the command) instead of one mount each: a repository cannot make every command
 * fail (bubblewrap takes about 3,000 mounts) or start slowly (each mount costs more than the last)
 * with a folder of thousands of `.env` files. No project keeps this many in one folder.
 */
export const CROWDED_SECRET_FILES = 64;

/**
 * The folders holding more than CROWDED_SECRET_FILES secret files directly, each with why it is
 * hidden; never a writable folder itself nor one that holds the folder the command starts in.
 */
export function crowdedSecretFolders(secrets: readonly string[], writable: readonly string[], cwd: string | undefined): NotWritable[] {
  const counts = new Map<string, number>();
  for (const file of secrets) {
    const folder = path.posix.dirname(file);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts]
    .filter(([folder, count]) => count > CROWDED_SECRET_FILES && !writable.includes(folder) && !(cwd !== undefined && isInsidePath(cwd, folder)))
    .map(([folder, count]) => ({ folder, why: `${folder} holds ${count.toLocaleString('en-US')} secret files (.env and the like), so the command sees it empty` }));
}

/** The plan for one command, once its missing protected folders are known (see lease.ts). */
export async function planSandbox(ctx: ToolContext, host: SandboxHost, network: boolean, env: SessionSockets, writable: readonly string[], scan: WorkspaceScan, missing: readonly string[], caches: readonly CacheBind[] = [], notWritable: readonly NotWritable[] = [], cwd?: string): Promise<SandboxPlan> {
  const fs = ctx.host.fs;
  const hiddenDirectories: string[] = [];
  const hiddenFiles: string[] = [];
  // A folder named writable but kept read-only is still where the command may run: not emptied either.
  const runtime = await runtimePlan(ctx, env, [...writable, ...notWritable.map((entry) => entry.folder)], network);
  /** The hidden entries that are not the workspace's secret files. */
  const outside: string[] = [];
  // What is there decides how it is hidden: a folder is covered by an empty one, anything else by /dev/null.
  for (const entry of [...sensitiveLocalPaths(ctx.workspace.home), ...host.privateFolders, ...runtime.sockets]) {
    const stat = await fs.stat(fileLocation(entry));
    // A folder that holds a workspace folder cannot be covered (the command would lose its
    // workspace); the secrets inside the workspace are still found and hidden one by one.
    const holdsWorkspace = writable.some((root) => isInsidePath(root, entry));
    if (stat && !holdsWorkspace && !runtime.emptiedRuntime.some((done) => isInsidePath(entry, done))) {
      (stat.kind === 'directory' ? hiddenDirectories : hiddenFiles).push(entry);
      outside.push(entry);
    }
  }
  hiddenFiles.push(...scan.secrets);
  const crowded = crowdedSecretFolders(scan.secrets, writable, cwd);
  hiddenDirectories.push(...crowded.map((entry) => entry.folder));
  // An entry inside a folder already hidden needs nothing more, and could not be bound there:
  // bubblewrap cannot make its mount point in the read-only empty folder.
  const covered = (entry: string): boolean => hiddenDirectories.some((folder) => folder !== entry && isInsidePath(entry, folder));
  const readOnlyMissing = scan.mustExist.filter((folder) => missing.includes(folder) && !covered(folder));
  const readOnly = byDepth([...scan.protectedEntries, ...scan.mustExist.filter((folder) => !missing.includes(folder))].filter((entry) => !covered(entry)));
  const hidden = { directories: hiddenDirectories.filter((folder) => !covered(folder)), files: hiddenFiles.filter((file) => !covered(file)) };
  // Where the home's and the extension's secrets lead (`~/.aws`, or `~/.config` with `gh` in it, a
  // link into a dotfiles folder). Not the workspace's secrets: Seatbelt hides those by their names,
  // and the walk lists each under the writable folder's resolved path too.
  const hiddenTargets = new Set<string>();
  for (const entry of outside.filter((entry) => !covered(entry))) {
    const target = fs.localPath(await fs.realpath(fileLocation(entry)).catch(() => fileLocation(entry)));
    if (target && target !== entry) {
      hiddenTargets.add(target);
    }
  }
  return {
    writable,
    notWritable: [...notWritable, ...crowded],
    pinned: pinnedFolders(writable, [...readOnly, ...readOnlyMissing]),
    readOnly,
    readOnlyMissing: byDepth(readOnlyMissing),
    hiddenDirectories: hidden.directories,
    hiddenFiles: hidden.files,
    hiddenTargets: [...hiddenTargets],
    emptiedRuntime: runtime.emptiedRuntime,
    keptRuntime: runtime.keptRuntime,
    caches,
    tempDirectory: host.tempDirectory,
    emptyDirectory: host.emptyDirectory,
    network,
  };
}
