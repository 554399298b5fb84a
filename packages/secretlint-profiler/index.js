// @ts-check
// Stands in for @secretlint/profiler wherever secretlint is loaded: the extension's bundle, the
// code the tests and the benches run from out/, and vsce (package.json's overrides point every
// dependent at this folder). The real module starts, when loaded, a PerformanceObserver of every
// mark in the process (the extension host's: VS Code's and every extension's too) and keeps each
// one, and each measure it derives, in arrays that are never emptied; every end mark then searches
// that array, and Node's own timeline buffer keeps the marks as well. Secretlint marks some hundred
// times per scan, so in a long-lived extension host each tool call got slower and the heap grew
// without bound (`npm run bench -- host` measured 30 ms per call spent in that search after about
// 2,000 calls), and the observer's work ran between calls, where a socket's answer waited for it.
// Secretlint only marks; reading the entries is for its command line's --profile, which we never run.
'use strict';

/** The profiler secretlint marks its phases with: here, marks go nowhere. */
exports.secretLintProfiler = {
  /** @param {{ type: string; id?: string }} _marker */
  mark(_marker) {
    // Nothing is recorded: see the comment at the top.
  },
  /** @returns {Promise<never[]>} */
  async getEntries() {
    return [];
  },
  /** @returns {Promise<never[]>} */
  async getMeasures() {
    return [];
  },
};
