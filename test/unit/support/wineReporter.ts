// A mocha reporter for the unit tests under Windows' Node on wine (scripts/test-host/wine-unit.mjs):
// node.exe cannot write to a Unix pipe, so each result is appended to a file as one JSON line
// (--reporter-option output=<file>), and a last line holds the totals. A test skipped through
// support/platforms.ts carries its reason (skipReason on the test or a suite above it).
import * as fs from 'node:fs';
import * as Mocha from 'mocha';

type Runnable = { parent?: Runnable; skipReason?: string; file?: string };

function skipReason(runnable: Runnable): string | undefined {
  for (let node: Runnable | undefined = runnable; node; node = node.parent) {
    if (typeof node.skipReason === 'string') {
      return node.skipReason;
    }
  }
  return undefined;
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return error instanceof Error && error.cause !== undefined ? `${text}\ncause: ${describeError(error.cause)}` : text;
}

class WineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const output = (options.reporterOptions as { output?: string } | undefined)?.output;
    if (!output) {
      throw new Error('the wine reporter needs --reporter-option output=<file>');
    }
    fs.writeFileSync(output, '');
    const write = (record: object): void => fs.appendFileSync(output, `${JSON.stringify(record)}\n`);
    const file = (runnable: Runnable): string => (runnable.file ?? runnable.parent?.file ?? '').replace(/\\/g, '/').replace(/^.*?\/out\//, 'out/');
    const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;
    runner.on(EVENT_TEST_PASS, (test) => write({ state: 'passed', title: test.fullTitle(), file: file(test as Runnable), ms: test.duration }));
    runner.on(EVENT_TEST_FAIL, (test, error) => write({ state: 'failed', title: test.fullTitle(), file: file(test as Runnable), error: describeError(error).slice(0, 4000) }));
    runner.on(EVENT_TEST_PENDING, (test) => write({ state: 'skipped', title: test.fullTitle(), file: file(test as Runnable), reason: skipReason(test as Runnable) }));
    runner.once(EVENT_RUN_END, () => write({ state: 'end', stats: runner.stats }));
  }
}

export = WineReporter;
