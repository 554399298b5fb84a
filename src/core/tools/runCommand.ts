import { notAvailableYet } from './notAvailable';
import type { ToolSpec } from './toolSpec';

export interface RunCommandInput {
  command: string;
  cwd?: string;
  timeout?: number;
}

export const runCommandTool: ToolSpec<RunCommandInput> = {
  name: 'workspace_run_command',
  displayName: 'Run Command',
  toolReferenceName: 'runCommand',
  icon: '$(terminal)',
  access: 'command',
  userDescription: 'Run a shell command in a terminal you can watch; risky commands ask first.',
  modelDescription: [
    'Run a shell command non-interactively in the workspace, e.g. builds, tests, git commands, package scripts. The user watches it in a terminal. Do not use it to read, search or edit files: the workspace_* file tools are faster and safer.',
    'command: one shell command line (pipes and && work). cwd: a workspace-relative folder to run in; default the workspace root. timeout: seconds before the whole process tree is killed (default 120, at most 1800).',
    'There is no stdin and no TTY: commands that prompt fail instead of waiting; pagers and colours are off. Commands that only read run at once; others (deleting, network, installing, interpreters with inline code) ask the user first.',
    'Result: the exit code, the duration, stdout and stderr. Long output keeps its beginning and end and says where the full log was saved, which you can read with workspace_read_file.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line to run.' },
      cwd: { type: 'string', description: 'The folder to run in, workspace-relative. Default: the workspace root.' },
      timeout: { type: 'integer', minimum: 1, maximum: 1800, description: 'Seconds before the command is killed. Default 120.' },
    },
    required: ['command'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Running ${input.command}`,
  run: async () => notAvailableYet('workspace_run_command', 'Tell the user which command to run instead.'),
};
