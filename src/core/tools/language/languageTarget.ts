// What the language tools share: the language port or a sentence saying it is missing, a file's
// text as the editor holds it, the position of a named symbol on a line, and the guard applied to
// every file a provider answers with (files it refuses are left out and counted).
import type { ToolContext } from '../../context';
import { throwIfCancelled, ToolError } from '../../errors';
import { judgeLocation, resolveRoots } from '../../guard/judgeLocation';
import { guardPath, type GuardedPath } from '../../guard/pathGuard';
import { symbolColumn } from '../../language/symbolPosition';
import { displayPath, locationKey, type Location } from '../../location';
import type { LanguageFeatures, TextPosition } from '../../ports/language';
import { decodeText } from '../../text/encoding';
import { displayLines } from '../../text/lineEndings';

/** The language port, or a ToolError when this host has none. */
export function requireLanguage(ctx: ToolContext, tool: string): LanguageFeatures {
  const language = ctx.host.language;
  if (!language) {
    throw new ToolError(`${tool} needs VS Code's language services, which this host does not offer. Use workspace_grep instead.`);
  }
  return language;
}

/** The text of a file as the editor holds it (unsaved text first). */
export async function currentText(location: Location, ctx: ToolContext): Promise<string> {
  return ctx.host.buffers.dirtyText(location) ?? decodeText(await ctx.host.fs.readFile(location)).text;
}

/** A symbol named on a line of a file, found for the model. */
export interface SymbolTarget {
  readonly file: GuardedPath;
  readonly shown: string;
  readonly languageId: string;
  readonly position: TextPosition;
}

/** The schema fields that place a symbol in a file, shared by the tools that take one. */
export const symbolPlaceFields = {
  file_path: { type: 'string', description: 'The file where the symbol is written, workspace-relative.' },
  line: { type: 'integer', description: 'The 1-based line the symbol is on, at least 1.' },
} as const;

export interface SymbolInput {
  file_path: string;
  line: number;
  symbol: string;
}

/** Guards the file, opens it for its language service and finds the symbol's column on the line. */
export async function symbolTarget(input: SymbolInput, language: LanguageFeatures, ctx: ToolContext): Promise<SymbolTarget> {
  const file = await guardPath(input.file_path, 'read', ctx);
  const shown = displayPath(file.literal, ctx.workspace);
  if (file.stat?.kind !== 'file') {
    throw new ToolError(file.stat ? `${shown} is not a file. Pass the file where the symbol is written.` : `File not found: ${shown}. Check the path with workspace_glob.`);
  }
  const languageId = await language.open(file.resolved);
  throwIfCancelled(ctx.call.token);
  const lines = displayLines(await currentText(file.resolved, ctx));
  if (input.line > lines.length) {
    throw new ToolError(`line ${input.line} is past the end of ${shown}, which has ${lines.length} lines.`);
  }
  const character = symbolColumn(lines[input.line - 1], input.symbol, input.line, shown);
  return { file, shown, languageId, position: { line: input.line - 1, character } };
}

/** The sentence for a provider that gave nothing, naming the language (plain text has no provider at all). */
export function noProviderHint(languageId: string): string {
  return languageId === 'plaintext'
    ? 'No language extension provides language features for plain text files (language plaintext); use workspace_grep.'
    : `If no installed extension provides this for ${languageId} files, none can be found; workspace_grep finds the name as text.`;
}

/** Groups locations' files through the read guard: the files allowed, by key, and how many locations were left out. */
export async function readableFiles(locations: readonly Location[], ctx: ToolContext): Promise<{ allowed: Map<string, string>; refused: Set<string> }> {
  const roots = await resolveRoots('read', ctx);
  const allowed = new Map<string, string>();
  const refused = new Set<string>();
  for (const location of locations) {
    const key = locationKey(location);
    if (allowed.has(key) || refused.has(key)) {
      continue;
    }
    throwIfCancelled(ctx.call.token);
    const judged = await judgeLocation(location, 'read', ctx, { roots });
    if (judged.verdict.decision === 'allow') {
      allowed.set(key, displayPath(location, ctx.workspace));
    } else {
      refused.add(key);
    }
  }
  return { allowed, refused };
}
