// The foreground stage of workspace_run_command alone (runInForeground): a scripted process, the
// real background registry and a ManualClock, so each way a foreground wait ends is one row that
// runs in milliseconds at exact times: the process's end, its timeout, the time the caller needs an
// answer by, or a wait for input; with room in the background or none; on_timeout "background" or
// "kill". The real-process suites (runCommand*.test.ts, sendInput.test.ts) prove the wiring.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolContext } from '../../../../../src/core/context';
import type { CommandHost } from '../../../../../src/core/ports/process';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import { CHECK_MS, QUIET_MS } from '../../../../../src/core/process/inputWatch';
import { runInForeground, type ForegroundRun } from '../../../../../src/core/tools/command/foreground';
import type { HeldLease } from '../../../../../src/core/tools/command/lease';
import type { OnTimeout, PreparedCommand } from '../../../../../src/core/tools/command/prepare';
import { RecordingTerminal } from '../../../support/commandWorkspace';
import { ManualCancellation, testContext } from '../../../support/context';
import { ManualClock, settle } from '../../../support/fakeTime';
import { ScriptedRunner, type ScriptedProcess } from '../../../support/scriptedProcess';

const TIMEOUT_S = 60;

describe('tools/command/foreground: runInForeground on a scripted process and a fake clock', () => {
  let root: string;
  let clock: ManualClock;
  let runner: ScriptedRunner;
  let registry: BackgroundCommandRegistry;
  let terminal: RecordingTerminal;
  let handedOff: number;
  let released: number;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-foreground-'));
    clock = new ManualClock();
    runner = new ScriptedRunner();
    registry = new BackgroundCommandRegistry({ clock });
    terminal = new RecordingTerminal();
    handedOff = 0;
    released = 0;
  });
  afterEach(async () => {
    for (const { process } of runner.started) {
      process.end({});
    }
    await registry.stopAll();
    fs.rmSync(root, { recursive: true, force: true });
  });

  interface Row {
    readonly onTimeout?: OnTimeout;
    /** Background commands already running, each taking a place. */
    readonly busy?: number;
    /** The time the caller needs an answer by, ms after the start. */
    readonly dueAfterMs?: number;
    /** Or the caller's own returnBy, read whenever the stage looks. */
    readonly returnBy?: () => number | undefined;
    readonly token?: ManualCancellation;
  }

  /** Starts runInForeground for `serve` with the row's settings; the run, its context and its scripted process. */
  function start(row: Row = {}): { run: Promise<ForegroundRun>; process: ScriptedProcess; ctx: ToolContext; startedAt: number } {
    const startedAt = clock.now();
    const host: CommandHost = {
      shell: '/bin/sh', logDirectory: path.join(root, 'logs'), pid: 1, environment: () => ({}), openTerminal: () => terminal,
      processes: runner, sandbox: undefined as never, background: registry,
    };
    const base = testContext({ root, token: row.token, settings: { runCommandMaxBackground: 2 }, commands: host });
    const ctx: ToolContext = { ...base, host: { ...base.host, clock }, call: { ...base.call, returnBy: row.returnBy ?? (row.dueAfterMs === undefined ? undefined : () => startedAt + row.dueAfterMs!) } };
    for (let i = 0; i < (row.busy ?? 0); i += 1) {
      registry.start({ commandLine: `busy ${i}`, cwdShown: '.', cwd: root, sandboxLine: 'Sandbox: test', logPath: '/log', maxRunning: 5, headChars: 100, tailChars: 100, launch: (onOutput) => runner.start({ onOutput } as never) });
    }
    const prepared = {
      host, command: 'serve', cwd: { path: root, shown: '.' }, env: {}, withheld: [], verdict: { decision: 'allow', findings: [] },
      placement: { where: 'host', approval: 'none', why: 'a test' }, background: false, waitFor: undefined,
      timeoutSeconds: TIMEOUT_S, onTimeout: row.onTimeout ?? 'background', interactive: true,
    } as unknown as PreparedCommand;
    const held: HeldLease = {
      request: { shell: '/bin/sh', commandLine: 'serve', cwd: root, env: {}, killGraceMs: 10, logPath: '/log', headChars: 1000, tailChars: 1000, maxLogChars: 10_000, input: 'terminal' },
      handOff: () => {
        handedOff += 1;
        return async () => {
          released += 1;
        };
      },
      configChanges: async () => [],
      notWritable: [],
    };
    const run = runInForeground(prepared, held, ctx);
    const process = runner.started[runner.started.length - 1].process;
    return { run, process, ctx, startedAt };
  }

  /** Moves the clock on by `ms` and says whether the run came back by then. */
  async function returnedAfter(run: Promise<ForegroundRun>, ms: number): Promise<boolean> {
    let done = false;
    void run.then(() => (done = true), () => (done = true));
    await clock.advance(ms);
    await settle();
    return done;
  }

  function moved(result: ForegroundRun): string {
    assert.equal(result.kind, 'moved', JSON.stringify(result));
    return result.kind === 'moved' ? result.report.text : '';
  }

  function ended(result: ForegroundRun): string {
    assert.equal(result.kind, 'ended', JSON.stringify(result));
    return result.kind === 'ended' ? result.status : '';
  }

  it('ended: returns the outcome when the process ends first, and leaves no timer behind', async () => {
    const { run, process } = start();
    process.print('hello\n', 'stdout');
    assert.equal(await returnedAfter(run, 1000), false);
    process.end({ exitCode: 3 });
    assert.equal(ended(await run), 'Exit code: 3');
    assert.match(terminal.summary, /^Exit code: 3 \(/);
    assert.equal(clock.pending(), 0, 'the timeout and the input watch are cancelled');
    assert.deepEqual([handedOff, registry.running().length], [0, 0]);
  });

  it('timeout, room, on_timeout "background": moves at exactly the timeout, not before, with the output so far', async () => {
    const { run, process } = start();
    process.print('first\n', 'stdout');
    assert.equal(await returnedAfter(run, TIMEOUT_S * 1000 - 1), false);
    assert.equal(await returnedAfter(run, 1), true);
    const text = moved(await run);
    assert.match(text, /^Still running after 60 s: moved to the background at the timeout instead of being stopped \(on_timeout: "kill" stops it instead\)\.$/m);
    assert.match(text, /first/);
    assert.deepEqual(process.stops, []);
    assert.deepEqual([handedOff, registry.running().map((command) => command.commandLine)], [1, ['serve']]);
    assert.deepEqual(terminal.notes, ['Still running after 60 s: moved to the background as bg1 at its timeout. It keeps running here; Ctrl+C stops it.']);
    process.end({});
    await registry.get('bg1')?.ended;
    await settle();
    assert.equal(released, 1, 'the lease goes when the moved command ends');
  });

  it('timeout, on_timeout "kill": stops the command at the timeout and says so', async () => {
    const { run, process } = start({ onTimeout: 'kill' });
    assert.equal(await returnedAfter(run, TIMEOUT_S * 1000), true);
    assert.equal(ended(await run), 'Timed out after 60 s: the command and every process it started were stopped (TERM, then KILL)');
    assert.deepEqual(process.stops, ['timeout']);
    assert.equal(handedOff, 0);
  });

  it('timeout, no room: stops the command, naming the running ones', async () => {
    const { run, process } = start({ busy: 2 });
    assert.equal(await returnedAfter(run, TIMEOUT_S * 1000), true);
    assert.match(ended(await run), /^Timed out after 60 s: the command and every process it started were stopped \(TERM, then KILL\), because it could not move to the background: 2 background commands are already running.*bg1 \(busy 0\), bg2 \(busy 1\)/);
    assert.deepEqual(process.stops, ['timeout']);
    assert.equal(handedOff, 0);
  });

  it('due, room: moves when the caller needs an answer, and with on_timeout "kill" still stops it at its timeout in the background', async () => {
    const { run, process } = start({ dueAfterMs: 2000, onTimeout: 'kill' });
    assert.equal(await returnedAfter(run, 1999), false);
    assert.equal(await returnedAfter(run, 1), true);
    const text = moved(await run);
    assert.match(text, /^Still running after 2\.0 s: moved to the background because .*; the command was not stopped\.$/m);
    assert.match(text, /It will be stopped at its timeout, 60 s after it started \(on_timeout: "kill"\)\./);
    assert.deepEqual(process.stops, []);
    await clock.advance(TIMEOUT_S * 1000 - 2001);
    assert.deepEqual(process.stops, [], 'not before its timeout');
    await clock.advance(1);
    assert.deepEqual(process.stops, ['timeout']);
  });

  it('due, room, on_timeout "background": the timer is dropped once it moved', async () => {
    const { run, process } = start({ dueAfterMs: 500 });
    assert.equal(await returnedAfter(run, 500), true);
    moved(await run);
    await clock.advance(TIMEOUT_S * 1000);
    assert.deepEqual(process.stops, []);
    assert.equal(registry.get('bg1')?.status().state, 'running');
  });

  it('due: reads the time again when its timer fires, so a time moved later is kept, and none means no move', async () => {
    let due: number | undefined = clock.now() + 1000;
    const { run, process } = start({ returnBy: () => due });
    assert.equal(await returnedAfter(run, 999), false);
    due = clock.now() + 2000;
    assert.equal(await returnedAfter(run, 1999), false, 'the later time holds');
    due = undefined;
    assert.equal(await returnedAfter(run, 10_000), false, 'no time: no move');
    process.end({});
    assert.equal(ended(await run), 'Exit code: 0');
  });

  it('due, no room: stops the command when the caller needs an answer, and says why', async () => {
    const { run, process } = start({ dueAfterMs: 2000, busy: 2 });
    assert.equal(await returnedAfter(run, 2000), true);
    assert.match(ended(await run), /^Stopped after 2\.0 s, when the client needed an answer: the command and every process it started were stopped \(TERM, then KILL\), because it could not move to the background/);
    assert.deepEqual(process.stops, ['timeout']);
  });

  it('waiting, room: a prompt and a reader move it QUIET_MS after its last output (the extension\'s timing when the host gives none)', async () => {
    const { run, process } = start();
    process.readers = { state: 'reading', program: 'bash' };
    await clock.advance(1000);
    process.print('Continue? [y/N] ', 'stdout');
    assert.equal(await returnedAfter(run, QUIET_MS - 1), false, 'not before it was quiet for QUIET_MS');
    assert.equal(await returnedAfter(run, 1), true);
    const text = moved(await run);
    assert.match(text, /^Still running after 4\.0 s and waiting for input: Continue\? \[y\/N\] \(bash reads its input\): moved to the background; the command was not stopped\.$/m);
    assert.deepEqual(terminal.notes, ['Waiting for input after 4.0 s: moved to the background as bg1 because it waits for input. It keeps running here; Ctrl+C stops it.']);
  });

  it('waiting, no room: runs on to its timeout while it waits, then stops', async () => {
    const { run, process } = start({ busy: 2 });
    process.readers = { state: 'reading', program: 'bash' };
    process.print('Password: ', 'stdout');
    assert.equal(await returnedAfter(run, QUIET_MS + 10 * CHECK_MS), false, 'it cannot move, so it waits on');
    assert.equal(await returnedAfter(run, TIMEOUT_S * 1000), true);
    assert.match(ended(await run), /^Timed out after 60 s: .*because it could not move to the background/);
    assert.deepEqual(process.stops, ['timeout']);
  });

  it('a prompt-like line nobody reads is not a wait: it runs to its timeout and moves then', async () => {
    const { run, process } = start();
    process.readers = { state: 'none' };
    process.print('Overwrite? [y/N]\n', 'stdout');
    assert.equal(await returnedAfter(run, TIMEOUT_S * 1000 - 1), false);
    assert.equal(await returnedAfter(run, 1), true);
    assert.doesNotMatch(moved(await run), /waiting for input/);
  });

  it('cancelled before the move: stops the command with the reason "cancelled"', async () => {
    const token = new ManualCancellation();
    const { run, process } = start({ token });
    await clock.advance(1000);
    token.cancel();
    assert.equal(ended(await run), 'Cancelled: the command and every process it started were stopped');
    assert.deepEqual(process.stops, ['cancelled']);
    assert.equal(clock.pending(), 0);
  });
});
