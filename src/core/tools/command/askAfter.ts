// runCommand.askAfterStaged (issue 40 item 8): a line the policy asks about only because it writes
// inside the workspace (asksOnlyToWriteWorkspace) runs without the question when, and only when,
// it will really run staged: in bubblewrap, without network, over an overlay whose changes are
// merged when it ends (execution config held) and listed for review, after a checkpoint that
// Restore to Before This Call goes back to. Where any of that turns out missing before the command
// runs (no staging at lease time, no checkpoint), the question is asked then, as the extension's
// own question, which no chat confirmation answers.
import type { ToolContext } from '../../context';
import { ToolError } from '../../errors';
import { asksOnlyToWriteWorkspace, type CommandVerdict } from '../../guard/command/verdict';
import type { CommandHost } from '../../ports/process';
import type { Placement } from '../../sandbox/placement';

/** What a call asks for that rules asking after out. */
export interface AskAfterInput {
  readonly permissions?: string;
  readonly writable_path?: string;
  readonly background?: boolean;
  readonly interactive?: boolean;
}

/** The words the result, the `Sandbox:` line and the Activity record use. */
export const ASKED_AFTER = 'ran without asking because its changes were staged for review (runCommand.askAfterStaged): it only writes files it names inside the workspace';

/**
 * Whether the line may run without its question, staged: the setting on, every asking finding is a
 * write inside the workspace, the sandbox is bubblewrap with the policy's own question (not the
 * extension's), nothing extra was asked for, a foreground non-interactive command, checkpoints on,
 * and this machine stages. Re-checked where it can fail later: the checkpoint and the lease.
 */
export async function mayAskAfter(verdict: CommandVerdict, placement: Placement, input: AskAfterInput, ctx: ToolContext, host: CommandHost): Promise<boolean> {
  if (!ctx.settings.runCommandAskAfterStaged || !ctx.settings.checkpointsEnabled || !asksOnlyToWriteWorkspace(verdict)) {
    return false;
  }
  if (placement.where !== 'sandbox' || placement.sandbox.kind !== 'bubblewrap' || placement.approval !== 'policy') {
    return false;
  }
  if (input.permissions !== undefined || input.writable_path !== undefined || input.background || input.interactive) {
    return false;
  }
  const staging = host.sandbox.staging;
  return staging !== undefined && (await staging.available(placement.sandbox.executable).catch(() => ({ ok: false as const }))).ok;
}

/**
 * Asking after could not be kept to before the command ran: the lease found no staging, or the
 * checkpoint it needs was not taken. Nothing ran; the question is asked now.
 */
export class NotStagedError extends ToolError {
  constructor(readonly why: string) {
    super(`The command was not run: it was to run staged without asking (runCommand.askAfterStaged), but ${why}. It needs the user's approval; run it again to ask.`);
  }
}
