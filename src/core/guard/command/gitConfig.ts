// A git config file read the way git reads it (config.c: git_parse_source), and the closed list of
// settings a repository's own config may hold for git to run without asking.
//
// The grammar: `[section]`, `[section "subsection"]` and the old `[section.subsection]`; a key is
// a letter then letters, digits and `-`, alone (true) or followed by `= value`; `#` and `;` start a
// comment outside quotes; a backslash at the end of a line continues the value on the next one;
// `\\`, `\"`, `\n`, `\t` and `\b` are the only escapes. Section and key names are case-insensitive
// (git lowers them), an extended subsection keeps its case, an old-style one is lowered too. A line
// git would reject makes the whole file unreadable: git stops there, so the policy cannot tell what
// it would have read.

/** One setting as git hands it on: the full key (section and name lower case) and its value (undefined: a bare key, true). */
export interface ConfigEntry {
  /** `section.name`, or `section.subsection.name`: the variable git looks up. */
  readonly key: string;
  readonly section: string;
  readonly subsection: string | undefined;
  readonly name: string;
  readonly value: string | undefined;
  /** 1-based line where the key starts. */
  readonly line: number;
}

export type ParsedConfig =
  | { readonly ok: true; readonly entries: readonly ConfigEntry[] }
  | { readonly ok: false; readonly line: number; readonly problem: string };

/** git's isspace (sane_ctype): space, tab, line feed, carriage return; not form feed or vertical tab. */
function isSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

/** An ASCII letter (git's isalpha), by code: this runs once a character. */
function isAlpha(char: string): boolean {
  const code = char.charCodeAt(0) | 0x20;
  return char.length === 1 && code >= 0x61 && code <= 0x7a;
}

/** git's iskeychar: an ASCII letter, digit or `-`. */
function isKeyChar(char: string): boolean {
  const code = char.charCodeAt(0);
  return isAlpha(char) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}

/** The characters of a file as git's get_next_char returns them: CR LF as one LF, a line count, LF at the end. */
class ConfigReader {
  private index = 0;
  line = 1;
  eof = false;
  constructor(private readonly text: string) {}

  next(): string {
    if (this.index >= this.text.length) {
      this.eof = true;
      return '\n';
    }
    let char = this.text[this.index++];
    if (char === '\r' && this.text[this.index] === '\n') {
      char = '\n';
      this.index += 1;
    }
    if (char === '\n') {
      this.line += 1;
    }
    return char;
  }
}

class ConfigSyntaxError extends Error {}

function fail(problem: string): never {
  throw new ConfigSyntaxError(problem);
}

/** `[name]`, `[name "sub"]` or `[name.sub]` after the `[`: the section part of the key, as git builds it. */
function readSectionHeader(reader: ConfigReader): string {
  let base = '';
  for (;;) {
    const char = reader.next();
    if (reader.eof || char === '\n') {
      fail('a section header that does not end with ]');
    }
    if (char === ']') {
      if (base === '') {
        fail('an empty section name');
      }
      return base.toLowerCase();
    }
    if (isSpace(char)) {
      return `${base.toLowerCase()}.${readSubsection(reader)}`;
    }
    if (!isKeyChar(char) && char !== '.') {
      fail(`the character ${JSON.stringify(char)} in a section name`);
    }
    base += char;
  }
}

/** The quoted subsection of `[name "sub"]`, after the space; git wants `]` right after the closing quote. */
function readSubsection(reader: ConfigReader): string {
  let char = reader.next();
  while (isSpace(char) && char !== '\n') {
    char = reader.next();
  }
  if (char !== '"') {
    fail('a section header whose subsection is not in double quotes');
  }
  let subsection = '';
  for (;;) {
    let inner = reader.next();
    if (inner === '\n') {
      fail('a subsection name that does not end on its line');
    }
    if (inner === '"') {
      break;
    }
    if (inner === '\\') {
      inner = reader.next();
      if (inner === '\n') {
        fail('a subsection name that does not end on its line');
      }
    }
    subsection += inner;
  }
  if (reader.next() !== ']') {
    fail('a section header with something between the closing quote and ]');
  }
  return subsection;
}

/** The escapes git knows in a value: `\t`, `\b`, `\n`, `\\` and `\"`. */
const ESCAPES: ReadonlyMap<string, string> = new Map([['t', '\t'], ['b', '\b'], ['n', '\n'], ['\\', '\\'], ['"', '"']]);

/** The value after `=`, as git's parse_value: quotes removed, escapes resolved, comments cut, continuation lines joined. */
function readValue(reader: ConfigReader): string {
  let value = '';
  let quoted = false;
  let comment = false;
  let spaces = 0;
  for (;;) {
    let char = reader.next();
    if (char === '\n') {
      if (quoted) {
        fail('a quoted value that does not end on its line');
      }
      return value;
    }
    if (comment) {
      continue;
    }
    if (isSpace(char) && !quoted) {
      spaces += value === '' ? 0 : 1;
      continue;
    }
    if (!quoted && (char === ';' || char === '#')) {
      comment = true;
      continue;
    }
    if (spaces > 0) {
      value += ' '.repeat(spaces);
      spaces = 0;
    }
    if (char === '\\') {
      char = reader.next();
      if (char === '\n') {
        // A continuation line (at the end of the file: onto nothing, where an open quote still fails).
        continue;
      }
      const escaped = ESCAPES.get(char);
      if (escaped === undefined) {
        fail(`the unknown escape \\${char} in a value`);
      }
      value += escaped;
      continue;
    }
    if (char === '"') {
      quoted = !quoted;
      continue;
    }
    value += char;
  }
}

/** Splits git's variable as git does: the section up to the first dot, the name after the last. */
function entryOf(variable: string, value: string | undefined, line: number): ConfigEntry {
  const first = variable.indexOf('.');
  const last = variable.lastIndexOf('.');
  return {
    key: variable,
    section: variable.slice(0, first),
    subsection: first === last ? undefined : variable.slice(first + 1, last),
    name: variable.slice(last + 1),
    value,
    line,
  };
}

/**
 * Every setting of one config file's text, in order, or the first line git would reject. Two things
 * git takes are refused too, so that they ask: a NUL character (git would cut the value there) and
 * a key before any section header (git reads it as a key without a section).
 */
export function parseGitConfig(text: string): ParsedConfig {
  const reader = new ConfigReader(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    return { ok: false, line: text.slice(0, nul).split('\n').length, problem: 'a NUL character' };
  }
  const entries: ConfigEntry[] = [];
  let section: string | undefined;
  let comment = false;
  let itemLine = 1;
  try {
    for (;;) {
      const char = reader.next();
      if (char === '\n') {
        if (reader.eof) {
          return { ok: true, entries };
        }
        comment = false;
        continue;
      }
      if (comment || isSpace(char)) {
        continue;
      }
      if (char === '#' || char === ';') {
        comment = true;
        continue;
      }
      itemLine = reader.line;
      if (char === '[') {
        section = readSectionHeader(reader);
        continue;
      }
      if (!isAlpha(char)) {
        fail(`the character ${JSON.stringify(char)} where a key or a section header starts`);
      }
      if (section === undefined) {
        fail('a key before any section header');
      }
      let name = char;
      let next = reader.next();
      while (!reader.eof && isKeyChar(next)) {
        name += next;
        next = reader.next();
      }
      while (next === ' ' || next === '\t') {
        next = reader.next();
      }
      let value: string | undefined;
      if (next !== '\n') {
        if (next !== '=') {
          fail(`the key ${name} followed by ${JSON.stringify(next)} instead of = or the end of the line`);
        }
        value = readValue(reader);
      }
      entries.push(entryOf(`${section}.${name.toLowerCase()}`, value, itemLine));
    }
  } catch (error) {
    if (error instanceof ConfigSyntaxError) {
      return { ok: false, line: itemLine, problem: error.message };
    }
    throw error;
  }
}

/** Settings of one section known to be harmless, and whether their key has a subsection (`remote.<name>.url`). */
interface HarmlessSection {
  readonly subsection: boolean;
  readonly names: ReadonlySet<string>;
}

function harmless(subsection: boolean, names: string): HarmlessSection {
  return { subsection, names: new Set(names.split(' ')) };
}

/**
 * The settings a repository's own config may hold for git to run without asking: what `git init`,
 * `git clone`, `git submodule init`, sparse checkout, VS Code, its GitHub extension, gh and git-lfs
 * write there, and common choices of how git behaves that only change what git computes in its own
 * process. None names a program, a file outside the repository, an include, a transport or a
 * repository extension. A remote's url may name a transport (`ext::`), but git that runs without
 * asking never contacts a remote: network subcommands ask, no promisor setting is on this list (so
 * no lazy fetch), and every transport is refused on its command line (gitSafety.ts). Every other
 * key asks, whatever git adds later.
 */
const HARMLESS_SETTINGS: Readonly<Record<string, HarmlessSection>> = {
  core: harmless(false,
    'repositoryformatversion filemode bare logallrefupdates ignorecase precomposeunicode symlinks autocrlf eol safecrlf quotepath ' +
    'checkstat trustctime untrackedcache splitindex preloadindex commitgraph multipackindex sparsecheckout sparsecheckoutcone abbrev ' +
    'compression loosecompression whitespace'),
  remote: harmless(true, 'url pushurl fetch push tagopt prune prunetags mirror skipdefaultupdate skipfetchall gh-resolved github-pr-remote'),
  branch: harmless(true, 'remote pushremote merge rebase description vscode-merge-base github-pr-owner-number'),
  submodule: harmless(true, 'url active'),
  user: harmless(false, 'name email signingkey'),
  init: harmless(false, 'defaultbranch'),
  pull: harmless(false, 'rebase ff'),
  push: harmless(false, 'default autosetupremote'),
  fetch: harmless(false, 'prune prunetags'),
  rebase: harmless(false, 'autostash autosquash'),
  merge: harmless(false, 'ff'),
  commit: harmless(false, 'gpgsign'),
  tag: harmless(false, 'gpgsign'),
  gc: harmless(false, 'auto'),
  index: harmless(false, 'version sparse'),
  maintenance: harmless(false, 'auto strategy'),
  lfs: harmless(false, 'repositoryformatversion'),
};

/** True when git's variable is on the closed list of harmless settings. */
export function isHarmlessSetting(entry: ConfigEntry): boolean {
  const known = Object.hasOwn(HARMLESS_SETTINGS, entry.section) ? HARMLESS_SETTINGS[entry.section] : undefined;
  if (!known || !known.names.has(entry.name)) {
    return false;
  }
  return known.subsection ? entry.subsection !== undefined && entry.subsection !== '' : entry.subsection === undefined;
}

/** A key as the question shows it: as is when plain, else quoted with its escapes (a subsection can hold any character), cut to 120 characters. */
function shownKey(key: string): string {
  const shown = /^[\x21-\x7e]+$/.test(key) ? key : JSON.stringify(key);
  return shown.length > 120 ? `${shown.slice(0, 117)}...` : shown;
}

/**
 * A config file may be at most this large: it is read whole (parsing 256 KiB takes about 30 ms on a
 * loaded machine, a clone's config of 200 bytes about 15 µs), and a larger one asks. A
 * repository's config reaches it with some 3,000 tracked branches.
 */
export const GIT_CONFIG_MAX_BYTES = 256 * 1024;

/** A config file's text, or undefined when its bytes are not valid UTF-8 (a leading BOM is dropped, as git drops it). */
export function configTextOf(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Why git should not run unasked with a repository config file whose bytes are these (`file` names
 * it in the sentence), or undefined when the file is valid UTF-8, parses as git parses it, and holds
 * only harmless settings.
 */
export function repositoryConfigProblem(file: string, bytes: Uint8Array): string | undefined {
  const text = configTextOf(bytes);
  if (text === undefined) {
    return `${file} is not valid UTF-8, so the policy cannot tell which settings git would read from it`;
  }
  const parsed = parseGitConfig(text);
  if (!parsed.ok) {
    return `${file} line ${parsed.line} is not valid git config (${parsed.problem}), so the policy cannot tell which settings git would read from it`;
  }
  const unknown = parsed.entries.find((entry) => !isHarmlessSetting(entry));
  if (unknown) {
    return `${file} line ${unknown.line} sets ${shownKey(unknown.key)}, which is not on the list of settings known to be harmless (a repository's settings can point git at files outside it or make it run programs)`;
  }
  return undefined;
}
