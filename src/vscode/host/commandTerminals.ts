import * as vscode from 'vscode';
import { oneLine } from '../../core/text/truncate';
import { errorMessage } from '../../core/errors';
import type { BackgroundCommands, CommandHost, CommandTerminal, ProcessRunner, SandboxHost, TerminalInputTarget } from '../../core/ports/process';
import { LineEditor } from '../../core/process/lineEditor';
import type { CommandShell } from '../../core/process/shellChoice';

/** Output is handed to the terminal at most this often, so `yes` cannot flood the renderer. */
const FLUSH_MS = 30;
/** The most characters one flush shows; the rest of a burst is summarised (the log has it all). */
const MAX_FLUSH_CHARS = 64 * 1024;
/** What the transcript keeps of a terminal for the test command. */
const MAX_TRANSCRIPT_CHARS = 256 * 1024;

const BOLD = '\u001b[1m';
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';

/** `\n` to `\r\n`, as a terminal needs, without doubling existing `\r\n`. */
export function toTerminalNewlines(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** A terminal's name: the command on one line, every run of whitespace one space. */
function terminalName(commandLine: string): string {
  return oneLine(commandLine.replace(/\s+/g, ' '), 40);
}

/**
 * One terminal the user watches: a Pseudoterminal that shows the command, its live output and the
 * closing status, and turns Ctrl+C (or closing the terminal) into a stop request. Once the command
 * runs in the background, lines typed here (echoed, Backspace edits, Enter sends) go to its input.
 */
class WatchedTerminal implements CommandTerminal {
  readonly terminal: vscode.Terminal;
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly nameEmitter = new vscode.EventEmitter<string>();
  private readonly interrupts = new Set<() => void>();
  private readonly editor = new LineEditor();
  private inputTarget: TerminalInputTarget | undefined;
  private opened = false;
  private beforeOpen: string[] = [];
  private pending = '';
  private dropped = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  running = false;
  closed = false;
  transcript = '';

  constructor(commandLine: string, private readonly onClosed: (terminal: WatchedTerminal) => void) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writeEmitter.event,
      onDidChangeName: this.nameEmitter.event,
      open: () => {
        this.opened = true;
        for (const text of this.beforeOpen) {
          this.writeEmitter.fire(text);
        }
        this.beforeOpen = [];
      },
      close: () => {
        this.closed = true;
        this.interrupt();
        this.onClosed(this);
      },
      handleInput: (data) => {
        if (data.includes('\u0003')) {
          this.show(`${DIM}^C${RESET}\r\n`);
          this.editor.clear();
          this.interrupt();
        } else {
          this.typed(data);
        }
      },
    };
    this.terminal = vscode.window.createTerminal({ name: terminalName(commandLine), pty, iconPath: new vscode.ThemeIcon('terminal') });
  }

  /** Starts showing one command (the terminal is reused for the next one of the same agent step). */
  begin(commandLine: string, cwd: string): void {
    this.running = true;
    this.nameEmitter.fire(terminalName(commandLine));
    this.show(`${BOLD}$ ${toTerminalNewlines(commandLine)}${RESET}\r\n${DIM}in ${cwd}; Ctrl+C stops it; in the background, a line typed here goes to its input${RESET}\r\n`);
  }

  write(text: string): void {
    if (this.pending.length + text.length > MAX_FLUSH_CHARS) {
      const room = Math.max(0, MAX_FLUSH_CHARS - this.pending.length);
      this.pending += text.slice(0, room);
      this.dropped += text.length - room;
    } else {
      this.pending += text;
    }
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  note(text: string): void {
    this.flush();
    this.show(`\r\n${DIM}${toTerminalNewlines(text)}${RESET}\r\n`);
  }

  finish(summary: string): void {
    this.flush();
    this.running = false;
    this.show(`\r\n${BOLD}${summary}${RESET}\r\n\r\n`);
  }

  onInterrupt(listener: () => void): { dispose(): void } {
    this.interrupts.add(listener);
    return { dispose: () => this.interrupts.delete(listener) };
  }

  acceptInput(target: TerminalInputTarget): { dispose(): void } {
    this.inputTarget = target;
    this.editor.clear();
    return {
      dispose: () => {
        if (this.inputTarget === target) {
          this.inputTarget = undefined;
          this.editor.clear();
        }
      },
    };
  }

  /** Keys the user typed: echoed and made into lines for the command's input, when it takes input. */
  private typed(data: string): void {
    const target = this.inputTarget;
    if (!target) {
      return;
    }
    const edited = this.editor.feed(data, target.hidden());
    this.flush();
    if (edited.echo) {
      this.show(edited.echo);
    }
    try {
      for (const line of edited.lines) {
        target.send(line);
      }
      if (edited.endOfInput) {
        target.send('', 'ctrl-d');
      }
    } catch (error) {
      this.editor.clear();
      this.show(`${DIM}${toTerminalNewlines(errorMessage(error))}${RESET}\r\n`);
    }
  }

  private interrupt(): void {
    for (const listener of [...this.interrupts]) {
      listener();
    }
  }

  private flush(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    let text = this.pending;
    if (this.dropped > 0) {
      text += `\n[${this.dropped} characters of fast output not shown here; the full log has them]\n`;
    }
    this.pending = '';
    this.dropped = 0;
    if (text) {
      this.show(toTerminalNewlines(text));
    }
  }

  private show(text: string): void {
    this.transcript = (this.transcript + text).slice(-MAX_TRANSCRIPT_CHARS);
    if (this.opened) {
      this.writeEmitter.fire(text);
    } else {
      this.beforeOpen.push(text);
    }
  }

  dispose(): void {
    this.flush();
    this.writeEmitter.dispose();
    this.nameEmitter.dispose();
  }
}

/**
 * The terminals of workspace_run_command. A terminal is reused while its last command has finished
 * and the user has not closed it, so the commands of one agent step read as one session; a
 * command that starts while another runs gets its own terminal.
 */
export class CommandTerminals implements vscode.Disposable {
  private readonly terminals: WatchedTerminal[] = [];
  private last: WatchedTerminal | undefined;

  open(commandLine: string, cwd: string, background = false): CommandTerminal {
    // A background command keeps its terminal for as long as it runs, so it never shares one.
    let terminal = background ? undefined : this.terminals.find((candidate) => !candidate.running && !candidate.closed && candidate === this.last);
    if (!terminal) {
      terminal = new WatchedTerminal(commandLine, (closed) => this.forget(closed));
      this.terminals.push(terminal);
    }
    this.last = terminal;
    terminal.begin(commandLine, cwd);
    terminal.terminal.show(true);
    return terminal;
  }

  /** What the most recent terminal showed, escapes included: for tests and diagnostics. */
  lastTranscript(): { name: string; text: string } | undefined {
    return this.last ? { name: this.last.terminal.name, text: this.last.transcript } : undefined;
  }

  private forget(terminal: WatchedTerminal): void {
    const index = this.terminals.indexOf(terminal);
    if (index !== -1) {
      this.terminals.splice(index, 1);
    }
  }

  dispose(): void {
    for (const terminal of this.terminals) {
      terminal.dispose();
      terminal.terminal.dispose();
    }
    this.terminals.length = 0;
  }
}

/** The CommandHost of a local-disk workspace: the shell, the log folder, these terminals, the runner, the sandbox and the background registry. */
export function commandHostFor(terminals: CommandTerminals, shell: CommandShell, logDirectory: string, processes: ProcessRunner, sandbox: SandboxHost, background: BackgroundCommands): CommandHost {
  return {
    shell: shell.program,
    shellKind: shell.kind,
    logDirectory,
    pid: process.pid,
    environment: () => process.env,
    openTerminal: (commandLine, cwd, inBackground) => terminals.open(commandLine, cwd, inBackground),
    processes,
    sandbox,
    background,
  };
}
