// The command policy's answer, as data: one finding per sub-command or construct (what it is, the
// decision, why), and the prose a person reads written from it here, in one place.
import type { AskCause, CommandDecision } from '../../decisions';

/** One judged part of the line: a sub-command, a redirect, a construct, or the line as a whole. */
export interface CommandFinding {
  /** The text judged (a sub-command, a redirect); absent when the finding is about the whole line. */
  readonly subject?: string;
  readonly decision: CommandDecision;
  readonly reason: string;
  /** Why it asks, where that is the only reason (decisions.ts AskCause); only on an `ask`. */
  readonly cause?: AskCause;
}

/** The policy's answer for a whole command line. */
export interface CommandVerdict {
  /** The strictest decision of the findings (allow when there are none). */
  readonly decision: CommandDecision;
  /** What was judged, in the order of the line; empty when the line runs nothing (only tests or comments). */
  readonly findings: readonly CommandFinding[];
  /**
   * True when the line runs without asking and can change no file: no redirect writes a file and no
   * runCommand.allow pattern let a command through (those may write). Checkpoints skip only these.
   */
  readonly readOnly?: boolean;
  /**
   * The command line to run when it differs from the one judged: every `git` that runs without
   * asking gets its safety options (gitSafety.ts). Only set when the decision is allow.
   */
  readonly commandLine?: string;
  /**
   * When the line asks only because of sub-commands a runCommand.allow entry would let through: those
   * entries (`npm run build`, `/^rm -rf dist$/`), for the question's "Always Allow". Absent when
   * anything else asks (a redirect, an expansion, a rule of VS Code's that asks).
   */
  readonly allowRules?: readonly string[];
}

const DECISION_WORDS: Readonly<Record<CommandDecision, string>> = { allow: 'runs without asking', ask: 'needs approval', deny: 'refused' };

/** The line for an empty verdict. */
const NOTHING_TO_RUN = 'no command to run: only tests or comments';

/** `ls: runs without asking (...)`, `rm x: needs approval (rm deletes ...)`; the bare reason for a finding about the whole line. */
export function describeFinding(finding: CommandFinding): string {
  return finding.subject === undefined ? finding.reason : `${finding.subject}: ${DECISION_WORDS[finding.decision]} (${finding.reason})`;
}

/** Every finding as a line, in order. */
export function describeVerdict(verdict: CommandVerdict): string[] {
  return verdict.findings.length ? verdict.findings.map(describeFinding) : [NOTHING_TO_RUN];
}

/** The lines that say why the line needs approval (or is refused): the findings that do not allow; all of them when none is left. */
export function approvalReasons(verdict: CommandVerdict): string[] {
  const asking = verdict.findings.filter((finding) => finding.decision !== 'allow');
  return asking.length ? asking.map(describeFinding) : describeVerdict(verdict);
}

/**
 * The line asks, and every finding that asks does so only because it writes inside a workspace
 * folder (cause `writes-workspace`): what runCommand.askAfterStaged may run staged without the
 * question. False for a line that allows, is refused, or has any finding that asks for another reason.
 */
export function asksOnlyToWriteWorkspace(verdict: CommandVerdict): boolean {
  const asking = verdict.findings.filter((finding) => finding.decision !== 'allow');
  return verdict.decision === 'ask' && asking.length > 0 && asking.every((finding) => finding.decision === 'ask' && finding.cause === 'writes-workspace');
}
