import { notAvailableYet } from './notAvailable';
import type { ToolSpec } from './toolSpec';

export interface EditFileInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export const editFileTool: ToolSpec<EditFileInput> = {
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
  run: async () => notAvailableYet('workspace_edit_file', 'Tell the user what to change instead.'),
};
