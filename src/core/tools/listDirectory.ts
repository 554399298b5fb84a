import * as path from 'node:path';
import { minimatch } from 'minimatch';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import { statEach } from '../fs/statEach';
import { guardPath } from '../guard/pathGuard';
import { containingFolder, displayPath, joinLocation, type Location } from '../location';
import type { DirectoryEntry } from '../ports/fileSystem';
import { IgnoreRules } from '../search/ignoreRules';
import { formatSize } from '../text/format';
import { defineTool, textResult, type Tool } from './toolSpec';

export interface ListDirectoryInput {
  path?: string;
  ignore?: string[];
  respect_git_ignore?: boolean;
}

/** The most entries one listing shows; the rest are counted. */
export const MAX_LIST_ENTRIES = 500;
const STAT_CONCURRENCY = 32;

export const listDirectoryTool: Tool = defineTool<ListDirectoryInput>({
  name: 'workspace_list_directory',
  displayName: 'List Directory',
  toolReferenceName: 'workspaceListDirectory',
  icon: '$(folder-opened)',
  access: 'read',
  userDescription: 'List the folders and files of a workspace directory, with sizes.',
  modelDescription: [
    'Use this instead of the built-in directory listing: it follows the workspace guard (secrets and paths outside the workspace), sizes every file and hides what .gitignore hides.',
    'List the direct children of one directory of the workspace (not recursive). Use it to see what a folder contains before reading files; to find files by name pattern across the tree use workspace_glob instead.',
    'path: the directory, relative to the workspace root or absolute; omit it for the workspace root.',
    'Output: subdirectories first with a trailing "/", then files with their sizes, each group alphabetical, then a count of entries left out by the cap, by .gitignore or by your ignore globs.',
    'ignore: glob patterns (minimatch) of names or workspace-relative paths to leave out, e.g. ["*.log", "dist"]. respect_git_ignore (default true): hide what .gitignore files hide, and the .git folder; set it to false to see everything.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The directory to list: workspace-relative or absolute. Default: the workspace root.' },
      ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns of entries to leave out.' },
      respect_git_ignore: { type: 'boolean', description: 'Hide entries ignored by .gitignore, and .git. Default true.' },
    },
    additionalProperties: false,
  },
  invocationMessage: (input) => `Listing ${input.path ?? 'the workspace root'}`,

  async run(input, ctx) {
    const target = await guardPath(input.path ?? '.', 'read', ctx);
    const shown = displayPath(target.literal, ctx.workspace);
    const stat = target.stat;
    if (!stat) {
      throw new ToolError(`Directory not found: ${shown}. List its parent to see what exists there.`);
    }
    if (stat.kind !== 'directory') {
      throw new ToolError(`${shown} is a file, not a directory. Use workspace_read_file to read it.`);
    }
    const entries = await ctx.host.fs.readDirectory(target.resolved);
    const filtered = await filterEntries(entries, target.literal, input, ctx);
    const directories = filtered.kept.filter((entry) => entry.kind === 'directory').sort(byName);
    const files = filtered.kept.filter((entry) => entry.kind !== 'directory').sort(byName);
    const ordered = [...directories, ...files];
    const shownEntries = ordered.slice(0, MAX_LIST_ENTRIES);
    const sizes = await statSizes(shownEntries, target.resolved, ctx);

    const lines = shownEntries.map((entry) => {
      const link = entry.isSymlink ? ' (symlink)' : '';
      if (entry.kind === 'directory') {
        return `${entry.name}/${link}`;
      }
      const size = sizes.get(entry.name);
      const detail = entry.kind === 'other' ? 'special file or broken link' : size === undefined ? 'size unknown' : formatSize(size);
      return `${entry.name}  (${detail})${link}`;
    });
    const header = `${shown === '.' ? './' : `${shown}/`} (${directories.length} directories, ${files.length} files)`;
    const notes: string[] = [];
    if (ordered.length > shownEntries.length) {
      notes.push(`[${ordered.length - shownEntries.length} more entries not shown]`);
    }
    const continuation = notes[0];
    if (filtered.byGitIgnore > 0) {
      notes.push(`[${filtered.byGitIgnore} entries hidden by .gitignore; pass respect_git_ignore=false to see them]`);
    }
    if (filtered.byPattern > 0) {
      notes.push(`[${filtered.byPattern} entries left out by the ignore patterns]`);
    }
    const body = lines.length ? lines.join('\n') : '(empty directory)';
    return textResult([header, body, ...notes].join('\n'), continuation);
  },
});

function byName(a: DirectoryEntry, b: DirectoryEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function filterEntries(
  entries: readonly DirectoryEntry[],
  directory: Location,
  input: ListDirectoryInput,
  ctx: ToolContext,
): Promise<{ kept: DirectoryEntry[]; byGitIgnore: number; byPattern: number }> {
  const folder = containingFolder(directory, ctx.workspace.folders);
  const root = folder?.location ?? directory;
  const relativeDir = path.posix.relative(root.path, directory.path);
  const rules = input.respect_git_ignore === false ? undefined : new IgnoreRules(ctx.host.fs, root);
  const patterns = (input.ignore ?? []).filter((pattern) => pattern.trim() !== '');
  const kept: DirectoryEntry[] = [];
  let byGitIgnore = 0;
  let byPattern = 0;
  for (const entry of entries) {
    const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
    if (patterns.some((pattern) => minimatch(entry.name, pattern, { dot: true }) || minimatch(relative, pattern, { dot: true }))) {
      byPattern += 1;
    } else if (rules && (await rules.isIgnored(relative, entry.kind === 'directory'))) {
      byGitIgnore += 1;
    } else {
      kept.push(entry);
    }
  }
  return { kept, byGitIgnore, byPattern };
}

/** The sizes of the files among the entries, by name. */
async function statSizes(entries: readonly DirectoryEntry[], directory: Location, ctx: ToolContext): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const files = entries.filter((entry) => entry.kind !== 'directory');
  const statOptions = { fs: ctx.host.fs, locationOf: (entry: DirectoryEntry) => joinLocation(directory, entry.name), concurrency: STAT_CONCURRENCY, token: ctx.call.token };
  await statEach(files, statOptions, (entry, stat) => sizes.set(entry.name, stat.size));
  return sizes;
}
