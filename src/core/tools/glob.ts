import { notAvailableYet } from './notAvailable';
import type { ToolSpec } from './toolSpec';

export interface GlobInput {
  pattern: string;
  path?: string;
}

export const globTool: ToolSpec<GlobInput> = {
  name: 'workspace_glob',
  displayName: 'Find Files',
  toolReferenceName: 'glob',
  icon: '$(search)',
  access: 'read',
  userDescription: 'Find workspace files by glob pattern, newest first.',
  modelDescription: [
    'Find files by name with a glob pattern, e.g. "**/*.ts", "src/**/test_*.py", "**/{package,tsconfig}.json". Use it to locate files before reading them; to search file contents use workspace_grep.',
    'pattern: a glob (minimatch syntax: ** crosses folders, {a,b} alternatives, [abc] classes; dotfiles match only when the pattern names them). path: optional folder to search in, workspace-relative; default the workspace root.',
    'Output: matching file paths relative to the workspace, most recently modified first, at most 100, then "[N more not shown]". Files hidden by .gitignore are left out.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'The glob pattern to match file paths against.' },
      path: { type: 'string', description: 'The folder to search in, workspace-relative. Default: the workspace root.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Finding files matching ${input.pattern}`,
  run: async () => notAvailableYet('workspace_glob', 'Use workspace_list_directory to explore folders instead.'),
};
