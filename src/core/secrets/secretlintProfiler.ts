// Stands in for @secretlint/profiler in the extension's bundle (esbuild.mjs aliases the package to
// this file). The real module starts, when loaded, a PerformanceObserver of every mark in the
// process (the extension host's: VS Code's and every extension's too) and keeps each one, and each
// measure it derives, in arrays that are never emptied; every end mark then searches that array,
// and Node's own timeline buffer keeps the marks as well. Secretlint marks some hundred times per
// scan, so in a long-lived extension host each tool call got slower and the heap grew without
// bound (`npm run bench -- host` measured 30 ms per call spent in that search after about 2,000 calls).
// Secretlint only marks; reading the entries is for its command line's --profile, which we never run.

/** The profiler secretlint's core marks its phases with: here, marks go nowhere. */
export const secretLintProfiler = {
  mark(_marker: { type: string; id?: string }): void {
    // Nothing is recorded: see the comment at the top.
  },
  async getEntries(): Promise<never[]> {
    return [];
  },
  async getMeasures(): Promise<never[]> {
    return [];
  },
};
