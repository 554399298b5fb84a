// A stream as a terminal shows it, one line at a time: a carriage return goes back to the start of
// the line and what follows overwrites it (a progress bar redrawn a hundred times is one line, its
// last state), `ESC[K` erases, backspace steps back, colours and other escapes are dropped. One
// exception to the terminal: a line that names an error or a warning (rules.ts `mustKeep`) is never
// overwritten, it is kept as its own line first. Memory is one line of at most MAX_LINE_CHARS.
import { mustKeep } from './rules';

/** A line without a line end this long is handed on as it is, so output without newlines cannot grow memory. */
export const MAX_LINE_CHARS = 64 * 1024;

/** The longest escape sequence kept across a chunk's end; a longer unterminated one is dropped. */
const MAX_ESCAPE_CHARS = 4096;

/** Everything that is not plain text: C0 controls, DEL and the C1 CSI. */
const SPECIAL = /[\u0000-\u001f\u007f\u009b]/g;

export class TerminalLines {
  private line = '';
  private column = 0;
  /** A CR was the last character: it ends the line (CRLF) or rewinds it, depending on what comes next. */
  private pendingReturn = false;
  /** The start of an escape sequence the chunk cut off. */
  private escape = '';
  /** How many times a line that had text was rewound or erased and drawn again. */
  redraws = 0;

  /** Adds a chunk; returns the lines it completed (without line ends). */
  write(chunk: string): string[] {
    const out: string[] = [];
    const text = this.escape + chunk;
    this.escape = '';
    let at = 0;
    while (at < text.length) {
      SPECIAL.lastIndex = at;
      const special = SPECIAL.exec(text);
      const end = special ? special.index : text.length;
      if (end > at) {
        this.rewindIfPending(out);
        this.put(text.slice(at, end), out);
        at = end;
        continue;
      }
      const code = text.charCodeAt(at);
      if (code === 0x0a) {
        this.pendingReturn = false;
        this.endLine(out);
        at += 1;
      } else if (code === 0x0d) {
        this.pendingReturn = true;
        at += 1;
        while (text.charCodeAt(at) === 0x0d) {
          at += 1;
        }
      } else if (code === 0x1b || code === 0x9b) {
        const length = this.escapeAt(text, at, out);
        if (length === undefined) {
          this.escape = text.length - at <= MAX_ESCAPE_CHARS ? text.slice(at) : '';
          break;
        }
        at += length;
      } else {
        this.rewindIfPending(out);
        if (code === 0x08) {
          this.column = Math.max(0, this.column - 1);
        } else if (code === 0x09) {
          this.put('\t', out);
        }
        // Other controls (bell, NUL, ...) show nothing.
        at += 1;
      }
    }
    return out;
  }

  /** The unfinished line, as a line (or none when it is empty); the next text starts a new line. */
  flush(): string[] {
    const out: string[] = [];
    this.escape = '';
    this.pendingReturn = false;
    if (this.line.length > 0) {
      this.endLine(out);
    }
    this.column = 0;
    return out;
  }

  private endLine(out: string[]): void {
    out.push(this.line);
    this.line = '';
    this.column = 0;
  }

  private rewindIfPending(out: string[]): void {
    if (!this.pendingReturn) {
      return;
    }
    this.pendingReturn = false;
    this.rewind(out);
  }

  /** Back to the start of the line; a line with an error or a warning is kept before it can be overwritten. */
  private rewind(out: string[]): void {
    if (this.line.length > 0) {
      if (mustKeep(this.line)) {
        out.push(this.line);
        this.line = '';
      } else {
        this.redraws += 1;
      }
    }
    this.column = 0;
  }

  private put(text: string, out: string[]): void {
    const line = this.line;
    if (this.column === line.length) {
      this.line = line + text;
    } else if (this.column > line.length) {
      this.line = line + ' '.repeat(this.column - line.length) + text;
    } else {
      this.line = line.slice(0, this.column) + text + line.slice(this.column + text.length);
    }
    this.column += text.length;
    while (this.line.length > MAX_LINE_CHARS) {
      out.push(this.line.slice(0, MAX_LINE_CHARS));
      this.line = this.line.slice(MAX_LINE_CHARS);
      this.column = this.line.length;
    }
  }

  /** Applies the escape sequence at `at` and returns its length, or undefined when the text ends inside it. */
  private escapeAt(text: string, at: number, out: string[]): number | undefined {
    let start: number;
    if (text.charCodeAt(at) === 0x9b) {
      start = at + 1;
    } else {
      if (at + 1 >= text.length) {
        return undefined;
      }
      const kind = text[at + 1];
      if (kind === ']' || kind === 'P' || kind === '_' || kind === '^' || kind === 'X') {
        // A string (OSC title or hyperlink, DCS, APC, PM), ended by BEL or ESC \.
        for (let index = at + 2; index < text.length; index += 1) {
          const code = text.charCodeAt(index);
          if (code === 0x07) {
            return index + 1 - at;
          }
          if (code === 0x1b && index + 1 < text.length && text[index + 1] === '\\') {
            return index + 2 - at;
          }
        }
        return text.length - at > MAX_ESCAPE_CHARS ? text.length - at : undefined;
      }
      if (kind === '(' || kind === ')' || kind === '*' || kind === '+' || kind === '#' || kind === '%') {
        return at + 2 < text.length ? 3 : undefined;
      }
      if (kind !== '[') {
        return 2;
      }
      start = at + 2;
    }
    // CSI: parameters (0x30-0x3f), intermediates (0x20-0x2f), then the final byte (0x40-0x7e).
    let index = start;
    while (index < text.length && text.charCodeAt(index) >= 0x20 && text.charCodeAt(index) <= 0x3f) {
      index += 1;
    }
    if (index >= text.length) {
      return index - at > MAX_ESCAPE_CHARS ? index - at : undefined;
    }
    const final = text[index];
    if (text.charCodeAt(index) < 0x40 || text.charCodeAt(index) > 0x7e) {
      // Not a valid sequence: drop the introducer, show the rest as text.
      return start - at;
    }
    this.rewindIfPending(out);
    this.control(final, text.slice(start, index), out);
    return index + 1 - at;
  }

  /** The CSI sequences that change what the line shows; the rest (colours, cursor up, modes) change nothing here. */
  private control(final: string, parameters: string, out: string[]): void {
    const count = Number.parseInt(parameters, 10);
    switch (final) {
      case 'K':
        this.erase(Number.isNaN(count) ? 0 : count, out);
        break;
      case 'G':
        this.column = Math.max(0, (Number.isNaN(count) ? 1 : count) - 1);
        break;
      case 'C':
        this.column += Number.isNaN(count) || count === 0 ? 1 : count;
        break;
      case 'D':
        this.column = Math.max(0, this.column - (Number.isNaN(count) || count === 0 ? 1 : count));
        break;
      default:
        break;
    }
  }

  /** `ESC[K` (to the end), `ESC[1K` (from the start), `ESC[2K` (the whole line); a line with an error or a warning is kept first. */
  private erase(mode: number, out: string[]): void {
    const line = this.line;
    const after = mode === 1
      ? ' '.repeat(Math.min(this.column + 1, line.length)) + line.slice(this.column + 1)
      : mode === 2 ? '' : line.slice(0, this.column);
    if (after === line) {
      return;
    }
    if (mustKeep(line)) {
      out.push(line);
      this.line = '';
      return;
    }
    this.redraws += 1;
    this.line = after;
  }
}
