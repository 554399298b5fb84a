// The Clock's test double: time stands still until the test moves it, and a timer runs when the
// test's advance reaches its time. Core takes every timer from a Clock (src/core/ports/clock.ts),
// so a test of a wait, a timeout or an input watch passes `new ManualClock()` where the extension
// passes systemClock, and advances it instead of sleeping: the test takes milliseconds and does not
// depend on the machine's load.
import type { Clock, Timer } from '../../../src/core/ports/clock';

interface Pending {
  readonly at: number;
  readonly order: number;
  readonly run: () => void;
}

/** Lets every promise callback that is ready run (one macrotask turn: the microtask queue drains first). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class ManualClock implements Clock {
  private readonly timers = new Set<Pending>();
  private order = 0;

  /** The time now, ms since the epoch; a test may set it, which runs no timer. */
  constructor(public time = Date.UTC(2026, 0, 2, 3, 4, 5)) {}

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): Timer {
    const timer: Pending = { at: this.time + Math.max(0, ms), order: this.order++, run };
    this.timers.add(timer);
    return { dispose: () => this.timers.delete(timer) };
  }

  /** How many timers are set and have neither run nor been disposed. */
  pending(): number {
    return this.timers.size;
  }

  /** When the next timer runs, or undefined when none is set. */
  nextAt(): number | undefined {
    const next = this.next(Number.POSITIVE_INFINITY);
    return next?.at;
  }

  /**
   * Moves the time on by `ms`. Each timer due on the way runs at its own time, in the order of
   * time and then of setting; after each, the promises it resolved settle before the next runs,
   * and so do timers they set that fall within the span.
   */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    await settle();
    for (let timer = this.next(until); timer; timer = this.next(until)) {
      this.timers.delete(timer);
      this.time = Math.max(this.time, timer.at);
      timer.run();
      await settle();
    }
    this.time = until;
    await settle();
  }

  /** Moves the time to the next timer and runs it (and any due with it); fails when none is set. */
  async runNext(): Promise<void> {
    const at = this.nextAt();
    if (at === undefined) {
      throw new Error('ManualClock.runNext: no timer is set');
    }
    await this.advance(Math.max(0, at - this.time));
  }

  private next(until: number): Pending | undefined {
    let best: Pending | undefined;
    for (const timer of this.timers) {
      if (timer.at <= until && (!best || timer.at < best.at || (timer.at === best.at && timer.order < best.order))) {
        best = timer;
      }
    }
    return best;
  }
}
