import ignore, { type Ignore } from 'ignore';
import type { FileSystem } from '../ports/fileSystem';
import type { Location } from '../location';
import { joinLocation } from '../location';

/** The name of the files whose rules apply (with `.git/info/exclude` at the root). */
export const IGNORE_FILE = '.gitignore';

/** Entries hidden whenever ignore files are honoured, as VS Code's files.exclude hides them. */
export const ALWAYS_HIDDEN = new Set(['.git']);

/**
 * The .gitignore rules of a tree: every `.gitignore` from the root down to a path, plus
 * `.git/info/exclude`, with deeper files overriding shallower ones as git does. Files are read
 * lazily through the FileSystem port, so it works on any scheme.
 */
export class IgnoreRules {
  private readonly matchers = new Map<string, Promise<Ignore | undefined>>();
  private readonly folderVerdicts = new Map<string, Promise<boolean>>();
  private listed?: { readonly under: string; readonly folders: ReadonlySet<string> };

  constructor(
    private readonly fs: FileSystem,
    private readonly root: Location,
  ) {}

  /**
   * Tells the rules which folders below the folder `under` hold a `.gitignore` (paths from the
   * root, as a listing or the watched index found them), so the folders without one are not probed
   * one by one. `.git/info/exclude` and the folders above `under` are still read as usual.
   */
  useKnownIgnoreFolders(under: string, folders: ReadonlySet<string>): void {
    this.listed = { under, folders };
  }

  /** True when `relativePath` (from the root, `/`-separated) is ignored, or lies in an ignored folder. */
  async isIgnored(relativePath: string, isDirectory: boolean): Promise<boolean> {
    const parts = relativePath.split('/').filter(Boolean);
    if (parts.some((part) => ALWAYS_HIDDEN.has(part))) {
      return true;
    }
    if (parts.length === 0) {
      return false;
    }
    // An ignored ancestor hides everything below it; git never looks inside.
    if (parts.length > 1 && (await this.isFolderIgnored(parts.slice(0, -1).join('/')))) {
      return true;
    }
    return this.decide(parts, isDirectory);
  }

  /** Folder verdicts are remembered, so checking many files of one tree costs one decision per file. */
  private isFolderIgnored(folder: string): Promise<boolean> {
    let verdict = this.folderVerdicts.get(folder);
    if (!verdict) {
      verdict = this.isIgnored(folder, true);
      this.folderVerdicts.set(folder, verdict);
    }
    return verdict;
  }

  private async decide(parts: string[], isDirectory: boolean): Promise<boolean> {
    let ignored = false;
    let directory = '';
    for (let depth = 0; depth < parts.length; depth += 1) {
      if (depth > 0) {
        directory = depth === 1 ? parts[0] : `${directory}/${parts[depth - 1]}`;
      }
      if (this.knownWithoutIgnoreFile(directory)) {
        continue;
      }
      const matcher = await this.matcherFor(directory);
      if (!matcher) {
        continue;
      }
      const relative = parts.slice(depth).join('/') + (isDirectory ? '/' : '');
      const result = matcher.test(relative);
      if (result.ignored) {
        ignored = true;
      } else if (result.unignored) {
        ignored = false;
      }
    }
    return ignored;
  }

  /** True when a listing showed that this folder has no .gitignore (see useListedIgnoreFiles). */
  private knownWithoutIgnoreFile(directory: string): boolean {
    const listed = this.listed;
    if (!listed || directory === '' || listed.folders.has(directory)) {
      return false;
    }
    return listed.under === '' || directory === listed.under || directory.startsWith(`${listed.under}/`);
  }

  private matcherFor(directory: string): Promise<Ignore | undefined> {
    let pending = this.matchers.get(directory);
    if (!pending) {
      pending = this.load(directory);
      this.matchers.set(directory, pending);
    }
    return pending;
  }

  private async load(directory: string): Promise<Ignore | undefined> {
    const sources = [directory === '' ? '.git/info/exclude' : undefined, directory === '' ? IGNORE_FILE : `${directory}/${IGNORE_FILE}`];
    const texts: string[] = [];
    for (const source of sources) {
      if (!source) {
        continue;
      }
      const location = joinLocation(this.root, source);
      try {
        const stat = await this.fs.stat(location);
        if (stat?.kind === 'file') {
          texts.push(new TextDecoder().decode(await this.fs.readFile(location)));
        }
      } catch {
        // An unreadable ignore file ignores nothing, as git treats it.
      }
    }
    return texts.length ? ignore({ allowRelativePaths: true }).add(texts.join('\n')) : undefined;
  }
}
