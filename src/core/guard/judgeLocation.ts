// The one way a location meets the rule table: the literal path the model named and the same path
// with symlinks resolved are both judged, with the facts about what is there (a regular file, a
// device, a dangling link, a hard-linked file, a link that leads out), and the stricter verdict wins.
import type { ToolContext } from '../context';
import { stricter, type GuardVerdict } from '../decisions';
import { ToolError } from '../errors';
import { displayPath, fileLocation, isInside, locationKey, type Location } from '../location';
import type { EntryStat } from '../ports/fileSystem';
import { enclosingGitDirectory } from './gitDirectories';
import { linkLeadingTo, protectedLinks, type ProtectedLink } from './protectedLinks';
import { evaluateGuard, type GuardAccess, type GuardFacts } from './rules';
import { resolveToolPath } from './workspacePaths';

/** A location after the rule table looked at it. */
export interface JudgedLocation {
  /** The normalised location as the model named it. */
  readonly literal: Location;
  /** The same location with symlinks resolved (through the deepest existing ancestor). */
  readonly resolved: Location;
  /** What is at the resolved location, links followed; undefined when nothing is there. */
  readonly stat: EntryStat | undefined;
  /** How questions and the activity log name it: the literal path, and its target when it is a link. */
  readonly subject: string;
  readonly verdict: GuardVerdict;
}

/** The roots a read or a write may use: the allowed-paths setting when set, else the workspace folders. */
function allowedRoots(access: GuardAccess, ctx: ToolContext): Location[] {
  const configured = access === 'read' ? ctx.settings.allowedReadPaths : ctx.settings.allowedWritePaths;
  // The full command logs live in the extension's storage; the model reads them with workspace_read_file.
  const extra = access === 'read' && ctx.host.commands ? [fileLocation(ctx.host.commands.logDirectory)] : [];
  if (configured.length > 0) {
    return [...configured.flatMap((entry) => configuredRoot(entry, ctx)), ...extra];
  }
  return [...ctx.workspace.folders.map((folder) => folder.location), ...extra];
}

/** An allowed-paths entry as a root; none for an entry that names no place (empty, a relative URI, a broken escape), which no location could be inside. */
function configuredRoot(entry: string, ctx: ToolContext): Location[] {
  try {
    return [resolveToolPath(entry, ctx)];
  } catch (error) {
    if (error instanceof ToolError) {
      return [];
    }
    throw error;
  }
}

/** Roots with their own symlinks resolved as well, so a workspace opened through a link still contains its files. */
export async function resolveRoots(access: GuardAccess, ctx: ToolContext): Promise<Location[]> {
  const roots = allowedRoots(access, ctx);
  const real = await Promise.all(roots.map((root) => ctx.host.fs.realpath(root)));
  return [...roots, ...real];
}

export interface JudgeOptions {
  /** The resolved roots, when the caller judges many locations against the same ones. */
  readonly roots?: readonly Location[];
  /** For a patch: how many files it deletes. */
  readonly deleteCount?: number;
}

/** Judges a location, literal and resolved, by the rule table. Asks nobody: see enforceVerdict. */
export async function judgeLocation(literal: Location, access: GuardAccess, ctx: ToolContext, options: JudgeOptions = {}): Promise<JudgedLocation> {
  const roots = options.roots ?? (await resolveRoots(access === 'read' ? 'read' : 'write', ctx));
  const resolved = await ctx.host.fs.realpath(literal);
  const stat = await ctx.host.fs.stat(resolved);
  const linked = resolved.path !== literal.path;
  const inside = (location: Location): boolean => roots.some((root) => isInside(location, root, ignoresCase(root, ctx)));
  const subject = linked ? `${literal.path} (a symlink to ${resolved.path})` : literal.path;
  const entry: Partial<GuardFacts> = {
    kind: stat?.kind,
    isSymlink: stat?.isSymlink,
    linkCount: stat?.linkCount,
    escapesTo: linked && inside(literal) && !inside(resolved) ? resolved.path : undefined,
    display: displayPath(literal, ctx.workspace),
  };
  // A bare repository is found by its contents, whatever its name: its config and hooks are execution config.
  const gitDirectoryOf = async (location: Location): Promise<string | undefined> => (access === 'read' ? undefined : enclosingGitDirectory(ctx.host.fs, location, roots, (root) => ignoresCase(root, ctx)));
  const literalGitDirectory = await gitDirectoryOf(literal);
  const resolvedGitDirectory = linked ? await gitDirectoryOf(resolved) : literalGitDirectory;
  const linkedFrom = access === 'read' ? undefined : await protectedLinkTo(resolved, roots, ctx, options.roots !== undefined);
  const facts = (location: Location, shown: string | undefined, gitDirectory: string | undefined): GuardFacts => ({
    ...entry,
    privateFolder: isInPrivateFolder(location, ctx),
    access,
    path: location.path,
    insideWorkspace: inside(location),
    home: ctx.workspace.home,
    deleteCount: options.deleteCount,
    shown: shown ?? (location.scheme === 'file' ? undefined : locationKey(location)),
    gitDirectory,
    linkedFrom,
  });
  const level = ctx.settings.riskLevel;
  const verdict = stricter(evaluateGuard(facts(literal, undefined, literalGitDirectory), level), evaluateGuard(facts(resolved, linked ? subject : undefined, resolvedGitDirectory), level));
  return { literal, resolved, stat, subject, verdict };
}

/**
 * True when a root lies in a workspace folder whose volume ignores letter case (measured per folder
 * by the host): there `/work/PROJ/x` is inside `/work/proj`. Any other root, an allowed path
 * elsewhere included, is compared exactly, so a spelling in another case is outside: the safe side.
 */
function ignoresCase(root: Location, ctx: ToolContext): boolean {
  return ctx.workspace.folders.some((folder) => folder.caseInsensitive === true && isInside(root, folder.location, true));
}

/**
 * True inside the extension's own private folders (the MCP endpoint's, whose lock files hold the
 * nonce; every extension's storage, where checkpoint stores keep copies of `.env` files and other
 * extensions keep tokens), which commands never see either; the command logs kept there stay
 * readable, as results point the model at them.
 */
function isInPrivateFolder(location: Location, ctx: ToolContext): boolean {
  const commands = ctx.host.commands;
  if (!commands || location.scheme !== 'file') {
    return false;
  }
  const local = fileLocation(location.path);
  if (isInside(local, fileLocation(commands.logDirectory))) {
    return false;
  }
  return commands.sandbox.privateFolders.some((folder) => isInside(local, fileLocation(folder)));
}

/**
 * For a write: the protected entry that is a link to the resolved path or a folder holding it
 * (`.vscode -> cfg` for `cfg/settings.json`), looked for at the writable roots' own entries, their
 * `.git` rows and the home table (guard/protectedLinks.ts); on the local disk only.
 */
async function protectedLinkTo(resolved: Location, roots: readonly Location[], ctx: ToolContext, shared: boolean): Promise<string | undefined> {
  const target = resolved.scheme === 'file' ? ctx.host.fs.localPath(resolved) : undefined;
  if (!target) {
    return undefined;
  }
  const find = (): Promise<ProtectedLink[]> => {
    const folders = [...new Set(roots.filter((root) => root.scheme === 'file').map((root) => ctx.host.fs.localPath(root)).filter((root): root is string => root !== undefined))];
    return protectedLinks(ctx.host.fs, folders, [], ctx.workspace.home);
  };
  // A caller that judges many paths against the same roots (a command line's) looks for the links once.
  let links = shared ? linksOfRoots.get(roots) : undefined;
  if (!links) {
    links = find();
    if (shared) {
      linksOfRoots.set(roots, links);
    }
  }
  return linkLeadingTo(target, await links, ctx.workspace.home);
}

/** The protected links found for a roots array a caller passed in JudgeOptions (it lives as long as the caller keeps it). */
const linksOfRoots = new WeakMap<readonly Location[], Promise<ProtectedLink[]>>();
