import { showChangedLines } from '../changes/changeSummary';
import { loadBaseline } from '../changes/fileBaseline';
import { changedMessage, freshness } from '../changes/freshness';
import { planCreate, planModify, targetWarnings } from '../changes/plannedChange';
import { reviewAndApply } from '../changes/reviewAndApply';
import { describeMatchLevel, editLabel, planTextEdits, type MultiEditOutcome, type TextEditRequest } from '../edit/editPlanner';
import { refuseIntroducedPlaceholders } from '../edit/placeholders';
import { ToolError } from '../errors';
import { cellSource, replaceCellSource } from '../read/notebook';
import type { ToolContext } from '../context';
import { guardWriteTarget, type WriteTarget } from '../guard/writeGuard';
import type { FileBaseline } from '../ports/changes';
import { joinLines, splitLines } from '../text/lineEndings';
import { defineTool, textResult, type Tool, type ToolResult } from './toolSpec';

/** One replacement of an `edits` list. */
export interface EditInput {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface EditFileInput {
  file_path: string;
  old_string?: string;
  new_string?: string;
  replace_all?: boolean;
  edits?: EditInput[];
  /** In a notebook (.ipynb): the index of the cell whose text the edits apply to. */
  cell?: number;
}

const editFields = {
  old_string: { type: 'string', description: 'The exact text to replace (empty to create a new file).' },
  new_string: { type: 'string', description: 'The text to put in its place.' },
  replace_all: { type: 'boolean', description: 'Replace every occurrence of old_string. Default false.' },
} as const;

/** The edits a call asks for, one or several; throws a ToolError naming the field when the two forms are mixed or incomplete. */
function requestedEdits(input: EditFileInput): TextEditRequest[] {
  const single = input.old_string !== undefined || input.new_string !== undefined || input.replace_all !== undefined;
  if (input.edits !== undefined) {
    if (single) {
      throw new ToolError('Invalid input for workspace_edit_file: give either old_string and new_string (one edit) or edits (several), not both. Nothing was changed.');
    }
    if (input.edits.length === 0) {
      throw new ToolError('Invalid input for workspace_edit_file: edits is empty. Give at least one {old_string, new_string}, or use old_string and new_string for a single edit.');
    }
    return input.edits.map((edit) => ({ oldString: edit.old_string, newString: edit.new_string, replaceAll: edit.replace_all ?? false }));
  }
  if (input.old_string === undefined || input.new_string === undefined) {
    const missing = input.old_string === undefined && input.new_string === undefined ? 'old_string and new_string (or edits)' : input.old_string === undefined ? 'old_string' : 'new_string';
    throw new ToolError(`Invalid input for workspace_edit_file: missing required field ${missing}. Accepted fields: file_path, old_string, new_string, replace_all, edits.`);
  }
  return [{ oldString: input.old_string, newString: input.new_string, replaceAll: input.replace_all ?? false }];
}

export const editFileTool: Tool = defineTool<EditFileInput>({
  name: 'workspace_edit_file',
  displayName: 'Edit File',
  toolReferenceName: 'workspaceEditFile',
  icon: '$(edit)',
  access: 'write',
  userDescription: 'Replace exact pieces of text in a file, one or several in one step, after you approve the diff.',
  modelDescription: [
    'Use this instead of the built-in replace and edit tools: edits are byte-exact (line endings, BOM, encoding kept), never guess between two matching places, may be several per call (edits), and are reviewed as one diff that one undo reverts.',
    'Replace text in a file: old_string is replaced by new_string. Read the file with workspace_read_file first.',
    'old_string must match the file exactly, including indentation, and must be unique in the file: include enough surrounding lines to make it unique, or set replace_all to true to replace every occurrence (e.g. renaming). Never include the line-number prefix of workspace_read_file output.',
    'For several changes to one file, pass edits (a list of {old_string, new_string, replace_all?}) instead of old_string and new_string: each edit applies to the result of the previous one with the same rules, the user reviews them as one diff, and if any edit fails (its index is named) nothing is changed. An edit may not overlap the text an earlier edit wrote.',
    'If old_string is not found the error shows the closest region with line numbers; if it occurs several times the error lists the line numbers. old_string and new_string must differ. An empty old_string (of the first edit) creates a file that does not exist yet with new_string as its content.',
    'In a Jupyter notebook (.ipynb, read as cells by workspace_read_file) pass cell=<index>: old_string and new_string then apply to that cell\'s text, and the rest of the notebook (other cells, outputs, metadata) stays byte for byte.',
    'Line endings, BOM, encoding and the final newline of the file are preserved. The user reviews the change in a diff editor and may reject it. Result: "Edited <path>: N replacement(s)" and the changed lines with their numbers, plus any new errors reported for the file.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The file to edit: workspace-relative or absolute.' },
      ...editFields,
      edits: {
        type: 'array',
        description: 'Several replacements in this file, applied in order, all or nothing. Use instead of old_string/new_string/replace_all.',
        items: { type: 'object', properties: { ...editFields }, required: ['old_string', 'new_string'], additionalProperties: false },
      },
      cell: { type: 'integer', description: 'For a notebook (.ipynb): the 0-based index of the cell to edit, at least 0.' },
    },
    required: ['file_path'],
    additionalProperties: false,
  },
  bounds: { cell: { min: 0 } },
  invocationMessage: (input) => `Editing ${input.file_path}${input.cell === undefined ? '' : ` cell ${input.cell}`}`,

  async run(input, ctx) {
    const requests = requestedEdits(input);
    const target = await guardWriteTarget(input.file_path, ctx);
    const baseline = await loadBaseline(target, ctx);
    const warnings = targetWarnings(target);
    if (!baseline && input.cell !== undefined) {
      throw new ToolError(`File not found: ${target.shown}. A cell can only be edited in an existing notebook.`);
    }
    if (!baseline) {
      if (requests[0].oldString !== '') {
        throw new ToolError(`File not found: ${target.shown}. Check the path with workspace_glob; to create a new file pass an empty old_string, or use workspace_write_file.`);
      }
      // A new file: the first edit gives its content, the others edit that.
      const content = joinLines(planTextEdits([], requests, target.shown).lines);
      refuseIntroducedPlaceholders('', content, target.shown, 'new_string');
      await reviewAndApply({ tool: editFileTool, summary: `Create ${target.shown}`, files: [planCreate(target, content)] }, warnings, ctx);
      return textResult(`Created ${target.shown} (${splitLines(content).length} lines)`);
    }
    const state = freshness(target, baseline, ctx);
    if (input.cell !== undefined) {
      return editCell(input.cell, requests, target, baseline, state, ctx);
    }
    let outcome: MultiEditOutcome;
    try {
      outcome = planTextEdits(splitLines(baseline.text), requests, target.shown);
    } catch (error) {
      if (error instanceof ToolError && state === 'changed') {
        throw new ToolError(`${error.message}\nNote: ${changedMessage(target.shown)}`);
      }
      throw error;
    }
    // A file changed since it was read may still be edited when every old_string pins its place
    // exactly; a loose match or a replace-all there could hit text the agent has never seen.
    if (state === 'changed' && (outcome.levels.some((level) => level !== 'exact' && level !== 'line-endings') || outcome.replacements > requests.length)) {
      throw new ToolError(changedMessage(target.shown));
    }
    const text = joinLines(outcome.lines);
    refuseIntroducedPlaceholders(baseline.text, text, target.shown, requests.length === 1 ? 'new_string' : 'The edits');
    if (text === baseline.text) {
      throw new ToolError(`The edit would leave ${target.shown} unchanged: new_string differs from old_string only in line endings or in whitespace that the file keeps. Nothing was written.`);
    }
    const file = planModify(target, baseline, text);
    const applied = await reviewAndApply({ tool: editFileTool, summary: `Edit ${target.shown}`, files: [file], reportDiagnostics: true }, warnings, ctx);
    const parts = [`Edited ${target.shown}: ${outcome.replacements} replacement(s)`];
    outcome.levels.forEach((level, index) => {
      if (level !== 'exact') {
        parts.push(requests.length === 1 ? `(old_string ${describeMatchLevel(level)}.)` : `(${editLabel(index, requests.length)}: old_string ${describeMatchLevel(level)}.)`);
      }
    });
    parts.push(showChangedLines(outcome.lines, outcome.changedRanges), ...applied.notes);
    return textResult(parts.join('\n'));
  },
});

/** The edits applied to one notebook cell's text, written back into the notebook's JSON with every other byte kept. */
async function editCell(cell: number, requests: TextEditRequest[], target: WriteTarget, baseline: FileBaseline, state: ReturnType<typeof freshness>, ctx: ToolContext): Promise<ToolResult> {
  if (state === 'changed') {
    throw new ToolError(changedMessage(target.shown));
  }
  const where = `${target.shown} cell ${cell}`;
  const before = cellSource(baseline.text, cell, target.shown);
  const outcome = planTextEdits(splitLines(before), requests, where);
  const after = joinLines(outcome.lines);
  if (after === before) {
    throw new ToolError(`The edit would leave ${where} unchanged. Nothing was written.`);
  }
  refuseIntroducedPlaceholders(before, after, where, requests.length === 1 ? 'new_string' : 'The edits');
  const file = { ...planModify(target, baseline, replaceCellSource(baseline.text, cell, after, target.shown)), notebookCell: { index: cell, text: after } };
  await reviewAndApply({ tool: editFileTool, summary: `Edit ${where}`, files: [file] }, targetWarnings(target), ctx);
  return textResult([`Edited ${where}: ${outcome.replacements} replacement(s)`, showChangedLines(outcome.lines, outcome.changedRanges)].join('\n'));
}
