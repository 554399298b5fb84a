// "Waiting for input": a running command that has printed nothing for a few seconds and either
// shows a prompt as its last line (`[y/N]`, `Password:`, `>>> `, `--More--`...) or has a process
// blocked reading its standard input (the host's probe, /proc on Linux). A command's stdin is a
// pipe, not a terminal, so many programs print no prompt at all (`read -p`, `python3`, `cat`): the
// probe finds those. The probe also vetoes a prompt-like line when it can see that no process of
// the command reads its input (a log line ending in `[y/N]` before `sleep 600`).
import type { Clock, Timer } from '../ports/clock';
import type { InputReaders, InputTiming, InputWatcher, WaitingForInput } from '../ports/process';
import { stripAnsi } from './boundedOutput';

/** Quiet this long before a command counts as waiting. */
export const QUIET_MS = 3000;
/** How often a quiet command is looked at again (so the state is known within QUIET_MS + CHECK_MS). */
export const CHECK_MS = 1000;
/** The end of the output kept to find the last line. */
const TAIL_CHARS = 2048;
/** A prompt is shown at most this long. */
const MAX_PROMPT_CHARS = 200;

/** Prompts recognised wherever they end the output, with or without a line end after them. */
const PROMPT_PATTERNS: readonly RegExp[] = [
  /[[(]\s*(y\/n|yes\/no|y\/n\/q|y\/n\/a|yes\/no\/\[fingerprint\])\s*[\])]\s*[:?]?$/i,
  /\((y|n)\)\s*[:?]?$/i,
  /\b(password|passphrase|passcode|pin|token|otp)\b[^:\n]{0,80}:$/i,
  /^enter passphrase\b/i,
  /\bpress (any key|enter|return)\b/i,
  /\bok to proceed\?/i,
  /^(>>>|\.\.\.)$/,
  /^[\w.-]{1,20}(\([^)]{0,20}\))?(:\d+)*[>?]$/, // sqlite>, mysql>, irb(main):001:0>, node's >
  /^>$/,
  /^#\?$/, // bash's select menu (PS3)
  /--more--/i,
  /^\(end\)$/i,
  /^:$/, // less
];

/** A line that ends without a line end and asks something: "Name: ", "Proceed? ", "db> ", "package name: (app)". */
const UNFINISHED_QUESTION = /([:?>]|:\s*\([^()]{0,80}\))$/;
/** An inquirer-style question, shown above the choices of its menu. */
const MENU_QUESTION = /^\? \S/;
/** How many lines above the end a menu's question may be. */
const MENU_LINES = 12;

/**
 * The prompt the end of a command's output shows, or undefined. `tail` is the end of what it
 * printed, raw: escapes are removed and a line redrawn with CR counts as what a terminal shows last.
 * A prompt-like line counts wherever it is; an unfinished last line (no line end after it) also
 * counts when it ends with `:`, `?` or `>`, as prompts are printed without a line end.
 */
export function promptOf(tail: string): string | undefined {
  const text = stripAnsi(tail).replace(/\r\n/g, '\n');
  const unfinished = !text.endsWith('\n');
  const lines = text.split('\n');
  let last = unfinished ? lines[lines.length - 1] : '';
  if (!unfinished) {
    // The last line that shows something.
    for (let i = lines.length - 1; i >= 0 && last.trim() === ''; i -= 1) {
      last = lines[i];
    }
  }
  const shown = shownAfterRedraws(last).trim();
  if (shown === '') {
    return undefined;
  }
  if (PROMPT_PATTERNS.some((pattern) => pattern.test(shown)) || (unfinished && UNFINISHED_QUESTION.test(shown))) {
    return shortened(shown);
  }
  // A menu: its question, then a line per choice.
  const question = lines.slice(-MENU_LINES).map((line) => shownAfterRedraws(line).trim()).reverse().find((line) => MENU_QUESTION.test(line));
  return question === undefined ? undefined : shortened(question);
}

function shortened(line: string): string {
  return line.length > MAX_PROMPT_CHARS ? `…${line.slice(-MAX_PROMPT_CHARS)}` : line;
}

/** What a terminal shows of a line redrawn with carriage returns: the text after the last CR that has any. */
function shownAfterRedraws(line: string): string {
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i -= 1) {
    if (parts[i].trim() !== '') {
      return parts[i];
    }
  }
  return '';
}

/** The last line that shows something, for a command that reads its input without a prompt. */
function lastShownLine(tail: string): string | undefined {
  const lines = stripAnsi(tail).split(/\r?\n/).map(shownAfterRedraws).filter((line) => line.trim() !== '');
  const last = lines[lines.length - 1]?.trim();
  return last === undefined ? undefined : shortened(last);
}

/** The state of a command's input, from its output's end, how long it has been quiet, and the probe. */
export function waitingState(tail: string, quietMs: number, readers: InputReaders, since: number, neededQuietMs = QUIET_MS): WaitingForInput | undefined {
  if (quietMs < neededQuietMs || readers.state === 'closed') {
    return undefined;
  }
  const prompt = promptOf(tail);
  if (prompt !== undefined && readers.state !== 'none') {
    return { prompt, reader: readers.state === 'reading' ? readers.program : undefined, since };
  }
  if (readers.state === 'reading') {
    const last = lastShownLine(tail);
    return { prompt: last === undefined ? '(no prompt shown)' : `(no prompt shown; last line: ${last})`, reader: readers.program, since, silent: true };
  }
  return undefined;
}

/** Two states are the same for the people and models told about them. */
function sameState(a: WaitingForInput | undefined, b: WaitingForInput | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.prompt === b.prompt && a.reader === b.reader);
}

/**
 * Watches one running command: fed every chunk of its output, it looks again at a quiet command
 * every CHECK_MS (never while it prints) and tells its listener when the waiting state changes.
 * `stop` when the command has ended.
 */
export class InputWatch implements InputWatcher {
  private tail = '';
  private lastOutputAt: number;
  private state: WaitingForInput | undefined;
  private timer: Timer | undefined;
  private probe: (() => InputReaders) | undefined;
  private stopped = false;
  private readonly listeners = new Set<() => void>();

  private readonly quietMs: number;
  private readonly checkMs: number;

  /** `timing` shortens the waits for tests. */
  constructor(private readonly clock: Clock, timing: InputTiming = {}) {
    this.lastOutputAt = clock.now();
    this.quietMs = timing.quietMs ?? QUIET_MS;
    this.checkMs = timing.checkMs ?? CHECK_MS;
  }

  /** A chunk of output (either stream): the command is not waiting now. */
  heard(chunk: string): void {
    if (chunk.length === 0) {
      return;
    }
    this.tail = (this.tail + chunk).slice(-TAIL_CHARS);
    this.lastOutputAt = this.clock.now();
    this.change(undefined);
    this.schedule(this.quietMs);
  }

  /** Starts looking, with the host's probe of who reads the command's input. */
  watch(probe: () => InputReaders): void {
    this.probe = probe;
    this.schedule(Math.max(0, this.quietMs - (this.clock.now() - this.lastOutputAt)));
  }

  /** The command's input was written to: it is not waiting until it shows otherwise again. */
  answered(): void {
    this.lastOutputAt = this.clock.now();
    this.change(undefined);
    this.schedule(this.quietMs);
  }

  /** Whether the command waits for input now. */
  current(): WaitingForInput | undefined {
    return this.state;
  }

  /** Fires when `current()` changes. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The command ended: no more looks, and it waits for nothing. */
  stop(): void {
    this.stopped = true;
    this.timer?.dispose();
    this.timer = undefined;
    this.change(undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped || !this.probe) {
      return;
    }
    this.timer?.dispose();
    // A watch never keeps a process alive on its own.
    this.timer = this.clock.setTimeout(() => this.look(), ms, { unref: true });
  }

  private look(): void {
    this.timer = undefined;
    if (this.stopped || !this.probe) {
      return;
    }
    const now = this.clock.now();
    const quiet = now - this.lastOutputAt;
    if (quiet >= this.quietMs) {
      let readers: InputReaders;
      try {
        readers = this.probe();
      } catch {
        readers = { state: 'unknown' };
      }
      this.change(waitingState(this.tail, quiet, readers, this.state?.since ?? now, this.quietMs));
    }
    this.schedule(quiet >= this.quietMs ? this.checkMs : this.quietMs - quiet);
  }

  private change(next: WaitingForInput | undefined): void {
    if (sameState(this.state, next)) {
      return;
    }
    this.state = next;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure must not stop the others.
      }
    }
  }
}
