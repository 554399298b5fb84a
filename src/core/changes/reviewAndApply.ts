// The last steps every write tool shares: auto-approve or the user's review, the writer's single
// write, and the read ledger updated to what the agent now knows the files contain.
import type { ToolContext } from '../context';
import type { GuardVerdict } from '../decisions';
import { throwIfCancelled, ToolError } from '../errors';
import { warnedRejection } from '../guard/writeGuard';
import type { AppliedChange, ChangePlan } from '../ports/changes';
import { isAutoApproved } from './autoApprove';
import { bytesFingerprint } from './freshness';

/** Reviews and writes a plan; throws a ToolError when the user rejects it. `warnings[0]` names a rejection. */
export async function reviewAndApply(plan: ChangePlan, warnings: readonly GuardVerdict[], ctx: ToolContext): Promise<AppliedChange> {
  const pipeline = ctx.session.changes;
  if (!pipeline) {
    throw new ToolError(`${plan.tool.name} cannot write files in this host. Tell the user which change to make instead.`);
  }
  throwIfCancelled(ctx.call.token);
  ctx.call.observer?.onChangePlanned(plan);
  const accepted = isAutoApproved(plan, ctx.settings.autoApprove, ctx.workspace.folders) || (await pipeline.reviewer.review(plan, ctx.call.token));
  throwIfCancelled(ctx.call.token);
  if (!accepted) {
    if (warnings.length > 0) {
      throw new ToolError(warnedRejection(warnings[0]));
    }
    const subject = plan.files.length === 1 ? plan.files[0].shownPath : `the ${plan.files.length} files`;
    throw new ToolError(`The user rejected the change to ${subject}; nothing was written. Ask the user what they would like instead before trying again.`);
  }
  // The workspace as it is just before the write, so the call can be undone (a failure is a note, not an error).
  await ctx.call.checkpoint?.beforeChange();
  throwIfCancelled(ctx.call.token);
  const applied = await pipeline.writer.write(plan, ctx.call.token);
  for (const file of plan.files) {
    if (!file.after) {
      continue;
    }
    const location = file.moveTo ?? file.location;
    const stat = await ctx.host.fs.stat(location);
    ctx.session.reads.record(location, bytesFingerprint(file.after.bytes, stat?.mtime ?? 0, file.after.text));
  }
  return applied;
}
