// Which integration test files run on which VS Code version (docs/design.md section 7). Every file
// runs on the newest. The floor (1.100.3) runs every file but those below: what can differ between
// versions is VS Code's side (the lm API and the tool registration, the diff editor and the write
// path, editors and notebooks, terminals, trees and the status bar, configuration and trust, the
// language servers, the MCP definition API), and the floor runs every suite that touches it. The
// files below exercise core behind a command the floor already runs (workspace_run_command, an
// approval, a restore, the sandbox suite, all in the floor's trusted pass): corpora and heavy suites
// of the sandbox and the policy whose outcome does not depend on the version. The unit tier runs
// core on Node 20, the floor's Node. A new file runs on both until it is listed here with its reason.
// Pure (no vscode): the in-host runner and a unit test import it.

/** The host the runner says it started (WAT_TEST_HOST_ID): `floor` leaves out NEWEST_ONLY. */
export const FLOOR_HOST = 'floor';

/** Test files (by name, without `.test.ts`) the floor leaves out, each with why that is sound. */
export const NEWEST_ONLY: Readonly<Record<string, string>> = {
  devWorkflow:
    'the dev-workflow corpus (51 commands approved in the sandbox), the package caches and a folder made writable for one run: ' +
    'the sandbox and the policy are core; the floor runs approved sandboxed commands in runCommand and sandbox',
  interactive:
    'commands that never hang: 38 prompts, REPLs, pagers and long runs and their answers through workspace_send_input: ' +
    "core's input watch and pseudoterminal; the floor answers a waiting command from the terminal and the Activity view in backgroundCommands",
  network:
    "network by domain: core's proxy, rules and gate in the sandbox; the floor asks and answers the same question API in runCommand and sandbox (the network)",
  nestedRepositories:
    "nested repositories: core's git checkpoints and the sandbox's protected .git of nested repositories; the floor restores through the same writer in checkpoints",
  sandboxIndex: "the sandbox index: core's scan of secret files and .gitignore files, no VS Code API",
  secretsEnvironment: "secrets in commands' environment: core's environment filter inside the sandbox, no VS Code API",
  escapes: "the heredoc chain that renames .git: core's policy and the sandbox's protected paths, no VS Code API",
};

/**
 * Tests (by title) the floor leaves out in a file it otherwise runs, each with its file and why that
 * is sound. Each calls onTheNewestOnly(this) first, which skips it on the floor (mocha counts it
 * pending there).
 */
export const NEWEST_ONLY_TESTS: Readonly<Record<string, { readonly file: string; readonly why: string }>> = {
  'sends progress while a review stays open, so a client that resets its timeout on progress keeps the call': {
    file: 'mcp',
    why: "the MCP front's progress beats every 10 s past the SDK client's 15 s limit (21 s): the relay and the SDK, not VS Code; the floor opens, names and answers the same review in the file's other tests",
  },
  "answers before the client's limit with a review id while the review stays open, and workspace_review_status returns the write once the user accepts": {
    file: 'mcp',
    why: "the held review's answer within mcp.answerWithinSeconds (6 s) and workspace_review_status: core's held calls; the floor keeps the review open and closes it when the agent goes away in the file's other tests",
  },
};

/** Whether this host leaves out what NEWEST_ONLY and NEWEST_ONLY_TESTS list (the runner's environment). */
export function leavesOutNewestOnly(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WAT_TEST_HOST_ID === FLOOR_HOST && env.WAT_TEST_FULL_FLOOR !== '1';
}

/**
 * The first line of a test NEWEST_ONLY_TESTS lists: skips it on the floor. Throws for a test it does
 * not list, so the list stays the one place that says what the floor leaves out, and why.
 */
export function onTheNewestOnly(context: { readonly test?: { readonly title: string }; skip(): void }, env: NodeJS.ProcessEnv = process.env): void {
  const title = context.test?.title ?? '';
  if (!Object.hasOwn(NEWEST_ONLY_TESTS, title)) throw new Error(`test/integration/versions.ts does not list the test "${title}" in NEWEST_ONLY_TESTS`);
  if (leavesOutNewestOnly(env)) context.skip();
}

/** The name NEWEST_ONLY knows a compiled or source test file by: `devWorkflow` for `.../devWorkflow.test.js`. */
export function testFileName(file: string): string {
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  return base.replace(/\.test\.(js|ts)$/, '');
}

/**
 * The files a host runs, and those it leaves out. `hostId` is the runner's WAT_TEST_HOST_ID; only
 * the floor leaves anything out, and not when `fullFloor` (run-integration --full-floor). Throws
 * when a name of NEWEST_ONLY matches no file: a renamed file must not slip back silently, nor the
 * list name what no longer exists.
 */
export function filesForHost(files: readonly string[], hostId: string | undefined, fullFloor: boolean): { run: string[]; leftOut: string[] } {
  const names = new Set(files.map(testFileName));
  const missing = Object.keys(NEWEST_ONLY).filter((name) => !names.has(name));
  if (missing.length > 0) throw new Error(`test/integration/versions.ts lists ${missing.map((name) => `${name}.test.ts`).join(', ')}, which no test file is`);
  if (hostId !== FLOOR_HOST || fullFloor) return { run: [...files], leftOut: [] };
  const newestOnly = (file: string): boolean => Object.hasOwn(NEWEST_ONLY, testFileName(file));
  return { run: files.filter((file) => !newestOnly(file)), leftOut: files.filter(newestOnly) };
}
