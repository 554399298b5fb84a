// The line tests of the reduction rules (lineReducer.ts applies them). A rule only ever drops a line
// it recognises exactly; `mustKeep` is asked first and wins over every rule, so a line that names
// an error, a warning, a failure, a stack frame or a run's totals is never dropped, whatever rule
// would otherwise match it. All tests run on one line with escapes already resolved.

/**
 * Words and marks that keep a line, case-insensitively: errors, warnings, failures, panics, stack
 * traces, the failure marks of test runners (✗ ✕ ✘ ×), npm's `ERR!`.
 */
const KEEP_WORDS = /error|warn|fail|fatal|panic|traceback|exception|assert|abort|denied|critical|severe|err!|✗|✕|✘|×|❌/i;

/** Stack frames: JavaScript (`at f (file:1:2)`), Python (`File "x", line 3`), Go (`/x.go:12 +0x2e`), Rust (`at ./src/x.rs:1:2`), Java/C# (`at a.b(C.java:3)`). */
const STACK_FRAME = /^\s+at\s|^\s*File "[^"]+", line \d+|\.go:\d+( \+0x[0-9a-f]+)?$|^\s+\d+: \S|^goroutine \d+ \[/;

/**
 * A run's totals and verdicts: mocha's `N passing`, jest's and vitest's `Tests:`/`Test Files`,
 * cargo's `test result:`, pytest's `=== N passed in 1s ===`, go's `ok  pkg 0.1s` and `PASS`/`FAIL`,
 * npm's `added N packages`, pnpm's `Packages: +N`, `Done in 3s`, cargo's `Finished`.
 */
const SUMMARY = /\b\d+ (passing|passed|pending|skipped|failing|failed|todo|tests?|suites?)\b|^\s*(Tests?|Test Suites|Test Files|Snapshots|Suites|Time|Duration|Ran all test suites)\b|^test result:|^=+ .*[^=\s] =+$|^ok\s+\S+\s+(\(cached\)|[\d.]+s)|^(PASS|FAIL)$|^(added|removed|changed|up to date|audited) \d*|\bpackages? in [\d.]+m?s\b|^Packages: [+-]|^Done in |^\s*Finished |^Successfully installed /;

/**
 * The longest line a rule other than `mustKeep`'s words looks at: progress, test and summary lines
 * are short, and the patterns then cost little even on hostile output. A longer line is kept.
 */
export const MAX_RULE_LINE = 1000;

/** The line must reach the model: an error, warning, failure, stack frame or a run's totals. */
export function mustKeep(line: string): boolean {
  if (KEEP_WORDS.test(line)) {
    return true;
  }
  // A passing file's own count (vitest's `✓ a.test.ts (3 tests) 12ms`) is a passing line, not the run's totals.
  return line.length <= MAX_RULE_LINE && (STACK_FRAME.test(line) || (SUMMARY.test(line) && !PASS_MARK.test(line)));
}

const PASS_MARK = /^\s*[✓✔√]\s/;

/**
 * One passing test, as the test runners print it: mocha, jest, vitest and node's spec reporter
 * (`✓ name (3 ms)`, `✔ name`, `√ name`), jest's file line (`PASS path`), pytest -v (`path::test
 * PASSED [ 10%]`), its progress rows of dots (`path.py ....... [ 50%]`, no F or E), go test -v
 * (`=== RUN`, `--- PASS:`), cargo test (`test name ... ok`), TAP (`ok 3 - name`).
 */
const PASSING_TEST = [
  /^\s*[✓✔√]\s+\S/,
  /^\s*PASS\s+\S+/,
  /^[^\s:]+\.py::\S.*\sPASSED(\s+\[\s*\d+%\])?$/,
  /^PASSED \S+::\S/,
  /^\S+\.py [.sx]+\s*(\[\s*\d+%\])?$/,
  /^[.sx]+\s*\[\s*\d+%\]$/,
  /^=== (RUN|PAUSE|CONT|NAME)\s+\S/,
  /^\s*--- PASS: \S+ \([\d.]+s\)$/,
  /^test \S.* \.\.\. ok$/,
  /^\s*ok \d+ - \S/,
  /^\s*․{3,}\s*$/,
];

/** The patterns as one alternation: one pass over a line instead of one per pattern. */
function anyOf(patterns: readonly RegExp[]): RegExp {
  return new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'));
}

const ANY_PASSING_TEST = anyOf(PASSING_TEST);

export function isPassingTest(line: string): boolean {
  return line.length <= MAX_RULE_LINE && ANY_PASSING_TEST.test(line);
}

/**
 * Progress and download lines of package managers and downloaders: npm's `http fetch`/`timing`
 * logs and its spinner, pnpm's `Progress: resolved` and `+++` bar, yarn's steps and fetch notes,
 * pip's `Collecting`/`Downloading`/`Processing`/`Using cached`/`Requirement already satisfied`
 * and its bars, cargo's `Compiling`/`Downloaded`/`Updating`/`Locking`, go's `go: downloading`, and
 * any bar with a percentage (wget, curl -#). No two quantifiers of a pattern can match the same
 * characters, so a hostile line costs linear time (a test runs them on long runs of each).
 */
const PROGRESS = [
  /^npm (http|timing|sill|silly|verb|verbose) /,
  /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⠂⠄⠠⠐⠈⠁⡀⢀]\s/,
  /^Progress: resolved \d+, reused \d+, downloaded \d+, added \d+/,
  /^\+{8,}-*$/,
  /^\[\d+\/\d+\] (Resolving|Fetching|Linking|Building)( fresh)? packages/,
  /^➤ YN00(13|01[69]|085): /,
  /^\s*Collecting [\w.[\]-]+(\s*[<>=!~]=?\s*\S+)?( \(from [^)]*\))?$/,
  /^\s*Downloading \S+( \([\d.]+ [kMG]?B\))?$/,
  /^\s*Processing \/\S+\.(whl|tar\.gz|zip)( \(from [^)]*\))?$/,
  /^\s*Using cached \S+/,
  /^\s*Requirement already satisfied: /,
  /^\s*(Obtaining dependency information|Preparing metadata|Installing build dependencies|Getting requirements to build|Building wheel for) .*(\.\.\. (done|started)|\))?$/,
  /^\s*(Created wheel for|Stored in directory:) /,
  /^\s{0,12}(Compiling|Checking|Documenting|Downloaded|Fresh) \S+ v\d\S*( \(.*\))?$/,
  /^\s{0,12}(Downloading|Updating|Locking|Adding|Blocking|Unpacking) (crates|\d+ (crates?|packages?)|\S+ index|git repository|\S+ v\d)/,
  /^\s{0,12}Building \[[=> -]*\]/,
  /^go: (downloading|finding|extracting) \S/,
  /^\s*\S+\s+\d{1,3}(\.\d+)?%\[[=> ]*\]\s/,
  /^\s*[[(|][=#>\-.█▉▊▋▌▍▎▏░▒▓━╸╺■□ ]{8,}[\])|]\s*\d{1,3}(\.\d+)?%/,
  /^\s*[=#>\-.█▉▊▋▌▍▎▏░▒▓━╸╺■□]{8,}\s+\d{1,3}(\.\d+)?%/,
  /^\s*[━╸╺╾─-]{8,}\s+[\d.]+\/[\d.]+ [kMG]?B\s/,
];

const ANY_PROGRESS = anyOf(PROGRESS);

export function isProgress(line: string): boolean {
  return line.length <= MAX_RULE_LINE && ANY_PROGRESS.test(line);
}

/** A suite's heading in a test runner's tree (mocha, jest): indented text, not a numbered failure (`1) name`) or a pending test (`- name`). Blank lines count too. */
export function isHeadingCandidate(line: string): boolean {
  return line.length <= 200 && (line.trim().length === 0 || (/^\s+[^\s\d-]/.test(line) && !/^\s+\d+\) /.test(line)));
}

export function indentOf(line: string): number {
  const match = /^\s*/.exec(line);
  return match ? match[0].length : 0;
}

/** Lock files of package managers, whose diffs are machine-made. */
const LOCK_FILES = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb', 'deno.lock',
  'Cargo.lock', 'go.sum', 'poetry.lock', 'Pipfile.lock', 'uv.lock', 'pdm.lock', 'Gemfile.lock', 'composer.lock',
  'mix.lock', 'pubspec.lock', 'Podfile.lock', 'packages.lock.json', 'flake.lock', 'gradle.lockfile',
]);

/** What a diff of this path is summarised as, or undefined when its lines are shown. */
export function machineMadeKind(filePath: string): 'lock file' | 'snapshot' | undefined {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  if (LOCK_FILES.has(name)) {
    return 'lock file';
  }
  return /(^|\/)__snapshots__\/|\.snap$/.test(filePath) ? 'snapshot' : undefined;
}

/** `diff --git a/x b/y`: the new path (a quoted one without its quotes; escapes left as they are). */
export function diffHeaderPath(line: string): string | undefined {
  if (!line.startsWith('diff --git ') || line.length > MAX_RULE_LINE) {
    return undefined;
  }
  const quoted = line.endsWith('"');
  const at = line.lastIndexOf(quoted ? ' "b/' : ' b/');
  return at < 0 ? undefined : line.slice(at + (quoted ? 4 : 3), quoted ? -1 : undefined);
}

/** A line of a file's part of a git diff, after its `diff --git` line: headers, hunk headers, and the hunks' lines. */
export function isDiffBody(line: string): boolean {
  return /^([-+ \\]|@@ |index |new file mode |deleted file mode |old mode |new mode |similarity index |dissimilarity index |rename (from|to) |copy (from|to) |Binary files )/.test(line);
}
