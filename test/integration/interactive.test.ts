// Commands that never hang, in the real extension host through vscode.lm.invokeTool: more than 30
// interactive or long commands, each with a short timeout. Every call returns once its timeout is
// up (not when the command ends) and says truthfully what the command is doing: waiting for input (with the prompt),
// still running, or how it ended. Where it waits, workspace_send_input answers it and it finishes;
// nothing the test did not ask to stop was stopped, and nothing is left running at the end.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { CommandId } from '../../src/vscode/commandIds';
import { answerNextApproval, invoke, until, withSettings, workspaceRoot } from './support/tools';
import { processesWhere } from '../support/procfs';
import { backgroundId, stdoutOf } from '../support/commandResults';

const RUN = 'workspace_run_command';
const SEND = 'workspace_send_input';
const OUTPUT = 'workspace_command_output';
const STOP = 'workspace_stop_command';

/** What a result says the command is doing. */
type Said = 'waiting' | 'running' | 'exited';

/** One answer typed into a waiting command, and what must follow. */
interface Answer {
  readonly text?: string;
  readonly keys?: string;
  /** True when the input must ask the user first (it is answered yes). */
  readonly asks?: boolean;
  readonly then: Said;
  readonly output?: RegExp;
}

interface Case {
  readonly name: string;
  readonly command: string;
  /** The call's timeout in seconds. */
  readonly timeout: number;
  readonly cwd?: string;
  readonly said: Said;
  /** The prompt (or the exit line, the output) the first result must show. */
  readonly shows?: RegExp;
  /** For `exited`: the code, or undefined for "any" (what exists on the machine decides). */
  readonly exitCode?: number | 'nonzero';
  readonly answers?: readonly Answer[];
  /** Started with interactive: true (stdin a terminal); the others get end of file. */
  readonly interactive?: boolean;
}

/** A sleep of a length nothing else on the machine uses, found in /proc at the end: this host's pid
 * in it keeps it apart from another version's host running at the same time (run-integration --side-by-side). */
const marker = 600 + 4 * process.pid;

const CASES: readonly Case[] = [
  { name: 'read -p (a terminal: bash shows its prompt, sh none)', command: 'read -p "Continue? [y/N] " a; echo "got:$a"', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: (Continue\? \[y\/N\]|\(no prompt shown\))/, answers: [{ text: 'y', then: 'exited', output: /got:y/ }] },
  { name: 'read -s, a password', command: 'bash -c \'read -s -p "Password: " pw; echo "len:${#pw}"\'', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: Password: \(bash reads its input\)/, answers: [{ text: 'hunter2', asks: true, then: 'exited', output: /len:7/ }] },
  { name: 'a prompt printed by sh', command: 'printf "Do you want to continue? [Y/n] "; read a; echo "ok:$a"', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: Do you want to continue\? \[Y\/n\]/, answers: [{ text: 'n', then: 'exited', output: /ok:n/ }] },
  { name: 'python3 REPL', command: 'python3 -i -q', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: (>>>|\(no prompt shown\))/, answers: [{ text: 'print(6 * 7)', asks: true, then: 'waiting', output: /42/ }, { keys: 'ctrl-d', then: 'exited' }] },
  { name: 'node REPL', command: 'node -i', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: > \(node reads its input\)/, answers: [{ text: '.exit', asks: true, then: 'exited' }] },
  { name: 'python input() with a yes/no prompt', command: 'python3 -c \'print("answer:" + input("Proceed? [y/N] "))\'', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: Proceed\? \[y\/N\]/, answers: [{ text: 'yes', then: 'exited', output: /answer:yes/ }] },
  { name: 'python getpass (falls back to stdin)', command: 'python3 -c \'import getpass; print("len:" + str(len(getpass.getpass("Passphrase: "))))\'', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: .*Passphrase:/, answers: [{ text: 'secret', asks: true, then: 'exited', output: /len:6/ }] },
  { name: 'a select menu', command: 'bash -c \'PS3="#? "; select f in apple pear; do echo "picked:$f"; break; done\'', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: #\?/, answers: [{ text: '2', asks: true, then: 'exited', output: /picked:pear/ }] },
  { name: 'an inquirer-style menu', command: 'node -e \'process.stdout.write("? Pick a template (Use arrow keys)\\n> react\\n  vue\\n"); process.stdin.once("data", (d) => { console.log("chose:" + JSON.stringify(d.toString())); process.exit(0); })\'', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: \? Pick a template \(Use arrow keys\)/, answers: [{ text: '', then: 'exited', output: /chose:"\\n"/ }] },
  { name: 'cat with no file (reads stdin, no prompt)', command: 'cat', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: \(no prompt shown\) \(cat reads its input\)/, answers: [{ text: 'typed line', asks: true, then: 'waiting', output: /typed line/ }, { keys: 'ctrl-d', then: 'exited' }] },
  { name: 'read with no prompt, answered with Enter', command: 'read x; echo "empty:[$x]"', timeout: 15, interactive: true, said: 'waiting', answers: [{ text: '', then: 'exited', output: /empty:\[\]/ }] },
  { name: 'awk reading stdin', command: 'awk \'{ print "echo:" $0 }\'', timeout: 15, interactive: true, said: 'waiting', shows: /\(awk reads its input\)|\(mawk reads its input\)|\(gawk reads its input\)/, answers: [{ text: 'hello', asks: true, then: 'waiting' }, { keys: 'ctrl-d', then: 'exited', output: /echo:hello/ }] },
  { name: 'git add -p', command: 'git add -p', cwd: 'interactive-repo', timeout: 15, interactive: true, said: 'waiting', shows: /waiting for input: .*Stage this hunk/, answers: [{ text: 'n', then: 'exited' }] },
  { name: 'a bash shell (its input is judged as command lines)', command: 'bash', timeout: 15, interactive: true, said: 'waiting', answers: [{ text: 'echo from-the-shell', then: 'waiting', output: /from-the-shell/ }, { keys: 'ctrl-d', then: 'exited' }] },
  { name: 'git commit without -m (no editor starts)', command: 'git commit', cwd: 'interactive-repo', timeout: 15, said: 'exited', exitCode: 'nonzero', shows: /Aborting commit due to empty commit message/ },
  { name: 'git log with a pager forced on', command: 'git -c core.pager=less -p log --oneline', cwd: 'interactive-repo', timeout: 15, said: 'exited', exitCode: 0, shows: /first commit/ },
  { name: 'man ls', command: 'man ls', timeout: 15, said: 'exited' },
  { name: 'less of a file', command: 'less interactive-repo/notes.txt', timeout: 15, said: 'exited', exitCode: 0, shows: /line one/ },
  // more pages its standard input first when that is not a terminal: it waits for it, and prints the file at its end.
  { name: 'more of a file (stdout is no terminal: it prints the file)', command: 'more interactive-repo/notes.txt', timeout: 15, interactive: true, said: 'exited', exitCode: 0, shows: /line one/ },
  { name: 'top (needs a terminal)', command: 'top', timeout: 15, said: 'exited', exitCode: 'nonzero' },
  { name: 'npx of a missing package, offline', command: 'npx --offline wat-no-such-package-zz9', timeout: 30, said: 'exited', exitCode: 'nonzero' },
  { name: 'ssh localhost', command: 'ssh -o ConnectTimeout=5 -o BatchMode=no localhost true', timeout: 15, said: 'exited', exitCode: 'nonzero' },
  { name: 'sudo -k true', command: 'sudo -k true', timeout: 15, said: 'exited' },
  { name: 'vi of a file (no terminal)', command: 'vi -c q interactive-repo/notes.txt', timeout: 15, said: 'exited' },
  { name: `sleep ${marker}`, command: `sleep ${marker}`, timeout: 4, said: 'running' },
  { name: 'a build that prints a line every second for 2 minutes', command: 'for i in $(seq 1 120); do echo "step $i"; sleep 1; done', timeout: 5, said: 'running', shows: /step 1/ },
  { name: 'a log line that looks like a prompt, then silence', command: `echo "Overwrite? [y/N]"; sleep ${marker + 1}`, timeout: 8, said: 'running' },
  { name: '"Password:" printed, then silence', command: `echo "Password:"; sleep ${marker + 2}`, timeout: 8, said: 'running' },
  { name: 'a Node process that waits on a timer', command: 'node -e \'setInterval(() => {}, 1000)\'', timeout: 8, said: 'running' },
  { name: 'a process that forks a daemon', command: `setsid sleep ${marker + 3} > /dev/null 2>&1 & echo forked`, timeout: 15, said: 'exited', exitCode: 0, shows: /forked/ },
  { name: 'a command that ends in 3 s', command: 'for i in 1 2 3; do echo "tick $i"; sleep 1; done', timeout: 10, said: 'exited', exitCode: 0, shows: /tick 3/ },
  { name: 'timeout around a long sleep', command: 'timeout 2 sleep 100; echo "status:$?"', timeout: 10, said: 'exited', exitCode: 0, shows: /status:124/ },
  { name: 'yes | head', command: 'yes | head -3', timeout: 10, said: 'exited', exitCode: 0 },
  { name: 'a failing command', command: 'ls no-such-folder', timeout: 10, said: 'exited', exitCode: 'nonzero' },
  // Without interactive: true stdin is end of file: nothing waits.
  { name: 'rg with no path searches the folder, not its stdin', command: 'rg -n "line t[w]o"', timeout: 15, said: 'exited', exitCode: 0, shows: /interactive-repo\/notes\.txt:2:line two/ },
  { name: 'a CLI that sniffs stdin sees end of file', command: 'python3 -c \'import sys; print("tty:" + str(sys.stdin.isatty())); print("read:" + repr(sys.stdin.read()))\'', timeout: 15, said: 'exited', exitCode: 0, shows: /tty:False\nread:''/ },
  { name: 'read -p without interactive gets end of file', command: 'read -p "Continue? [y/N] " a; echo "status:$?"', timeout: 15, said: 'exited', exitCode: 0, shows: /status:1/ },
  { name: 'cat without interactive ends at once', command: 'cat', timeout: 15, said: 'exited', exitCode: 0 },
];

/** How many calls run at once. */
const PARALLEL = 3;
/** Seconds past its timeout after which a call counts as hung: generous, so a loaded machine does not fail it. */
const HANG_MARGIN_S = 30;

/** Runs `body` for every item, at most `size` at once. */
async function inPool<T>(items: readonly T[], size: number, body: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await body(item);
    }
  }));
}

/** What a result of run, output or send says the command is doing. */
function saidOf(text: string): Said {
  if (/^Status: running, waiting for input/m.test(text)) return 'waiting';
  if (/^Status: running/m.test(text)) return 'running';
  return 'exited';
}

function exitCodeOf(text: string): number | undefined {
  const code = /^Exit code: (\d+)$/m.exec(text)?.[1] ?? /^Status: exited (\d+)$/m.exec(text)?.[1];
  return code === undefined ? undefined : Number(code);
}

describe('commands that never hang (extension host): prompts, REPLs, pagers, long runs', function () {
  this.timeout(300_000);
  const results = new Map<string, { text: string; ms: number }>();
  const ids = new Map<string, string>();
  const repo = path.join(workspaceRoot(), 'interactive-repo');

  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
    fs.rmSync(repo, { recursive: true, force: true });
    fs.mkdirSync(repo, { recursive: true });
    fs.writeFileSync(path.join(repo, 'notes.txt'), 'line one\nline two\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=Test', ...args], { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    git('add', 'notes.txt');
    git('commit', '-q', '-m', 'first commit');
    // The repository's own identity: the `git commit` case is about the editor, not the machine's
    // identity, which a fresh CI user has none of (git cannot guess an email from a host without a domain).
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 'Test');
    // A change to stage (git add -p) and a staged one to commit (git commit).
    fs.writeFileSync(path.join(repo, 'notes.txt'), 'line one\nline two\nline three\n');
    fs.writeFileSync(path.join(repo, 'staged.txt'), 'staged\n');
    git('add', 'staged.txt');
  });

  after(async () => {
    for (const id of ids.values()) {
      await invoke(STOP, { id }).catch(() => undefined);
    }
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it(`runs ${CASES.length} commands, ${PARALLEL} at a time: each call returns at its timeout, not at the command's end, and says truthfully what the command does`, async () => {
    assert.ok(CASES.length >= 30);
    await withSettings({ 'runCommand.maxBackground': 40, 'runCommand.allow': ['python3', 'node', 'bash', 'git', 'less', 'more', 'man', 'top', 'npx', 'ssh', 'sudo', 'vi', 'cat', 'awk', 'read', 'setsid', 'timeout', 'yes', 'sleep', 'rg'] }, async () => {
      // A few at a time, as agents run them: every call also takes a checkpoint and a sandbox set-up.
      await inPool(CASES, PARALLEL, async (testCase) => {
        const started = Date.now();
        const { text } = await invoke(RUN, { command: testCase.command, timeout: testCase.timeout, ...(testCase.cwd ? { cwd: testCase.cwd } : {}), ...(testCase.interactive ? { interactive: true } : {}) });
        results.set(testCase.name, { text, ms: Date.now() - started });
        if (/^id: bg\d+$/m.test(text)) ids.set(testCase.name, backgroundId(text));
      });
    });
    const problems: string[] = [];
    for (const testCase of CASES) {
      const { text, ms } = results.get(testCase.name)!;
      const said = saidOf(text);
      const report = (problem: string) => problems.push(`${testCase.name}: ${problem}\n${text.slice(0, 1200)}`);
      // That a call returned while its command still runs or waits is what `said` checks; this only
      // catches a call that hung past its timeout (a bound for a hang, not a speed figure: the bench has those).
      if (ms > (testCase.timeout + HANG_MARGIN_S) * 1000) report(`returned after ${ms} ms, timeout ${testCase.timeout} s: the call waited past its timeout`);
      if (said !== testCase.said) report(`said ${said}, expected ${testCase.said}`);
      if (testCase.shows && !testCase.shows.test(text)) report(`does not show ${testCase.shows}`);
      if (/Timed out|were stopped|stopped on request/.test(text)) report('a command was stopped that the test did not ask to stop');
      if (testCase.said === 'exited') {
        const code = exitCodeOf(text);
        if (code === undefined) report('no exit code');
        if (testCase.exitCode === 0 && code !== 0) report(`exit code ${code}, expected 0`);
        if (testCase.exitCode === 'nonzero' && code === 0) report('exit code 0, expected a failure');
      }
    }
    assert.ok(problems.length === 0, problems.join('\n\n'));
  });

  it('answers every command that waits for input with workspace_send_input, and each one finishes', async () => {
    if (results.size === 0) return;
    const problems: string[] = [];
    await withSettings({ 'runCommand.allow': ['echo'] }, async () => {
      // Answers that ask go one at a time (the test answers the question); the others at once.
      const waiting = CASES.filter((testCase) => testCase.answers && saidOf(results.get(testCase.name)!.text) === 'waiting');
      await inPool(waiting.filter((testCase) => !testCase.answers!.some((answer) => answer.asks)), PARALLEL, (testCase) => answerAll(testCase, problems));
      for (const testCase of waiting.filter((each) => each.answers!.some((answer) => answer.asks))) {
        await answerAll(testCase, problems);
      }
    });
    assert.ok(problems.length === 0, problems.join('\n\n'));
  });

  it('reads on from a long build, stops what is still running when asked, and leaves nothing running', async () => {
    if (results.size === 0) return;
    const build = ids.get('a build that prints a line every second for 2 minutes');
    assert.ok(build, 'the build moved to the background');
    const read = await invoke(OUTPUT, { id: build, wait_for: '^step [4-9]', timeout: 20 });
    assert.match(read.text, /A line matched wait_for/);
    for (const [name, id] of ids) {
      const { text } = await invoke(OUTPUT, { id });
      if (/^Status: running/m.test(text)) {
        const stopped = await invoke(STOP, { id });
        assert.match(stopped.text, /^Stopped background command|had already ended/m, name);
      }
    }
    const listed = await vscode.commands.executeCommand<{ running: unknown[] }>(CommandId.listBackgroundCommands);
    assert.deepStrictEqual(listed?.running, []);
    await until(() => processesWhere((line) => new RegExp(`sleep (${marker}|${marker + 1}|${marker + 2}|${marker + 3})\\b`).test(line)).length === 0, 'no sleep of the tests is left', 10_000);
  });

  async function answerAll(testCase: Case, problems: string[]): Promise<void> {
    const id = ids.get(testCase.name);
    if (!id) {
      problems.push(`${testCase.name}: no id`);
      return;
    }
    for (const answer of testCase.answers!) {
      const input = { id, ...(answer.text !== undefined ? { text: answer.text } : {}), ...(answer.keys ? { keys: answer.keys } : {}), timeout: 15 };
      const sent = invoke(SEND, input);
      if (answer.asks) await answerNextApproval(true);
      let text: string;
      try {
        text = (await sent).text;
      } catch (error) {
        problems.push(`${testCase.name}: ${JSON.stringify(input)} failed: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      const said = saidOf(text);
      if (said !== answer.then) problems.push(`${testCase.name}: after ${JSON.stringify(input)} said ${said}, expected ${answer.then}\n${text.slice(0, 1200)}`);
      if (answer.output && !answer.output.test(stdoutOf(text) + text)) problems.push(`${testCase.name}: after ${JSON.stringify(input)} the output does not show ${answer.output}\n${text.slice(0, 1200)}`);
      if (said === 'exited') ids.delete(testCase.name);
    }
  }
});
