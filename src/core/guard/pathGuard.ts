// The guard of the reading tools: a path argument is resolved, judged, and a warning asks the user
// before the tool goes on.
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import type { GuardVerdict } from '../decisions';
import { judgeLocation, type JudgedLocation } from './judgeLocation';
import { denialMessage, type GuardAccess } from './rules';
import { resolveToolPath } from './workspacePaths';

/** A path that passed the guard; its verdict is 'allow', or a 'warn' the user allowed. */
export type GuardedPath = JudgedLocation;

/**
 * Asks the user about a warn verdict and throws on deny or refusal. The error names the rule, so
 * the model can tell a policy from a failure.
 */
export async function enforceVerdict(verdict: GuardVerdict, subject: string, ctx: ToolContext): Promise<void> {
  ctx.call.observer?.onGuardVerdict(verdict, subject);
  if (verdict.decision === 'deny') {
    throw new ToolError(denialMessage(verdict));
  }
  if (verdict.decision === 'warn') {
    const allowed = await ctx.session.approver.confirm(
      {
        kind: 'guard',
        title: `${verdict.rule}: ${subject}`,
        detail: `${verdict.reason} Allow this once?`,
        rule: verdict.rule,
        path: subject,
      },
      ctx.call.token,
    );
    if (!allowed) {
      throw new ToolError(denialMessage(verdict, true));
    }
  }
}

/**
 * Resolves a tool's path argument and runs the rule table on both the literal and the
 * symlink-resolved location, so a link inside the workspace cannot reach outside it.
 */
export async function guardPath(input: string, access: GuardAccess, ctx: ToolContext): Promise<GuardedPath> {
  const judged = await judgeLocation(resolveToolPath(input, ctx), access, ctx);
  await enforceVerdict(judged.verdict, judged.subject, ctx);
  return judged;
}
