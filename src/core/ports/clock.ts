// The clock port, so tests control time.

/** Wall-clock time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
