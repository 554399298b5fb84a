// VS Code's files.exclude globs as lines of a git exclude file, so checkpoints skip what the
// workspace hides. A glob is relative to the folder: `**/x` matches at any depth, anything else is
// anchored at the folder's root; `{a,b}` alternatives become one line each.

/** The exclude-file lines for files.exclude globs. */
export function excludeLines(globs: readonly string[]): string[] {
  const lines: string[] = [];
  for (const glob of globs) {
    for (const expanded of expandBraces(glob.trim())) {
      if (!expanded || expanded.startsWith('#') || expanded.startsWith('!')) {
        continue;
      }
      const pattern = expanded.replace(/^\.\//, '').replace(/\/$/, '');
      lines.push(pattern.startsWith('**/') || pattern.startsWith('/') ? pattern : `/${pattern}`);
    }
  }
  return lines;
}

/**
 * Exclude lines of a folder for a work tree at `prefix` inside it (a nested repository, `prefix`
 * ending in `/`): lines for any depth stay, lines anchored under the prefix are re-anchored, the
 * rest cannot match there (or cannot be told to, a glob on the way: then it is recorded).
 */
export function excludeLinesUnder(lines: readonly string[], prefix: string): string[] {
  if (!prefix) {
    return [...lines];
  }
  return lines.flatMap((line) => (line.startsWith('**/') ? [line] : line.startsWith(`/${prefix}`) ? [`/${line.slice(prefix.length + 1)}`] : []));
}

/** `a/{b,c}/*.{x,y}` as its alternatives; unbalanced braces are kept literally. */
function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  const close = open >= 0 ? glob.indexOf('}', open) : -1;
  if (open < 0 || close < 0) {
    return [glob];
  }
  const head = glob.slice(0, open);
  const tail = glob.slice(close + 1);
  return glob
    .slice(open + 1, close)
    .split(',')
    .flatMap((choice) => expandBraces(`${head}${choice}${tail}`));
}
