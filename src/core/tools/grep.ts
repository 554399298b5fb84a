import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import { guardPath } from '../guard/pathGuard';
import { isSecretFile } from '../guard/rules';
import type { GrepMode, PathTest } from '../ports/search';
import { checkGlobBounds, compileGlob, globHints } from '../search/globPattern';
import { formatGrep, MAX_GREP_LINE_CHARS, SortedGrepCollector } from '../search/grepOutput';
import { InvalidRegexError } from '../search/regex';
import { resolveSearchScope, searchLimits, timeBudgetNote } from '../search/searchScope';
import { defineTool, textResult, type Tool, type ToolResult } from './toolSpec';

export interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  output_mode?: GrepMode;
  case_insensitive?: boolean;
  context?: number;
  max_results?: number;
  fixed_strings?: boolean;
}

export const DEFAULT_MAX_RESULTS = 100;
/** After this long a search returns what it found, with a note. */
export const GREP_TIME_BUDGET_MS = 30_000;

export const grepTool: Tool = defineTool<GrepInput>({
  name: 'workspace_grep',
  displayName: 'Search Text',
  toolReferenceName: 'workspaceGrep',
  icon: '$(search)',
  access: 'read',
  userDescription: 'Search file contents of the workspace with a regular expression (ripgrep).',
  modelDescription: [
    'Use this instead of the built-in text search: ripgrep-fast with full regex syntax, respects .gitignore, follows the workspace guard and redacts secrets in the lines it returns.',
    'Search the contents of workspace files with a regular expression (ripgrep syntax, e.g. "function\\s+\\w+", "TODO|FIXME"). Use it to find where something is defined or used; to find files by name use workspace_glob.',
    'pattern: the regex, matched within one line (set fixed_strings to true to search for literal text such as "a.b(c)"). path: a file or folder to search, workspace-relative; default the workspace root. glob: only search files whose path matches; without a "/" it matches the file name at any depth ("*.ts", "*.{js,jsx}"), with one it matches the path relative to path ("src/**/*.py"); a leading "!" excludes ("!*.min.js").',
    'output_mode: "content" (default) prints matching lines as path:line:text (context lines as path-line-text, "--" between separate groups); "files_with_matches" prints only paths; "count" prints path:count (matching lines per file). context: lines of context before and after each match (content mode). case_insensitive: default false. max_results: at most this many matching lines (content) or files (default 100); when more exist the search stops early and says so. Files are listed in path order.',
    `Files hidden by .gitignore or files.exclude, binary files and .env files are skipped; symbolic links are not followed. Lines longer than ${MAX_GREP_LINE_CHARS} characters are cut to a window around the match.`,
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'The regular expression (or literal text with fixed_strings) to search for.' },
      path: { type: 'string', description: 'A file or folder to search, workspace-relative. Default: the workspace root.' },
      glob: { type: 'string', description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.py".' },
      output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'], description: 'What to print. Default "content".' },
      case_insensitive: { type: 'boolean', description: 'Ignore case. Default false.' },
      context: { type: 'integer', description: 'Lines of context around each match (content mode), from 0 to 20. Default 0.' },
      max_results: { type: 'integer', description: 'The most matching lines (content) or files to return, from 1 to 1000. Default 100.' },
      fixed_strings: { type: 'boolean', description: 'Treat pattern as literal text, not a regex. Default false.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  bounds: { context: { min: 0, max: 20 }, max_results: { min: 1, max: 1000 } },
  invocationMessage: (input) => `Searching for ${input.pattern}`,
  run: (input, ctx) => searchText(input, ctx, GREP_TIME_BUDGET_MS),
});

/** The search with an explicit time budget, so tests can make it run out. */
export async function searchText(input: GrepInput, ctx: ToolContext, budgetMs: number): Promise<ToolResult> {
  if (/[\r\n]/.test(input.pattern)) {
    throw new ToolError('The pattern contains a line break, but patterns match within one line. Search for one line of the text at a time.');
  }
  const mode = input.output_mode ?? 'content';
  const maxResults = input.max_results ?? DEFAULT_MAX_RESULTS;
  const context = mode === 'content' ? (input.context ?? 0) : 0;
  // Files whose contents are secrets (file.sensitive_path_read names them) are never searched.
  let include: PathTest = (relative) => !isSecretFile(relative);
  if (input.glob !== undefined && input.glob.trim() !== '') {
    checkGlobBounds(input.glob, 'glob');
    const matchesGlob = compileGlob(input.glob.trim(), { matchBase: true, dot: true });
    include = (relative) => !isSecretFile(relative) && matchesGlob(relative);
  }

  const target = await guardPath(input.path ?? '.', 'read', ctx);
  const stat = target.stat;
  const kind = stat?.kind === 'file' ? 'file' : 'directory';
  const scope = await resolveSearchScope(target, kind, ctx);
  if (!stat) {
    throw new ToolError(`Not found: ${scope.show('')}. Check the path with workspace_glob or workspace_list_directory.`);
  }

  const collector = new SortedGrepCollector(mode, maxResults);
  const engine = ctx.host.search.engineFor(scope);
  let timedOut: boolean;
  let stoppedEarly: boolean | undefined;
  try {
    const request = {
      scope,
      regex: { pattern: input.pattern, caseInsensitive: input.case_insensitive ?? false, fixedStrings: input.fixed_strings ?? false },
      mode,
      context,
      include,
      hints: input.glob ? globHints(input.glob.trim(), true) : {},
    };
    ({ timedOut, stoppedEarly } = await engine.grep(request, searchLimits(ctx, budgetMs), collector));
  } catch (error) {
    if (error instanceof InvalidRegexError) {
      throw new ToolError(
        `Invalid regular expression ${JSON.stringify(input.pattern)}:\n${error.detail}\nFix the pattern (escape special characters such as ( [ { . * + ? with a backslash), or set fixed_strings to true to search for the text literally.`,
      );
    }
    throw error;
  }

  const report = formatGrep(collector, mode, context, maxResults, scope.show);
  const notes: string[] = [];
  const what = mode === 'content' ? 'matching lines' : 'files';
  if (stoppedEarly) {
    notes.push(`[More than ${maxResults} ${what} exist; these are the first ${report.shownMatches} found, in path order. The search stopped there, so the total is unknown. Narrow the search with path or glob, or raise max_results.]`);
  } else if (report.omitted > 0) {
    const files = mode === 'content' ? ` (${collector.totalMatches} matching lines in ${collector.totalFiles} files in all)` : '';
    notes.push(`[${report.omitted} more ${what} not shown${files}. Narrow the search with path or glob, or raise max_results.]`);
  }
  if (timedOut) {
    notes.push(timeBudgetNote(budgetMs, 'glob'));
  }
  // Every note says what was left out and how to get it.
  const continuation = notes.length ? notes.join('\n') : undefined;
  if (report.body === '') {
    return textResult([`No matches for ${JSON.stringify(input.pattern)} in ${scope.where}.`, ...notes].join('\n'), continuation);
  }
  return textResult([report.body, ...notes].join('\n'), continuation);
}
