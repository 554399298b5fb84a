// What a sandboxed command may touch, worked out from the guard's table before each run: the
// folders writes may use, the execution-config files inside them that stay read-only, and the
// secrets that cannot be read. bubblewrap.ts and seatbelt.ts turn the plan into a launcher.
import * as path from 'node:path';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import { fileLocation, joinLocation, type Location } from '../location';
import type { SandboxHost } from '../ports/process';
import { resolveRoots } from '../guard/judgeLocation';
import { sensitiveLocalPaths } from '../guard/rules';

/** Everything a launcher needs; paths are absolute on the extension host's disk. */
export interface SandboxPlan {
  /** The folders writes may use (the workspace folders, or allowedWritePaths), symlinks resolved. */
  readonly writable: readonly string[];
  /** Existing execution-config files and folders inside them: `.git/config`, `.git/hooks`, `.vscode`, `*.code-workspace`. */
  readonly readOnly: readonly string[];
  /** Protected folders that do not exist yet (`.vscode`, `.git/hooks`): bound read-only to an empty folder. */
  readonly readOnlyMissing: readonly string[];
  /** The protected folders this command holds (SandboxHost.holdMountPoints), to release after the run. */
  readonly heldFolders: readonly string[];
  /** Secret folders (in the home folder), shown empty and read-only. */
  readonly hiddenDirectories: readonly string[];
  /** Secret files (system files, netrc, `.env` variants in the workspace), shown empty. */
  readonly hiddenFiles: readonly string[];
  /** The private folder the command gets as /tmp. */
  readonly tempDirectory: string;
  /** An empty folder to bind where a protected folder is missing. */
  readonly emptyDirectory: string;
  /** False for commands that ran without asking: no network at all, loopback included. */
  readonly network: boolean;
}

/**
 * Files and folders of a workspace folder's top level that VS Code or git obey. The two folders a
 * command may find missing are held first (see SandboxHost.holdMountPoints), then looked at: one
 * that is missing, or exists only as another command's mount point, is bound from the empty folder.
 */
async function protectedEntries(ctx: ToolContext, host: SandboxHost, root: Location, rootPath: string): Promise<{ existing: string[]; missing: string[]; held: string[] }> {
  const fs = ctx.host.fs;
  const existing: string[] = [];
  const entries = await fs.readDirectory(root).catch(() => []);
  for (const entry of entries) {
    if (entry.name.toLowerCase().endsWith('.code-workspace')) {
      existing.push(path.posix.join(rootPath, entry.name));
    }
  }
  const folders = [entries.find((entry) => entry.name.toLowerCase() === '.vscode')?.name ?? '.vscode'];
  if (entries.some((entry) => entry.name === '.git')) {
    const git = await fs.stat(joinLocation(root, '.git'));
    if (git?.kind === 'directory') {
      if (await fs.stat(joinLocation(root, '.git/config'))) {
        existing.push(path.posix.join(rootPath, '.git', 'config'));
      }
      folders.push('.git/hooks');
    } else {
      // A `.git` file points git at another repository; rewriting it would redirect git.
      existing.push(path.posix.join(rootPath, '.git'));
    }
  }
  const held = folders.map((folder) => path.posix.join(rootPath, folder));
  host.holdMountPoints(held);
  const missing: string[] = [];
  for (const [index, folder] of folders.entries()) {
    const there = await fs.stat(joinLocation(root, folder));
    (there && !host.isMountPoint(held[index]) ? existing : missing).push(held[index]);
  }
  host.markMountPoints(missing);
  return { existing, missing, held };
}

/**
 * The plan for one command. Throws a ToolError when the workspace could not be searched for
 * secret files in time, because then the sandbox could not promise to hide them.
 */
export async function planSandbox(ctx: ToolContext, host: SandboxHost, network: boolean): Promise<SandboxPlan> {
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
  const secrets = await host.findSecretFiles(writable, ctx.call.token);
  if (!secrets) {
    throw new ToolError('The sandbox could not be prepared: searching the workspace for secret files (.env) took too long.');
  }
  const hiddenDirectories: string[] = [];
  const hiddenFiles: string[] = [];
  // What is there decides how it is hidden: a folder is covered by an empty one, anything else by /dev/null.
  for (const entry of [...sensitiveLocalPaths(ctx.workspace.home), ...host.privateFolders]) {
    const stat = await fs.stat(fileLocation(entry));
    if (stat) {
      (stat.kind === 'directory' ? hiddenDirectories : hiddenFiles).push(entry);
    }
  }
  hiddenFiles.push(...secrets);
  // Last, so nothing can fail between holding the protected folders and the caller's release.
  const readOnly: string[] = [];
  const readOnlyMissing: string[] = [];
  const heldFolders: string[] = [];
  for (const rootPath of writable) {
    const entries = await protectedEntries(ctx, host, fileLocation(rootPath), rootPath);
    readOnly.push(...entries.existing);
    readOnlyMissing.push(...entries.missing);
    heldFolders.push(...entries.held);
  }
  return { writable, readOnly, readOnlyMissing, heldFolders, hiddenDirectories, hiddenFiles, tempDirectory: host.tempDirectory, emptyDirectory: host.emptyDirectory, network };
}
