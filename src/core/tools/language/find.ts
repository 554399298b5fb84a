// workspace_find: where a symbol is defined, referenced, implemented or typed, or its hover text,
// from the language extension of the file. The model names the line and the symbol; the column is
// found for it. Locations come with their line's text, grouped by file.
import { throwIfCancelled } from '../../errors';
import { answerWithin, PROVIDER_WAIT_MS } from '../../language/providerWait';
import { locationKey, type Location } from '../../location';
import type { FoundLocation, LocationKind } from '../../ports/language';
import { counted } from '../../text/format';
import { displayLines } from '../../text/lineEndings';
import { capLine } from '../../output/budget';
import { defineTool, textResult, type Tool } from '../toolSpec';
import { currentText, noProviderHint, readableFiles, requireLanguage, symbolPlaceFields, symbolTarget, type SymbolInput } from './languageTarget';

export interface FindInput extends SymbolInput {
  what: LocationKind | 'hover';
}

/** The most locations one answer lists. */
export const MAX_LOCATIONS = 200;
const LINE_SHOWN_CHARS = 300;

const WORDS: Record<FindInput['what'], string> = {
  definition: 'definition',
  references: 'references',
  implementations: 'implementations',
  type_definition: 'type definition',
  hover: 'hover information',
};

export const findTool: Tool = defineTool<FindInput>({
  name: 'workspace_find',
  displayName: 'Find Definition and References',
  toolReferenceName: 'workspaceFind',
  icon: '$(references)',
  access: 'read',
  userDescription: 'Go to definition, find references, implementations or the type of a symbol, or read its hover, through VS Code\'s language services.',
  modelDescription: [
    'Ask the language service about a symbol: where it is defined, every reference to it (across files, understood by the language, not by text), its implementations, its type\'s definition, or its hover (type signature and docs).',
    'file_path: the file where the symbol is written; line: the 1-based line; symbol: the name as written on that line (the column is found for you; the first whole-word occurrence). what: "definition", "references", "implementations", "type_definition" or "hover".',
    'Output: the locations grouped by file, each "  line: text of the line", at most 200; hover: its text.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      ...symbolPlaceFields,
      symbol: { type: 'string', description: 'The symbol\'s name as written on that line.' },
      what: { type: 'string', enum: ['definition', 'references', 'implementations', 'type_definition', 'hover'], description: 'What to find.' },
    },
    required: ['file_path', 'line', 'symbol', 'what'],
    additionalProperties: false,
  },
  bounds: { line: { min: 1 } },
  invocationMessage: (input) => `Finding the ${WORDS[input.what] ?? input.what} of ${input.symbol}`,

  async run(input, ctx) {
    const language = requireLanguage(ctx, 'workspace_find');
    const target = await symbolTarget(input, language, ctx);
    const where = `"${input.symbol}" at ${target.shown}:${input.line}`;
    const provider = `The ${target.languageId} ${WORDS[input.what]} provider`;
    if (input.what === 'hover') {
      const texts = await answerWithin(language.hover(target.file.resolved, target.position), PROVIDER_WAIT_MS, ctx.call.token, provider, ctx.host.clock);
      if (texts.length === 0) {
        return textResult(`No hover information for ${where} (language ${target.languageId}). ${noProviderHint(target.languageId)}`);
      }
      return textResult(texts.join('\n\n---\n\n'));
    }
    const found = await answerWithin(language.locations(input.what, target.file.resolved, target.position), PROVIDER_WAIT_MS, ctx.call.token, provider, ctx.host.clock);
    throwIfCancelled(ctx.call.token);
    if (found.length === 0) {
      return textResult(`No ${WORDS[input.what]} found for ${where} (language ${target.languageId}). ${noProviderHint(target.languageId)}`);
    }
    return textResult(...(await groupedLocations(found, ctx)));
  },
});

/** The locations by file (files in the order first found, lines in order), with each line's text; a continuation when some were left out. */
export async function groupedLocations(found: readonly FoundLocation[], ctx: Parameters<typeof currentText>[1]): Promise<[string, string?]> {
  const { allowed, refused } = await readableFiles(found.map((entry) => entry.location), ctx);
  const files = new Map<string, { location: Location; lines: Set<number> }>();
  let refusedCount = 0;
  for (const entry of found) {
    const key = locationKey(entry.location);
    if (!allowed.has(key)) {
      refusedCount += 1;
      continue;
    }
    const file = files.get(key) ?? { location: entry.location, lines: new Set<number>() };
    file.lines.add(entry.range.start.line);
    files.set(key, file);
  }
  const out: string[] = [];
  let shownCount = 0;
  let total = 0;
  for (const [key, file] of files) {
    const lines = [...file.lines].sort((a, b) => a - b);
    total += lines.length;
    if (shownCount >= MAX_LOCATIONS) {
      continue;
    }
    const text = displayLines(await currentText(file.location, ctx));
    out.push(allowed.get(key) ?? '');
    for (const line of lines.slice(0, MAX_LOCATIONS - shownCount)) {
      out.push(`  ${line + 1}: ${capLine((text[line] ?? '').trim(), LINE_SHOWN_CHARS)}`);
      shownCount += 1;
    }
  }
  const notes: string[] = [];
  if (total > shownCount) {
    notes.push(`[${total - shownCount} more locations not shown]`);
  }
  if (refusedCount > 0) {
    notes.push(`[${counted(refusedCount, 'location')} in ${counted(refused.size, 'file')} the workspace guard does not let you read ${refusedCount === 1 ? 'was' : 'were'} left out]`);
  }
  const summary = `${total} ${total === 1 ? 'location' : 'locations'} in ${files.size} ${files.size === 1 ? 'file' : 'files'}.`;
  return [[...out, ...notes, summary].join('\n'), notes.length ? notes.join('\n') : undefined];
}
