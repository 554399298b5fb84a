// ripgrep's --json events, read into the files and lines a grep collector keeps.
import type { GrepCollector, GrepLine, GrepRequest } from '../../ports/search';

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
export class JsonEventParser {
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
      const skip = skipsFile(this.request, this.excluded, relative);
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

/** True when a file ripgrep reports is not a result: outside the grep's `include` glob, or hidden by files.exclude. */
export function skipsFile(request: GrepRequest, excluded: (relative: string) => boolean, relative: string): boolean {
  const filtered = request.scope.rootKind === 'directory' && request.include !== undefined && !request.include(relative);
  return filtered || excluded(relative);
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
