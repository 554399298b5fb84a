import { notAvailableYet } from './notAvailable';
import type { ToolSpec } from './toolSpec';

export interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  output_mode?: 'content' | 'files_with_matches' | 'count';
  case_insensitive?: boolean;
  context?: number;
  max_results?: number;
  fixed_strings?: boolean;
}

export const grepTool: ToolSpec<GrepInput> = {
  name: 'workspace_grep',
  displayName: 'Search Text',
  toolReferenceName: 'grep',
  icon: '$(search)',
  access: 'read',
  userDescription: 'Search file contents of the workspace with a regular expression (ripgrep).',
  modelDescription: [
    'Search the contents of workspace files with a regular expression (ripgrep syntax, e.g. "function\\s+\\w+", "TODO|FIXME"). Use it to find where something is defined or used; to find files by name use workspace_glob.',
    'pattern: the regex (set fixed_strings to true to search for literal text). path: a file or folder to search, workspace-relative; default the workspace root. glob: only search files whose path matches, e.g. "*.ts" or "src/**/*.py".',
    'output_mode: "content" (default) prints matching lines as path:line:text (context lines as path-line-text); "files_with_matches" prints only paths; "count" prints path:count. context: lines of context before and after each match (content mode). case_insensitive: default false. max_results: at most this many lines or files (default 100); the output says how many more were left out.',
    'Files hidden by .gitignore and binary files are skipped. Very long lines are cut around the match.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'The regular expression (or literal text with fixed_strings) to search for.' },
      path: { type: 'string', description: 'A file or folder to search, workspace-relative. Default: the workspace root.' },
      glob: { type: 'string', description: 'Only search files matching this glob, e.g. "*.ts".' },
      output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'], description: 'What to print. Default "content".' },
      case_insensitive: { type: 'boolean', description: 'Ignore case. Default false.' },
      context: { type: 'integer', minimum: 0, maximum: 20, description: 'Lines of context around each match (content mode). Default 0.' },
      max_results: { type: 'integer', minimum: 1, maximum: 1000, description: 'The most lines or files to return. Default 100.' },
      fixed_strings: { type: 'boolean', description: 'Treat pattern as literal text, not a regex. Default false.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Searching for ${input.pattern}`,
  run: async () => notAvailableYet('workspace_grep', 'Use workspace_read_file on files you expect to contain the text instead.'),
};
