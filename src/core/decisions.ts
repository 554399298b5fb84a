// The words decisions are made in: the guard's verdict on a path and the command policy's judgement
// of a command, each with the one order that says which of two is stricter.

/** The guard's answer for a path: go on, ask the user, or refuse. */
export type GuardDecision = 'allow' | 'warn' | 'deny';

export interface GuardVerdict {
  readonly decision: GuardDecision;
  /** The id of the rule that decided, absent when nothing matched. */
  readonly rule?: string;
  readonly reason: string;
  readonly suggestion: string;
}

const GUARD_SEVERITY: Readonly<Record<GuardDecision, number>> = { allow: 0, warn: 1, deny: 2 };

/** The stricter of two verdicts; on a tie the first. */
export function stricter<T extends { readonly decision: GuardDecision }>(a: T, b: T): T {
  return GUARD_SEVERITY[b.decision] > GUARD_SEVERITY[a.decision] ? b : a;
}

/** The strictest of several verdicts (the earliest on a tie), or undefined when there are none. */
export function strictestVerdict<T extends { readonly decision: GuardDecision }>(verdicts: readonly T[]): T | undefined {
  return verdicts.reduce<T | undefined>((worst, next) => (worst === undefined ? next : stricter(worst, next)), undefined);
}

/** The command policy's answer for a command line or a part of it. */
export type CommandDecision = 'allow' | 'ask' | 'deny';

/**
 * Why a part of a command line asks, as data, where that is the only reason: `writes-workspace`, a
 * write whose every target the policy resolved to a plain name inside a workspace folder (what a
 * staged run catches and shows for review). Absent whenever anything else may be why.
 */
export type AskCause = 'writes-workspace';

/** A decision about one part of a command line, with the reason a person can read. */
export interface Judgement {
  readonly decision: CommandDecision;
  readonly reason: string;
  /** Set on an `ask` only by a rule that knows this is its sole reason (see AskCause). */
  readonly cause?: AskCause;
}

const COMMAND_SEVERITY: Readonly<Record<CommandDecision, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * The strictest of several judgements; its reason is the one that decided. It keeps a cause only
 * when every judgement as strict as it has that same cause: two reasons to ask, one of them
 * without a cause, ask without one.
 */
export function strictest(judgements: readonly Judgement[], fallback: Judgement): Judgement {
  const worst = judgements.reduce((stricterSoFar, next) => (COMMAND_SEVERITY[next.decision] > COMMAND_SEVERITY[stricterSoFar.decision] ? next : stricterSoFar), fallback);
  if (worst.cause === undefined || [fallback, ...judgements].every((each) => each.decision !== worst.decision || each.cause === worst.cause)) {
    return worst;
  }
  return withoutCause(worst);
}

/** The judgement with no cause: what a rule returns when it cannot vouch for the one it was given. */
export function withoutCause(judgement: Judgement): Judgement {
  return { decision: judgement.decision, reason: judgement.reason };
}
