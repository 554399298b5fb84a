// The text the policy puts into the line that runs (git's safety options, gitSafety.ts): recorded
// during the walk by the position of each group's first insertion, applied once at the end.
import type { Judgement } from '../../decisions';
import type { TextInsertion } from './judgement';

export class LineRewrite {
  private readonly insertions = new Map<number, { key: string; edits: readonly TextInsertion[] }>();

  get empty(): boolean {
    return this.insertions.size === 0;
  }

  /**
   * Records a group of insertions; a judgement when they cannot be placed with certainty: inside
   * backticks that are read again (`insideBackticks`), or a loop giving git different arguments.
   */
  record(edits: readonly TextInsertion[], insideBackticks: boolean): Judgement | undefined {
    if (edits.length === 0) {
      return undefined;
    }
    if (insideBackticks) {
      return { decision: 'ask', reason: 'git inside backticks with backslashes cannot be given its safety options with certainty' };
    }
    const key = JSON.stringify(edits);
    const anchor = edits[0].at;
    const previous = this.insertions.get(anchor);
    if (previous && previous.key !== key) {
      return { decision: 'ask', reason: 'git gets different arguments in different rounds of the loop, so its safety options cannot be placed once for all' };
    }
    this.insertions.set(anchor, { key, edits });
    return undefined;
  }

  /** The source with every recorded insertion, each group in its own order where positions meet. */
  apply(source: string): string {
    const edits = [...this.insertions.values()].flatMap((group) => group.edits).map((edit, order) => ({ ...edit, order }));
    edits.sort((a, b) => a.at - b.at || a.order - b.order);
    let out = '';
    let from = 0;
    for (const edit of edits) {
      out += source.slice(from, edit.at) + edit.text;
      from = edit.at;
    }
    return out + source.slice(from);
  }
}
