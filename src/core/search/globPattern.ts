// Glob patterns from the model: bounded before minimatch sees them, split into the literal folder
// they start from and the part that matches, and turned into hints that let an engine skip work
// without changing what matches.
import { minimatch, type MinimatchOptions } from 'minimatch';
import { ToolError } from '../errors';
import type { ExcludeRules, GlobHints, PathTest } from '../ports/search';

/** The longest glob accepted; longer patterns are mistakes or attacks, never useful. */
export const MAX_GLOB_LENGTH = 512;
/** The most alternatives brace expansion may produce. */
export const MAX_BRACE_EXPANSION = 256;

const MAGIC = /[*?[\]{}()!+@\\]/;
const EXTGLOB = /[@!+*?]\(/;

/** Refuses patterns that are too long or expand into too many alternatives, before expanding anything. */
export function checkGlobBounds(pattern: string, field: string): void {
  if (pattern.length > MAX_GLOB_LENGTH) {
    throw new ToolError(`The ${field} is ${pattern.length} characters long; at most ${MAX_GLOB_LENGTH} are accepted. Use a shorter pattern, e.g. "**/*.ts".`);
  }
  const alternatives = estimateBraceAlternatives(pattern);
  if (alternatives > MAX_BRACE_EXPANSION) {
    throw new ToolError(
      `The ${field} "${pattern}" expands into ${alternatives > 1e9 ? 'more than a billion' : alternatives} alternatives through its {...} groups; at most ${MAX_BRACE_EXPANSION} are accepted. Use fewer or smaller brace groups.`,
    );
  }
}

/**
 * An upper bound of the patterns `{a,b}` groups and `{1..9}` ranges expand into: the product over
 * every group (nested groups counted as if they multiplied), computed without expanding.
 */
export function estimateBraceAlternatives(pattern: string): number {
  let product = 1;
  const stack: { commas: number; start: number }[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\') {
      i += 1;
    } else if (char === '{') {
      stack.push({ commas: 0, start: i });
    } else if (char === ',' && stack.length) {
      stack[stack.length - 1].commas += 1;
    } else if (char === '}' && stack.length) {
      const group = stack.pop()!;
      const body = pattern.slice(group.start + 1, i);
      const range = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(\.\.-?\d+)?$/.exec(body);
      let count = group.commas + 1;
      if (range) {
        const from = /\d/.test(range[1]) ? Number(range[1]) : range[1].charCodeAt(0);
        const to = /\d/.test(range[2]) ? Number(range[2]) : range[2].charCodeAt(0);
        count = Math.abs(to - from) + 1;
      }
      product = Math.min(product * count, Number.MAX_SAFE_INTEGER);
    }
  }
  return product;
}

/** A glob split at its first magic segment: `../src/**\/*.ts` is `../src` then `**\/*.ts`. */
export interface SplitGlob {
  /** The literal leading folders ('' when none); may be absolute or contain `..`. */
  readonly base: string;
  /** The part matched against paths below the base. */
  readonly rest: string;
}

/** Splits off the literal folders a pattern starts with, keeping at least the last segment to match. */
export function splitGlobBase(pattern: string): SplitGlob {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((segment, index) => !(segment === '' && index > 0));
  if (absolute) {
    segments.shift();
  }
  const literal: string[] = [];
  while (segments.length > 1 && !MAGIC.test(segments[0])) {
    literal.push(segments.shift()!);
  }
  const base = (absolute ? '/' : '') + literal.join('/');
  return { base, rest: segments.join('/') };
}

/** True when a glob's meaning is the same in ripgrep's globset as in minimatch, for use as a prefilter. */
function portableSegment(segment: string): boolean {
  if (EXTGLOB.test(segment) || segment.includes('**')) {
    return false;
  }
  let depth = 0;
  for (const char of segment) {
    if (char === '{') {
      depth += 1;
      if (depth > 1) {
        return false;
      }
    } else if (char === '}') {
      depth -= 1;
    }
  }
  return depth === 0;
}

export function globHints(pattern: string, matchBase: boolean): GlobHints {
  if (/\{[^}]*\/[^}]*\}/.test(pattern) || EXTGLOB.test(pattern) || pattern.startsWith('!')) {
    return {};
  }
  const segments = pattern.split('/');
  const last = segments[segments.length - 1];
  const basename = last !== '' && last !== '*' && portableSegment(last) ? last : undefined;
  const maxDepth = !matchBase && !pattern.includes('**') ? segments.length : undefined;
  return { basename, maxDepth };
}

/**
 * Compiles a glob with minimatch. `matchBase`: a pattern without `/` matches the file name at any
 * depth (ripgrep's and .gitignore's reading); `dot`: whether `*` and `**` match names starting
 * with a dot. A leading `!` negates.
 */
export function compileGlob(pattern: string, options: { matchBase: boolean; dot: boolean }): PathTest {
  const negated = pattern.startsWith('!') && !pattern.startsWith('!(');
  const body = negated ? pattern.slice(1) : pattern;
  const settings: MinimatchOptions = { dot: options.dot, matchBase: options.matchBase && !body.includes('/'), nonegate: true, nocomment: true };
  const regex = minimatch.makeRe(body, settings);
  if (!regex) {
    throw new ToolError(`The glob "${pattern}" is not a valid pattern. Use minimatch syntax, e.g. "**/*.ts" or "src/**/{a,b}.js".`);
  }
  const test: PathTest = settings.matchBase ? (relative) => regex.test(relative.slice(relative.lastIndexOf('/') + 1)) : (relative) => regex.test(relative);
  return negated ? (relative) => !test(relative) : test;
}

export function compileExcludes(globs: readonly string[]): ExcludeRules {
  const names: string[] = [];
  const paths: string[] = [];
  for (const glob of globs) {
    const trimmed = glob.replace(/\/+$/, '');
    if (trimmed === '' || trimmed.length > MAX_GLOB_LENGTH || estimateBraceAlternatives(trimmed) > MAX_BRACE_EXPANSION) {
      continue;
    }
    const name = trimmed.startsWith('**/') ? trimmed.slice(3) : undefined;
    if (name !== undefined && name !== '' && !name.includes('/') && portableSegment(name)) {
      names.push(name);
    } else {
      paths.push(trimmed);
    }
  }
  const nameTests = names.map((name) => minimatch.makeRe(name, { dot: true })).filter((re): re is RegExp => re !== false);
  const pathTests = paths.map((glob) => minimatch.makeRe(glob, { dot: true })).filter((re): re is RegExp => re !== false);
  const matches = (relativePath: string): boolean => {
    const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
    return nameTests.some((re) => re.test(name)) || pathTests.some((re) => re.test(relativePath));
  };
  return {
    names,
    paths,
    matchesEntry: matches,
    isExcluded(relativePath, skipDepth) {
      if (nameTests.length === 0 && pathTests.length === 0) {
        return false;
      }
      const parts = relativePath.split('/');
      for (let depth = skipDepth + 1; depth <= parts.length; depth += 1) {
        if (matches(parts.slice(0, depth).join('/'))) {
          return true;
        }
      }
      return false;
    },
  };
}
