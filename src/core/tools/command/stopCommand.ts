import { backgroundRegistry, commandById, formatBackground, notesAtEnd } from './backgroundResults';
import { oneLine } from '../../text/truncate';
import { defineTool, textResult, type Tool } from '../toolSpec';

export interface StopCommandInput {
  id: string;
}

export const stopCommandTool: Tool = defineTool<StopCommandInput>({
  name: 'workspace_stop_command',
  displayName: 'Stop Background Command by Id',
  toolReferenceName: 'workspaceStopCommand',
  icon: '$(debug-stop)',
  // It only ends a command started earlier (never starts one, never changes a file): plan mode,
  // which refuses new commands, must still let the agent clean up what it started.
  access: 'read',
  readOnly: false,
  userDescription: 'Stop a background command and every process it started.',
  modelDescription: [
    'Stop a background command (started with workspace_run_command and background: true, or still running at its timeout): its whole process group gets TERM, then KILL after 2 s, so servers and the processes they started are gone and their ports are free.',
    'id: the id that call returned (a line "id: bg<n>"). Returns the output since your last read and the final status. Stop every background command you started once you no longer need it.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The background command\'s id, e.g. "bg1".' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Stopping background command ${oneLine(input.id, 20)}`,
  when: '!virtualWorkspace',

  async run(input, ctx) {
    const command = commandById(backgroundRegistry(ctx, 'workspace_stop_command'), input.id);
    const wasRunning = command.status().state === 'running';
    // Not cancellable: a stop half done would leave the group between TERM and KILL.
    await command.stop();
    const headline = wasRunning ? `Stopped background command ${command.id} and every process it started.` : `Background command ${command.id} had already ended.`;
    const report = formatBackground(command, headline, command.takeOutput(), await notesAtEnd(command));
    return textResult(report.text, report.continuation);
  },
});
