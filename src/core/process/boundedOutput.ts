// Keeps the beginning and the end of a stream whatever its length, so `yes` cannot grow memory:
// the head fills once, the tail is a window over the most recent characters.
import type { KeptOutput } from '../ports/process';

/** ANSI escape sequences (CSI, OSC, and two-character escapes), which mean nothing to a model. */
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}

export class BoundedOutput {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly headChars: number, private readonly tailChars: number) {}

  append(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk.length === 0) {
      return;
    }
    this.tail = chunk.length >= this.tailChars ? chunk.slice(chunk.length - this.tailChars) : (this.tail + chunk).slice(-this.tailChars);
  }

  /** The kept text with ANSI escapes removed and a marker where the middle was cut. */
  result(): KeptOutput {
    const omitted = this.total - this.head.length - this.tail.length;
    const text = omitted > 0
      ? `${stripAnsi(this.head)}\n[... ${omitted} characters omitted ...]\n${stripAnsi(this.tail)}`
      : stripAnsi(this.head + this.tail);
    return { text, totalChars: this.total, omittedChars: Math.max(0, omitted) };
  }
}
