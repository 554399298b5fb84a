import { throwIfCancelled } from '../../errors';
import { describeStatus } from '../../process/backgroundCommands';
import { ANSWER_DUE, backgroundRegistry, commandById, compileWaitFor, formatBackground, notesAtEnd, waitWithinCall } from './backgroundResults';
import { describeWaiting, seconds } from './format';
import { oneLine } from '../../text/truncate';
import { defineTool, textResult, type Tool } from '../toolSpec';

export interface CommandOutputInput {
  id: string;
  wait_for?: string;
  timeout?: number;
}

/** How long a call with wait_for but no timeout waits. */
const DEFAULT_WAIT_FOR_SECONDS = 30;

export const commandOutputTool: Tool = defineTool<CommandOutputInput>({
  name: 'workspace_command_output',
  displayName: 'Background Command Output',
  toolReferenceName: 'workspaceCommandOutput',
  icon: '$(output)',
  // It starts nothing and changes no file: it reads what a command started earlier printed, so plan
  // mode and Restricted Mode (where no command can have been started) let it answer.
  access: 'read',
  userDescription: 'Read the new output and the status of a background command.',
  modelDescription: [
    'Read what a background command (started with workspace_run_command and background: true, or still running at its timeout) printed since your last call for its id, and its status: running, exited <code>, or killed.',
    'id: the id workspace_run_command returned (a line "id: bg<n>").',
    'wait_for: a regular expression (RE2 syntax) matched against each new output line: waits until a line matches (a matching line you have not read yet counts), the command ends, or timeout passes. timeout: seconds to wait, from 0 to 600; default 0 (answer at once), or 30 with wait_for. Without wait_for, a timeout waits for the command to end.',
    'Each stream keeps the beginning and end of what it printed since the last call, reduced first like workspace_run_command\'s (a "reduced:" line says what was left out); the full log is on disk (read it with workspace_read_file). Stop the command with workspace_stop_command when you no longer need it.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The background command\'s id, e.g. "bg1".' },
      wait_for: { type: 'string', description: 'A regular expression (RE2) to wait for in the new output lines.' },
      timeout: { type: 'integer', description: 'Seconds to wait for wait_for or the end, from 0 to 600. Default 0, or 30 with wait_for.' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  bounds: { timeout: { min: 0, max: 600 } },
  invocationMessage: (input) => `Reading the output of background command ${oneLine(input.id, 20)}`,
  when: '!virtualWorkspace',

  async run(input, ctx) {
    const waitFor = compileWaitFor(input.wait_for);
    const command = commandById(backgroundRegistry(ctx, 'workspace_command_output'), input.id);
    const timeoutSeconds = input.timeout ?? (waitFor ? DEFAULT_WAIT_FOR_SECONDS : 0);
    let headline = `Output of background command ${command.id} since the last read.`;
    if (timeoutSeconds > 0 || waitFor) {
      const waitStarted = ctx.host.clock.now();
      const how = await waitWithinCall(command, waitFor, timeoutSeconds * 1000, ctx);
      // Cancelling a wait leaves the command running: it was not started by this call.
      throwIfCancelled(ctx.call.token);
      if (how === 'ended') {
        await command.ended;
      }
      const waiting = command.waitingForInput();
      headline = how === 'matched'
        ? `A line matched wait_for. Output of background command ${command.id} since the last read.`
        : how === 'waiting' && waiting
          ? `After ${seconds(ctx.host.clock.now() - waitStarted)} the command is ${describeWaiting(waiting)}${waitFor ? '; no line matched wait_for' : ''}. Its output since the last read.`
        : how === 'ended'
          ? `The command has ended (${describeStatus(command.status())}). Its output since the last read.`
          : how === 'due'
            ? `Waited ${seconds(ctx.host.clock.now() - waitStarted)}: ${waitFor ? 'no line matched wait_for yet and ' : ''}the command is still running; ${ANSWER_DUE}. Its output since the last read.`
            : `Waited ${timeoutSeconds} s: ${waitFor ? 'no line matched wait_for and ' : ''}the command is still running. Its output since the last read.`;
    } else if (command.status().state !== 'running') {
      await command.ended;
    }
    await command.settlePorts();
    const report = formatBackground(command, headline, command.takeOutput(), await notesAtEnd(command));
    return textResult(report.text, report.continuation);
  },
});
