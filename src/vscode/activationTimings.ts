// Where the extension's start spends its time: each step of activate() (which VS Code waits for
// before any tool can be called) and each piece of work deferred until after it returned. Read by
// `npm run bench -- activation` through an unlisted command, in the real extension host.
import { performance } from 'node:perf_hooks';

export interface TimedStep {
  readonly step: string;
  readonly ms: number;
}

export interface ActivationReport {
  /** From the first line of dist/extension.js to the end of its modules' evaluation, before activate() (undefined outside the bundle). */
  readonly bundleLoadMs: number | undefined;
  /** activate() from its first line to its return. */
  readonly activateMs: number | undefined;
  /** activate()'s steps in order; their sum is activateMs. */
  readonly steps: readonly TimedStep[];
  /** Work started after activate() returned, each with its own duration, in the order it ended. */
  readonly deferred: readonly TimedStep[];
}

/** Set by the bundle's first line (esbuild.mjs's banner); absent when the sources run unbundled. */
declare const __watBundleLoadStart: number | undefined;

/** When the bundle began to load, if it says. */
export function bundleLoadStart(): number | undefined {
  return typeof __watBundleLoadStart === 'number' ? __watBundleLoadStart : undefined;
}

export class ActivationTimings {
  private readonly started = performance.now();
  private last = this.started;
  private activateMs: number | undefined;
  private readonly steps: TimedStep[] = [];
  private readonly deferred: TimedStep[] = [];

  /** `loaded`: when the extension's modules had been evaluated (the start of the bundle is known from its banner). */
  constructor(private readonly loaded?: number) {}

  /** Ends the step that ran since the previous mark (or since activate began). */
  mark(step: string): void {
    const now = performance.now();
    this.steps.push({ step, ms: now - this.last });
    this.last = now;
  }

  /** activate() is about to return. */
  activated(): void {
    this.activateMs = performance.now() - this.started;
  }

  /** Runs deferred work and records how long it took, failed or not. */
  async deferredStep<T>(step: string, work: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.deferred.push({ step, ms: performance.now() - start });
    }
  }

  report(): ActivationReport {
    const start = bundleLoadStart();
    return { bundleLoadMs: start === undefined || this.loaded === undefined ? undefined : this.loaded - start, activateMs: this.activateMs, steps: [...this.steps], deferred: [...this.deferred] };
  }
}
