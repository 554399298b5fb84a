// The guard's rule table as the command policy's path judge: the same rules, roots and facts as the
// file tools, without asking anybody (the policy turns a warning into a question about the whole command).
import type { ToolContext } from '../../context';
import type { GuardVerdict, Judgement } from '../../decisions';
import { fileLocation } from '../../location';
import { judgeLocation, resolveRoots } from '../judgeLocation';
import type { PathJudge } from './policy';

function asJudgement(verdict: GuardVerdict): Judgement {
  if (verdict.decision === 'allow') {
    return { decision: 'allow', reason: 'inside the allowed folders' };
  }
  return { decision: verdict.decision === 'deny' ? 'deny' : 'ask', reason: `${verdict.rule ?? 'guard'}: ${verdict.reason}` };
}

/** A path judge for one command line, with the read and write roots resolved once. */
export async function commandPathJudge(ctx: ToolContext): Promise<PathJudge> {
  const roots = { read: await resolveRoots('read', ctx), write: await resolveRoots('write', ctx) };
  return async (absolutePath, access) => {
    try {
      return asJudgement((await judgeLocation(fileLocation(absolutePath), access, ctx, { roots: roots[access] })).verdict);
    } catch (error) {
      return { decision: 'ask', reason: `${absolutePath} could not be checked (${error instanceof Error ? error.message : String(error)})` };
    }
  };
}
