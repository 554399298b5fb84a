import * as assert from 'node:assert/strict';
import { describeReduction, LineReducer, noReductions, type ReductionCounts } from '../../../../../src/core/output/reduction/lineReducer';
import { reduceText } from '../../../../../src/core/output/reduction/outputReducer';
import { MAX_RULE_LINE } from '../../../../../src/core/output/reduction/rules';

/** The lines kept of `lines` (pushed one by one, then flushed) and what each rule counted. */
function reduce(lines: readonly string[], hint = ''): { kept: string[]; counts: ReductionCounts } {
  const kept: string[] = [];
  const reducer = new LineReducer((line) => kept.push(line), hint);
  lines.forEach((line) => reducer.push(line));
  reducer.flush();
  return { kept, counts: reducer.takeCounts() };
}

describe('output/reduction/lineReducer', () => {
  describe('passing test lines', () => {
    const runners: Record<string, string[]> = {
      mocha: ['      ✔ keeps order of items', '      ✓ trims (5ms)', '  ․․․․․․․․'],
      jest: ['PASS test/suite.test.js', ' PASS  src/a.test.ts (5.2 s)', '      ✓ adds (2 ms)', '      √ adds on Windows'],
      vitest: [' ✓ test/suite.vi.test.mjs > parser > basics > handles empty input 1ms', ' ✓ test/a.test.ts (3 tests) 12ms'],
      pytest: ['pass/test_cache.py::test_cache_case_0 PASSED                           [  0%]', 'pass/test_cache.py ..................................................... [  7%]', '.......s                                                                 [  8%]', 'PASSED tests/test_a.py::test_x'],
      'go test': ['=== RUN   TestParserCase0', '=== PAUSE TestParserCase0', '=== CONT  TestParserCase0', '--- PASS: TestParserCase0 (0.00s)', '    --- PASS: TestParserCase0/sub (0.00s)'],
      'cargo test': ['test tests::case_0 ... ok', 'test crates/part_07/src/lib.rs - size (line 3) ... ok'],
      TAP: ['ok 1 - adds', '    ok 12 - nested subtest'],
    };
    for (const [runner, lines] of Object.entries(runners)) {
      it(`drops ${runner}'s and counts them`, () => {
        const { kept, counts } = reduce(lines);
        assert.deepEqual(kept, []);
        assert.equal(counts.passingTests, lines.length);
      });
    }

    it('drops the suite headings above passing tests, and keeps the ones above a failure', () => {
      const { kept, counts } = reduce(['', '  parser', '    basics', '      ✔ handles empty input', '      ✔ keeps order', '', '  lexer', '    basics', '      1) trims trailing spaces', '      ✔ skips comments']);
      assert.deepEqual(kept, ['', '  lexer', '    basics', '      1) trims trailing spaces']);
      assert.deepEqual([counts.passingTests, counts.suiteHeadings], [3, 3]);
    });

    it('keeps a held line indented as deep as the test line after it (a test\'s own output, not a heading)', () => {
      assert.deepEqual(reduce(['    connecting to the database', '    ✔ connects']).kept, ['    connecting to the database']);
    });

    it('keeps every failure, and the summary lines of each runner', () => {
      const lines = [
        '      ✕ trims trailing spaces (1 ms)', ' × test/a.test.ts > parser > trims 89ms', 'FAIL test/suite2.test.js', '      1) trims trailing spaces',
        'broken/test_formatter.py .......F....................................... [ 39%]', 'broken/test_queue.py::test_queue_case_41 FAILED        [ 73%]', 'broken/test_x.py ....E.... [ 80%]',
        '--- FAIL: TestCacheCase3 (0.00s)', 'test tests::case_4 ... FAILED', 'not ok 3 - adds', "thread 'tests::unwraps' (8043) panicked at crates/part_12/src/lib.rs:53:48:",
        '  1798 passing (225ms)', '  2 pending', 'Tests:       2 failed, 1798 passed, 1800 total', 'Test Suites: 1 passed, 1 total', ' Test Files  1 passed (1)', '      Tests  1800 passed (1800)',
        'test result: ok. 20 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s', '================== 2 failed, 718 passed, 12 skipped in 1.69s ===================',
        'ok  \texample.com/rec/core\t0.024s', 'PASS', 'FAIL', 'running 20 tests', '     Running unittests src/lib.rs (target/debug/deps/part_00-08a7)',
      ];
      assert.deepEqual(reduce(lines).kept, lines);
    });
  });

  describe('look-alikes are kept', () => {
    it('keeps a line that merely contains ok, PASS or ✓ somewhere else', () => {
      const lines = [
        "AssertionError: expected 'ok' to equal 'done'", 'Expected: "✓ saved"', '  Received: "✔ passed"', 'ok so far, moving on', 'looks ok', 'PASSWORD: not shown',
        'test that the parser is ok', '  passes the test   ', 'PASS_THROUGH=1', 'test result is ok', 'Collecting garbage every 5 s...',
      ];
      assert.deepEqual(reduce(lines).kept, lines);
    });

    it('keeps a passing test whose name says error, warning or fail', () => {
      const lines = ['      ✓ reports an error for a missing key (1 ms)', '--- PASS: TestWarnsOnDuplicate (0.00s)', 'test tests::fails_cleanly ... ok', 'tests/test_a.py::test_raises_exception PASSED [ 5%]'];
      assert.deepEqual(reduce(lines).kept, lines);
    });

    it('keeps stack frames of every language, even where they look like progress or tests', () => {
      const lines = ['    at Context.<anonymous> (test/suite2.spec.js:46:48)', '  File "/x/y.py", line 3, in <module>', '\t/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b', '   1: core::panicking::panic_fmt', 'goroutine 286 [running]:'];
      assert.deepEqual(reduce(lines).kept, lines);
    });
  });

  describe('progress and download lines', () => {
    const managers: Record<string, string[]> = {
      npm: ['npm http fetch GET 200 https://registry.npmjs.org/jest 143ms (cache updated)', 'npm timing idealTree Completed in 1200ms', '⠧ reify:fsevents: timing reifyNode'],
      pnpm: ['Progress: resolved 266, reused 0, downloaded 247, added 0', '++++++++++++++++++++++++++++++++++++++++++'],
      yarn: ['[2/4] Fetching packages...', '➤ YN0013: │ typescript@npm:5.4.5 can\'t be found in the cache and will be fetched from the remote registry'],
      pip: ['Collecting requests==2.32.3', '  Downloading requests-2.32.3-py3-none-any.whl (64 kB)', 'Processing /opt/pypi/files/idna-3.20-py3-none-any.whl (from requests)', '  Using cached urllib3-2.2.1-py3-none-any.whl (121 kB)', 'Requirement already satisfied: idna in ./venv/lib/python3.11/site-packages (3.7)', '     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 64.9/64.9 kB 1.2 MB/s eta 0:00:00'],
      cargo: ['   Compiling part_00 v0.0.0 (/tmp/rec/rs/pass/crates/part_00)', '  Downloaded serde v1.0.200', '    Updating crates.io index', '     Locking 12 packages to latest compatible versions', '    Checking app v1.0.0 (/x/app)'],
      go: ['go: downloading github.com/stretchr/testify v1.9.0'],
      downloaders: ['/dev/null            12%[=>                  ] 375.00K   600KB/s', '######################################################################## 100.0%'],
    };
    for (const [manager, lines] of Object.entries(managers)) {
      it(`drops ${manager}'s and counts them`, () => {
        const { kept, counts } = reduce(lines);
        assert.deepEqual(kept, []);
        assert.equal(counts.progressLines, lines.length);
      });
    }

    it('keeps their errors and summaries', () => {
      const lines = ['npm ERR! code E404', 'npm error 404 Not Found - GET https://registry.npmjs.org/x', 'npm warn deprecated inflight@1.0.6', 'added 318 packages in 34s', 'Packages: +265', 'Done in 9.1s', 'ERROR: No matching distribution found for requests==2.32.3', 'Successfully installed idna-3.7', '    Finished `test` profile [unoptimized + debuginfo] target(s) in 35.63s', 'error[E0425]: cannot find value `x` in this scope', 'warning: unused variable: `unused`'];
      assert.deepEqual(reduce(lines).kept, lines);
    });
  });

  describe('lock-file and snapshot diffs', () => {
    const diff = [
      'commit 7556a2e', '', '    Raise cards', '',
      'diff --git a/package-lock.json b/package-lock.json', 'index 1..2 100644', '--- a/package-lock.json', '+++ b/package-lock.json', '@@ -1,3 +1,4 @@', ' {', '-  "name": "app",', '+  "name": "rec",', '+    "node_modules/error-ex": {', ' }',
      'diff --git a/src/__snapshots__/card.test.js.snap b/src/__snapshots__/card.test.js.snap', '@@ -1 +1 @@', '-  className="card"', '+  className="card card--raised"',
      'diff --git a/src/card.js b/src/card.js', '@@ -1 +1 @@', '-old', '+new', '', 'commit 97d40d6',
    ];

    it('summarises each as its name and +/- counts, keeps the other files\' hunks, and a line naming an error inside', () => {
      const { kept, counts } = reduce(diff);
      assert.deepEqual(kept, [
        'commit 7556a2e', '', '    Raise cards', '',
        'diff --git a/package-lock.json b/package-lock.json', '+    "node_modules/error-ex": {', '[package-lock.json: lock file diff summarised, +2 -1 lines; the full log has every line]',
        'diff --git a/src/__snapshots__/card.test.js.snap b/src/__snapshots__/card.test.js.snap', '[src/__snapshots__/card.test.js.snap: snapshot diff summarised, +1 -1 lines; the full log has every line]',
        'diff --git a/src/card.js b/src/card.js', '@@ -1 +1 @@', '-old', '+new', '', 'commit 97d40d6',
      ]);
      assert.equal(counts.machineMadeDiffs, 2);
      assert.deepEqual(counts.machineMadeNamed, ['package-lock.json: +2 -1 lines', 'src/__snapshots__/card.test.js.snap: +1 -1 lines']);
    });

    it('shows a lock file the command line names', () => {
      const { kept, counts } = reduce(diff.slice(4, 14), 'git diff -- package-lock.json');
      assert.deepEqual(kept, diff.slice(4, 14));
      assert.equal(counts.machineMadeDiffs, 0);
    });

    it('counts on across a read that ends inside the diff', () => {
      const kept: string[] = [];
      const reducer = new LineReducer((line) => kept.push(line));
      ['diff --git a/Cargo.lock b/Cargo.lock', '@@ -1 +1 @@', '+a', '+b'].forEach((line) => reducer.push(line));
      reducer.flush();
      assert.deepEqual(reducer.takeCounts().machineMadeNamed, ['Cargo.lock: +2 -0 lines']);
      ['-c', 'diff --git a/x b/x'].forEach((line) => reducer.push(line));
      reducer.flush();
      assert.deepEqual(kept, ['diff --git a/Cargo.lock b/Cargo.lock', '[Cargo.lock: lock file diff summarised, +2 -0 lines so far; the full log has every line]', '[Cargo.lock: lock file diff summarised, +0 -1 lines more; the full log has every line]', 'diff --git a/x b/x']);
      assert.equal(reducer.takeCounts().machineMadeDiffs, 0);
    });
  });

  describe('repeated lines', () => {
    it('keeps the first of identical lines in a row and says how many more came', () => {
      const { kept, counts } = reduce(['start', ...Array<string>(500).fill('postgres:5439 - no response, retrying'), 'Gave up: connection refused']);
      assert.deepEqual(kept, ['start', 'postgres:5439 - no response, retrying', '[the line above repeated 499 more times]', 'Gave up: connection refused']);
      assert.equal(counts.repeatedLines, 499);
    });

    it('keeps two in a row as they are, and a run of blank lines as one', () => {
      assert.deepEqual(reduce(['a', 'a', 'b', '', '', '', '', 'c']), { kept: ['a', 'a', 'b', '', 'c'], counts: { ...noReductions(), repeatedLines: 3 } });
    });

    it('collapses a repeated error too, keeping it once with the count', () => {
      assert.deepEqual(reduce(['Error: ECONNREFUSED', 'Error: ECONNREFUSED', 'Error: ECONNREFUSED']).kept, ['Error: ECONNREFUSED', '[the line above repeated 2 more times]']);
    });
  });

  it('gets through long runs of the characters its patterns repeat (a backtracking pattern would hold the extension host here)', () => {
    const units = [' ', '=', '#', '.', ':', '\t', ' x', '= ', 'x::', 'a.py::', ' PASSED', '[=', '% ', '━', '━ ', '+', '@@ ', '✔ ', 'test ', ' ... ok', 'diff --git a/ b/'];
    for (const unit of units) {
      for (const prefix of ['', '   ', 'diff --git ', 'test ', 'Collecting ', '=== RUN ', '[', '  ✔ ', 'x.py::']) {
        for (const length of [MAX_RULE_LINE, 64 * 1024]) {
          const line = (prefix + unit.repeat(Math.ceil(length / unit.length))).slice(0, length);
          const { text } = reduceText(`${line}\n`);
          assert.ok(text === '' || text === `${line}\n`, JSON.stringify(line.slice(0, 40)));
          if (length > MAX_RULE_LINE) {
            assert.equal(text, `${line}\n`, 'a line longer than any rule looks at is kept');
          }
        }
      }
    }
  });

  it('holds back a bounded number of lines and loses none of them', () => {
    const lines = Array.from({ length: 10_000 }, (_, index) => `  heading ${index}`);
    const kept: string[] = [];
    const reducer = new LineReducer((line) => kept.push(line));
    lines.forEach((line) => reducer.push(line));
    assert.ok(lines.length - kept.length <= 64);
    reducer.flush();
    assert.deepEqual(kept, lines);
  });

  it('names each rule with its count, and nothing when nothing was reduced', () => {
    assert.equal(describeReduction(noReductions()), undefined);
    assert.equal(
      describeReduction({ passingTests: 812, suiteHeadings: 40, progressLines: 1, machineMadeDiffs: 5, machineMadeNamed: ['package-lock.json: +1200 -300 lines', 'a.snap: +1 -1 lines', 'yarn.lock: +3 -0 lines'], repeatedLines: 40, redraws: 2 }),
      '812 passing test lines (and 40 suite headings or blank lines above them) dropped; 1 progress or download line dropped; 5 lock-file or snapshot diffs summarised (package-lock.json: +1200 -300 lines; a.snap: +1 -1 lines; yarn.lock: +3 -0 lines; 2 more); 40 repeated lines collapsed; 2 carriage-return redraws resolved to the last',
    );
  });
});
