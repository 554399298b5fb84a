// The search engine for file systems without a local path (remote providers, virtual workspaces):
// a walk over the FileSystem port with the same ignore rules ripgrep applies, and re2js, whose
// matching time is linear in the input, so no pattern can freeze the extension host.
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import { throwIfCancelled } from '../errors';
import { joinLocation, type Location } from '../location';
import type { FileSystem } from '../ports/fileSystem';
import type { FileListing, GlobHints, GrepCollector, GrepLine, GrepRequest, ListOptions, SearchEngine, SearchLimits, SearchOutcome, SearchScope } from '../ports/search';
import { decodeText } from '../text/encoding';
import { displayLines } from '../text/lineEndings';
import { ALWAYS_HIDDEN, IgnoreRules } from './ignoreRules';
import { compileLineMatcher, type LineMatcher } from './regex';

const DIRECTORY_CONCURRENCY = 16;
const FILE_CONCURRENCY = 8;

export class FallbackSearchEngine implements SearchEngine {
  readonly name = 'fallback';

  constructor(private readonly fs: FileSystem) {}

  /** Never dated: a stat per file through the port is all this engine could do, and the caller does that. */
  async listFiles(scope: SearchScope, hints: GlobHints, limits: SearchLimits, options: ListOptions = {}): Promise<FileListing> {
    const files: string[] = [];
    const timedOut = await this.walk(scope, hints, limits, (relative) => {
      if (!options.accept || options.accept(relative)) {
        files.push(relative);
      }
    });
    return { files, timedOut };
  }

  async grep(request: GrepRequest, limits: SearchLimits, collector: GrepCollector): Promise<SearchOutcome> {
    const matchLine = compileLineMatcher(request.regex);
    const { scope } = request;
    if (scope.rootKind === 'file') {
      await this.grepFile(scope.root, '', request, matchLine, collector);
      return { timedOut: false };
    }
    const candidates: string[] = [];
    let timedOut = await this.walk(scope, request.hints, limits, (relative) => {
      if (!request.include || request.include(relative)) {
        candidates.push(relative);
      }
    });
    for (let start = 0; start < candidates.length && !timedOut; start += FILE_CONCURRENCY) {
      if (collector.enough) {
        return { timedOut, stoppedEarly: true };
      }
      timedOut = checkLimits(limits);
      const batch = candidates.slice(start, start + FILE_CONCURRENCY);
      await Promise.all(batch.map((relative) => this.grepFile(joinLocation(scope.root, relative), relative, request, matchLine, collector)));
    }
    return { timedOut };
  }

  private async grepFile(location: Location, relative: string, request: GrepRequest, matchLine: LineMatcher, collector: GrepCollector): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = await this.fs.readFile(location);
    } catch {
      return; // Unreadable files are skipped, as ripgrep skips them with --no-messages.
    }
    const { text } = decodeText(bytes);
    if (text.includes('\0')) {
      return;
    }
    const lines = displayLines(text);
    const matches: { index: number; span: { start: number; end: number } }[] = [];
    let matchingLines = 0;
    const keepLines = request.mode === 'content' && collector.wants(relative);
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index];
      const span = matchLine(line);
      if (span) {
        matchingLines += 1;
        if (request.mode === 'files_with_matches') {
          break;
        }
        // One match past the budget is kept, so the context after the last printed match stops where ripgrep's would.
        if (keepLines && matches.length <= collector.maxLinesPerFile) {
          matches.push({ index, span });
        }
      }
    }
    if (matchingLines === 0) {
      return;
    }
    collector.add({ path: relative, matchingLines, lines: keepLines ? withContext(lines, matches, request.context) : [] });
  }

  /** Walks the scope breadth first, calling `found` for each visible regular file; true when the budget ran out. */
  private async walk(scope: SearchScope, hints: GlobHints, limits: SearchLimits, found: (relative: string) => void): Promise<boolean> {
    const rules = scope.parentRules ? new IgnoreRules(this.fs, scope.ignoreRoot) : new IgnoreRules(this.fs, scope.root);
    const rulesPrefix = scope.parentRules ? scope.rootFromIgnoreRoot : '';
    const basename = hints.basename ? minimatch.makeRe(hints.basename, { dot: true }) : false;
    let pending: string[] = [''];
    while (pending.length > 0) {
      if (checkLimits(limits)) {
        return true;
      }
      const next: string[] = [];
      for (let start = 0; start < pending.length; start += DIRECTORY_CONCURRENCY) {
        const batch = pending.slice(start, start + DIRECTORY_CONCURRENCY);
        const listed = await Promise.all(batch.map((directory) => this.fs.readDirectory(joinLocation(scope.root, directory)).catch(() => [])));
        for (const [index, entries] of listed.entries()) {
          const directory = batch[index];
          for (const entry of entries) {
            // Symlinks are never followed, so a walk cannot leave the tree or loop, as ripgrep without -L.
            if (entry.isSymlink || entry.kind === 'other' || ALWAYS_HIDDEN.has(entry.name)) {
              continue;
            }
            const relative = directory === '' ? entry.name : `${directory}/${entry.name}`;
            const isDirectory = entry.kind === 'directory';
            const depth = relative.split('/').length;
            if (hints.maxDepth !== undefined && (isDirectory ? depth >= hints.maxDepth : depth > hints.maxDepth)) {
              continue;
            }
            if (!isDirectory && basename && !basename.test(entry.name)) {
              continue;
            }
            if (scope.excludes.matchesEntry(joinRelative(scope.rootFromIgnoreRoot, relative))) {
              continue;
            }
            if (await rules.isIgnored(joinRelative(rulesPrefix, relative), isDirectory)) {
              continue;
            }
            if (isDirectory) {
              next.push(relative);
            } else {
              found(relative);
            }
          }
        }
      }
      pending = next;
    }
    return false;
  }
}

function joinRelative(prefix: string, relative: string): string {
  return prefix === '' ? relative : path.posix.join(prefix, relative);
}

/** The match lines with `context` lines around each, in order, as ripgrep prints them. */
function withContext(lines: readonly string[], matches: readonly { index: number; span: { start: number; end: number } }[], context: number): GrepLine[] {
  const out: GrepLine[] = [];
  let next = 0;
  for (const [position, match] of matches.entries()) {
    const first = Math.max(next, match.index - context);
    for (let index = first; index < match.index; index += 1) {
      out.push({ number: index + 1, text: lines[index] });
    }
    out.push({ number: match.index + 1, text: lines[match.index], match: match.span });
    const following = matches[position + 1]?.index ?? Number.POSITIVE_INFINITY;
    const last = Math.min(lines.length - 1, match.index + context, following - 1);
    for (let index = match.index + 1; index <= last; index += 1) {
      out.push({ number: index + 1, text: lines[index] });
    }
    next = last + 1;
  }
  return out;
}

/** Throws on cancellation; true when the time budget has run out. */
export function checkLimits(limits: SearchLimits): boolean {
  throwIfCancelled(limits.token);
  return limits.clock.now() >= limits.deadline;
}
