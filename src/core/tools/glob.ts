import * as path from 'node:path';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import { statEach } from '../fs/statEach';
import { guardPath } from '../guard/pathGuard';
import { joinLocation } from '../location';
import { checkGlobBounds, compileGlob, globHints, splitGlobBase } from '../search/globPattern';
import { newestFirst, type DatedPath } from '../search/newestFirst';
import { resolveSearchScope, searchLimits, timeBudgetNote } from '../search/searchScope';
import { defineTool, textResult, type Tool, type ToolResult } from './toolSpec';

export interface GlobInput {
  pattern: string;
  path?: string;
}

/** The most paths one answer lists; the rest are counted. */
export const MAX_GLOB_RESULTS = 100;
/** After this long a search returns what it found, with a note. */
export const GLOB_TIME_BUDGET_MS = 30_000;
const STAT_CONCURRENCY = 128;

export const globTool: Tool = defineTool<GlobInput>({
  name: 'workspace_glob',
  displayName: 'Find Files',
  toolReferenceName: 'workspaceGlob',
  icon: '$(search)',
  access: 'read',
  userDescription: 'Find workspace files by glob pattern, newest first.',
  modelDescription: [
    'Use this instead of the built-in file search: fast on large trees, newest files first, respects .gitignore and files.exclude, and follows the workspace guard.',
    'Find files by name with a glob pattern, e.g. "**/*.ts", "src/**/test_*.py", "**/{package,tsconfig}.json". Use it to locate files before reading them; to search file contents use workspace_grep.',
    'pattern: a glob (minimatch syntax: ** crosses folders, {a,b} alternatives, [abc] classes; * never crosses a /, so "*.ts" only matches in the top folder and "**/*.ts" matches everywhere; dotfiles and dot-folders match only when the pattern names them, e.g. "**/.github/**"). It is matched against paths relative to path. path: optional folder to search in, workspace-relative; default the workspace root.',
    'Output: matching file paths relative to the workspace, most recently modified first, at most 100, then "[N more not shown]". Files hidden by .gitignore or files.exclude are left out; symbolic links are not followed.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'The glob pattern to match file paths against, relative to path.' },
      path: { type: 'string', description: 'The folder to search in, workspace-relative. Default: the workspace root.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Finding files matching ${input.pattern}`,
  run: (input, ctx) => findFiles(input, ctx, GLOB_TIME_BUDGET_MS),
});

/** The glob search with an explicit time budget, so tests can make it run out. */
export async function findFiles(input: GlobInput, ctx: ToolContext, budgetMs: number): Promise<ToolResult> {
  const pattern = input.pattern.trim();
  if (pattern === '') {
    throw new ToolError('The pattern is empty. Pass a glob such as "**/*.ts".');
  }
  checkGlobBounds(pattern, 'pattern');
  // The literal folders a pattern starts with are searched from, so `../**` or `/etc/*` meet the guard.
  const split = splitGlobBase(pattern);
  const target = await guardPath(searchFolderInput(input.path, split.base), 'read', ctx);
  const scope = await resolveSearchScope(target, 'directory', ctx);
  const stat = target.stat;
  if (!stat) {
    throw new ToolError(`Folder not found: ${scope.show('')}. Check the path with workspace_list_directory.`);
  }
  if (stat.kind !== 'directory') {
    throw new ToolError(`${scope.show('')} is a file, not a folder. Pass a folder as path (or leave it out), and the file name pattern as pattern.`);
  }
  const matches = compileGlob(split.rest, { matchBase: false, dot: false });
  const engine = ctx.host.search.engineFor(scope);
  const limits = searchLimits(ctx, budgetMs);
  // The engine applies the whole pattern and, on the local disk, reads the modification times as it
  // lists; elsewhere each match is stated through the port.
  const listing = await engine.listFiles(scope, globHints(split.rest, false), limits, { accept: matches, dated: true });
  let dated: DatedPath[];
  if (listing.mtimes) {
    const mtimes = listing.mtimes;
    dated = listing.files.map((relative, index) => ({ path: relative, mtime: mtimes[index] }));
  } else {
    dated = [];
    const statOptions = { fs: ctx.host.fs, locationOf: (relative: string) => joinLocation(scope.root, relative), concurrency: STAT_CONCURRENCY, token: ctx.call.token };
    await statEach(listing.files, statOptions, (relative, stat) => dated.push({ path: relative, mtime: stat.mtime }));
  }
  const lines = newestFirst(dated, MAX_GLOB_RESULTS).map((entry) => scope.show(entry.path));
  const notes: string[] = [];
  if (dated.length > MAX_GLOB_RESULTS) {
    notes.push(`[${dated.length - MAX_GLOB_RESULTS} more not shown]`);
  }
  if (listing.timedOut) {
    notes.push(timeBudgetNote(budgetMs, 'pattern'));
  }
  // Every note says what was left out.
  const continuation = notes.length ? notes.join('\n') : undefined;
  if (lines.length === 0) {
    return textResult([`No files match ${pattern} in ${scope.where} (files hidden by .gitignore or files.exclude are not searched).`, ...notes].join('\n'), continuation);
  }
  return textResult([...lines, ...notes].join('\n'), continuation);
}

/** The folder to search: the path argument, extended by the literal folders the pattern starts with. */
function searchFolderInput(folder: string | undefined, base: string): string {
  if (base.startsWith('/')) {
    return base;
  }
  const start = folder === undefined || folder.trim() === '' ? '.' : folder;
  if (base === '') {
    return start;
  }
  return /^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(start) ? `${start.replace(/\/+$/, '')}/${base}` : path.posix.join(start, base);
}
