// The clock port, so tests control time: the time now, and timers (core sets none of its own).

/** A timer set on the clock; `dispose` cancels it (and does nothing once it ran). */
export interface Timer {
  dispose(): void;
}

/** Wall-clock time and timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Runs `run` once, `ms` from now. With `unref`, the timer alone does not keep the process alive
   * (Node's unref). `ms` must be at most setTimeout's longest delay, 2^31 - 1.
   */
  setTimeout(run: () => void, ms: number, options?: { readonly unref?: boolean }): Timer;
}
