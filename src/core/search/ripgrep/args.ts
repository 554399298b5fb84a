// Our rules spelled as ripgrep flags, and ripgrep's output paths turned back into ours. User input
// never becomes an option: the pattern goes after --regexp, globs after -g, the path after --.
import type { GlobHints, SearchScope } from '../../ports/search';

/** Our rules, spelled as ripgrep flags: the ones the fallback engine applies too, and no others. */
export function ruleArgs(scope: SearchScope): string[] {
  const args = [
    '--no-config',
    // .gitignore applies even where there is no .git folder, as in the fallback engine.
    '--no-require-git',
    // Only .gitignore and .git/info/exclude: not .ignore/.rgignore or the user's global excludes,
    // which the fallback cannot see on a remote machine.
    '--no-ignore-dot',
    '--no-ignore-global',
    '--hidden',
    '--no-messages',
    '-g',
    '!.git',
  ];
  for (const name of scope.excludes.names) {
    args.push('-g', `!**/${name}`);
  }
  if (!scope.parentRules) {
    args.push('--no-ignore-parent');
  }
  return args;
}

export function hintArgs(hints: GlobHints): string[] {
  const args: string[] = [];
  if (hints.maxDepth !== undefined) {
    args.push('--max-depth', String(hints.maxDepth));
  }
  if (hints.basename !== undefined) {
    // A file type, unlike -g, never overrides .gitignore.
    args.push('--type-add', `watmatch:${hints.basename}`, '-t', 'watmatch');
  }
  return args;
}

/**
 * The path argument, and how to turn ripgrep's output paths back into paths relative to the scope
 * root. On Windows (`platform`, the host's) ripgrep joins what it finds to the argument with
 * backslashes (`.\src\main.ts`, `src/nested\deep.ts`); no Windows name holds one, so each is a
 * separator and becomes `/`.
 */
export function pathArgument(scope: SearchScope, platform: string): { arg: string; toRelative(printed: string): string } {
  if (scope.rootKind === 'file') {
    return { arg: scope.rootFromIgnoreRoot, toRelative: () => '' };
  }
  const arg = scope.rootFromIgnoreRoot === '' ? '.' : scope.rootFromIgnoreRoot;
  const prefix = `${arg}/`;
  const relative = (printed: string) => (printed.startsWith(prefix) ? printed.slice(prefix.length) : printed);
  return { arg, toRelative: platform === 'win32' ? (printed) => relative(printed.replace(/\\/g, '/')) : relative };
}

/**
 * files.exclude globs that are not plain names cannot be handed to ripgrep with the same meaning,
 * so they are applied to what it prints.
 */
export function pathExcluded(scope: SearchScope): (relative: string) => boolean {
  if (scope.excludes.paths.length === 0 || scope.rootKind === 'file') {
    return () => false;
  }
  const base = scope.rootFromIgnoreRoot;
  const skipDepth = base === '' ? 0 : base.split('/').length;
  return (relative) => scope.excludes.isExcluded(base === '' ? relative : `${base}/${relative}`, skipDepth);
}
