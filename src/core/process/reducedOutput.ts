// One stream of a command's output as the model reads it: reduced by the rules of
// output/reduction (passing tests, progress lines, lock-file diffs, repeats, redraws) and then cut
// head-and-tail to the budget, so the budget is spent on what matters. Output that fits the budget
// whole is not reduced, only shown as a terminal shows it (redraws resolved, escapes removed).
// Memory: two bounded buffers and the reducer's one line; the log on disk keeps every line.
import { describeReduction, noReductions } from '../output/reduction/lineReducer';
import { OutputReducer } from '../output/reduction/outputReducer';
import type { KeptOutput } from '../ports/process';
import { BoundedOutput } from './boundedOutput';

export class ReducedOutput {
  private plain: BoundedOutput;
  private reduced: BoundedOutput;
  private total = 0;
  private readonly reducer: OutputReducer;

  /** `hint`: the command line, which tells the rules what ran. */
  constructor(private readonly headChars: number, private readonly tailChars: number, hint = '') {
    this.plain = new BoundedOutput(headChars, tailChars);
    this.reduced = new BoundedOutput(headChars, tailChars);
    this.reducer = new OutputReducer((line) => this.plainLines.push(line), (line) => this.keptLines.push(line), hint);
  }

  /** Lines of the current chunk, handed to the bounded buffers in one piece (a buffer's append copies its tail). */
  private readonly plainLines: string[] = [];
  private readonly keptLines: string[] = [];

  append(chunk: string): void {
    this.total += chunk.length;
    this.reducer.write(chunk);
    this.drain();
  }

  private drain(): void {
    for (const [lines, into] of [[this.plainLines, this.plain], [this.keptLines, this.reduced]] as const) {
      if (lines.length > 0) {
        into.append(`${lines.join('\n')}\n`);
        lines.length = 0;
      }
    }
  }

  /** What was kept since the last take (the unfinished line included), and a fresh start for what follows. */
  take(): KeptOutput {
    this.reducer.flush();
    this.drain();
    const counts = this.reducer.takeCounts();
    const plain = this.plain.result();
    const reduced = this.reduced.result();
    const total = this.total;
    this.plain = new BoundedOutput(this.headChars, this.tailChars);
    this.reduced = new BoundedOutput(this.headChars, this.tailChars);
    this.total = 0;
    if (plain.omittedChars === 0) {
      const summary = describeReduction({ ...noReductions(), redraws: counts.redraws });
      return { text: plain.text, totalChars: total, omittedChars: 0, ...(summary ? { reduction: { summary, keptChars: plain.totalChars } } : {}) };
    }
    const summary = describeReduction(counts);
    return { text: reduced.text, totalChars: total, omittedChars: reduced.omittedChars, ...(summary ? { reduction: { summary, keptChars: reduced.totalChars } } : {}) };
  }
}
