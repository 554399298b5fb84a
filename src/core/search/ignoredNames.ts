// A quick, conservative answer to "could the .gitignore rules hide this file by its name?", for
// the many files a name glob lists (ripgrep's -g lets through files .gitignore hides, but not
// folders it hides). A rule hides a file itself only if its last segment matches the file's name,
// so a file whose name no such rule can match needs no exact check; the others get one
// (IgnoreRules). Every doubt answers "could": a rule it cannot read exactly matches every name.

/** Which names a .gitignore text's rules could hide as files: undefined when none, else a test that may say yes too often. */
export function fileNameRules(text: string): RegExp | undefined {
  const sources: string[] = [];
  for (const raw of text.split('\n')) {
    // Git trims trailing spaces; trimming more only makes the rule match more names.
    const line = raw.replace(/\s+$/, '');
    // Comments, blank lines; negations only bring files back; a trailing / only matches folders.
    if (line === '' || line.startsWith('#') || line.startsWith('!') || line.endsWith('/')) {
      continue;
    }
    const source = nameSource(line.slice(line.lastIndexOf('/') + 1));
    if (source === undefined) {
      return /^/; // a rule not read exactly: any name
    }
    sources.push(source);
  }
  // Case-insensitive: the exact check's matcher ignores case, and matching more is always safe.
  return sources.length ? new RegExp(`^(?:${sources.join('|')})$`, 'i') : undefined;
}

/** The .gitignore files of a tree, folder by folder, asked about file names. */
export class IgnoredNames {
  private readonly rules = new Map<string, RegExp | undefined>();

  /**
   * @param hasIgnoreFile whether a folder (path from the root, '' for the root) may hold ignore rules
   * @param readRules the text of a folder's ignore rules (the root's include .git/info/exclude), if any
   */
  constructor(
    private readonly hasIgnoreFile: (folder: string) => boolean,
    private readonly readRules: (folder: string) => string | undefined,
  ) {}

  /** False only when no rule from the root down to the file's folder can hide a file of its name. */
  mayHide(relativePath: string): boolean {
    const parts = relativePath.split('/');
    const name = parts[parts.length - 1];
    let folder = '';
    for (let depth = 0; depth < parts.length; depth += 1) {
      if (depth > 0) {
        folder = depth === 1 ? parts[0] : `${folder}/${parts[depth - 1]}`;
      }
      if (this.hasIgnoreFile(folder) && this.rulesOf(folder)?.test(name)) {
        return true;
      }
    }
    return false;
  }

  private rulesOf(folder: string): RegExp | undefined {
    if (!this.rules.has(folder)) {
      const text = this.readRules(folder);
      this.rules.set(folder, text === undefined ? undefined : fileNameRules(text));
    }
    return this.rules.get(folder);
  }
}

/** A regular expression source for one glob segment of a rule, or undefined for what is not read exactly (`**`, POSIX classes, odd brackets). */
function nameSource(segment: string): string | undefined {
  if (segment.includes('**')) {
    return undefined;
  }
  let source = '';
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index];
    if (char === '\\') {
      index += 1;
      if (index === segment.length) {
        return undefined;
      }
      source += literal(segment[index]);
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = segment.indexOf(']', index + 2);
      const body = close === -1 ? '' : segment.slice(index + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      const members = negated ? body.slice(1) : body;
      if (members === '' || /[[\\\]^]/.test(members)) {
        return undefined;
      }
      // A negated class: git reads [!a] as "not a", the exact check's matcher as "! or a"; any character covers both.
      source += negated ? '[^/]' : `[${members}]`;
      index = close;
    } else {
      source += literal(char);
    }
  }
  return source;
}

function literal(char: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(char) ? `\\${char}` : char;
}
