// The search engine for the local disk: ripgrep, spawned without a shell. User input never becomes
// an option: the pattern goes after -e, globs after -g, the path after --.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { minimatch } from 'minimatch';
import { BugError, CancelledError } from '../errors';
import type { FileSystem } from '../ports/fileSystem';
import type { FileListing, GlobHints, GrepCollector, GrepLine, GrepRequest, SearchEngine, SearchLimits, SearchOutcome, SearchScope } from '../ports/search';
import { IgnoreRules } from './ignoreRules';
import { InvalidRegexError } from './regex';

/** Our rules, spelled as ripgrep flags: the ones the fallback engine applies too, and no others. */
function ruleArgs(scope: SearchScope): string[] {
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

function hintArgs(hints: GlobHints): string[] {
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

/** The path argument, and how to turn ripgrep's output paths back into paths relative to the scope root. */
function pathArgument(scope: SearchScope): { arg: string; toRelative(printed: string): string } {
  if (scope.rootKind === 'file') {
    return { arg: scope.rootFromIgnoreRoot, toRelative: () => '' };
  }
  const arg = scope.rootFromIgnoreRoot === '' ? '.' : scope.rootFromIgnoreRoot;
  const prefix = `${arg}/`;
  return { arg, toRelative: (printed) => (printed.startsWith(prefix) ? printed.slice(prefix.length) : printed) };
}

/**
 * files.exclude globs that are not plain names cannot be handed to ripgrep with the same meaning,
 * so they are applied to what it prints.
 */
function pathExcluded(scope: SearchScope): (relative: string) => boolean {
  if (scope.excludes.paths.length === 0 || scope.rootKind === 'file') {
    return () => false;
  }
  const base = scope.rootFromIgnoreRoot;
  const skipDepth = base === '' ? 0 : base.split('/').length;
  return (relative) => scope.excludes.isExcluded(base === '' ? relative : `${base}/${relative}`, skipDepth);
}

/** Above this many files, checking .gitignore in JavaScript costs more than a second, exact listing. */
const MAX_FILES_CHECKED_IN_PROCESS = 300;
const IGNORE_FILE = '.gitignore';

interface RipgrepRun {
  readonly timedOut: boolean;
  /** Stopped on purpose: the caller had enough. */
  readonly stopped: boolean;
  readonly exitCode: number | null;
  readonly stderr: string;
}

export class RipgrepSearchEngine implements SearchEngine {
  readonly name = 'ripgrep';

  constructor(
    private readonly rgPath: string,
    private readonly fs: FileSystem,
  ) {}

  async listFiles(scope: SearchScope, hints: GlobHints, limits: SearchLimits): Promise<FileListing> {
    const nameGlob = hints.basename;
    if (nameGlob === undefined) {
      return this.list(scope, hints, limits);
    }
    // A name glob as -g costs ripgrep much less than a file type (ripgrep skips the .gitignore
    // rules of files the glob rules out), but -g also lets through files .gitignore hides, so the
    // results are checked against the fallback's rules here. The same listing names every
    // .gitignore, so the check reads those and probes no other folder. Checking many results in
    // JavaScript costs more than listing with the type, which ripgrep filters exactly, so the quick
    // listing stops as soon as it has found too many.
    const listIgnoreFiles = !scope.excludes.names.includes(IGNORE_FILE);
    const isIgnoreFile = (relative: string) => listIgnoreFiles && (relative === IGNORE_FILE || relative.endsWith(`/${IGNORE_FILE}`));
    // files.exclude may hide the .gitignore files themselves; the rules still need them.
    const quick = await this.list(scope, { maxDepth: hints.maxDepth }, limits, listIgnoreFiles ? [nameGlob, IGNORE_FILE] : [nameGlob], {
      max: MAX_FILES_CHECKED_IN_PROCESS,
      counts: (relative) => !isIgnoreFile(relative),
      keepExcluded: isIgnoreFile,
    });
    if (quick.timedOut || quick.stoppedEarly) {
      return quick.timedOut ? quick : this.list(scope, hints, limits);
    }
    const rules = new IgnoreRules(this.fs, scope.parentRules ? scope.ignoreRoot : scope.root);
    const prefix = scope.parentRules && scope.rootFromIgnoreRoot !== '' ? `${scope.rootFromIgnoreRoot}/` : '';
    let candidates = quick.files;
    if (listIgnoreFiles) {
      rules.useListedIgnoreFiles(prefix.slice(0, -1), quick.files.filter(isIgnoreFile).map((relative) => prefix + relative));
      // The .gitignore files were listed for the rules; they are results only when the glob names them.
      const excluded = pathExcluded(scope);
      const asked = minimatch(IGNORE_FILE, nameGlob, { dot: true });
      candidates = quick.files.filter((relative) => !isIgnoreFile(relative) || (asked && !excluded(relative)));
    }
    const ignored = await Promise.all(candidates.map((relative) => rules.isIgnored(prefix + relative, false)));
    return { files: candidates.filter((_, index) => !ignored[index]), timedOut: false };
  }

  /**
   * Lists with ripgrep; with `options`, stops (stoppedEarly) once more than `max` files it counts
   * were found, and keeps the files `keepExcluded` names even where files.exclude hides them.
   */
  private async list(
    scope: SearchScope,
    hints: GlobHints,
    limits: SearchLimits,
    nameGlobs: readonly string[] = [],
    options?: { readonly max: number; counts(relative: string): boolean; keepExcluded(relative: string): boolean },
  ): Promise<FileListing> {
    const target = pathArgument(scope);
    const files: string[] = [];
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
        if (excluded(relative) && !options?.keepExcluded(relative)) {
          continue;
        }
        files.push(relative);
        if (options?.counts(relative) && (counted += 1) > options.max) {
          stop();
          return;
        }
      }
    });
    failOnError(run, files.length > 0);
    return { files, timedOut: run.timedOut, stoppedEarly: run.stopped };
  }

  async grep(request: GrepRequest, limits: SearchLimits, collector: GrepCollector): Promise<SearchOutcome> {
    const { scope, regex } = request;
    const target = pathArgument(scope);
    const args = ['--json', '--crlf', ...ruleArgs(scope)];
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

    const parser = new JsonEventParser(request, collector, target.toRelative, pathExcluded(scope));
    const decoder = new StringDecoder('utf8');
    let rest = '';
    const run = await this.run(scope, args, limits, (chunk, stop) => {
      const text = rest + decoder.write(chunk);
      let start = 0;
      for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
        parser.line(text.slice(start, end));
        start = end + 1;
        // A single file is complete once it is reported; only a folder search has more to skip.
        if (collector.enough && scope.rootKind === 'directory') {
          stop();
          return;
        }
      }
      rest = text.slice(start);
    });
    if (run.exitCode === 2 && /regex/i.test(run.stderr)) {
      throw new InvalidRegexError(run.stderr.trim().replace(/^rg: /, ''));
    }
    failOnError(run, parser.found > 0);
    return { timedOut: run.timedOut, stoppedEarly: run.stopped };
  }

  /** Runs ripgrep until it ends, the token is cancelled (kill at once) or the deadline passes (kill, partial). */
  private run(scope: SearchScope, args: string[], limits: SearchLimits, onStdout: (chunk: Buffer, stop: () => void) => void): Promise<RipgrepRun> {
    if (limits.token.isCancellationRequested) {
      return Promise.reject(new CancelledError());
    }
    const cwd = this.fs.localPath(scope.ignoreRoot);
    if (cwd === undefined) {
      return Promise.reject(new BugError('ripgrep was chosen for a folder that is not on the local disk'));
    }
    return new Promise<RipgrepRun>((resolve, reject) => {
      const child = spawn(this.rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
      let cancelled = false;
      let timedOut = false;
      let stopped = false;
      const stop = (): void => {
        stopped = true;
        child.kill('SIGKILL');
      };
      let stderr = '';
      const cancellation = limits.token.onCancellationRequested(() => {
        cancelled = true;
        child.kill('SIGKILL');
      });
      const timer = setTimeout(
        () => {
          timedOut = true;
          child.kill('SIGKILL');
        },
        Math.max(0, limits.deadline - limits.clock.now()),
      );
      child.stdout.on('data', (chunk: Buffer) => {
        if (!cancelled && !timedOut && !stopped) {
          onStdout(chunk, stop);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 64 * 1024) {
          stderr += chunk.toString('utf8');
        }
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        cancellation.dispose();
        reject(new Error(`ripgrep could not be started (${this.rgPath}): ${error.message}`));
      });
      child.on('close', (exitCode) => {
        clearTimeout(timer);
        cancellation.dispose();
        if (cancelled) {
          reject(new CancelledError());
        } else {
          resolve({ timedOut, stopped, exitCode, stderr });
        }
      });
    });
  }
}

/** Exit code 2 is an error; with --no-messages it only comes from fatal ones when nothing was found. */
function failOnError(run: RipgrepRun, foundSomething: boolean): void {
  if (!run.timedOut && !run.stopped && run.exitCode === 2 && !foundSomething && run.stderr.trim() !== '') {
    throw new Error(`ripgrep failed: ${run.stderr.trim()}`);
  }
}

interface OpenFile {
  readonly path: string;
  readonly skip: boolean;
  readonly keepLines: boolean;
  readonly lines: GrepLine[];
  matchingLines: number;
  storedMatches: number;
}

interface JsonText {
  text?: string;
  bytes?: string;
}

/**
 * Reads ripgrep's --json events. Events of one file arrive together (begin, match/context, end), so
 * a file is handed over at its end, or dropped there when ripgrep found a NUL byte (binary file).
 * Only events of files whose lines may be printed are parsed; the others are counted by prefix.
 */
class JsonEventParser {
  found = 0;
  private current: OpenFile | undefined;

  constructor(
    private readonly request: GrepRequest,
    private readonly collector: GrepCollector,
    private readonly toRelative: (printed: string) => string,
    private readonly excluded: (relative: string) => boolean,
  ) {}

  line(line: string): void {
    if (line.startsWith('{"type":"begin"')) {
      const data = (JSON.parse(line) as { data: { path: JsonText } }).data;
      const relative = this.toRelative(decodeJsonText(data.path).text);
      const filtered = this.request.scope.rootKind === 'directory' && this.request.include !== undefined && !this.request.include(relative);
      const skip = filtered || this.excluded(relative);
      const keepLines = !skip && this.request.mode === 'content' && this.collector.wants(relative);
      this.current = { path: relative, skip, keepLines, lines: [], matchingLines: 0, storedMatches: 0 };
      return;
    }
    const file = this.current;
    if (!file || file.skip) {
      return;
    }
    if (line.startsWith('{"type":"match"')) {
      file.matchingLines += 1;
      // One match past the budget is kept, so the context after the last printed match stops where it should.
      if (file.keepLines && file.storedMatches <= this.collector.maxLinesPerFile) {
        file.storedMatches += 1;
        file.lines.push(parseLine(line, true));
      }
    } else if (line.startsWith('{"type":"context"')) {
      if (file.keepLines && file.storedMatches <= this.collector.maxLinesPerFile) {
        file.lines.push(parseLine(line, false));
      }
    } else if (line.startsWith('{"type":"end"')) {
      this.current = undefined;
      const binary = !line.includes('"binary_offset":null');
      if (!binary && file.matchingLines > 0) {
        this.found += 1;
        this.collector.add({ path: file.path, matchingLines: file.matchingLines, lines: file.keepLines ? file.lines : [] });
      }
    }
  }
}

function decodeJsonText(value: JsonText): { text: string; bytes?: Buffer } {
  if (value.text !== undefined) {
    return { text: value.text };
  }
  const bytes = Buffer.from(value.bytes ?? '', 'base64');
  return { text: new TextDecoder().decode(bytes), bytes };
}

interface LineEvent {
  data: { lines: JsonText; line_number: number; submatches: { start: number; end: number }[] };
}

function parseLine(line: string, isMatch: boolean): GrepLine {
  const data = (JSON.parse(line) as LineEvent).data;
  const decoded = decodeJsonText(data.lines);
  let text = decoded.text;
  if (text.endsWith('\n')) {
    text = text.slice(0, -1);
    if (text.endsWith('\r')) {
      text = text.slice(0, -1);
    }
  }
  const first = data.submatches[0];
  if (!isMatch || !first) {
    return { number: data.line_number, text };
  }
  // Offsets are in bytes; the formatter works in UTF-16 code units.
  const bytes = decoded.bytes ?? (Buffer.byteLength(decoded.text) === decoded.text.length ? undefined : Buffer.from(decoded.text, 'utf8'));
  const toUnits = (offset: number): number => (bytes ? new TextDecoder().decode(bytes.subarray(0, offset)).length : offset);
  return { number: data.line_number, text, match: { start: toUnits(first.start), end: toUnits(first.end) } };
}
