import type { ToolContext } from '../../ports';
import type { PathJudge } from './policy';
import { resolveRoots, verdictFor } from '../pathGuard';
import { stricter, type GuardVerdict } from '../../decisions';
import { fileLocation } from '../../location';
import type { Judgement } from '../../decisions';

function asJudgement(verdict: GuardVerdict): Judgement {
  if (verdict.decision === 'allow') {
    return { decision: 'allow', reason: 'inside the allowed folders' };
  }
  return { decision: verdict.decision === 'deny' ? 'deny' : 'ask', reason: `${verdict.rule ?? 'guard'}: ${verdict.reason}` };
}

/**
 * The guard's rule table as the command policy's path judge: the same rules and roots as the file
 * tools, on both the literal path and its symlink-resolved form, without asking anybody (the
 * policy turns a warning into a question about the whole command).
 */
export async function commandPathJudge(ctx: ToolContext): Promise<PathJudge> {
  const roots = { read: await resolveRoots('read', ctx), write: await resolveRoots('write', ctx) };
  return async (absolutePath, access) => {
    const literal = fileLocation(absolutePath);
    const resolved = await ctx.fs.realpath(literal).catch(() => literal);
    return asJudgement(stricter(verdictFor(literal, access, roots[access], ctx), verdictFor(resolved, access, roots[access], ctx)));
  };
}
