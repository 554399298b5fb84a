// ripgrep's `--count --null` lines (`path NUL count LF`), read into the files a grep collector keeps,
// for the modes that print no lines. Much less for ripgrep to write and for us to parse than
// --json, and with --line-buffered each file arrives as soon as it is counted, so a search that
// has found enough stops early.
import type { GrepCollector, GrepRequest } from '../../ports/search';
import { skipsFile } from './jsonEvents';

export class CountLineParser {
  found = 0;
  private rest = '';

  constructor(
    private readonly request: GrepRequest,
    private readonly collector: GrepCollector,
    private readonly toRelative: (printed: string) => string,
    private readonly excluded: (relative: string) => boolean,
  ) {}

  /**
   * Reads the complete lines of `text` (what came after the last call's rest). A path may hold a
   * line feed but never a NUL, so a record ends at the first line feed after its NUL.
   * Returns false once the collector has enough and the caller should stop ripgrep.
   */
  write(text: string, stopWhenEnough: boolean): boolean {
    const all = this.rest + text;
    let start = 0;
    for (;;) {
      const nul = all.indexOf('\0', start);
      const end = nul === -1 ? -1 : all.indexOf('\n', nul);
      if (end === -1) {
        break;
      }
      this.record(all.slice(start, nul), Number(all.slice(nul + 1, end)));
      start = end + 1;
      if (stopWhenEnough && this.collector.enough) {
        this.rest = '';
        return false;
      }
    }
    this.rest = all.slice(start);
    return true;
  }

  private record(printed: string, matchingLines: number): void {
    const relative = this.toRelative(printed);
    if (matchingLines > 0 && !skipsFile(this.request, this.excluded, relative)) {
      this.found += 1;
      this.collector.add({ path: relative, matchingLines, lines: [] });
    }
  }
}
