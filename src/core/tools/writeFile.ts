import { refuseIntroducedPlaceholders } from '../edit/placeholders';
import { countLineChanges } from '../changes/changeSummary';
import { loadBaseline } from '../changes/fileBaseline';
import { changedMessage, freshness, unreadMessage } from '../changes/freshness';
import { planCreate, planModify, targetWarnings } from '../changes/plannedChange';
import { reviewAndApply } from '../changes/reviewAndApply';
import { ToolError } from '../errors';
import { guardWriteTarget } from '../guard/writeGuard';
import { dominantLineEnding, joinLines, normaliseLineEndings, replaceLineRange, splitLines } from '../text/lineEndings';
import { defineTool, textResult, type Tool } from './toolSpec';

export interface WriteFileInput {
  file_path: string;
  content: string;
}

export const writeFileTool: Tool = defineTool<WriteFileInput>({
  name: 'workspace_write_file',
  displayName: 'Write File',
  toolReferenceName: 'workspaceWriteFile',
  icon: '$(new-file)',
  access: 'write',
  userDescription: 'Create a file or replace its whole content, after you approve the diff.',
  modelDescription: [
    'Use this instead of the built-in file creation tools: the user reviews every write in VS Code\'s diff editor, line endings, BOM, encoding and file mode are kept byte for byte, and one undo reverts it.',
    'Create a new file, or replace the entire content of an existing one. Prefer workspace_edit_file for changes to part of a file: it is safer and shows only the change.',
    'file_path: workspace-relative or absolute. content: the complete new content, exactly as it should be on disk (no line-number prefixes).',
    'Parent folders are created. An existing file keeps its line endings, BOM, encoding and mode. Overwriting an existing file you have not read with workspace_read_file, or that changed since you read it, is refused: read it first.',
    'The user reviews the change in a diff editor and may reject it. Result: "Created <path> (N lines)" or "Updated <path> (+a -b lines)".',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The file to create or overwrite: workspace-relative or absolute.' },
      content: { type: 'string', description: 'The complete content of the file.' },
    },
    required: ['file_path', 'content'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Writing ${input.file_path}`,

  async run(input, ctx) {
    const target = await guardWriteTarget(input.file_path, ctx);
    const baseline = await loadBaseline(target, ctx);
    const warnings = targetWarnings(target);
    refuseIntroducedPlaceholders(baseline?.text ?? '', input.content, target.shown, 'content');
    if (!baseline) {
      await reviewAndApply({ tool: writeFileTool, summary: `Create ${target.shown}`, files: [planCreate(target, input.content)] }, warnings, ctx);
      return textResult(`Created ${target.shown} (${splitLines(input.content).length} lines)`);
    }
    const state = freshness(target, baseline, ctx);
    if (state !== 'fresh') {
      throw new ToolError(state === 'unread' ? unreadMessage(target.shown) : changedMessage(target.shown));
    }
    const lines = splitLines(baseline.text);
    // The file's own line endings win over the content's: unchanged lines keep theirs, new lines get the dominant one.
    const hasEndings = lines.some((line) => line.eol !== '');
    const newLines = hasEndings ? replaceLineRange(lines, 0, lines.length, normaliseLineEndings(input.content), dominantLineEnding(lines)) : splitLines(input.content);
    const text = joinLines(newLines);
    if (text === baseline.text) {
      return textResult(`${target.shown} already has exactly this content; nothing was written.`);
    }
    await reviewAndApply({ tool: writeFileTool, summary: `Overwrite ${target.shown}`, files: [planModify(target, baseline, text)] }, warnings, ctx);
    const { added, removed } = countLineChanges(lines, newLines);
    return textResult(`Updated ${target.shown} (+${added} -${removed} lines)`);
  },
});
