// One stream's reduction from chunks to lines: the terminal's view of the chunks (terminalLines.ts),
// then the rules (lineReducer.ts). Each resolved line goes to `onLine` as well, for whoever wants
// the stream unreduced but readable; each kept line goes to `onKept`.
import { LineReducer, type ReductionCounts } from './lineReducer';
import { TerminalLines } from './terminalLines';

export class OutputReducer {
  private readonly terminal = new TerminalLines();
  private readonly reducer: LineReducer;
  private redrawsTaken = 0;

  constructor(private readonly onLine: (line: string) => void, onKept: (line: string) => void, hint = '') {
    this.reducer = new LineReducer(onKept, hint);
  }

  write(chunk: string): void {
    for (const line of this.terminal.write(chunk)) {
      this.onLine(line);
      this.reducer.push(line);
    }
  }

  /** Hands on the unfinished line and everything the rules hold back: the output is read now. */
  flush(): void {
    for (const line of this.terminal.flush()) {
      this.onLine(line);
      this.reducer.push(line);
    }
    this.reducer.flush();
  }

  /** What the rules left out since the last call. */
  takeCounts(): ReductionCounts {
    const counts = this.reducer.takeCounts();
    counts.redraws = this.terminal.redraws - this.redrawsTaken;
    this.redrawsTaken = this.terminal.redraws;
    return counts;
  }
}

/** A whole output at once (tests, the benchmark): the reduced text and what was left out. */
export function reduceText(text: string, hint = ''): { readonly text: string; readonly counts: ReductionCounts } {
  const kept: string[] = [];
  const reducer = new OutputReducer(() => undefined, (line) => kept.push(line), hint);
  reducer.write(text);
  reducer.flush();
  return { text: kept.map((line) => `${line}\n`).join(''), counts: reducer.takeCounts() };
}
