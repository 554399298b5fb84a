// workspace_send_input: types into a running background command's standard input (the terminal
// or pipe of a command started with interactive: true) or
// presses a key, then waits briefly and returns what followed. Input is a command too:
// - to a command that IS a shell reading its commands (`bash`, `sh -i`), each line is judged by
//   the command policy as a command line run in its folder: it runs, asks or is refused as such,
//   until a line was approved by the user, may have changed the folder, or was left unfinished
//   (enter: false, a key that writes into the line), or the person typed into it (Send Input...,
//   its terminal): from then on the shell's state is unknown to the policy and every line asks;
// - to anything else, plain yes/no/Enter answering a command that waits for input goes without
//   asking; any other text asks the user, who sees it;
// - keys alone (Ctrl+C interrupts, Ctrl+D ends the input, arrows, Tab, Escape) never ask: none
//   makes a program do more than its own prompt offers.
// Refused in plan mode and Restricted Mode (access 'command').
import type { ToolContext } from '../../context';
import { throwIfCancelled, ToolError } from '../../errors';
import { approvalReasons, describeVerdict, type CommandVerdict } from '../../guard/command/verdict';
import type { BackgroundCommand, InputKey, WaitingForInput } from '../../ports/process';
import { describeStatus } from '../../process/backgroundCommands';
import { oneLine } from '../../text/truncate';
import { defineTool, textResult, type Tool, type ToolConfirmation } from '../toolSpec';
import { backgroundRegistry, commandById, formatBackground, waitWithinCall } from './backgroundResults';
import { bulleted, describeWaiting, seconds } from './format';
import { judgeCommand } from './prepare';

export interface SendInputInput {
  id: string;
  text?: string;
  enter?: boolean;
  keys?: InputKey;
  timeout?: number;
}

const KEYS: readonly InputKey[] = ['ctrl-c', 'ctrl-d', 'escape', 'up', 'down', 'tab'];
/** How long the call waits for what follows the input by default. */
const DEFAULT_WAIT_SECONDS = 5;
/** The most text one call types. */
const MAX_TEXT_CHARS = 10_000;

/** Shells that read command lines from their input when started with no script and no -c. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'yash']);
/** Options that leave a shell reading commands from its input. */
const SHELL_OPTION = /^(-[eilsuvx]+|--login|--norc|--noprofile|--posix)$/;
/** Answers that confirm or decline a prompt and nothing else. */
const PLAIN_ANSWER = /^(y|yes|n|no)?$/i;
/** A line that may change a shell's folder: later lines would no longer be judged where they run. */
const CHANGES_FOLDER = /(^|[^\w-])(cd|pushd|popd)([^\w-]|$)/;

/**
 * For each shell, how many inputs it had had after the last line the policy judged and this tool
 * typed. The policy judges each line in the folder the shell started in, with no functions, aliases
 * or variables of its own; the shell's state may differ from that (and every later line asks) once
 * any other input reached it (the person's), or a line was approved by the user (it may define
 * anything), may have changed the folder, or was left unfinished: DRIFTED marks those for good.
 */
const judgedInputs = new WeakMap<BackgroundCommand, number>();
/** Never a count of inputs. */
const DRIFTED = -1;

/** Whether the policy can no longer know a shell's state (see judgedInputs). */
function drifted(command: BackgroundCommand): boolean {
  return command.inputsSent !== (judgedInputs.get(command) ?? 0);
}

/**
 * True when the command line is a shell that reads its commands from its input: its first word a
 * shell (a path to one too), every other word one of a few options. Anything more (a script, -c, a
 * pipe, a quote) is a program whose input the policy cannot judge.
 */
export function readsCommandLines(commandLine: string): boolean {
  const words = commandLine.trim().split(/[ \t]+/);
  if (/[^\w ./=+-]/.test(commandLine.trim()) || words.length === 0) {
    return false;
  }
  const program = words[0].split('/').pop() ?? '';
  return SHELLS.has(program) && words.slice(1).every((word) => SHELL_OPTION.test(word));
}

/** Who must agree before input is typed, and why. */
export type InputJudgement =
  | { readonly kind: 'send'; readonly why: string }
  | { readonly kind: 'ask'; readonly why: string }
  | { readonly kind: 'refuse'; readonly why: string };

/** The text as it will be typed (with Enter), and the key. */
export function typedText(input: Pick<SendInputInput, 'text' | 'enter' | 'keys'>): string {
  const text = input.text ?? '';
  return input.enter === false || (input.keys !== undefined && text === '' && input.enter === undefined) ? text : `${text}\n`;
}

/**
 * Whether input may be typed without asking. `verdicts` are the policy's verdicts of each line
 * when the command reads command lines (a shell), else undefined.
 */
export function judgeInput(text: string, key: InputKey | undefined, waiting: WaitingForInput | undefined, verdicts: readonly CommandVerdict[] | undefined, drifted = false): InputJudgement {
  if (text === '') {
    return { kind: 'send', why: key ? `a key (${key})` : 'nothing' };
  }
  if (verdicts) {
    const refused = verdicts.find((verdict) => verdict.decision === 'deny');
    if (refused) {
      return { kind: 'refuse', why: describeVerdict(refused).join('; ') };
    }
    if (drifted) {
      return { kind: 'ask', why: 'earlier input to this shell was approved or changed its folder, so its lines can no longer be judged by the folder and state it started with' };
    }
    const asking = verdicts.filter((verdict) => verdict.decision === 'ask');
    return asking.length
      ? { kind: 'ask', why: `the command is a shell and this input is a command line that needs approval: ${asking.flatMap(approvalReasons).join('; ')}` }
      : { kind: 'send', why: 'the command is a shell and this input is a command line that runs without asking' };
  }
  const answer = text.replace(/\r?\n$/, '');
  if (waiting && !answer.includes('\n') && PLAIN_ANSWER.test(answer.trim())) {
    return { kind: 'send', why: 'a plain yes, no or Enter answering a command that waits for input' };
  }
  return { kind: 'ask', why: waiting ? 'input other than a plain yes, no or Enter is typed into a program, which may do anything with it' : 'the command does not wait for input now, and a program may do anything with what it reads' };
}

export const sendInputTool: Tool = defineTool<SendInputInput>({
  name: 'workspace_send_input',
  displayName: 'Send Input to Background Command',
  toolReferenceName: 'workspaceSendInput',
  icon: '$(keyboard)',
  access: 'command',
  userDescription: 'Type into a running command that waits for input (a prompt, a REPL) and read what follows.',
  modelDescription: [
    'Type into a background command\'s standard input, or press a key, and get the output that follows. Use it when a workspace_run_command or workspace_command_output result says "waiting for input: <prompt>" (e.g. "Continue? [y/N]"), or to drive a REPL or shell you started.',
    'id: the command\'s id ("bg<n>"). text: what to type; Enter is pressed after it unless enter: false. keys: one key to press after the text: "ctrl-c" interrupts the command (SIGINT), "ctrl-d" ends its input (end of file: it can read nothing more afterwards), "escape", "up", "down", "tab" write their terminal sequences.',
    'Only a command started with interactive: true reads input (the others get end of file). Its input is a terminal on Linux (isatty true; a pipe elsewhere) but not its controlling terminal: editors, pagers and the password prompts of ssh and sudo fail instead of prompting. A plain y/yes/n/no or Enter answering a prompt is typed at once; text to a shell (a command started as `bash` or `sh`) is judged as a command line by the command policy; other text asks the user first.',
    'timeout: seconds to wait for what follows, from 0 to 600, default 5; the call returns earlier when the command ends or waits for input again. The result has the command\'s status and its new output.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The background command\'s id, e.g. "bg1".' },
      text: { type: 'string', description: 'The text to type, e.g. "y". Enter is pressed after it unless enter is false.' },
      enter: { type: 'boolean', description: 'Press Enter after the text. Default true (false when only keys is given).' },
      keys: { type: 'string', enum: [...KEYS], description: 'A key to press after the text: ctrl-c interrupts, ctrl-d ends the input, escape, up, down, tab.' },
      timeout: { type: 'integer', description: 'Seconds to wait for the output that follows, from 0 to 600. Default 5.' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  bounds: { timeout: { min: 0, max: 600 } },
  invocationMessage: (input) => `Typing into background command ${oneLine(input.id, 20)}`,
  when: '!virtualWorkspace',
  confirmation: async (input, ctx) => {
    try {
      const { command, judgement, typed } = await judged(input, ctx);
      return judgement.kind === 'ask' ? confirmationOf(command, typed, input.keys, judgement.why) : undefined;
    } catch {
      // The run fails with the same error before anything is typed.
      return undefined;
    }
  },

  async run(input, ctx) {
    const { command, judgement, typed, shell } = await judged(input, ctx);
    const inputsJudged = command.inputsSent;
    if (judgement.kind === 'refuse') {
      throw new ToolError(`The input was not sent: the command is a shell, and this line is refused by the command policy: ${judgement.why}. Nothing was typed.`);
    }
    const question = judgement.kind === 'ask' ? confirmationOf(command, typed, input.keys, judgement.why) : undefined;
    // Chat's confirmation answers only the question it showed: the line may have been judged otherwise since.
    if (question && ctx.call.chatConfirmation !== question.message) {
      const approved = await ctx.session.approver.confirm({ kind: 'command', title: `workspace_send_input: ${describeSent(typed, input.keys)} → ${command.id}`, detail: question.message }, ctx.call.token);
      throwIfCancelled(ctx.call.token);
      if (!approved) {
        throw new ToolError(`The user declined to type ${describeSent(typed, input.keys)} into ${command.id}. Nothing was typed. Do not retry it; ask the user how to proceed, or stop the command with workspace_stop_command.`);
      }
    }
    if (typed !== '' || input.keys === 'ctrl-d') {
      // What follows may change files: the step is recorded before it.
      await ctx.call.checkpoint?.beforeChange();
      throwIfCancelled(ctx.call.token);
    }
    if (shell && judgement.kind === 'send' && command.inputsSent !== inputsJudged) {
      throw new ToolError(`Nothing was typed: the person typed into ${command.id} while this input waited, so the shell may no longer be where the policy judged the line. Read its output with workspace_command_output, then send the input again (it will ask).`);
    }
    const startedAt = ctx.host.clock.now();
    const knownBefore = shell && !drifted(command);
    command.sendInput(typed, input.keys);
    if (shell) {
      if (!knownBefore || leavesPartialLine(typed, input.keys) || (typed !== '' && (judgement.kind === 'ask' || CHANGES_FOLDER.test(typed)))) {
        judgedInputs.set(command, DRIFTED);
      } else {
        judgedInputs.set(command, command.inputsSent);
      }
    }
    const timeoutSeconds = input.timeout ?? DEFAULT_WAIT_SECONDS;
    const how = timeoutSeconds > 0 ? await waitWithinCall(command, undefined, timeoutSeconds * 1000, ctx) : 'timeout';
    // A cancelled wait leaves the command as it is: the input was typed.
    throwIfCancelled(ctx.call.token);
    if (how === 'ended') {
      await command.ended;
    }
    const sent = describeSent(typed, input.keys);
    const waited = seconds(ctx.host.clock.now() - startedAt);
    const waiting = command.waitingForInput();
    const headline = command.status().state !== 'running'
      ? `Sent ${sent}. The command has ended (${describeStatus(command.status())}).`
      : waiting
        ? `Sent ${sent}. After ${waited} it is ${describeWaiting(waiting)}.`
        : `Sent ${sent}. Still running after ${waited}.`;
    const report = formatBackground(command, headline, command.takeOutput(), [`Input: ${judgement.why}.`]);
    return textResult(report.text, report.continuation);
  },
});

/** True when input leaves an unfinished line in a shell's buffer: text without a line end, or a key that writes a sequence. */
function leavesPartialLine(typed: string, key: InputKey | undefined): boolean {
  return (typed !== '' && !typed.endsWith('\n')) || key === 'escape' || key === 'up' || key === 'down' || key === 'tab';
}

/** The command, what will be typed, and who must agree. */
async function judged(input: SendInputInput, ctx: ToolContext): Promise<{ command: BackgroundCommand; judgement: InputJudgement; typed: string; shell: boolean }> {
  const text = input.text ?? '';
  if (text.length > MAX_TEXT_CHARS) {
    throw new ToolError(`text is ${text.length} characters long; at most ${MAX_TEXT_CHARS} are typed at once. Write longer input to a file with workspace_write_file and have the command read the file.`);
  }
  if (text.includes('\0')) {
    throw new ToolError('text contains a NUL character, which a program cannot read as text. Remove it.');
  }
  const command = commandById(backgroundRegistry(ctx, 'workspace_send_input'), input.id);
  if (command.status().state !== 'running') {
    // The same words the registry uses, before anyone is asked.
    command.sendInput('', undefined);
  }
  let typed = typedText(input);
  const shell = readsCommandLines(command.commandLine);
  let verdicts: CommandVerdict[] | undefined;
  if (shell && typed !== '') {
    const lines = typed.split(/\r?\n/);
    const judgedLines = await Promise.all(lines.map(async (line) => (line.trim() === '' ? undefined : judgeCommand(line, command.cwd, ctx, 'bash'))));
    verdicts = judgedLines.filter((verdict): verdict is CommandVerdict => verdict !== undefined);
    // A line that runs without asking runs as the policy placed it: git with its forced safety options.
    typed = lines.map((line, index) => judgedLines[index]?.commandLine ?? line).join('\n');
  }
  if (shell && leavesPartialLine(typed, input.keys)) {
    // The shell keeps what has no line end yet and runs it with the next line: judged alone, the pieces say nothing.
    return { command, judgement: { kind: 'ask', why: 'input to a shell that does not end its line (enter: false, or a key that writes into the line) is joined to the next line the shell runs, which the policy cannot judge piece by piece' }, typed, shell };
  }
  return { command, judgement: judgeInput(typed, input.keys, command.waitingForInput(), verdicts, drifted(command)), typed, shell };
}

function confirmationOf(command: BackgroundCommand, typed: string, key: InputKey | undefined, why: string): ToolConfirmation {
  const waiting = command.waitingForInput();
  return {
    title: 'Type into this command?',
    message: `Type into \`${oneLine(command.commandLine, 80)}\` (${command.id}${waiting ? `, ${describeWaiting(waiting)}` : ''}):\n\`\`\`\n${typed.replace(/\n$/, '')}\n\`\`\`\n${typed.endsWith('\n') ? 'then Enter' : ''}${key ? ` then ${key}` : ''}\n\nIt needs approval because:\n${bulleted([why])}`,
  };
}

/** `"y" and Enter`, `ctrl-c`, `Enter`. */
export function describeSent(typed: string, key: InputKey | undefined): string {
  const text = typed.replace(/\n$/, '');
  const parts = [text !== '' ? JSON.stringify(oneLine(text, 80)) : undefined, typed.endsWith('\n') ? 'Enter' : undefined, key].filter((part) => part !== undefined);
  return parts.length ? parts.join(' and ') : 'nothing';
}
