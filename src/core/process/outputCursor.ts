// The output of a background command as the model reads it: what arrived since the last read, each
// stream cut head-and-tail to its budget (so a chatty server cannot grow memory), and the complete
// lines of that stretch kept apart for wait_for, which matches whole lines (ended by LF, CRLF or a
// lone CR) with escapes removed.
import type { KeptCommandOutput, TakenOutput } from '../ports/process';
import { stripAnsi } from './boundedOutput';
import { ReducedOutput } from './reducedOutput';

/** A line without a newline this long is matched as it is, so output without newlines cannot grow memory. */
export const MAX_LINE_CHARS = 64 * 1024;

type Stream = 'stdout' | 'stderr';

export class OutputCursor implements KeptCommandOutput {
  /** Each stream reduced, then cut to the budget (reducedOutput.ts); the lines for wait_for are the raw ones. */
  private readonly kept: Record<Stream, ReducedOutput>;
  private readonly partial: Record<Stream, string> = { stdout: '', stderr: '' };
  /** Complete lines not taken yet, newest last, at most `maxLineChars` characters in all. */
  private lines: string[] = [];
  /** Index of the first line still kept in `lines` (older ones were dropped for the budget). */
  private first = 0;
  private lineChars = 0;

  /** `hint`: the command line, which tells the reduction rules what ran. */
  constructor(private readonly headChars: number, private readonly tailChars: number, hint = '') {
    this.kept = { stdout: new ReducedOutput(headChars, tailChars, hint), stderr: new ReducedOutput(headChars, tailChars, hint) };
  }

  /** Adds a chunk of one stream; returns the lines it completed (escapes removed, no line end). */
  append(chunk: string, stream: Stream): string[] {
    this.kept[stream].append(chunk);
    // A lone CR ends a line too: progress bars redraw with it, and what follows is what a terminal shows.
    const pieces = (this.partial[stream] + chunk).split(/\r\n|\r|\n/);
    let rest = pieces.pop() ?? '';
    const complete = pieces;
    while (rest.length >= MAX_LINE_CHARS) {
      complete.push(rest.slice(0, MAX_LINE_CHARS));
      rest = rest.slice(MAX_LINE_CHARS);
    }
    this.partial[stream] = rest;
    return this.remember(complete);
  }

  /** The process ended: its unfinished last lines count as lines. */
  end(): string[] {
    const last = (['stdout', 'stderr'] as const).map((stream) => this.partial[stream]).filter((text) => text.length > 0);
    this.partial.stdout = '';
    this.partial.stderr = '';
    return this.remember(last);
  }

  /** The output since the last take, each stream budgeted, and the cursor moved past it. */
  take(): TakenOutput {
    const taken = { stdout: this.kept.stdout.take(), stderr: this.kept.stderr.take() };
    this.lines = [];
    this.first = 0;
    this.lineChars = 0;
    return taken;
  }

  /** The complete lines not taken yet (the most recent ones, within the budget). */
  untakenLines(): readonly string[] {
    return this.lines.slice(this.first);
  }

  private remember(raw: readonly string[]): string[] {
    const lines = raw.map(stripAnsi);
    // Each line counts its end too: a flood of empty lines must use up the budget like any other.
    for (const line of lines) {
      this.lines.push(line);
      this.lineChars += line.length + 1;
    }
    const budget = this.headChars + this.tailChars;
    while (this.lineChars > budget && this.lines.length - this.first > 1) {
      this.lineChars -= this.lines[this.first].length + 1;
      this.first += 1;
    }
    if (this.first > 1024 && this.first * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.first);
      this.first = 0;
    }
    return lines;
  }
}
