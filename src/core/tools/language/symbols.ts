// workspace_symbols: the workspace symbol search (a name or part of one), or a document's outline,
// as `kind name path:line`, within a budget.
import { ToolError } from '../../errors';
import { guardPath } from '../../guard/pathGuard';
import { answerWithin, PROVIDER_WAIT_MS } from '../../language/providerWait';
import { displayPath, locationKey } from '../../location';
import type { FoundSymbol } from '../../ports/language';
import { counted } from '../../text/format';
import { defineTool, textResult, type Tool } from '../toolSpec';
import { noProviderHint, readableFiles, requireLanguage } from './languageTarget';

export interface SymbolsInput {
  query?: string;
  file_path?: string;
}

/** The most symbols one answer lists. */
export const MAX_SYMBOLS = 200;

export const symbolsTool: Tool = defineTool<SymbolsInput>({
  name: 'workspace_symbols',
  displayName: 'Find Symbols',
  toolReferenceName: 'workspaceSymbols',
  icon: '$(symbol-class)',
  access: 'read',
  userDescription: 'Search the workspace\'s symbols by name, or list a file\'s outline, through VS Code\'s language services.',
  modelDescription: [
    'Find declarations by name across the workspace (functions, classes, variables, CSS selectors, JSON keys...) or list one file\'s outline, from the language extensions VS Code has: faster and more precise than grepping for a name.',
    'Pass either query (a name or part of one; workspace symbol search) or file_path (the outline of that file, nested by indentation).',
    'Output: "kind name path:line", with "(in Container)" when the symbol is declared inside another; at most 200, then a count.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'A symbol name or part of one, searched across the workspace.' },
      file_path: { type: 'string', description: 'A file whose outline to list, workspace-relative.' },
    },
    additionalProperties: false,
  },
  invocationMessage: (input) => (input.file_path ? `Listing the symbols of ${input.file_path}` : `Searching symbols for ${input.query ?? ''}`),

  async run(input, ctx) {
    const language = requireLanguage(ctx, 'workspace_symbols');
    const query = input.query?.trim() ?? '';
    const filePath = input.file_path?.trim() ?? '';
    if ((query === '') === (filePath === '')) {
      throw new ToolError('Pass either query (a symbol name to search for) or file_path (a file whose outline to list), not both and not neither.');
    }
    if (filePath !== '') {
      const file = await guardPath(filePath, 'read', ctx);
      const shown = displayPath(file.literal, ctx.workspace);
      if (file.stat?.kind !== 'file') {
        throw new ToolError(file.stat ? `${shown} is not a file.` : `File not found: ${shown}. Check the path with workspace_glob.`);
      }
      const languageId = await language.open(file.resolved);
      const outline = await answerWithin(language.documentSymbols(file.resolved), PROVIDER_WAIT_MS, ctx.call.token, `The ${languageId} symbol provider`, ctx.host.clock);
      if (!outline || outline.length === 0) {
        return textResult(`No symbols found in ${shown} (language ${languageId}). ${noProviderHint(languageId)}`);
      }
      const lines = outline.map((symbol) => `${'  '.repeat(symbol.depth)}${symbol.kind} ${symbol.name} ${shown}:${symbol.range.start.line + 1}`);
      return capped(lines, outline.length, 0, 0);
    }
    const found = await answerWithin(language.workspaceSymbols(query), PROVIDER_WAIT_MS, ctx.call.token, 'The workspace symbol providers', ctx.host.clock);
    const { allowed, refused } = await readableFiles(found.map((symbol) => symbol.location), ctx);
    const shownOf = (symbol: FoundSymbol): string | undefined => allowed.get(locationKey(symbol.location));
    const readable = found.filter((symbol) => shownOf(symbol) !== undefined);
    const lower = query.toLowerCase();
    // Exact names first, then names that start with the query, then the rest; by path within each.
    // TypeScript names functions `name()` in the search.
    const bare = (symbol: FoundSymbol): string => symbol.name.replace(/\(\)$/, '');
    const rank = (symbol: FoundSymbol): number => (bare(symbol) === query ? 0 : bare(symbol).toLowerCase() === lower ? 1 : bare(symbol).toLowerCase().startsWith(lower) ? 2 : 3);
    readable.sort((a, b) => rank(a) - rank(b) || compare(shownOf(a) ?? '', shownOf(b) ?? '') || a.range.start.line - b.range.start.line);
    const lines = readable.map((symbol) => `${symbol.kind} ${symbol.name} ${shownOf(symbol) ?? ''}:${symbol.range.start.line + 1}${symbol.container ? ` (in ${symbol.container})` : ''}`);
    if (lines.length === 0) {
      const left = refused.size > 0 ? ` (${found.length} in files the workspace guard does not let you read were left out)` : '';
      return textResult(`No symbols match "${query}" in the workspace${left}. Language servers may index only files they have opened; try workspace_grep.`);
    }
    return capped(lines, lines.length, found.length - readable.length, refused.size);
  },
});

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function capped(lines: readonly string[], total: number, refusedSymbols: number, refusedFiles: number): ReturnType<typeof textResult> {
  const notes: string[] = [];
  if (total > MAX_SYMBOLS) {
    notes.push(`[${total - MAX_SYMBOLS} more symbols not shown; narrow the query]`);
  }
  if (refusedSymbols > 0) {
    notes.push(`[${counted(refusedSymbols, 'symbol')} in ${counted(refusedFiles, 'file')} the workspace guard does not let you read ${refusedSymbols === 1 ? 'was' : 'were'} left out]`);
  }
  return textResult([...lines.slice(0, MAX_SYMBOLS), ...notes].join('\n'), notes.length ? notes.join('\n') : undefined);
}
