// The system's clock: Date.now and the global timers behind the Clock port. Core's code takes a
// Clock (ctx.host.clock, or a constructor argument) and never calls the globals itself, so unit
// tests run it on a fake clock (test/unit/support/fakeTime.ts).
import type { Clock } from './ports/clock';

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms, options) => {
    const timer = setTimeout(run, ms);
    if (options?.unref) {
      (timer as { unref?: () => void }).unref?.();
    }
    return { dispose: () => clearTimeout(timer) };
  },
};
