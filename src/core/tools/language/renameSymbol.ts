// workspace_rename_symbol: the language's rename provider computes the edit (every reference, in
// every file, as the language understands them); it is planned, reviewed, checkpointed and written
// exactly like a patch: every file guarded, one review, all or nothing, one undo.
import { loadBaseline } from '../../changes/fileBaseline';
import { planModify, targetWarnings } from '../../changes/plannedChange';
import { reviewAndApply } from '../../changes/reviewAndApply';
import { throwIfCancelled, ToolError } from '../../errors';
import { guardWriteLocation, type WriteTarget } from '../../guard/writeGuard';
import { answerWithin, PROVIDER_WAIT_MS } from '../../language/providerWait';
import { applyReplacements } from '../../language/textReplacements';
import { displayPath, locationKey } from '../../location';
import type { PlannedFileChange } from '../../ports/changes';
import type { FoundSymbol, LanguageFeatures, RenameEdits } from '../../ports/language';
import type { ToolContext } from '../../context';
import { defineTool, textResult, type Tool } from '../toolSpec';
import { requireLanguage, symbolPlaceFields, symbolTarget, type SymbolInput, type SymbolTarget } from './languageTarget';

export interface RenameSymbolInput extends SymbolInput {
  new_name: string;
}

export const renameSymbolTool: Tool = defineTool<RenameSymbolInput>({
  name: 'workspace_rename_symbol',
  displayName: 'Rename Symbol',
  toolReferenceName: 'workspaceRenameSymbol',
  icon: '$(symbol-field)',
  access: 'write',
  userDescription: 'Rename a symbol everywhere it is used, through the language\'s rename provider, after you review the change.',
  modelDescription: [
    'Rename a function, class, variable, property or other symbol everywhere it is used, as the language understands it (imports, references in other files; not strings or unrelated names that look the same). Safer than search and replace.',
    'file_path: the file where the symbol is written; line: the 1-based line; symbol: its current name as written on that line; new_name: the new name.',
    'The user reviews every changed file as one decision; nothing is written unless all of it is. A rename the language refuses (an invalid name, a symbol from a library) or one that clashes with a name already declared there is refused and nothing changes.',
    'Result: "Renamed <old> to <new>: N replacements in M files:" then "M path (k replacements)" lines.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      ...symbolPlaceFields,
      symbol: { type: 'string', description: 'The symbol\'s current name as written on that line.' },
      new_name: { type: 'string', description: 'The new name.' },
    },
    required: ['file_path', 'line', 'symbol', 'new_name'],
    additionalProperties: false,
  },
  bounds: { line: { min: 1 } },
  invocationMessage: (input) => `Renaming ${input.symbol} to ${input.new_name}`,

  async run(input, ctx) {
    const language = requireLanguage(ctx, 'workspace_rename_symbol');
    const newName = input.new_name.trim();
    if (newName === '' || newName === input.symbol) {
      throw new ToolError(newName === '' ? 'new_name is empty.' : `new_name is the current name "${input.symbol}"; nothing to rename.`);
    }
    const target = await symbolTarget(input, language, ctx);
    const provider = `The ${target.languageId} rename provider`;
    const answer = await answerWithin(language.rename(target.file.resolved, target.position, newName), PROVIDER_WAIT_MS, ctx.call.token, provider, ctx.host.clock);
    if ('refused' in answer) {
      throw new ToolError(`${provider} refused to rename "${input.symbol}" to "${newName}": ${answer.refused} Nothing was changed.`);
    }
    if (answer.files.length === 0) {
      throw new ToolError(`${provider} returned no edit for "${input.symbol}" at ${target.shown}:${input.line}; if no installed extension renames ${target.languageId} symbols, use workspace_apply_patch. Nothing was changed.`);
    }
    if (answer.otherOperations.length > 0) {
      throw new ToolError(`The rename would also do more than edit text (${answer.otherOperations.join(', ')}), which this tool does not apply. Nothing was changed.`);
    }
    await refuseClash(input.symbol, newName, target, answer, language, ctx);
    const changes: PlannedFileChange[] = [];
    const targets: WriteTarget[] = [];
    const summary: string[] = [];
    let replacements = 0;
    for (const file of answer.files) {
      throwIfCancelled(ctx.call.token);
      const writeTarget = await guardRenamedFile(file.location, ctx);
      const before = await loadBaseline(writeTarget, ctx);
      if (!before) {
        throw new ToolError(`${writeTarget.shown}, named by the rename, does not exist. Nothing was changed.`);
      }
      const after = applyReplacements(before.text, file.edits, writeTarget.shown);
      if (after === before.text) {
        continue;
      }
      targets.push(writeTarget);
      changes.push(planModify(writeTarget, before, after));
      summary.push(`M ${writeTarget.shown} (${file.edits.length} ${file.edits.length === 1 ? 'replacement' : 'replacements'})`);
      replacements += file.edits.length;
    }
    if (changes.length === 0) {
      throw new ToolError(`${provider}'s edit changes nothing. Nothing was changed.`);
    }
    const files = changes.length === 1 ? changes[0].shownPath : `${changes.length} files`;
    const applied = await reviewAndApply({ tool: renameSymbolTool, summary: `Rename ${input.symbol} to ${newName} in ${files}`, files: changes, reportDiagnostics: true }, targetWarnings(...targets), ctx);
    const head = `Renamed ${input.symbol} to ${newName}: ${replacements} ${replacements === 1 ? 'replacement' : 'replacements'} in ${changes.length} ${changes.length === 1 ? 'file' : 'files'}:`;
    return textResult([head, ...summary, ...applied.notes].join('\n'));
  },
});

async function guardRenamedFile(location: RenameEdits['files'][number]['location'], ctx: ToolContext): Promise<WriteTarget> {
  try {
    return await guardWriteLocation(location, ctx);
  } catch (error) {
    if (error instanceof ToolError) {
      throw new ToolError(`${error.message} (A file the rename changes.) Nothing was changed.`);
    }
    throw error;
  }
}

/**
 * Refuses a rename whose new name is already declared beside the symbol (the same container of the
 * file that declares it) or at the top of a file the rename edits: providers such as TypeScript's
 * rename into a clash without a word, leaving a duplicate declaration behind.
 */
async function refuseClash(oldName: string, newName: string, target: SymbolTarget, edits: RenameEdits, language: LanguageFeatures, ctx: ToolContext): Promise<void> {
  const definitions = await answerWithin(language.locations('definition', target.file.resolved, target.position), PROVIDER_WAIT_MS, ctx.call.token, `The ${target.languageId} definition provider`, ctx.host.clock);
  const declaredIn = new Set(definitions.map((definition) => locationKey(definition.location)));
  const outlines = new Map<string, readonly FoundSymbol[]>();
  for (const file of edits.files) {
    outlines.set(locationKey(file.location), (await answerWithin(language.documentSymbols(file.location), PROVIDER_WAIT_MS, ctx.call.token, `The ${target.languageId} symbol provider`, ctx.host.clock)) ?? []);
  }
  for (const [key, outline] of outlines) {
    const containers = new Set<string | undefined>([undefined]);
    if (declaredIn.has(key)) {
      for (const definition of definitions.filter((entry) => locationKey(entry.location) === key)) {
        const declared = outline.find((symbol) => symbol.name === oldName && symbol.range.start.line === definition.range.start.line);
        containers.add(declared?.container);
      }
    }
    const clash = outline.find((symbol) => symbol.name === newName && containers.has(symbol.container));
    if (clash) {
      throw new ToolError(`"${newName}" is already declared (${clash.kind} ${newName} at ${displayPath(clash.location, ctx.workspace)}:${clash.range.start.line + 1}); renaming "${oldName}" to it would clash. Choose another name. Nothing was changed.`);
    }
  }
}
