import { notAvailableYet } from './notAvailable';
import type { ToolSpec } from './toolSpec';

export interface WriteFileInput {
  file_path: string;
  content: string;
}

export const writeFileTool: ToolSpec<WriteFileInput> = {
  name: 'workspace_write_file',
  displayName: 'Write File',
  toolReferenceName: 'writeFile',
  icon: '$(new-file)',
  access: 'write',
  userDescription: 'Create a file or replace its whole content, after you approve the diff.',
  modelDescription: [
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
  run: async () => notAvailableYet('workspace_write_file', 'Tell the user what to write instead.'),
};
