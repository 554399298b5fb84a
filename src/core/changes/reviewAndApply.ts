// The last steps every write tool shares: the user's review, the applier's single write, and the
// read ledger updated to what the agent now knows the files contain.
import type { AppliedChange, ChangePlan, ToolContext } from '../ports';
import type { GuardVerdict } from '../decisions';
import { warnedRejection } from '../guard/writeGuard';
import { ToolError } from '../errors';
import { sha256 } from './fileBaseline';

/** Reviews and applies a plan; throws a ToolError when the user rejects it or the call is cancelled. */
export async function reviewAndApply(plan: ChangePlan, warnings: readonly GuardVerdict[], ctx: ToolContext): Promise<AppliedChange> {
  const applier = ctx.changes;
  if (!applier) {
    throw new ToolError(`${plan.tool} cannot write files in this host. Tell the user which change to make instead.`);
  }
  const cancelled = (): ToolError => new ToolError(`${plan.tool} was cancelled; nothing was written.`);
  if (ctx.token.isCancellationRequested) {
    throw cancelled();
  }
  const accepted = await applier.review(plan, ctx.token);
  if (ctx.token.isCancellationRequested) {
    throw cancelled();
  }
  if (!accepted) {
    if (warnings.length > 0) {
      throw new ToolError(warnedRejection(warnings[0]));
    }
    const subject = plan.files.length === 1 ? plan.files[0].shownPath : `the ${plan.files.length} files`;
    throw new ToolError(`The user rejected the change to ${subject}; nothing was written. Ask the user what they would like instead before trying again.`);
  }
  const applied = await applier.apply(plan, ctx.token);
  for (const file of plan.files) {
    if (!file.after) {
      continue;
    }
    const location = file.moveTo ?? file.location;
    const stat = await ctx.fs.stat(location);
    ctx.reads.record(location, { size: file.after.bytes.length, mtime: stat?.mtime ?? 0, sha256: sha256(file.after.bytes) });
  }
  return applied;
}
