// The guard of the writing tools. Unlike guardPath it does not ask about a warning itself: the
// warning travels with the change, and the diff review that every warned change gets is the one
// question the user answers.
import type { ToolContext } from '../context';
import type { GuardVerdict } from '../decisions';
import { ToolError } from '../errors';
import { displayPath, type Location } from '../location';
import type { EntryStat } from '../ports/fileSystem';
import { judgeLocation } from './judgeLocation';
import { denialMessage } from './rules';
import { resolveToolPath } from './workspacePaths';

/** A path a write tool may change: where the model pointed, the file really written, and what is there. */
export interface WriteTarget {
  readonly literal: Location;
  /** Symlinks resolved: the file a write changes, so a link in the workspace stays a link. */
  readonly resolved: Location;
  /** Workspace-relative, as the model and the user see it. */
  readonly shown: string;
  /** What exists at the resolved path, or undefined when nothing does yet. */
  readonly stat: EntryStat | undefined;
  /** Set when a rule warned: the user must review this change even where auto-approve would skip it. */
  readonly warning?: GuardVerdict;
}

/** Guards a write tool's path argument. */
export async function guardWriteTarget(input: string, ctx: ToolContext): Promise<WriteTarget> {
  return guardWriteLocation(resolveToolPath(input, ctx), ctx);
}

/** Throws on a denial; a directory is no file to write. */
export async function guardWriteLocation(literal: Location, ctx: ToolContext): Promise<WriteTarget> {
  const judged = await judgeLocation(literal, 'write', ctx);
  if (judged.verdict.decision === 'deny') {
    throw new ToolError(denialMessage(judged.verdict));
  }
  const shown = displayPath(judged.literal, ctx.workspace);
  if (judged.stat?.kind === 'directory') {
    throw new ToolError(`${shown} is a directory, not a file. Give the path of a file inside it.`);
  }
  return { literal, resolved: judged.resolved, shown, stat: judged.stat, warning: judged.verdict.decision === 'warn' ? judged.verdict : undefined };
}

/** The sentence the review shows for a warned change, naming the rule. */
export function warningText(verdict: GuardVerdict): string {
  return `${verdict.rule ?? 'guard'}: ${verdict.reason}`;
}

/** The error when the user rejects a change that a rule warned about. */
export function warnedRejection(verdict: GuardVerdict): string {
  return denialMessage(verdict, true);
}
