import type { ToolContext } from '../context';
import { loadBaseline, MAX_EDITABLE_BYTES } from '../changes/fileBaseline';
import { changedMessage, freshness } from '../changes/freshness';
import { alwaysAskFor, plannedContent, targetWarnings } from '../changes/plannedChange';
import { reviewAndApply } from '../changes/reviewAndApply';
import type { GuardVerdict } from '../decisions';
import { parsePatch, type PatchOperation } from '../edit/patchParser';
import { describeTolerance, ignoresIndentation } from '../edit/lineMatching';
import { planPatch, type LooseMatch, type PatchFileState } from '../edit/patchPlanner';
import { refuseIntroducedPlaceholders } from '../edit/placeholders';
import { BugError, throwIfCancelled, ToolError } from '../errors';
import { judgeLocation } from '../guard/judgeLocation';
import { denialMessage } from '../guard/rules';
import { guardWriteLocation, type WriteTarget } from '../guard/writeGuard';
import { resolveToolPath } from '../guard/workspacePaths';
import { locationKey } from '../location';
import type { FileBaseline, PlannedFileChange } from '../ports/changes';
import { joinLines, splitLines } from '../text/lineEndings';
import { defineTool, textResult, type Tool } from './toolSpec';

export interface ApplyPatchInput {
  patch: string;
}

export const applyPatchTool: Tool = defineTool<ApplyPatchInput>({
  name: 'workspace_apply_patch',
  displayName: 'Apply Patch',
  toolReferenceName: 'workspaceApplyPatch',
  icon: '$(diff)',
  access: 'write',
  userDescription: 'Apply a multi-file patch (add, update, move, delete) all or nothing, after you approve it.',
  modelDescription: [
    'Use this instead of the built-in apply_patch: every file is located before anything changes (all or nothing), the user reviews all files as one decision, bytes are kept exact and one undo reverts it.',
    'Apply a patch that adds, updates, moves or deletes several files at once, all or nothing. Read the files you update first.',
    'The patch format:',
    '*** Begin Patch',
    '*** Add File: path/new.txt',
    '+every line of the new file, each prefixed with +',
    '*** Update File: path/existing.py',
    '*** Move to: path/renamed.py   (optional, right after Update File)',
    '@@ def some_function():   (optional context line that locates the chunk)',
    ' an unchanged line, prefixed with a space',
    '-a removed line',
    '+an added line',
    '*** End of File   (optional: the chunk ends at the end of the file)',
    '*** Delete File: path/old.txt',
    '*** End Patch',
    'Give about 3 unchanged lines before and after each change so it can be located. Paths are workspace-relative. Every file is located and planned before anything changes; if any chunk cannot be found nothing is changed and the error names the file and the lines. The user reviews all files in diff editors and accepts or rejects the patch as one. Result: "Success. Updated the following files:" then A/M/D lines.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      patch: { type: 'string', description: 'The patch text, from "*** Begin Patch" to "*** End Patch".' },
    },
    required: ['patch'],
    additionalProperties: false,
  },
  invocationMessage: () => 'Applying a patch',

  async run(input, ctx) {
    const { operations, tolerated } = parsePatch(input.patch);
    const files = await inspectPatchFiles(operations, ctx);
    const warnings = targetWarnings(...[...files.values()].map((file) => file.target));
    const deleteCount = operations.filter((operation) => operation.kind === 'delete').length;
    const deleteWarning = await guardDeleteCount(deleteCount, operations, files, ctx);
    if (deleteWarning) {
      warnings.unshift(deleteWarning);
    }
    const fileFor = (path: string): InspectedFile => {
      const file = files.get(path);
      if (!file) {
        throw new BugError(`patch path ${path} was not inspected`);
      }
      return file;
    };
    const plan = planPatch(operations, {
      state: (path): PatchFileState => {
        const { target, baseline } = fileFor(path);
        return target.stat === undefined ? { kind: 'missing' } : baseline ? { kind: 'file', lines: splitLines(baseline.text) } : { kind: 'directory' };
      },
      key: (path) => locationKey(fileFor(path).target.resolved),
    });
    const changes: PlannedFileChange[] = [];
    const summary: string[] = [];
    const notes: string[] = [...tolerated];
    const replacedByMoves: string[] = [];
    for (const operation of plan) {
      const { target, baseline } = fileFor(operation.path);
      const alwaysAsk = alwaysAskFor([target.warning, operation.kind === 'delete' ? deleteWarning : undefined]);
      if (operation.kind === 'add') {
        refuseIntroducedPlaceholders('', operation.text, target.shown, 'The patch');
        changes.push({ kind: 'create', location: target.resolved, shownPath: target.shown, after: plannedContent(operation.text, 'utf8'), alwaysAsk });
        summary.push(`A ${target.shown}`);
      } else if (operation.kind === 'delete') {
        changes.push({ kind: 'delete', location: target.resolved, shownPath: target.shown, before: requireBaseline(baseline), alwaysAsk });
        summary.push(`D ${target.shown}`);
      } else {
        const before = requireBaseline(baseline);
        if (operation.tolerances.length > 0 && freshness(target, before, ctx) === 'changed') {
          throw new ToolError(`${changedMessage(target.shown)} (Some chunks of the patch only matched loosely.) Nothing was changed.`);
        }
        refuseIntroducedPlaceholders(before.text, joinLines(operation.lines), target.shown, 'The patch');
        const after = plannedContent(joinLines(operation.lines), before.encoding);
        const destination = operation.moveTo === undefined ? undefined : fileFor(operation.moveTo).target;
        const moving = destination && locationKey(destination.resolved) !== locationKey(target.resolved) ? destination : undefined;
        if (moving && operation.overwrites) {
          // Onto an existing file: that file's content is replaced (its own diff shows what goes), and the source is deleted.
          const replaced = requireBaseline(fileFor(operation.moveTo ?? '').baseline);
          changes.push(
            { kind: 'modify', location: moving.resolved, shownPath: moving.shown, before: replaced, after, alwaysAsk: alwaysAskFor([moving.warning]) },
            { kind: 'delete', location: target.resolved, shownPath: target.shown, before, alwaysAsk },
          );
          summary.push(`M ${moving.shown}`, `D ${target.shown}`);
          replacedByMoves.push(`${target.shown} was moved onto ${moving.shown}, which existed: its content was replaced.`);
          notes.push(...operation.tolerances.map((loose) => describeLooseMatch(target.shown, loose)));
          continue;
        }
        changes.push({
          kind: 'modify',
          location: target.resolved,
          moveTo: moving?.resolved,
          shownPath: target.shown,
          shownMoveTo: moving?.shown,
          before,
          after,
          alwaysAsk: alwaysAskFor([target.warning, moving?.warning]),
        });
        summary.push(`M ${moving ? moving.shown : target.shown}`);
        notes.push(...operation.tolerances.map((loose) => describeLooseMatch(target.shown, loose)));
      }
    }
    const names = changes.map((change) => change.shownMoveTo ?? change.shownPath);
    await reviewAndApply({ tool: applyPatchTool, summary: `Patch ${names.length === 1 ? names[0] : `${names.length} files`}`, files: changes }, warnings, ctx);
    const read = notes.length > 0 ? `\nThe patch was read leniently:\n${notes.map((note) => `- ${note}`).join('\n')}` : '';
    const moves = replacedByMoves.map((line) => `\n${line}`).join('');
    return textResult(`Success. Updated the following files:\n${summary.join('\n')}${moves}${read}`);
  },
});

function describeLooseMatch(shown: string, loose: LooseMatch): string {
  const how = describeTolerance(loose.tolerance);
  if (loose.anchor !== undefined) {
    return `${shown}, chunk ${loose.chunk}: "@@ ${loose.anchor}" was found ${how}.`;
  }
  return `${shown}, chunk ${loose.chunk}: its lines were found ${how}${ignoresIndentation(loose.tolerance) ? '; its added lines were re-indented to the file' : ''}.`;
}

interface InspectedFile {
  readonly target: WriteTarget;
  readonly baseline?: FileBaseline;
}

/** Guards every path the patch names (sources, move destinations) and reads what is there now. */
async function inspectPatchFiles(operations: readonly PatchOperation[], ctx: ToolContext): Promise<Map<string, InspectedFile>> {
  const files = new Map<string, InspectedFile>();
  const paths = operations.flatMap((operation) => (operation.kind === 'update' && operation.moveTo !== undefined ? [operation.path, operation.moveTo] : [operation.path]));
  for (const path of paths) {
    if (files.has(path)) {
      continue;
    }
    throwIfCancelled(ctx.call.token);
    const target = await guardPatchPath(path, ctx);
    const deletedOnly = operations.every((operation) => operation.path !== path || operation.kind === 'delete');
    const baseline = target.stat?.kind === 'file' ? await (deletedOnly ? loadDeletedBaseline(target, ctx) : loadBaseline(target, ctx)) : undefined;
    files.set(path, { target, baseline });
  }
  return files;
}

/** A file that is only deleted need not be text: binary files keep their bytes (for the undo) and show as empty. */
async function loadDeletedBaseline(target: WriteTarget, ctx: ToolContext): Promise<FileBaseline | undefined> {
  try {
    return await loadBaseline(target, ctx);
  } catch (error) {
    if (error instanceof ToolError && (target.stat?.size ?? 0) <= MAX_EDITABLE_BYTES) {
      return { bytes: await ctx.host.fs.readFile(target.resolved), encoding: 'utf8', text: '', fromEditor: false };
    }
    throw error;
  }
}

async function guardPatchPath(path: string, ctx: ToolContext): Promise<WriteTarget> {
  try {
    return await guardWriteLocation(resolveToolPath(path, ctx), ctx);
  } catch (error) {
    if (error instanceof ToolError && /is a directory, not a file/.test(error.message)) {
      // The planner gives the precise error (for example, Delete File on a directory).
      const literal = resolveToolPath(path, ctx);
      return { literal, resolved: await ctx.host.fs.realpath(literal), shown: path, stat: await ctx.host.fs.stat(literal) };
    }
    if (error instanceof ToolError) {
      throw new ToolError(`${error.message} (In the patch: ${path}.) Nothing was changed.`);
    }
    throw error;
  }
}

/** Runs file.apply_patch_delete_many; returns a warning the review must show, or throws on deny. */
async function guardDeleteCount(deleteCount: number, operations: readonly PatchOperation[], files: Map<string, InspectedFile>, ctx: ToolContext): Promise<GuardVerdict | undefined> {
  if (deleteCount === 0) {
    return undefined;
  }
  const first = operations.find((operation) => operation.kind === 'delete');
  const location = first ? files.get(first.path)?.target.resolved : undefined;
  if (!location) {
    return undefined;
  }
  const { verdict } = await judgeLocation(location, 'patch', ctx, { deleteCount });
  if (verdict.decision === 'deny') {
    throw new ToolError(`${denialMessage(verdict)} Nothing was changed.`);
  }
  return verdict.decision === 'warn' ? verdict : undefined;
}

function requireBaseline(baseline: FileBaseline | undefined): FileBaseline {
  if (!baseline) {
    throw new BugError('the planner accepted a file that could not be read');
  }
  return baseline;
}
