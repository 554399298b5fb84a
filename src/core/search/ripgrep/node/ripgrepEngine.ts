// The search engine for the local disk: ripgrep with our rules as flags (../args.ts), one process per
// search (run.ts), its --json events (../jsonEvents.ts) or, for the modes that print no lines, its
// count lines (../countLines.ts) read as they arrive.
import { StringDecoder } from 'node:string_decoder';
import { minimatch } from 'minimatch';
import { BugError } from '../../../errors';
import type { FileSystem } from '../../../ports/fileSystem';
import type { Location } from '../../../location';
import type { FileListing, GlobHints, GrepCollector, GrepRequest, IgnoreFileIndex, ListOptions, SearchEngine, SearchLimits, SearchOutcome, SearchScope } from '../../../ports/search';
import { IGNORE_FILE, IgnoreRules } from '../../ignoreRules';
import { InvalidRegexError } from '../../regex';
import { hintArgs, pathArgument, pathExcluded, ruleArgs } from '../args';
import { CountLineParser } from '../countLines';
import { JsonEventParser } from '../jsonEvents';
import { IgnoredNames } from '../../ignoredNames';
import { localMtime, readLocalText } from './localFiles';
import { failOnError, runRipgrep, type RipgrepRun } from './run';

/** Above this many files, checking .gitignore in JavaScript by probing every folder costs more than a second, exact listing. */
const MAX_FILES_CHECKED_IN_PROCESS = 300;

/** Name globs compiled, the last few kept: an agent repeats its globs, and compiling costs about a quarter of a millisecond. */
const nameMatchers = new Map<string, RegExp | false>();

function nameMatcher(nameGlob: string): RegExp | false {
  let matcher = nameMatchers.get(nameGlob);
  if (matcher === undefined) {
    matcher = minimatch.makeRe(nameGlob, { dot: true });
    if (nameMatchers.size >= 32) {
      nameMatchers.delete(nameMatchers.keys().next().value as string);
    }
    nameMatchers.set(nameGlob, matcher);
  }
  return matcher;
}

export class RipgrepSearchEngine implements SearchEngine {
  readonly name = 'ripgrep';

  constructor(
    private readonly rgPath: string,
    private readonly fs: FileSystem,
    private readonly ignoreIndex?: IgnoreFileIndex,
  ) {}

  async listFiles(scope: SearchScope, hints: GlobHints, limits: SearchLimits, options: ListOptions = {}): Promise<FileListing> {
    const nameGlob = hints.basename;
    if (nameGlob === undefined) {
      return this.list(scope, hints, limits, [], options);
    }
    // A name glob as -g costs ripgrep much less than a file type (ripgrep skips the .gitignore
    // rules of files the glob rules out), but -g also lets through files .gitignore hides (not
    // the folders it hides, unless a folder's own name matches the glob), so the results are checked
    // against the fallback's rules here, which need to know where the .gitignore files are.
    const prefix = scope.parentRules && scope.rootFromIgnoreRoot !== '' ? `${scope.rootFromIgnoreRoot}/` : '';
    const fromRulesRoot = (folder: string) => (folder === '' ? prefix.slice(0, -1) : prefix + folder);
    // Where the watches keep them (Linux, a trusted window), the listing names only what the glob matches.
    const kept = scope.rootKind === 'directory' && this.ignoreIndex ? await this.ignoreIndex.ignoreFileFolders(this.localPath(scope.root)) : undefined;
    if (kept) {
      const listing = await this.list(scope, { maxDepth: hints.maxDepth }, limits, [nameGlob], options);
      return listing.timedOut ? listing : this.leaveIgnored(scope, prefix, nameGlob, listing, new Set(kept.map(fromRulesRoot)), () => true, options);
    }
    // Else the same listing names every .gitignore, so the check reads those and probes no other folder.
    const listIgnoreFiles = !scope.excludes.names.includes(IGNORE_FILE);
    const isIgnoreFile = (relative: string) => listIgnoreFiles && (relative === IGNORE_FILE || relative.endsWith(`/${IGNORE_FILE}`));
    // files.exclude may hide the .gitignore files themselves; the rules still need them. Without
    // them listed, each folder is probed: that costs more than listing with the type, which ripgrep
    // filters exactly, once there are many results, so that listing stops as soon as it has too many.
    // With the .gitignore files listed, the files are dated as they are listed (the few the rules
    // then hide were dated for nothing).
    const quick = await this.list(scope, { maxDepth: hints.maxDepth }, limits, listIgnoreFiles ? [nameGlob, IGNORE_FILE] : [nameGlob], listIgnoreFiles ? options : {}, {
      max: listIgnoreFiles ? Infinity : MAX_FILES_CHECKED_IN_PROCESS,
      counts: (relative) => !isIgnoreFile(relative),
      keepExcluded: isIgnoreFile,
    });
    if (quick.timedOut || quick.stoppedEarly) {
      return quick.timedOut ? quick : this.list(scope, hints, limits, [], options);
    }
    if (!listIgnoreFiles) {
      return this.leaveIgnored(scope, prefix, nameGlob, quick, undefined, () => true, options);
    }
    // The .gitignore files were listed for the rules; they are results only when the glob names them.
    const excluded = pathExcluded(scope);
    const asked = minimatch(IGNORE_FILE, nameGlob, { dot: true });
    const isCandidate = (relative: string) => !isIgnoreFile(relative) || (asked && !excluded(relative));
    const ignoreFolders = new Set(quick.files.filter(isIgnoreFile).map((relative) => fromRulesRoot(relative.slice(0, Math.max(0, relative.length - IGNORE_FILE.length - 1)))));
    return this.leaveIgnored(scope, prefix, nameGlob, quick, ignoreFolders, isCandidate, options);
  }

  /**
   * The candidates of a name glob's listing that .gitignore does not hide, with their times.
   * `ignoreFolders`: every folder under the scope's root that holds a .gitignore (paths from the
   * rules' root), so the rules probe no other folder there and most files are cleared by their name
   * alone (IgnoredNames); undefined: not known, every file gets IgnoreRules' exact check.
   */
  private async leaveIgnored(
    scope: SearchScope,
    prefix: string,
    nameGlob: string,
    listing: FileListing,
    ignoreFolders: ReadonlySet<string> | undefined,
    isCandidate: (relative: string) => boolean,
    options: ListOptions,
  ): Promise<FileListing> {
    const rules = new IgnoreRules(this.fs, scope.parentRules ? scope.ignoreRoot : scope.root);
    let needsCheck = (_relative: string): boolean => true;
    if (ignoreFolders) {
      rules.useKnownIgnoreFolders(prefix.slice(0, -1), ignoreFolders);
      needsCheck = this.nameCheck(scope, prefix, nameGlob, ignoreFolders);
    }
    const listed = listing.files;
    const chosen: number[] = [];
    listed.forEach((relative, index) => {
      if (isCandidate(relative) && (!options.accept || options.accept(relative))) {
        chosen.push(index);
      }
    });
    const ignored = await Promise.all(chosen.map((index) => needsCheck(listed[index]) && rules.isIgnored(prefix + listed[index], false)));
    const kept = chosen.filter((_, position) => !ignored[position]);
    const files = kept.map((index) => listed[index]);
    const mtimes = listing.mtimes;
    if (mtimes) {
      return { files, mtimes: kept.map((index) => mtimes[index]), timedOut: false };
    }
    return options.dated ? this.dated(scope, files) : { files, timedOut: false };
  }

  /**
   * Which listed files need IgnoreRules' exact check: those inside a folder whose own name matches
   * the name glob (ripgrep entered it even if .gitignore hides it), and those whose name a rule of
   * the .gitignore files above them could match. The rules come from the known .gitignore files,
   * and from the folders between the ignore root and the searched folder, which are probed.
   */
  private nameCheck(scope: SearchScope, prefix: string, nameGlob: string, ignoreFolders: ReadonlySet<string>): (relative: string) => boolean {
    const ruleRoot = this.localPath(scope.parentRules ? scope.ignoreRoot : scope.root);
    const under = prefix.slice(0, -1);
    const names = new IgnoredNames(
      (folder) => folder === '' || ignoreFolders.has(folder) || !(under === '' || folder === under || folder.startsWith(`${under}/`)),
      (folder) => {
        const own = readLocalText(`${ruleRoot}/${folder === '' ? '' : `${folder}/`}${IGNORE_FILE}`);
        const exclude = folder === '' ? readLocalText(`${ruleRoot}/.git/info/exclude`) : undefined;
        return own === undefined && exclude === undefined ? undefined : `${exclude ?? ''}\n${own ?? ''}`;
      },
    );
    const folderMatches = nameMatcher(nameGlob);
    return (relative) => {
      const parts = relative.split('/');
      parts.pop();
      return names.mayHide(prefix + relative) || (folderMatches === false ? parts.length > 0 : parts.some((part) => folderMatches.test(part)));
    };
  }

  /** The listing with each file's modification time; files gone since they were listed are left out. */
  private dated(scope: SearchScope, listed: readonly string[]): FileListing {
    const root = this.localPath(scope.root);
    const files: string[] = [];
    const mtimes: number[] = [];
    for (const relative of listed) {
      const mtime = localMtime(`${root}/${relative}`);
      if (mtime !== undefined) {
        files.push(relative);
        mtimes.push(mtime);
      }
    }
    return { files, mtimes, timedOut: false };
  }

  /**
   * Lists with ripgrep; with `options`, stops (stoppedEarly) once more than `max` files it counts
   * were found, and keeps the files `keepExcluded` names even where files.exclude hides them.
   */
  private async list(
    scope: SearchScope,
    hints: GlobHints,
    limits: SearchLimits,
    nameGlobs: readonly string[],
    { accept, dated }: ListOptions,
    options?: { readonly max: number; counts(relative: string): boolean; keepExcluded(relative: string): boolean },
  ): Promise<FileListing> {
    const target = pathArgument(scope, process.platform);
    const files: string[] = [];
    // Each file is dated as ripgrep prints it, so the stats overlap ripgrep's walk instead of following it.
    const cwd = dated ? `${this.localPath(scope.ignoreRoot)}/` : '';
    const mtimes: number[] = [];
    const excluded = pathExcluded(scope);
    let rest = '';
    const decoder = new StringDecoder('utf8');
    // ripgrep lets a later -g win over an earlier one: the name globs go first, so files.exclude
    // and !.git still hide what they name.
    const args = ['--files', '--null', ...nameGlobs.flatMap((glob) => ['-g', glob]), ...ruleArgs(scope), ...hintArgs(hints), '--', target.arg];
    let counted = 0;
    const run = await this.run(scope, args, limits, (chunk, stop) => {
      const parts = (rest + decoder.write(chunk)).split('\0');
      rest = parts.pop() ?? '';
      for (const printed of parts) {
        const relative = target.toRelative(printed);
        // Files the caller keeps for itself (the .gitignore files of a name glob's listing) pass whatever the rules and accept say.
        const kept = options?.keepExcluded(relative) === true;
        if (!kept && (excluded(relative) || (accept && !accept(relative)))) {
          continue;
        }
        if (dated) {
          const mtime = localMtime(cwd + printed);
          if (mtime === undefined) {
            continue;
          }
          mtimes.push(mtime);
        }
        files.push(relative);
        if (options?.counts(relative) && (counted += 1) > options.max) {
          stop();
          return;
        }
      }
    });
    failOnError(run, files.length > 0);
    return { files, ...(dated ? { mtimes } : {}), timedOut: run.timedOut, stoppedEarly: run.stopped };
  }

  async grep(request: GrepRequest, limits: SearchLimits, collector: GrepCollector): Promise<SearchOutcome> {
    const { scope, regex } = request;
    const target = pathArgument(scope, process.platform);
    const printsLines = request.mode === 'content';
    const args = [...(printsLines ? ['--json'] : ['--count', '--with-filename', '--null', '--line-buffered']), '--crlf', ...ruleArgs(scope)];
    if (scope.rootKind === 'directory') {
      args.push(...hintArgs(request.hints));
    }
    if (regex.caseInsensitive) {
      args.push('--ignore-case');
    } else {
      args.push('--case-sensitive');
    }
    if (regex.fixedStrings) {
      args.push('--fixed-strings');
    }
    if (request.mode === 'files_with_matches') {
      args.push('--max-count', '1');
    } else if (request.mode === 'content' && request.context > 0) {
      args.push('--context', String(request.context));
    }
    args.push('--regexp', regex.pattern, '--', target.arg);

    const decoder = new StringDecoder('utf8');
    // A single file is complete once it is reported; only a folder search has more to skip.
    const stopWhenEnough = scope.rootKind === 'directory';
    if (!printsLines) {
      const counts = new CountLineParser(request, collector, target.toRelative, pathExcluded(scope));
      const run = await this.run(scope, args, limits, (chunk, stop) => {
        if (!counts.write(decoder.write(chunk), stopWhenEnough)) {
          stop();
        }
      });
      return this.grepOutcome(run, counts.found);
    }
    const parser = new JsonEventParser(request, collector, target.toRelative, pathExcluded(scope));
    let rest = '';
    const run = await this.run(scope, args, limits, (chunk, stop) => {
      const text = rest + decoder.write(chunk);
      let start = 0;
      for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
        parser.line(text.slice(start, end));
        start = end + 1;
        if (stopWhenEnough && collector.enough) {
          stop();
          return;
        }
      }
      rest = text.slice(start);
    });
    return this.grepOutcome(run, parser.found);
  }

  /** How a grep's ripgrep run ended; throws for a pattern ripgrep refused or a failure with nothing found. */
  private grepOutcome(run: RipgrepRun, found: number): SearchOutcome {
    if (run.exitCode === 2 && /regex/i.test(run.stderr)) {
      throw new InvalidRegexError(run.stderr.trim().replace(/^rg: /, ''));
    }
    failOnError(run, found > 0);
    return { timedOut: run.timedOut, stoppedEarly: run.stopped };
  }

  /** Runs ripgrep from the folder .gitignore rules start at, so its output paths are relative to it. */
  private async run(scope: SearchScope, args: string[], limits: SearchLimits, onStdout: (chunk: Buffer, stop: () => void) => void): Promise<RipgrepRun> {
    return runRipgrep(this.rgPath, this.localPath(scope.ignoreRoot), args, limits, onStdout);
  }

  private localPath(location: Location): string {
    const local = this.fs.localPath(location);
    if (local === undefined) {
      throw new BugError('ripgrep was chosen for a folder that is not on the local disk');
    }
    return local;
  }
}
