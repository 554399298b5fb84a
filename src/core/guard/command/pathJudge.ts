// The guard's rule table as the command policy's path judge: the same rules, roots and facts as the
// file tools, without asking anybody (the policy turns a warning into a question about the whole
// command). Also where the policy's other views of the disk come from: folder listings for globs
// and repositories, and `..` resolved the way the system resolves it.
import * as path from 'node:path';
import type { ToolContext } from '../../context';
import type { GuardVerdict, Judgement } from '../../decisions';
import type { DirectoryEntry } from '../../ports/fileSystem';
import { fileLocation, isInside, type Location } from '../../location';
import { judgeLocation, resolveRoots } from '../judgeLocation';
import type { RepositoryView, WholeFile } from './gitRepository';
import type { ListDirectory } from './globs';
import type { CommandPolicyOptions, PathJudge } from './policyOptions';
import { errorMessage } from '../../errors';
import { formatSize } from '../../text/format';

function asJudgement(verdict: GuardVerdict): Judgement {
  if (verdict.decision === 'allow') {
    return { decision: 'allow', reason: 'inside the allowed folders' };
  }
  return { decision: verdict.decision === 'deny' ? 'deny' : 'ask', reason: `${verdict.rule ?? 'guard'}: ${verdict.reason}` };
}

/**
 * The path with `.` and `..` resolved as the system does: `link/..` is the parent of the link's
 * target, so the folder before each `..` has its links resolved first.
 */
async function physicalPath(absolutePath: string, ctx: ToolContext): Promise<string> {
  if (!absolutePath.split('/').includes('..')) {
    return path.posix.normalize(absolutePath);
  }
  let current = '/';
  for (const part of absolutePath.split('/')) {
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..') {
      current = path.posix.dirname((await ctx.host.fs.realpath(fileLocation(current))).path);
    } else {
      current = path.posix.join(current, part);
    }
  }
  return current;
}

/** A path judge for one command line, with the read and write roots resolved once. */
export async function commandPathJudge(ctx: ToolContext): Promise<PathJudge> {
  const roots = { read: await resolveRoots('read', ctx), write: await resolveRoots('write', ctx) };
  return async (absolutePath, access) => {
    try {
      const physical = await physicalPath(absolutePath, ctx);
      return asJudgement((await judgeLocation(fileLocation(physical), access, ctx, { roots: roots[access] })).verdict);
    } catch (error) {
      return { decision: 'ask', reason: `${absolutePath} could not be checked (${errorMessage(error)})` };
    }
  };
}

/**
 * Whether a write to the path lands inside a workspace folder: the path with `..` resolved as the
 * system does, and where its links lead, both inside one (folderSettings' and allowedWritePaths'
 * folders outside the workspace do not count). Any failure says no.
 */
export async function workspaceWriteJudge(ctx: ToolContext): Promise<(absolutePath: string) => Promise<boolean>> {
  const fsPort = ctx.host.fs;
  const folders = ctx.workspace.folders.map((folder) => folder.location).filter((location) => location.scheme === 'file');
  const roots = [...folders, ...(await Promise.all(folders.map((folder) => fsPort.realpath(folder).catch(() => folder))))];
  const inside = (location: Location): boolean => roots.some((root) => isInside(location, root));
  return async (absolutePath) => {
    try {
      const literal = fileLocation(await physicalPath(absolutePath, ctx));
      return inside(literal) && inside(await fsPort.realpath(literal));
    } catch {
      return false;
    }
  };
}

/** The names in a folder through the file system port; undefined when it cannot be listed. */
export function commandDirectoryLister(ctx: ToolContext): ListDirectory {
  return async (absolutePath) => {
    try {
      return (await ctx.host.fs.readDirectory(fileLocation(absolutePath))).map((entry) => entry.name);
    } catch {
      return undefined;
    }
  };
}

/** Config, HEAD and commondir files are small; anything larger is not read for git's discovery. */
const MAX_REPOSITORY_FILE_BYTES = 1024 * 1024;

/** The disk as git's discovery sees it, through the file system port: links not followed, real paths. */
export async function commandRepositoryView(ctx: ToolContext): Promise<RepositoryView> {
  const fsPort = ctx.host.fs;
  const realPath = async (absolutePath: string): Promise<string> => {
    try {
      const real = await fsPort.realpath(fileLocation(absolutePath));
      // A share's server (the authority) stays in the path: `//server/share/x` reads back as that share, where `/share/x` is the current drive's.
      return real.authority === '' ? real.path : `//${real.authority}${real.path}`;
    } catch {
      return absolutePath;
    }
  };
  // One listing per folder for the whole line: discovery asks about .git and HEAD in each folder up to the root.
  const listings = new Map<string, Promise<DirectoryEntry[] | undefined>>();
  const list = (folder: string): Promise<DirectoryEntry[] | undefined> => {
    let listing = listings.get(folder);
    if (!listing) {
      listing = fsPort.readDirectory(fileLocation(folder)).catch(() => undefined);
      listings.set(folder, listing);
    }
    return listing;
  };
  // Each config file read once for the whole line, however many git commands and folders ask for it.
  const wholeFiles = new Map<string, Promise<WholeFile>>();
  const readWhole = async (absolutePath: string, maxBytes: number): Promise<WholeFile> => {
    try {
      const stat = await fsPort.stat(fileLocation(absolutePath));
      if (!stat) {
        return { kind: 'absent' };
      }
      if (stat.kind !== 'file') {
        return { kind: 'unreadable', why: stat.kind === 'directory' ? 'it is a folder' : 'it is not a regular file' };
      }
      if (stat.size > maxBytes) {
        return { kind: 'unreadable', why: `it is larger than ${formatSize(maxBytes)}` };
      }
      const bytes = await fsPort.readFile(fileLocation(absolutePath));
      return bytes.length > maxBytes ? { kind: 'unreadable', why: `it is larger than ${formatSize(maxBytes)}` } : { kind: 'bytes', bytes };
    } catch (error) {
      return { kind: 'unreadable', why: errorMessage(error) };
    }
  };
  const workspaceFolders = await Promise.all(ctx.workspace.folders.map((folder) => realPath(fsPort.localPath(folder.location) ?? folder.location.path)));
  // The home folder is the host's path (C:\Users\u on Windows); the view's paths are Location paths
  // (/C:/Users/u), in which the user's config and its includes are joined and resolved.
  const home = fileLocation(ctx.workspace.home);
  return {
    workspaceFolders,
    home: home.authority === '' ? home.path : `//${home.authority}${home.path}`,
    windows: ctx.workspace.platform === 'win32',
    realPath,
    async entry(absolutePath) {
      // stat follows a final link; the listing of the parent says whether the entry itself is one.
      const name = path.posix.basename(absolutePath);
      const listed = (await list(path.posix.dirname(absolutePath)))?.find((entry) => entry.name === name);
      return listed ? { kind: listed.kind, isSymlink: listed.isSymlink } : undefined;
    },
    async readText(absolutePath) {
      try {
        const stat = await fsPort.stat(fileLocation(absolutePath));
        if (!stat || stat.kind !== 'file' || stat.size > MAX_REPOSITORY_FILE_BYTES) {
          return undefined;
        }
        return new TextDecoder().decode(await fsPort.readFile(fileLocation(absolutePath)));
      } catch {
        return undefined;
      }
    },
    readWhole(absolutePath, maxBytes) {
      const key = `${maxBytes} ${absolutePath}`;
      let read = wholeFiles.get(key);
      if (!read) {
        read = readWhole(absolutePath, maxBytes);
        wholeFiles.set(key, read);
      }
      return read;
    },
  };
}

/** Everything the policy needs for a line run in `cwd`, from the call's context and settings. */
export async function commandPolicyOptions(ctx: ToolContext, cwd: string): Promise<CommandPolicyOptions> {
  return {
    cwd,
    home: ctx.workspace.home,
    allow: ctx.settings.runCommandAllow,
    deny: ctx.settings.runCommandDeny,
    terminalAskRules: ctx.settings.terminalAskRules,
    judgePath: await commandPathJudge(ctx),
    workspaceWrite: await workspaceWriteJudge(ctx),
    listDirectory: commandDirectoryLister(ctx),
    repositories: await commandRepositoryView(ctx),
    bashParser: () => ctx.host.libraries.bashParser(),
    powerShellParser: () => ctx.host.libraries.powerShellParser(),
  };
}
