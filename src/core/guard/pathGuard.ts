import type { EntryStat, ToolContext } from '../ports';
import type { Location } from '../location';
import { ToolError } from '../errors';
import { denialMessage, evaluateGuard, type GuardAccess } from './rules';
import { stricter, type GuardVerdict } from '../decisions';
import { isInside, locationKey } from '../location';
import { resolveWorkspacePath } from './workspacePaths';

/** A path that passed the guard: where the model pointed, and where that really is. */
export interface GuardedPath {
  /** The normalised location as the model named it. */
  readonly literal: Location;
  /** The same location with symlinks resolved (through the deepest existing ancestor). */
  readonly resolved: Location;
  /** The verdict that let it through ('allow', or 'warn' that the user allowed). */
  readonly verdict: GuardVerdict;
}

/** The roots a read or a write may use: the allowed-paths setting when set, else the workspace folders. */
export function allowedRoots(access: GuardAccess, ctx: ToolContext): Location[] {
  const configured = access === 'read' ? ctx.settings.allowedReadPaths : ctx.settings.allowedWritePaths;
  const extra = access === 'read' ? ctx.extraReadRoots ?? [] : [];
  if (configured.length > 0) {
    return [...configured.map((entry) => resolveWorkspacePath(entry, ctx.workspace)), ...extra];
  }
  return [...ctx.workspace.folders.map((folder) => folder.location), ...extra];
}

/** The verdict of the rule table for one location, pure apart from reading settings. */
export function verdictFor(location: Location, access: GuardAccess, roots: readonly Location[], ctx: ToolContext, deleteCount?: number, shown?: string): GuardVerdict {
  return evaluateGuard(
    {
      shown: shown ?? (location.scheme === 'file' ? undefined : locationKey(location)),
      access,
      path: location.path,
      local: location.scheme === 'file',
      insideWorkspace: roots.some((root) => isInside(location, root)),
      home: ctx.workspace.home,
      deleteCount,
    },
    ctx.settings.riskLevel,
  );
}

/**
 * Asks the user about a warn verdict and throws on deny or refusal. The error names the rule, so
 * the model can tell a policy from a failure.
 */
export async function enforceVerdict(verdict: GuardVerdict, subject: string, ctx: ToolContext): Promise<void> {
  ctx.observer?.onGuardVerdict(verdict, subject);
  if (verdict.decision === 'deny') {
    throw new ToolError(denialMessage(verdict));
  }
  if (verdict.decision === 'warn') {
    const allowed = await ctx.approver.confirm(
      {
        kind: 'guard',
        title: `${verdict.rule}: ${subject}`,
        detail: `${verdict.reason} Allow this once?`,
        rule: verdict.rule,
        path: subject,
      },
      ctx.token,
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
  const literal = resolveWorkspacePath(input, ctx.workspace);
  const resolved = await ctx.fs.realpath(literal);
  const roots = await resolveRoots(access, ctx);
  const linked = resolved.path !== literal.path;
  const shown = linked ? `${literal.path} (a symlink to ${resolved.path})` : literal.path;
  const verdict = stricter(verdictFor(literal, access, roots, ctx), verdictFor(resolved, access, roots, ctx, undefined, linked ? shown : undefined));
  await enforceVerdict(verdict, shown, ctx);
  return { literal, resolved, verdict };
}

/** Roots with their own symlinks resolved, so a workspace opened through a link still contains its files. */
export async function resolveRoots(access: GuardAccess, ctx: ToolContext): Promise<Location[]> {
  const roots = allowedRoots(access, ctx);
  const real = await Promise.all(roots.map((root) => ctx.fs.realpath(root)));
  return [...roots, ...real];
}

/** Refuses devices, FIFOs, sockets, dangling links and link loops before anything opens them. */
export function refuseNonRegular(stat: EntryStat, shownPath: string): void {
  if (stat.kind !== 'other') {
    return;
  }
  const what = stat.isSymlink
    ? 'a symlink that leads nowhere (broken, or a loop)'
    : 'not a regular file (a device, FIFO or socket); opening it could block or stream forever';
  throw new ToolError(`Denied by file.non_regular_file: ${shownPath} is ${what}. Suggestion: Only regular files can be read or written; pick another path.`);
}
