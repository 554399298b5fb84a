// The reduction of a command's output, line by line as it streams: lines in, the lines worth a
// model's budget out, and a count per rule of what was left out. Pure and memory-bounded: a
// lock file's diff is counted, not kept; suite headings wait for the next test line, at most
// MAX_PENDING_LINES of them; a repeated line is held once with its count.
//
// The rules, in order: a `git diff`/`git log -p` part of a lock file or snapshot is summarised as
// its name and +/- counts; a line `mustKeep` accepts (errors, warnings, failures, stack frames,
// totals) is kept, whatever follows; a passing test's line is dropped, and the suite headings just
// above it (indented less, as the runners print their trees); progress and download lines of
// package managers are dropped; identical lines in a row are kept once with a count. Escapes and
// carriage-return redraws are resolved before (terminalLines.ts). The command line, when given,
// is a hint: a lock file it names (`git diff package-lock.json`) is shown, not summarised.
import { diffHeaderPath, indentOf, isDiffBody, isHeadingCandidate, isPassingTest, isProgress, machineMadeKind, mustKeep } from './rules';

/** Suite headings held back waiting for a test line; beyond this many the oldest is kept. */
const MAX_PENDING_LINES = 64;
/** Lock-file and snapshot diffs named one by one in a summary; the rest are counted. */
const NAMED_DIFFS = 3;

/** What each rule left out since the counts were last taken. */
export interface ReductionCounts {
  passingTests: number;
  /** Suite headings and blank lines between passing tests. */
  suiteHeadings: number;
  progressLines: number;
  /** Lock-file and snapshot diffs summarised, and the first few by name with their counts. */
  machineMadeDiffs: number;
  machineMadeNamed: string[];
  repeatedLines: number;
  /** Lines redrawn with a carriage return (or erased) and shown in their last state: TerminalLines counts these. */
  redraws: number;
}

export function noReductions(): ReductionCounts {
  return { passingTests: 0, suiteHeadings: 0, progressLines: 0, machineMadeDiffs: 0, machineMadeNamed: [], repeatedLines: 0, redraws: 0 };
}

/** `812 passing test lines dropped; 3 lock-file and snapshot diffs summarised (package-lock.json: +1200 -300 lines); 40 repeated lines collapsed`, or undefined when nothing was reduced. */
export function describeReduction(counts: ReductionCounts): string | undefined {
  const parts: string[] = [];
  if (counts.passingTests > 0) {
    const headings = counts.suiteHeadings > 0 ? ` (and ${counts.suiteHeadings} suite heading${plural(counts.suiteHeadings)} or blank line${plural(counts.suiteHeadings)} above them)` : '';
    parts.push(`${counts.passingTests} passing test line${plural(counts.passingTests)}${headings} dropped`);
  }
  if (counts.progressLines > 0) {
    parts.push(`${counts.progressLines} progress or download line${plural(counts.progressLines)} dropped`);
  }
  if (counts.machineMadeDiffs > 0) {
    const more = counts.machineMadeDiffs - counts.machineMadeNamed.length;
    const named = counts.machineMadeNamed.join('; ') + (more > 0 ? `; ${more} more` : '');
    parts.push(`${counts.machineMadeDiffs} lock-file or snapshot diff${plural(counts.machineMadeDiffs)} summarised (${named})`);
  }
  if (counts.repeatedLines > 0) {
    parts.push(`${counts.repeatedLines} repeated line${plural(counts.repeatedLines)} collapsed`);
  }
  if (counts.redraws > 0) {
    parts.push(`${counts.redraws} carriage-return redraw${plural(counts.redraws)} resolved to the last`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function plural(count: number): string {
  return count === 1 ? '' : 's';
}

/** A lock-file or snapshot part of a diff being counted. */
interface MachineMadeDiff {
  readonly path: string;
  readonly kind: 'lock file' | 'snapshot';
  plus: number;
  minus: number;
  /** A summary of its first lines was already given (the read ended inside it). */
  partShown: boolean;
}

export class LineReducer {
  private counts = noReductions();
  private readonly pending: string[] = [];
  private diff: MachineMadeDiff | undefined;
  private last: string | undefined;
  private repeats = 0;

  /** `emit` receives each kept line (no line end); `hint` is the command line that printed them. */
  constructor(private readonly emit: (line: string) => void, private readonly hint = '') {}

  push(line: string): void {
    if (this.diff) {
      if (isDiffBody(line)) {
        this.countDiffLine(line);
        return;
      }
      this.closeDiff(false);
    }
    const diffPath = diffHeaderPath(line);
    if (diffPath !== undefined) {
      this.keep(line);
      const kind = machineMadeKind(diffPath);
      if (kind && !this.hintNames(diffPath)) {
        this.diff = { path: diffPath, kind, plus: 0, minus: 0, partShown: false };
      }
      return;
    }
    if (mustKeep(line)) {
      this.keep(line);
    } else if (isPassingTest(line)) {
      this.dropHeadingsAbove(indentOf(line));
      this.counts.passingTests += 1;
    } else if (isProgress(line)) {
      this.counts.progressLines += 1;
    } else if (isHeadingCandidate(line)) {
      this.pending.push(line);
      if (this.pending.length > MAX_PENDING_LINES) {
        this.repeat(this.pending.shift() as string);
      }
    } else {
      this.keep(line);
    }
  }

  /** Hands on everything held back (headings, a repeat count, a diff's counts so far): a read takes the output now. */
  flush(): void {
    if (this.diff) {
      this.closeDiff(true);
    }
    this.flushPending();
    this.endRepeat();
    this.last = undefined;
  }

  /** The counts since the last call, and a fresh start. */
  takeCounts(): ReductionCounts {
    const counts = this.counts;
    this.counts = noReductions();
    return counts;
  }

  private hintNames(diffPath: string): boolean {
    const name = diffPath.slice(diffPath.lastIndexOf('/') + 1);
    return this.hint.length > 0 && this.hint.includes(name);
  }

  private countDiffLine(line: string): void {
    const diff = this.diff as MachineMadeDiff;
    if (line.startsWith('+') && !line.startsWith('+++ ')) {
      diff.plus += 1;
    } else if (line.startsWith('-') && !line.startsWith('--- ')) {
      diff.minus += 1;
    }
    // Even inside a lock file, a line with an error or a warning in it is shown.
    if (mustKeep(line)) {
      this.keep(line);
    }
  }

  /** The diff's summary line; `partly` when the read ends inside it and its rest is counted on. */
  private closeDiff(partly: boolean): void {
    const diff = this.diff as MachineMadeDiff;
    const counted = `+${diff.plus} -${diff.minus} lines`;
    const which = diff.partShown ? `${counted} more` : counted;
    this.keep(`[${diff.path}: ${diff.kind} diff summarised, ${which}${partly ? ' so far' : ''}; the full log has every line]`);
    if (!diff.partShown) {
      this.counts.machineMadeDiffs += 1;
      if (this.counts.machineMadeNamed.length < NAMED_DIFFS) {
        this.counts.machineMadeNamed.push(`${diff.path}: ${counted}`);
      }
    }
    if (partly) {
      diff.plus = 0;
      diff.minus = 0;
      diff.partShown = true;
    } else {
      this.diff = undefined;
    }
  }

  /** A passing test at `indent`: the headings held above it (indented less, or blank) go with it; any other held line is kept. */
  private dropHeadingsAbove(indent: number): void {
    for (const line of this.pending) {
      if (line.trim().length === 0 || indentOf(line) < indent) {
        this.counts.suiteHeadings += 1;
      } else {
        this.repeat(line);
      }
    }
    this.pending.length = 0;
  }

  private flushPending(): void {
    for (const line of this.pending) {
      this.repeat(line);
    }
    this.pending.length = 0;
  }

  private keep(line: string): void {
    this.flushPending();
    this.repeat(line);
  }

  /** Identical lines in a row: the first is kept, then one note with how many more came (two in a row are both kept). */
  private repeat(line: string): void {
    if (line === this.last) {
      this.repeats += 1;
      return;
    }
    this.endRepeat();
    this.last = line;
    this.emit(line);
  }

  private endRepeat(): void {
    const repeats = this.repeats;
    this.repeats = 0;
    if (repeats === 0) {
      return;
    }
    if (repeats === 1) {
      this.emit(this.last as string);
    } else if ((this.last as string).trim().length === 0) {
      // A run of blank lines becomes one, without a note.
      this.counts.repeatedLines += repeats;
    } else {
      this.counts.repeatedLines += repeats;
      this.emit(`[the line above repeated ${repeats} more times]`);
    }
  }
}
