// The search port: a search engine lists and searches the files of a scope under the same rules
// whichever engine answers (ripgrep on the local disk, a walk over the FileSystem port elsewhere).
import type { CancellationSignal } from '../errors';
import type { Location } from '../location';
import type { Clock } from './clock';

/**
 * What every match of a glob must satisfy, so an engine can skip the rest early:
 * - `basename`: a glob every matching file's name matches (the last segment of the pattern);
 * - `maxDepth`: how many folders deep a match can be, when the pattern has no `**`.
 */
export interface GlobHints {
  readonly basename?: string;
  readonly maxDepth?: number;
}

/** A compiled path test: relative `/`-separated path in, match or not out. */
export type PathTest = (relativePath: string) => boolean;

/** The files.exclude globs split by how an engine can apply them. */
export interface ExcludeRules {
  /** `**\/name` globs: they hide any file or folder with a matching name, at every depth. */
  readonly names: readonly string[];
  /** The other globs, matched against the path from the workspace folder. */
  readonly paths: readonly string[];
  /** True when this entry (path from the workspace folder) matches, judging only its own name and path. */
  matchesEntry(relativePath: string): boolean;
  /**
   * True when the path or one of its ancestors below the first `skipDepth` segments matches. The
   * searched folder itself is never judged: a folder named on purpose is searched, as ripgrep does.
   */
  isExcluded(relativePath: string, skipDepth: number): boolean;
}

/** Where a search runs and which rules hide files there. */
export interface SearchScope {
  /** The folder or file to search, symlinks resolved. */
  readonly root: Location;
  readonly rootKind: 'directory' | 'file';
  /** Where .gitignore rules start: the (resolved) workspace folder holding the root, or the root itself. */
  readonly ignoreRoot: Location;
  /** The root relative to ignoreRoot ('' when they are the same). */
  readonly rootFromIgnoreRoot: string;
  /** False when the root itself lies in a folder .gitignore hides: then only rules inside it apply. */
  readonly parentRules: boolean;
  /** files.exclude, relative to ignoreRoot. */
  readonly excludes: ExcludeRules;
}

/** When to stop: the user cancelled, or the time budget ran out. */
export interface SearchLimits {
  readonly token: CancellationSignal;
  readonly clock: Clock;
  /** The clock time after which the engine stops and returns what it has. */
  readonly deadline: number;
}

/** A search stopped by the time budget says so; cancellation throws instead. */
export interface SearchOutcome {
  readonly timedOut: boolean;
  /** True when the search stopped because the collector had enough. */
  readonly stoppedEarly?: boolean;
}

export interface FileListing extends SearchOutcome {
  /** Paths relative to the scope root, `/`-separated, in no particular order. */
  readonly files: string[];
  /**
   * Each file's modification time (ms, of the symlink's target for a symlink, as FileSystem.stat
   * gives it), in the order of files, when `dated` was asked and the engine read them as it listed.
   * A file that vanished before it was read is left out of both.
   */
  readonly mtimes?: number[];
}

/** What a listing may do besides listing. */
export interface ListOptions {
  /** Only the files this accepts are listed; the caller need not filter again. */
  readonly accept?: PathTest;
  /** Read modification times while listing, where the engine can do it cheaper than a stat per file through the port. */
  readonly dated?: boolean;
}

export interface RegexQuery {
  readonly pattern: string;
  readonly caseInsensitive: boolean;
  readonly fixedStrings: boolean;
}

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepRequest {
  readonly scope: SearchScope;
  readonly regex: RegexQuery;
  readonly mode: GrepMode;
  /** Lines of context before and after each match (content mode). */
  readonly context: number;
  /** Which files to search, by path relative to the scope root. */
  readonly include?: PathTest;
  readonly hints: GlobHints;
}

/** One printed line of a file: a match (with where its first match is) or a context line. */
export interface GrepLine {
  readonly number: number;
  /** The line without its terminator. */
  readonly text: string;
  /** UTF-16 offsets of the first match in text, for match lines. */
  readonly match?: { readonly start: number; readonly end: number };
}

/** A file with at least one matching line. */
export interface GrepFileResult {
  /** Relative to the scope root; '' when the scope is a single file. */
  readonly path: string;
  readonly matchingLines: number;
  /** Match and context lines in line order (content mode; empty otherwise). */
  readonly lines: GrepLine[];
}

export interface SearchEngine {
  /** 'ripgrep' or 'fallback', for notes and tests. */
  readonly name: string;
  /**
   * Every file of a directory scope that the ignore and exclude rules do not hide, symlinks not
   * followed. Files the hints rule out may be left out (or not: the caller applies the whole
   * pattern); files `options.accept` rules out are.
   */
  listFiles(scope: SearchScope, hints: GlobHints, limits: SearchLimits, options?: ListOptions): Promise<FileListing>;
  /**
   * Searches every file listFiles would list (or the one file of a file scope) that `include`
   * accepts, skipping binary files (a NUL byte anywhere), and hands each file with a match to the
   * collector, in no particular order.
   */
  grep(request: GrepRequest, limits: SearchLimits, collector: GrepCollector): Promise<SearchOutcome>;
}

/**
 * Receives the files with matches. A search over a huge tree only needs the lines of the files it
 * will print, so the engine asks before keeping a file's lines; files it declines still count.
 */
export interface GrepCollector {
  /** Whether the lines of this file (path relative to the scope root) may be printed. */
  wants(path: string): boolean;
  /** The most match lines of one file worth keeping; later lines are only counted. */
  readonly maxLinesPerFile: number;
  /** A finished file; `lines` is empty when wants() said no or the mode prints no lines. */
  add(file: GrepFileResult): void;
  /** True once more was found than can be printed: the engine stops searching. */
  readonly enough: boolean;
}

/** Picks the engine for a scope: ripgrep where the files are on the host's disk and a binary is known, else the port walk. */
/**
 * Where the .gitignore files of the local workspace are, kept between calls by watches (on Linux
 * the sandbox's index, sandbox/scanIndex.ts), so a name glob's listing need not name them each time.
 */
export interface IgnoreFileIndex {
  /**
   * The folders under `folder` (a local path without links) that hold a .gitignore, relative to it
   * ('' for itself), with every change made before the call counted; undefined when the index
   * cannot vouch for the folder (not tracked, being built, its watches failed): then list them.
   */
  ignoreFileFolders(folder: string): Promise<readonly string[] | undefined>;
}

export interface SearchEngines {
  engineFor(scope: SearchScope): SearchEngine;
}
