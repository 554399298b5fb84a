// Who must say yes before a command runs, and the answer: the policy's question (answered in chat
// or here, where the user may also choose to leave the sandbox) or the extension's own question
// (leaving the sandbox, the network for a read-only command), which only this step asks.
import type { ToolContext } from '../../context';
import { errorMessage, throwIfCancelled, ToolError } from '../../errors';
import { approvalReasons, type CommandVerdict } from '../../guard/command/verdict';
import { isInsidePath } from '../../location';
import { argumentSizeProblem } from '../../process/argumentLimits';
import { sandboxSummary } from '../../sandbox/launcher';
import type { Placement } from '../../sandbox/placement';
import { oneLine } from '../../text/truncate';
import { mayAskAfter } from './askAfter';
import { bulleted } from './format';
import { checkedCommand, judgeCommand, placeFor, resolveCommandCwd, shellArgv, type PreparedCommand, type RunCommandInput } from './prepare';

const LEAVE_SANDBOX = 'Run Outside the Sandbox';

/** The command with the placement it runs in once approved; a ToolError when the user declines. */
export async function approve(prepared: PreparedCommand, ctx: ToolContext): Promise<PreparedCommand> {
  const { command, verdict, placement } = prepared;
  const where = prepared.cwd.shown === '.' ? 'the workspace root' : prepared.cwd.shown;
  const title = `workspace_run_command: ${oneLine(command, 80)}`;
  const declined = (): ToolError => new ToolError(`The user declined to run \`${oneLine(command, 80)}\`. Do not retry it; ask the user how to proceed or do something else.`);
  if (placement.approval === 'none' || (placement.approval === 'policy' && ctx.call.chatConfirmation === policyQuestion({ command, cwdShown: prepared.cwd.shown, background: prepared.background, verdict, placement }))) {
    return prepared;
  }
  const reasons = approvalReasons(verdict).join('; ');
  if (placement.approval === 'own' && placement.where === 'sandbox' && prepared.grant) {
    return approveGrant(prepared, prepared.grant, ctx, title, where, declined);
  }
  if (placement.approval === 'own') {
    const consequence = placement.where === 'host'
      ? 'It would run OUTSIDE the sandbox, with all your rights: it could change any of your files, read your secrets and use the network'
      : placement.network
        ? 'It would run in the sandbox WITH network access through the extension\'s proxy (the workspace\'s package registries and git remotes, runCommand.allowedDomains; any other domain asks)'
        : 'It would run in the sandbox, without network';
    const policy = verdict.decision === 'ask' ? ` The command policy also asks because: ${reasons}.` : '';
    const approved = await ctx.session.approver.confirm({ kind: 'command', title, detail: `In ${where}: ${consequence}, because ${placement.why}.${policy} Run it?` }, ctx.call.token);
    throwIfCancelled(ctx.call.token);
    if (!approved) {
      throw declined();
    }
    return prepared;
  }
  const detail = `In ${where}, it needs approval because: ${reasons}.`;
  // A rule saved from "Always Allow" lets the command run without asking: in the sandbox, so it is offered only here.
  const allowRules = placement.where === 'sandbox' && verdict.allowRules ? { allowRules: verdict.allowRules } : {};
  if (placement.where === 'sandbox' && placement.canLeave) {
    const answer = await ctx.session.approver.choose({ kind: 'command', title, detail: `${detail} Accept runs it in the sandbox with network access through the extension's proxy (the workspace's package registries and git remotes, runCommand.allowedDomains; any other domain asks); ${LEAVE_SANDBOX} runs it with all your rights.`, alternative: LEAVE_SANDBOX, ...allowRules }, ctx.call.token);
    throwIfCancelled(ctx.call.token);
    if (answer === 'reject') {
      throw declined();
    }
    return answer === 'alternative' ? { ...prepared, placement: { where: 'host', approval: 'own', why: 'the user chose to run it outside the sandbox' } } : prepared;
  }
  const approved = await ctx.session.approver.confirm({ kind: 'command', title, detail: `${detail} Run it?`, ...allowRules }, ctx.call.token);
  throwIfCancelled(ctx.call.token);
  if (!approved) {
    throw declined();
  }
  return prepared;
}

/**
 * A call that asks to make one folder outside the workspace writable: the extension's own question,
 * whose first choice runs it in the sandbox with that folder writable too, before leaving it.
 */
async function approveGrant(prepared: PreparedCommand, grant: string, ctx: ToolContext, title: string, where: string, declined: () => ToolError): Promise<PreparedCommand> {
  const { verdict, placement } = prepared;
  const policy = verdict.decision === 'ask' ? ` The command policy also asks because: ${approvalReasons(verdict).join('; ')}.` : '';
  // What is written there stays, and the user's own tools use it outside the sandbox; a folder on PATH inside it stays read-only (plan.ts).
  const onPath = (prepared.host.environment().PATH ?? '').split(':').filter((entry) => entry.startsWith('/') && isInsidePath(entry, grant));
  const pathWarning = onPath.length ? ` It holds ${onPath.join(', ')}, on your PATH, which stays read-only: a program put there would run outside the sandbox when you type its name.` : '';
  const detail = `In ${where}: run it in the sandbox with ${grant} writable too (secrets and execution config in it stay hidden and read-only)${placement.where === 'sandbox' && placement.network ? ', with the network' : ''}. What it writes there stays after it ends and is used by your tools outside the sandbox.${pathWarning}${policy}`;
  if (placement.where === 'sandbox' && placement.canLeave) {
    const answer = await ctx.session.approver.choose({ kind: 'command', title, path: grant, detail: `${detail} Accept runs it so; ${LEAVE_SANDBOX} runs it with all your rights.`, alternative: LEAVE_SANDBOX }, ctx.call.token);
    throwIfCancelled(ctx.call.token);
    if (answer === 'reject') {
      throw declined();
    }
    return answer === 'alternative' ? { ...prepared, grant: undefined, placement: { where: 'host', approval: 'own', why: 'the user chose to run it outside the sandbox' } } : prepared;
  }
  const approved = await ctx.session.approver.confirm({ kind: 'command', title, path: grant, detail: `${detail} Run it?` }, ctx.call.token);
  throwIfCancelled(ctx.call.token);
  if (!approved) {
    throw declined();
  }
  return prepared;
}

/** The chat confirmation for a call, or undefined when the policy lets it run without asking or only the extension's own question may answer. */
export async function commandConfirmation(input: RunCommandInput, ctx: ToolContext): Promise<{ title: string; message: string } | undefined> {
  let cwdShown = input.cwd ?? '.';
  let verdict: CommandVerdict;
  try {
    const cwd = await resolveCommandCwd(input.cwd, ctx);
    cwdShown = cwd.shown;
    verdict = await judgeCommand(checkedCommand(input.command), cwd.path, ctx);
  } catch (error) {
    // The run fails with the same error; asking first costs nothing and keeps the rule "nothing unapproved".
    verdict = { decision: 'ask', findings: [{ decision: 'ask', reason: errorMessage(error) }] };
  }
  const host = ctx.host.commands;
  // A line the system cannot start is refused by run before anyone is asked: no question for it.
  if (verdict.decision !== 'ask' || (host && argumentSizeProblem(shellArgv(host, input.command), host.environment()))) {
    return undefined;
  }
  const placement = host ? await placeFor('ask', input.permissions, ctx, host) : undefined;
  // A folder made writable, or a folder whose volume ignores case, is the extension's own question, which no chat confirmation answers.
  if (placement && (placement.where !== 'sandbox' || input.writable_path !== undefined || placement.approval === 'own')) {
    return undefined;
  }
  // Asked after, not before (askAfter.ts): where that fails before it runs, the extension's own question asks.
  if (host && placement && (await mayAskAfter(verdict, placement, input, ctx, host))) {
    return undefined;
  }
  return {
    title: 'Run this command?',
    ...(placement?.where === 'sandbox' && verdict.allowRules ? { allowRules: verdict.allowRules } : {}),
    message: policyQuestion({ command: input.command, cwdShown, background: input.background ?? false, verdict, placement }),
  };
}

/**
 * The policy's question as chat shows it, from what the run judged: `approve` skips its own question
 * only when chat showed and the user accepted exactly this text (CallInfo.chatConfirmation).
 */
function policyQuestion(question: { command: string; cwdShown: string; background: boolean; verdict: CommandVerdict; placement: Placement | undefined }): string {
  const { placement } = question;
  const sandboxed = placement?.where === 'sandbox' ? `\n\nIt runs in the sandbox (${sandboxSummary(placement.sandbox, true)}).` : '';
  return `\`\`\`sh\n${question.command}\n\`\`\`\nin \`${question.cwdShown}\`${question.background ? ', in the background (it keeps running until it exits or is stopped)' : ''}\n\nIt needs approval because:\n${bulleted(approvalReasons(question.verdict))}${sandboxed}`;
}
