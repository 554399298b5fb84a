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

/** A decision about one part of a command line, with the reason a person can read. */
export interface Judgement {
  readonly decision: CommandDecision;
  readonly reason: string;
}

const COMMAND_SEVERITY: Readonly<Record<CommandDecision, number>> = { allow: 0, ask: 1, deny: 2 };

/** The strictest of several judgements; its reason is the one that decided. */
export function strictest(judgements: readonly Judgement[], fallback: Judgement): Judgement {
  return judgements.reduce((worst, next) => (COMMAND_SEVERITY[next.decision] > COMMAND_SEVERITY[worst.decision] ? next : worst), fallback);
}
