// What a path word with braces or glob characters can become, so every file it can name is judged.
// The expansion is a superset of what bash can match: per path component `*` is any string, `?`
// any one character, `[...]` any one character (classes are not interpreted), dotfiles match,
// and `.` and `..` are candidates when a component can match a leading dot. The literal word is
// kept too: an unmatched glob is passed as written, and under sh braces are plain text.
import { braceAlternatives } from './shell/braces';

/** The names in a folder, or undefined when it is not a folder that can be listed. */
export type ListDirectory = (absolutePath: string) => Promise<readonly string[] | undefined>;

/** More names than this from one word and it is not checked. */
export const MAX_GLOB_MATCHES = 2000;

/** One word the shell may pass: as written (relative or absolute) and where it leads. */
export interface GlobMatch {
  /** The word as the program receives it. */
  readonly word: string;
  /** The absolute path it names (from `directory`; `~` is the home folder). */
  readonly absolute: string;
}

export type GlobExpansion = { readonly ok: true; readonly matches: readonly GlobMatch[] } | { readonly ok: false; readonly reason: string };

const GLOB_CHARS = /[*?[]/;

/** True when a component has characters the shell matches against file names. */
export function hasGlob(text: string): boolean {
  return GLOB_CHARS.test(text);
}

/** The component pattern as a regular expression matching every name bash could match, and more (in any case with `ignoreCase`, as PowerShell on Windows). */
export function componentRegex(component: string, ignoreCase = false): RegExp {
  let source = '';
  for (let index = 0; index < component.length; index += 1) {
    const char = component[index];
    if (char === '*') {
      source += '.*';
    } else if (char === '?') {
      source += '.';
    } else if (char === '[' && closingBracket(component, index) !== -1) {
      source += '.';
      index = closingBracket(component, index);
    } else {
      source += char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'si' : 's');
}

/** The index of the `]` that closes a bracket expression opened at `open`, or -1. */
function closingBracket(component: string, open: number): number {
  let index = open + 1;
  if (component[index] === '!' || component[index] === '^') {
    index += 1;
  }
  if (component[index] === ']') {
    index += 1;
  }
  const close = component.indexOf(']', index);
  return close;
}

/** Whether `.` and `..` can match: bash matches them only with a leading dot, which `[` might give. */
function mayMatchDots(component: string): boolean {
  return component.startsWith('.') || component.startsWith('[');
}

/**
 * Joins without normalising: `link/..` is the parent of the link's target for the system, not the
 * folder holding the link, so `..` is left for the path judge to resolve on the file system.
 */
export function joinRaw(folder: string, relative: string): string {
  if (relative === '') {
    return folder;
  }
  if (relative.startsWith('/')) {
    return relative;
  }
  return folder.endsWith('/') ? folder + relative : `${folder}/${relative}`;
}

function rootOf(word: string, directory: string, home: string): { absolute: string; shown: string; rest: string } {
  if (word === '~' || word.startsWith('~/')) {
    return { absolute: home, shown: '~', rest: word.slice(2) };
  }
  if (word.startsWith('/')) {
    return { absolute: '/', shown: '', rest: word.slice(1) };
  }
  return { absolute: directory, shown: '', rest: word };
}

class Expander {
  private count = 0;
  constructor(private readonly list: ListDirectory, private readonly cap: number, private readonly ignoreCase: boolean) {}

  /** Every match of one brace-free word; false when the cap is passed. */
  async expand(word: string, directory: string, home: string): Promise<GlobMatch[] | false> {
    const root = rootOf(word, directory, home);
    let partial: GlobMatch[] = [{ word: root.shown, absolute: root.absolute }];
    const absolute = word.startsWith('/');
    const components = root.rest.split('/');
    for (const [index, component] of components.entries()) {
      const joiner = index === 0 && !absolute && root.shown === '' ? '' : '/';
      if (!hasGlob(component)) {
        partial = partial.map((match) => ({ word: match.word + joiner + component, absolute: joinRaw(match.absolute, component) }));
        continue;
      }
      const next: GlobMatch[] = [];
      for (const match of partial) {
        for (const name of await this.candidates(match.absolute, component)) {
          this.count += 1;
          if (this.count > this.cap) {
            return false;
          }
          next.push({ word: match.word + joiner + name, absolute: joinRaw(match.absolute, name) });
        }
      }
      partial = next;
    }
    return partial;
  }

  private async candidates(folder: string, component: string): Promise<string[]> {
    const names = [...((await this.list(folder)) ?? [])];
    if (mayMatchDots(component)) {
      names.push('.', '..');
    }
    const regex = componentRegex(component, this.ignoreCase);
    return names.filter((name) => regex.test(name));
  }
}

/**
 * Every word a path word can become in `directory`: its brace alternatives, each glob listed
 * against the file system, and the literal text. Asks (ok: false) past the caps.
 */
export async function expandPathWord(text: string, directory: string, home: string, list: ListDirectory, cap = MAX_GLOB_MATCHES, ignoreCase = false): Promise<GlobExpansion> {
  const alternatives = braceAlternatives(text);
  if (!alternatives) {
    return { ok: false, reason: `the braces of ${text} make too many words to check` };
  }
  const expander = new Expander(list, cap, ignoreCase);
  const matches: GlobMatch[] = [];
  for (const alternative of alternatives) {
    const literal = rootOf(alternative, directory, home);
    matches.push({ word: alternative, absolute: joinRaw(literal.absolute, literal.rest) });
    if (!hasGlob(alternative)) {
      continue;
    }
    const found = await expander.expand(alternative, directory, home);
    if (!found) {
      return { ok: false, reason: `the pattern ${text} matches too many files to check` };
    }
    matches.push(...found);
  }
  return { ok: true, matches: dedupe(matches) };
}

function dedupe(matches: readonly GlobMatch[]): GlobMatch[] {
  const seen = new Map<string, GlobMatch>();
  for (const match of matches) {
    seen.set(`${match.word}\0${match.absolute}`, match);
  }
  return [...seen.values()];
}
