// The dev-workflow corpus (devWorkflowCorpus.ts) in the real extension host: every command through
// vscode.lm.invokeTool, each question answered with workspaceAgentTools.approve (the sandboxed
// choice), offline. It passes when at least 95% of the cases that could run here succeeded in the
// sandbox (exit code 0, the expected output, and a `Sandbox: bubblewrap` line: none left it);
// the table of every case and its reason is printed either way. Also here: the caches are private
// copies, and runCommand.realCaches binds the real folder instead.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { CommandId } from '../../src/vscode/commandIds';
import { CASES, CORPUS_FOLDER, EXECUTABLES, FILES, type CorpusCase } from './devWorkflowCorpus';
import { invoke, REPO, until, withSettings, workspaceRoot } from './support/tools';

const TOOL = 'workspace_run_command';
const PASS_RATE = 0.95;

/** Runs a command through the tool, answering every question it asks with the sandboxed choice. */
async function runApproved(command: string, cwd: string, extra: { writable_path?: string } = {}, timeout = 300): Promise<{ text: string; asked: number }> {
  let finished = false;
  let asked = 0;
  const call = invoke(TOOL, { command, cwd, timeout, on_timeout: 'kill', ...extra }).finally(() => {
    finished = true;
  });
  while (!finished) {
    if (await vscode.commands.executeCommand<boolean>(CommandId.approve)) asked += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { text: (await call).text, asked };
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(':').some((folder) => folder.startsWith('/') && fs.existsSync(path.join(folder, program)));
}

/** Why a case cannot run on this machine, or undefined. */
function missing(requirement: string | undefined, typescript: string | undefined): string | undefined {
  if (!requirement) return undefined;
  if (requirement === 'tsc-local') return typescript ? undefined : 'typescript is not in the repository\'s node_modules';
  const modules: Record<string, [string, string]> = {
    pytest: ['pytest', 'pytest is not installed for python3'],
    venv: ['ensurepip', 'python3 has no ensurepip, which venv needs (Debian: python3-venv)'],
    pip: ['pip', 'python3 has no pip (Debian: python3-pip)'],
  };
  const module = modules[requirement];
  if (module) {
    if (!onPath('python3')) return 'python3 is not installed';
    try {
      execFileSync('python3', ['-c', `import ${module[0]}`], { stdio: 'ignore' });
      return undefined;
    } catch {
      return module[1];
    }
  }
  return onPath(requirement) ? undefined : `${requirement} is not installed`;
}

/**
 * Held from the corpus's before() to its after(): its pip --user case installs into the user's real
 * ~/.local, which another version's host running at the same time (run-integration --side-by-side)
 * must not install into or remove meanwhile. A folder in this repository's test-output/, with the
 * holder's pid; a holder that died is taken over.
 */
const CORPUS_LOCK = path.join(REPO, 'test-output', 'dev-workflow.lock');

async function lockCorpus(): Promise<void> {
  fs.mkdirSync(path.dirname(CORPUS_LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(CORPUS_LOCK);
      fs.writeFileSync(path.join(CORPUS_LOCK, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = 0;
    try {
      holder = Number(fs.readFileSync(path.join(CORPUS_LOCK, 'pid'), 'utf8'));
    } catch {
      // being taken, or just given back
    }
    if (holder > 0 && !alive(holder)) fs.rmSync(CORPUS_LOCK, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Row {
  readonly name: string;
  readonly outcome: 'pass' | 'fail' | 'skip';
  readonly why: string;
}

/** The reason a run failed, from its result: the status line and the last error line. */
function failure(text: string, expect: RegExp | undefined): string {
  const status = /^(Exit code: \d+|Timed out.*|Killed.*)$/m.exec(text)?.[1] ?? 'no status';
  const stderr = /--- stderr ---\n([\s\S]*?)\n\nFull log/.exec(text)?.[1] ?? '';
  const lines = stderr.split('\n').filter((line) => line.trim() && line !== '(empty)' && !/^WARNING: Running pip as the 'root' user/.test(line));
  const errors = lines.filter((line) => /error|cannot|denied|read-only|writable|not found/i.test(line));
  const last = (errors.length ? errors : lines).slice(-2).join(' / ');
  const sandbox = /^Sandbox: (\S+)/m.exec(text)?.[1] ?? '?';
  if (status === 'Exit code: 0' && expect) return `output did not match ${expect}`;
  return `${status}${sandbox === 'bubblewrap:' ? '' : ` (sandbox: ${sandbox})`}${last ? `: ${last.slice(0, 200)}` : ''}`;
}

function table(rows: readonly Row[]): string {
  const width = Math.max(...rows.map((row) => row.name.length));
  return rows.map((row) => `${row.outcome.toUpperCase().padEnd(4)}  ${row.name.padEnd(width)}  ${row.why}`).join('\n');
}

describe('the dev-workflow corpus in the sandbox (extension host)', function () {
  let corpus: string;
  let typescript: string | undefined;

  // pip install --user, retried with ~/.local writable, installs into the real ~/.local: undone in after().
  const local = path.join(os.homedir(), '.local');
  let hadLocal = true;
  let locked = false;

  before(async function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    this.timeout(30 * 60_000); // the other version's corpus may hold the lock
    await lockCorpus();
    locked = true;
    hadLocal = fs.existsSync(local);
    corpus = path.join(workspaceRoot(), CORPUS_FOLDER);
    fs.rmSync(corpus, { recursive: true, force: true });
    for (const [file, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(corpus, file)), { recursive: true });
      fs.writeFileSync(path.join(corpus, file), text, { mode: EXECUTABLES.includes(file) ? 0o755 : 0o644 });
    }
    // The TypeScript the repository installed, copied in as a project's local dependency: a link
    // would dangle in the sandbox when the repository lies under /tmp (a CI clone), which the
    // sandbox covers with its private /tmp.
    const installed = path.join(REPO, 'node_modules', 'typescript');
    if (fs.existsSync(path.join(installed, 'bin', 'tsc'))) {
      typescript = installed;
      fs.mkdirSync(path.join(corpus, 'ts', 'node_modules', '.bin'), { recursive: true });
      fs.cpSync(installed, path.join(corpus, 'ts', 'node_modules', 'typescript'), { recursive: true });
      fs.symlinkSync('../typescript/bin/tsc', path.join(corpus, 'ts', 'node_modules', '.bin', 'tsc'));
    }
  });

  after(() => {
    if (corpus) fs.rmSync(corpus, { recursive: true, force: true });
    if (!locked) return;
    if (!hadLocal) {
      fs.rmSync(local, { recursive: true, force: true });
    } else {
      const lib = path.join(local, 'lib');
      for (const python of fs.existsSync(lib) ? fs.readdirSync(lib) : []) {
        const site = path.join(lib, python, 'site-packages');
        for (const entry of fs.existsSync(site) ? fs.readdirSync(site) : []) {
          if (entry.startsWith('wat_tiny')) fs.rmSync(path.join(site, entry), { recursive: true, force: true });
        }
      }
    }
    fs.rmSync(CORPUS_LOCK, { recursive: true, force: true });
  });

  it(`runs at least ${PASS_RATE * 100}% of the corpus approved in the sandbox, none outside it`, async function () {
    this.timeout(30 * 60_000);
    assert.ok(CASES.length >= 40, `the corpus has ${CASES.length} cases; the issue asks for 40 at least`);
    const rows: Row[] = [];
    await withSettings({ 'checkpoints.enabled': false }, async () => {
      for (const item of CASES) rows.push(await runCase(item));
    });
    const ran = rows.filter((row) => row.outcome !== 'skip');
    const passed = ran.filter((row) => row.outcome === 'pass');
    const summary = `dev-workflow corpus on VS Code ${vscode.version}: ${passed.length}/${ran.length} passed in the sandbox (${rows.length - ran.length} skipped)\n${table(rows)}`;
    // Into the report the runner streams (console.log from the host shows only when a pass fails), and a file.
    if (process.env.WAT_TEST_REPORT) fs.appendFileSync(process.env.WAT_TEST_REPORT, `\n${summary}\n\n`);
    else console.log(summary);
    // In the repository's test-output/, not under a fixed name in the shared /tmp, where another user's file (or link) may sit.
    fs.mkdirSync(path.join(REPO, 'test-output'), { recursive: true });
    fs.writeFileSync(path.join(REPO, 'test-output', `dev-workflow-${vscode.version}.txt`), `${summary}\n`);
    assert.ok(ran.length >= 40, `only ${ran.length} cases could run here\n${summary}`);
    assert.ok(passed.length >= PASS_RATE * ran.length, summary);
    // A case docs/sandbox.md lists as stopped by the sandbox that now passes means docs/sandbox.md is wrong.
    const knownPassing = rows.filter((row) => row.outcome === 'pass' && CASES.find((item) => item.name === row.name)?.known);
    assert.deepEqual(knownPassing.map((row) => row.name), [], summary);
  });

  async function runCase(item: CorpusCase): Promise<Row> {
    const absent = missing(item.requires, typescript);
    if (absent) return { name: item.name, outcome: 'skip', why: absent };
    const cwd = path.posix.join(CORPUS_FOLDER, item.cwd);
    let { text } = await runApproved(item.command, cwd);
    const passed = (): boolean => /^Sandbox: bubblewrap: /m.test(text) && /^Exit code: 0$/m.test(text) && (!item.expect || item.expect.test(text));
    let granted = '';
    const offered = /call again with writable_path: "([^"]+)"/.exec(text)?.[1];
    if (!passed() && item.retryWithGrant && offered) {
      ({ text } = await runApproved(item.command, cwd, { writable_path: offered }));
      granted = passed() ? `after the retry with writable_path ${offered}` : `retried with writable_path ${offered}`;
    }
    if (passed()) return { name: item.name, outcome: 'pass', why: item.known ? `expected to fail: ${item.known}` : granted };
    if (item.retryWithGrant && !granted) return { name: item.name, outcome: 'fail', why: `no writable_path offered (${failure(text, item.expect)})` };
    const why = item.known ? `known: ${item.known} (${failure(text, item.expect)})` : failure(text, item.expect);
    return { name: item.name, outcome: 'fail', why: granted ? `${granted}: ${why}` : why };
  }
});

describe('package caches in the sandbox (extension host)', function () {
  const probe = `wat-cache-probe-${process.pid}`;
  const realNpm = path.join(os.homedir(), '.npm');
  const privateNpm = (): string => path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'workspace-agent-tools', 'sandbox-caches', 'npm');

  before(function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
  });

  afterEach(() => {
    fs.rmSync(path.join(realNpm, probe), { force: true });
  });

  it('gives an approved command a private copy of ~/.npm: it writes there, the real folder never sees it, and ~/.npmrc stays hidden', async () => {
    // Through sh, so the policy asks (it refuses a plain `cat ~/.npmrc`) and the sandbox is what hides it.
    const { text } = await runApproved(`sh -c 'echo cached > ~/.npm/${probe} && cat ~/.npm/${probe}; cat ~/.npmrc; echo npmrc-done'`, '.');
    assert.match(text, /^Sandbox: bubblewrap: /m);
    assert.match(text, /^cached\nnpmrc-done$/m);
    assert.equal(fs.existsSync(path.join(realNpm, probe)), false);
    assert.equal(fs.readFileSync(path.join(privateNpm(), probe), 'utf8'), 'cached\n');
    assert.equal(fs.statSync(privateNpm()).mode & 0o777, 0o700);
  });

  it('binds the real folder for a cache runCommand.realCaches names', async () => {
    await withSettings({ 'runCommand.realCaches': ['npm'] }, async () => {
      const { text } = await runApproved(`sh -c 'echo shared > ~/.npm/${probe}'`, '.');
      assert.match(text, /^Exit code: 0$/m);
    });
    assert.equal(fs.readFileSync(path.join(realNpm, probe), 'utf8'), 'shared\n');
  });

  it('still keeps an approved command from writing in the home folder outside the caches', async () => {
    const { text } = await runApproved(`sh -c 'echo x > ~/${probe}'`, '.');
    assert.match(text, /Read-only file system/);
    assert.equal(fs.existsSync(path.join(os.homedir(), probe)), false);
  });
});

describe('a folder made writable for one sandboxed run (extension host)', function () {
  this.timeout(120_000);
  let outside: string;

  before(function () {
    if (!vscode.workspace.isTrusted || process.platform !== 'linux') this.skip();
    // Outside /tmp (the sandbox's private /tmp hides the real one) and outside the home folder.
    outside = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'wat-grant-'));
    fs.writeFileSync(path.join(outside, '.env'), 'GRANT_CANARY=grant-dotenv-canary\n');
  });

  after(() => {
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
  });

  it('offers the refused folder, asks its own question with the sandboxed choice first, and runs in the sandbox with it writable', async () => {
    const command = `sh -c 'mkdir -p ${outside}/out && echo granted > ${outside}/out/file && echo finished; cat ${outside}/.env; test -f ${outside}/out/file'`;
    const first = await runApproved(command, '.');
    assert.match(first.text, /Read-only file system/);
    const offered = /call again with writable_path: "([^"]+)"/.exec(first.text)?.[1];
    assert.equal(offered, outside, first.text);
    assert.equal(fs.existsSync(path.join(outside, 'out')), false);

    const call = invoke(TOOL, { command, cwd: '.', writable_path: offered });
    let questions: Array<{ kind: string; title: string; detail: string }> = [];
    await until(async () => (questions = (await vscode.commands.executeCommand<typeof questions>(CommandId.listPendingApprovals)) ?? []).length > 0, 'the grant question');
    assert.match(questions[0].detail, new RegExp(`in the sandbox with ${outside} writable too`));
    assert.match(questions[0].detail, /Run Outside the Sandbox runs it with all your rights/);
    assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve));
    const { text } = await call;
    assert.match(text, new RegExp(`^Sandbox: bubblewrap: .*; also writable: ${outside}`, 'm'));
    assert.match(text, /^finished$/m);
    assert.doesNotMatch(text, /grant-dotenv-canary/);
    assert.equal(fs.readFileSync(path.join(outside, 'out', 'file'), 'utf8'), 'granted\n');
  });
});
