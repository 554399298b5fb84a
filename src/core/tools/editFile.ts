import { showChangedLines } from '../changes/changeSummary';
import { loadBaseline } from '../changes/fileBaseline';
import { changedMessage, freshness } from '../changes/freshness';
import { planCreate, planModify, targetWarnings } from '../changes/plannedChange';
import { reviewAndApply } from '../changes/reviewAndApply';
import { describeMatchLevel, planTextEdit, type TextEditOutcome } from '../edit/editPlanner';
import { ToolError } from '../errors';
import { guardWriteTarget } from '../guard/writeGuard';
import { joinLines, splitLines } from '../text/lineEndings';
import { defineTool, textResult, type Tool } from './toolSpec';

export interface EditFileInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export const editFileTool: Tool = defineTool<EditFileInput>({
  name: 'workspace_edit_file',
  displayName: 'Edit File',
  toolReferenceName: 'editFile',
  icon: '$(edit)',
  access: 'write',
  userDescription: 'Replace an exact piece of text in a file, after you approve the diff.',
  modelDescription: [
    'Replace text in a file: old_string is replaced by new_string. Read the file with workspace_read_file first.',
    'old_string must match the file exactly, including indentation, and must be unique in the file: include enough surrounding lines to make it unique, or set replace_all to true to replace every occurrence (e.g. renaming). Never include the line-number prefix of workspace_read_file output.',
    'If old_string is not found the error shows the closest region with line numbers; if it occurs several times the error lists the line numbers. old_string and new_string must differ. An empty old_string creates a file that does not exist yet with new_string as its content.',
    'Line endings, BOM, encoding and the final newline of the file are preserved. The user reviews the change in a diff editor and may reject it. Result: "Edited <path>: N replacement(s)" and the changed lines with their numbers, plus any new errors reported for the file.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The file to edit: workspace-relative or absolute.' },
      old_string: { type: 'string', description: 'The exact text to replace (empty to create a new file).' },
      new_string: { type: 'string', description: 'The text to put in its place.' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence of old_string. Default false.' },
    },
    required: ['file_path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Editing ${input.file_path}`,

  async run(input, ctx) {
    const target = await guardWriteTarget(input.file_path, ctx);
    const baseline = await loadBaseline(target, ctx);
    const warnings = targetWarnings(target);
    if (!baseline) {
      if (input.old_string !== '') {
        throw new ToolError(`File not found: ${target.shown}. Check the path with workspace_glob; to create a new file pass an empty old_string, or use workspace_write_file.`);
      }
      await reviewAndApply({ tool: editFileTool, summary: `Create ${target.shown}`, files: [planCreate(target, input.new_string)] }, warnings, ctx);
      return textResult(`Created ${target.shown} (${splitLines(input.new_string).length} lines)`);
    }
    const state = freshness(target, baseline, ctx);
    const lines = splitLines(baseline.text);
    let outcome: TextEditOutcome;
    if (input.old_string === '' && baseline.text === '') {
      const newLines = splitLines(input.new_string);
      outcome = { lines: newLines, level: 'exact', replacements: 1, changedRanges: [{ start: 0, end: newLines.length }] };
    } else {
      try {
        outcome = planTextEdit(lines, { oldString: input.old_string, newString: input.new_string, replaceAll: input.replace_all ?? false }, target.shown);
      } catch (error) {
        if (error instanceof ToolError && state === 'changed') {
          throw new ToolError(`${error.message}\nNote: ${changedMessage(target.shown)}`);
        }
        throw error;
      }
    }
    // A file changed since it was read may still be edited when old_string pins the place exactly;
    // a loose match or a replace-all there could hit text the agent has never seen.
    if (state === 'changed' && (outcome.level !== 'exact' && outcome.level !== 'line-endings' || outcome.replacements > 1)) {
      throw new ToolError(changedMessage(target.shown));
    }
    const text = joinLines(outcome.lines);
    if (text === baseline.text) {
      throw new ToolError(`The edit would leave ${target.shown} unchanged: new_string differs from old_string only in line endings or in whitespace that the file keeps. Nothing was written.`);
    }
    const file = planModify(target, baseline, text);
    const applied = await reviewAndApply({ tool: editFileTool, summary: `Edit ${target.shown}`, files: [file], reportDiagnostics: true }, warnings, ctx);
    const parts = [`Edited ${target.shown}: ${outcome.replacements} replacement(s)`];
    if (outcome.level !== 'exact') {
      parts.push(`(old_string ${describeMatchLevel(outcome.level)}.)`);
    }
    parts.push(showChangedLines(outcome.lines, outcome.changedRanges), ...applied.notes);
    return textResult(parts.join('\n'));
  },
});
