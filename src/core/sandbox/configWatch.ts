// The workspace's execution config (every repository's config and hooks at any depth, `.vscode`,
// workspace files: the table of guard/protectedNames.ts, found by the sandbox's walk or its index) as it is
// before a command that runs outside the sandbox, so that afterwards the command's result and
// activity record can say what it created or changed: nothing kept it from writing them. A command
// in the sandbox cannot change existing ones; what it created is lease.ts's addedSince.
import * as path from 'node:path';
import type { ToolContext } from '../context';
import { fileLocation } from '../location';
import type { SandboxHost } from '../ports/process';
import { sha256 } from '../text/bytes';
import { scanWorkspace, writableFolders } from './plan';

/** The most files looked at inside one protected folder (a repository's hooks, `.vscode`). */
const MAX_FILES_PER_FOLDER = 200;

/** One execution-config file a command created or changed. */
export interface ExecutionConfigChange {
  /** The path on the extension host's disk. */
  readonly path: string;
  readonly change: 'created' | 'changed';
}

/** The files of the execution config and a hash of each; what changeSince compares with. */
export interface ExecutionConfigWatch {
  /** What the command created or changed since the watch began, in path order. */
  changesSince(): Promise<ExecutionConfigChange[]>;
}

/** Hashes of every execution-config file of the writable folders now (folders: the files inside). */
async function fingerprints(ctx: ToolContext, host: SandboxHost, writable: readonly string[]): Promise<Map<string, string>> {
  const fs = ctx.host.fs;
  const scan = await scanWorkspace(ctx, host, writable);
  const prints = new Map<string, string>();
  const visit = async (entry: string, budget: { left: number }): Promise<void> => {
    const stat = await fs.stat(fileLocation(entry));
    if (!stat || budget.left <= 0) {
      return;
    }
    if (stat.isSymlink || stat.kind !== 'directory') {
      budget.left -= 1;
      const bytes = stat.kind === 'file' && !stat.isSymlink ? await fs.readFile(fileLocation(entry)).catch(() => undefined) : undefined;
      prints.set(entry, bytes ? sha256(bytes) : `${stat.kind}:${stat.size}:${stat.mtime}`);
      return;
    }
    for (const child of await fs.readDirectory(fileLocation(entry)).catch(() => [])) {
      await visit(path.posix.join(entry, child.name), budget);
    }
  };
  for (const entry of [...scan.protectedEntries, ...scan.mustExist]) {
    await visit(entry, { left: MAX_FILES_PER_FOLDER });
  }
  return prints;
}

/**
 * Begins watching the execution config of the folders commands may write. Throws what the walk
 * throws (a walk that took too long); the caller decides whether a command runs unwatched.
 */
export async function watchExecutionConfig(ctx: ToolContext, host: SandboxHost): Promise<ExecutionConfigWatch> {
  const writable = await writableFolders(ctx);
  host.scanIndex?.track(writable);
  const before = await fingerprints(ctx, host, writable);
  return {
    changesSince: async () => {
      const after = await fingerprints(ctx, host, writable);
      const changes: ExecutionConfigChange[] = [];
      for (const [file, print] of after) {
        const earlier = before.get(file);
        if (earlier !== print) {
          changes.push({ path: file, change: earlier === undefined ? 'created' : 'changed' });
        }
      }
      return changes.sort((a, b) => a.path.localeCompare(b.path));
    },
  };
}
