import { notAvailableYet } from './notAvailable';
import type { ToolSpec } from './toolSpec';

export interface ApplyPatchInput {
  patch: string;
}

export const applyPatchTool: ToolSpec<ApplyPatchInput> = {
  name: 'workspace_apply_patch',
  displayName: 'Apply Patch',
  toolReferenceName: 'applyPatch',
  icon: '$(diff)',
  access: 'write',
  userDescription: 'Apply a multi-file patch (add, update, move, delete) all or nothing, after you approve it.',
  modelDescription: [
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
  run: async () => notAvailableYet('workspace_apply_patch', 'Use workspace_edit_file for each change instead.'),
};
