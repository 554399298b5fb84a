import { lstat } from 'node:fs/promises';
import type { EntryStat, ToolContext } from '../ports';
import type { Location } from '../location';
import { ToolError } from '../errors';
import { allowedRoots, verdictFor } from './pathGuard';
import { denialMessage } from './rules';
import { stricter, type GuardVerdict } from '../decisions';
import { displayPath, isInside } from '../location';
import { resolveWorkspacePath } from './workspacePaths';

/** A path a write tool may change: where the model pointed, the file really written, and what is there. */
export interface WriteTarget {
  readonly literal: Location;
  /** Symlinks resolved: the file a write changes, so a link in the workspace stays a link. */
  readonly resolved: Location;
  readonly shown: string;
  /** What exists at the resolved path, or undefined when nothing does yet. */
  readonly stat: EntryStat | undefined;
  /** Set when a rule warned: the user must review this change even where auto-approve would skip it. */
  readonly warning?: GuardVerdict;
}

/**
 * Runs the rule table for a write on the literal and the resolved path. Unlike guardPath it does
 * not ask about a warning itself: the warning travels with the change, and the diff review that
 * every warned change gets is the one question the user answers.
 */
export async function guardWriteTarget(input: string, ctx: ToolContext): Promise<WriteTarget> {
  const literal = resolveWorkspacePath(input, ctx.workspace);
  return guardWriteLocation(literal, ctx);
}

export async function guardWriteLocation(literal: Location, ctx: ToolContext): Promise<WriteTarget> {
  const resolved = await ctx.fs.realpath(literal);
  const roots = allowedRoots('write', ctx);
  const allRoots = [...roots, ...(await Promise.all(roots.map((root) => ctx.fs.realpath(root))))];
  const shown = displayPath(literal, ctx.workspace);
  const inside = (location: Location): boolean => allRoots.some((root) => isInside(location, root));
  if (resolved.path !== literal.path && inside(literal) && !inside(resolved)) {
    throw new ToolError(
      `Denied by file.outside_workspace_write: ${shown} is a symbolic link (or lies under one) that leads outside the workspace, to ${resolved.path}; writing through it would change a file outside the workspace. Suggestion: write to a real file inside the workspace, or ask the user to change the link.`,
    );
  }
  const verdict = stricter(verdictFor(literal, 'write', allRoots, ctx), verdictFor(resolved, 'write', allRoots, ctx));
  if (verdict.decision === 'deny') {
    throw new ToolError(denialMessage(verdict));
  }
  const stat = await ctx.fs.stat(resolved);
  if (stat?.kind === 'directory') {
    throw new ToolError(`${shown} is a directory, not a file. Give the path of a file inside it.`);
  }
  if (stat?.kind === 'other') {
    throw new ToolError(`${shown} is not a regular file (a device, FIFO, socket or a broken link); it cannot be written.`);
  }
  const localPath = ctx.fs.localPath(resolved);
  if (stat && localPath) {
    const links = (await lstat(localPath)).nlink;
    if (links > 1) {
      throw new ToolError(
        `Denied by file.outside_workspace_write: ${shown} has ${links} hard links, so writing it would also change the same file under its other names, which may be outside the workspace. Suggestion: ask the user to replace the hard link with a copy first.`,
      );
    }
  }
  return { literal, resolved, shown, stat, warning: verdict.decision === 'warn' ? verdict : undefined };
}

/** The sentence the review shows for a warned change, naming the rule. */
export function warningText(verdict: GuardVerdict): string {
  return `${verdict.rule ?? 'guard'}: ${verdict.reason}`;
}

/** The error when the user rejects a change that a rule warned about. */
export function warnedRejection(verdict: GuardVerdict): string {
  return denialMessage(verdict, true);
}
