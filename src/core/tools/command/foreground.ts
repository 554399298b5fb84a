// A command run to its end in a terminal the user watches: stopped at the timeout, on cancellation
// or by Ctrl+C in the terminal.
import type { ToolContext } from '../../context';
import { errorMessage, ToolError } from '../../errors';
import type { ProcessOutcome } from '../../ports/process';
import { sandboxLine, seconds, statusLine } from './format';
import type { HeldLease } from './lease';
import type { PreparedCommand } from './prepare';

export interface ForegroundRun {
  readonly outcome: ProcessOutcome;
  /** The status line the terminal showed and the result starts with. */
  readonly status: string;
}

export async function runInForeground(prepared: PreparedCommand, held: HeldLease, ctx: ToolContext): Promise<ForegroundRun> {
  const { host } = prepared;
  const terminal = host.openTerminal(prepared.command, prepared.cwd.path);
  terminal.write(`${sandboxLine(prepared.placement, prepared.verdict)}\n`);
  let outcome: ProcessOutcome;
  try {
    outcome = await host.processes.run({
      ...held.request,
      timeoutMs: prepared.timeoutSeconds * 1000,
      token: ctx.call.token,
      onOutput: (chunk) => terminal.write(chunk),
      onInterrupt: (listener) => terminal.onInterrupt(listener),
    });
  } catch (error) {
    // A spawn that throws (E2BIG, EMFILE) started nothing.
    const detail = errorMessage(error);
    terminal.finish(`Could not run the command: ${detail}`);
    throw new ToolError(`The command could not be run: ${detail}. Nothing was started.`);
  }
  const status = statusLine(outcome, prepared.timeoutSeconds);
  terminal.finish(`${status} (${seconds(outcome.durationMs)})`);
  if (outcome.spawnError) {
    throw new ToolError(`The command could not be started: ${outcome.spawnError}. Check that ${host.shell} exists and that the folder ${prepared.cwd.shown} is readable.`);
  }
  return { outcome, status };
}
