// @ts-check
// What a run must undo (the browser, each code-server, temp folders), undone on every way out: the
// normal end, an error, and SIGINT, SIGTERM or SIGHUP.

/** @typedef {() => Promise<unknown>} Cleanup */

export class CleanupRegistry {
  /** @type {Set<Cleanup>} */
  #cleanups = new Set();
  #interrupted = false;
  /** @type {Promise<void> | undefined} the signal handler's cleanup; it exits the process when done */
  #interruptCleanup;
  #debug;

  /** @param {{ debug?: boolean }} options debug: print how long each cleanup took */
  constructor({ debug = false } = {}) {
    this.#debug = debug;
  }

  /** True once a signal arrived: the run stops after the current step and exits with status 130. */
  get interrupted() {
    return this.#interrupted;
  }

  /** @param {Cleanup} cleanup */
  add(cleanup) {
    this.#cleanups.add(cleanup);
  }

  /**
   * Runs one registered cleanup now, ahead of the others, and forgets it. Its error is the caller's.
   * @param {Cleanup} cleanup
   */
  async runNow(cleanup) {
    this.#cleanups.delete(cleanup);
    await cleanup();
  }

  /** Runs every cleanup still registered, the last added first; a failing one does not stop the rest. */
  async #runAll() {
    const list = [...this.#cleanups].reverse();
    this.#cleanups.clear();
    for (const cleanup of list) {
      const startedAt = Date.now();
      await cleanup().catch(() => {});
      if (this.#debug) console.error(`cleanup ${cleanup.name || '?'} ${Date.now() - startedAt} ms`);
    }
  }

  /** The last step of a run. After a signal it waits for the signal handler's cleanup, which exits the process. */
  async finish() {
    if (this.#interrupted) await this.#interruptCleanup;
    await this.#runAll();
  }

  /** On SIGINT, SIGTERM or SIGHUP: cleans up (for at most 8 s) and exits with 130; a second signal exits at once. */
  exitOnSignals() {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.on(signal, () => {
        if (this.#interrupted) process.exit(130); // second Ctrl+C: the 'exit' hooks kill what is left
        this.#interrupted = true;
        console.error(`\nrun-integration: ${signal}, stopping code-server and chromium ...`);
        const deadline = setTimeout(() => process.exit(130), 8000);
        this.#interruptCleanup = this.#runAll().finally(() => {
          clearTimeout(deadline);
          process.exit(130);
        });
      });
    }
  }
}
