// What the person types in a command's own terminal, made into lines for its standard input (a
// pipe, so nothing on the other side echoes or edits): the terminal shows each key as it is typed
// (or `*` while the command waits on a password prompt), Backspace takes back the last character,
// Enter sends the line, Ctrl+D on an empty line ends the input. Escape sequences (arrows, function
// keys) and other control keys are dropped: a line editor of its own would be a terminal.

/** What a keystroke (or a paste) made: what the terminal shows, the lines sent, whether the input ended. */
export interface Edited {
  /** To show in the terminal (terminal newlines, `\b \b` to erase). */
  readonly echo: string;
  /** Each finished line with its `\n`, in order. */
  readonly lines: readonly string[];
  /** Ctrl+D on an empty line: close the command's input (after the lines). */
  readonly endOfInput: boolean;
}

/** An escape sequence a terminal sends for a key: CSI (`ESC [` ... final byte) or SS3 (`ESC O` x), or a lone Escape. */
const ESCAPE_SEQUENCE = /^\u001b(\[[0-?]*[ -/]*[@-~]|O.|.?)/su;

/** The line the person is typing into one command's terminal. */
export class LineEditor {
  private line: string[] = [];

  /** Feeds what the terminal received (one key or a paste); `hidden` shows `*` for each character. */
  feed(data: string, hidden = false): Edited {
    let echo = '';
    const lines: string[] = [];
    let endOfInput = false;
    for (let rest = data; rest.length > 0 && !endOfInput;) {
      if (rest.startsWith('\u001b')) {
        rest = rest.slice(ESCAPE_SEQUENCE.exec(rest)?.[0].length ?? 1);
        continue;
      }
      const char = String.fromCodePoint(rest.codePointAt(0) ?? 0);
      rest = rest.slice(char.length);
      if (char === '\r' || char === '\n') {
        // A terminal's Enter is CR; a paste may bring CRLF: one line end.
        if (char === '\r' && rest.startsWith('\n')) {
          rest = rest.slice(1);
        }
        lines.push(`${this.line.join('')}\n`);
        this.line = [];
        echo += '\r\n';
      } else if (char === '\u007f' || char === '\b') {
        if (this.line.length > 0) {
          this.line.pop();
          echo += '\b \b';
        }
      } else if (char === '\u0004') {
        if (this.line.length === 0) {
          endOfInput = true;
          echo += '^D\r\n';
        }
      } else if (char === '\t' || char >= ' ') {
        this.line.push(char);
        echo += hidden ? '*' : char;
      }
    }
    return { echo, lines, endOfInput };
  }

  /** What was typed and not sent yet. */
  get pending(): string {
    return this.line.join('');
  }

  /** Forgets the unfinished line (the command ended, or Ctrl+C). */
  clear(): void {
    this.line = [];
  }
}
