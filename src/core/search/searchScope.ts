import * as path from 'node:path';
import type { ToolContext } from '../context';
import { baseName, containingFolder, displayPath, isInside, parentLocation, type Location } from '../location';
import type { SearchLimits, SearchScope } from '../ports/search';
import { compileExcludes } from './globPattern';
import { IgnoreRules } from './ignoreRules';

/** A scope plus how its paths are shown to the model. */
export interface ShownScope extends SearchScope {
  /** Turns a path relative to the scope root into what the output shows. */
  show(relative: string): string;
  /** The searched place in a sentence: "the workspace" or the shown root. */
  readonly where: string;
}

/**
 * Builds the scope of a guarded folder or file: .gitignore rules start at the workspace folder
 * holding it (so searching `src` still honours the root .gitignore), and paths are shown
 * workspace-relative, as the model named them (not through resolved symlinks).
 */
export async function resolveSearchScope(target: { readonly literal: Location; readonly resolved: Location }, rootKind: 'directory' | 'file', ctx: ToolContext): Promise<ShownScope> {
  const folder = containingFolder(target.literal, ctx.workspace.folders);
  const realFolder = folder ? await ctx.host.fs.realpath(folder.location) : undefined;
  let ignoreRoot: Location;
  let rootFromIgnoreRoot: string;
  if (realFolder && isInside(target.resolved, realFolder)) {
    ignoreRoot = realFolder;
    rootFromIgnoreRoot = path.posix.relative(realFolder.path, target.resolved.path);
  } else {
    ignoreRoot = rootKind === 'file' ? parentLocation(target.resolved) : target.resolved;
    rootFromIgnoreRoot = rootKind === 'file' ? baseName(target.resolved) : '';
  }
  // A folder named on purpose is searched even when .gitignore hides it, as ripgrep does with a path argument.
  const parentRules = rootKind === 'file' || rootFromIgnoreRoot === '' || !(await new IgnoreRules(ctx.host.fs, ignoreRoot).isIgnored(rootFromIgnoreRoot, true));
  const shownRoot = displayPath(target.literal, ctx.workspace);
  const prefix = shownRoot === '.' ? '' : shownRoot.endsWith('/') ? shownRoot : `${shownRoot}/`;
  return {
    root: target.resolved,
    rootKind,
    ignoreRoot,
    rootFromIgnoreRoot,
    parentRules,
    excludes: compileExcludes(ctx.settings.filesExclude),
    show: (relative) => (relative === '' ? shownRoot : `${prefix}${relative}`),
    where: shownRoot === '.' ? 'the workspace' : shownRoot,
  };
}

/** The note on results cut short by the time budget; `narrower` is what the model can narrow besides the path. */
export function timeBudgetNote(budgetMs: number, narrower: 'glob' | 'pattern'): string {
  return `[The search stopped after ${Math.round(budgetMs / 1000)} s, so these are partial results. Pass a narrower path or ${narrower}.]`;
}

/** The limits of one search: the call's token and a deadline `budgetMs` from now. */
export function searchLimits(ctx: ToolContext, budgetMs: number): SearchLimits {
  return { token: ctx.call.token, clock: ctx.host.clock, deadline: ctx.host.clock.now() + budgetMs };
}
