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
import type { CallCheckpoint } from '../../../../../src/core/ports/checkpoints';
import type { CommandHost, StopReason } from '../../../../../src/core/ports/process';
import { BackgroundCommandRegistry } from '../../../../../src/core/process/backgroundCommands';
import { QUIET_MS } from '../../../../../src/core/process/inputWatch';
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
    readonly checkpoint?: CallCheckpoint;
  }

  /** Starts runInForeground for `serve` with the row's settings; the run, its context and its scripted process. */
  function start(row: Row = {}): { run: Promise<ForegroundRun>; process: ScriptedProcess; ctx: ToolContext; startedAt: number } {
    const startedAt = clock.now();
    const host: CommandHost = {
      shell: '/bin/sh', logDirectory: path.join(root, 'logs'), pid: 1, environment: () => ({}), openTerminal: () => terminal,
      processes: runner, sandbox: undefined as never, background: registry,
    };
    const base = testContext({ root, token: row.token, settings: { runCommandMaxBackground: 2 }, commands: host });
    const ctx: ToolContext = { ...base, host: { ...base.host, clock }, call: { ...base.call, checkpoint: row.checkpoint, returnBy: row.returnBy ?? (row.dueAfterMs === undefined ? undefined : () => startedAt + row.dueAfterMs!) } };
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
  describe('the table of outcomes: {ended, timeout, due, waiting} x {room, no room} x {on_timeout background, kill}', () => {
    type Moment = 'ended' | 'timeout' | 'due' | 'waiting';
    const ENDS_AT = 2000;
    const TIMEOUT_MS = TIMEOUT_S * 1000;
    const TIMED_OUT = /^Timed out after 60 s: the command and every process it started were stopped \(TERM, then KILL\)$/;
    const NO_ROOM_AT_TIMEOUT = /^Timed out after 60 s: the command and every process it started were stopped \(TERM, then KILL\), because it could not move to the background: 2 background commands are already running/;

    interface Expected {
      /** When the call returns, ms after the start. */
      readonly at: number;
      readonly kind: 'ended' | 'moved';
      /** The status line (ended) or the headline (moved). */
      readonly first: RegExp;
      /** How the process was stopped by the time the call returned. */
      readonly stops: readonly StopReason[];
      /** Moved with on_timeout "kill" before its timeout: stopped there in the background, and the result says so. */
      readonly killedLater: boolean;
    }

    function expected(moment: Moment, room: boolean, onTimeout: OnTimeout): Expected {
      const kill = onTimeout === 'kill';
      const ended = (at: number, first: RegExp, stops: readonly StopReason[] = ['timeout']): Expected => ({ at, kind: 'ended', first, stops, killedLater: false });
      const moved = (at: number, first: RegExp): Expected => ({ at, kind: 'moved', first, stops: [], killedLater: kill && moment !== 'timeout' });
      switch (moment) {
        case 'ended':
          return ended(ENDS_AT, /^Exit code: 0$/, []);
        case 'timeout':
          return kill ? ended(TIMEOUT_MS, TIMED_OUT) : room ? moved(TIMEOUT_MS, /^Still running after 60 s: moved to the background at the timeout instead of being stopped \(on_timeout: "kill" stops it instead\)\.$/) : ended(TIMEOUT_MS, NO_ROOM_AT_TIMEOUT);
        case 'due':
          return room
            ? moved(ENDS_AT, /^Still running after 2\.0 s: moved to the background because the client needs an answer now; the command was not stopped\.$/)
            : ended(ENDS_AT, /^Stopped after 2\.0 s, when the client needed an answer: the command and every process it started were stopped \(TERM, then KILL\), because it could not move to the background: 2 background commands are already running/);
        case 'waiting':
          // With no room it cannot move while it waits: it runs on to its timeout.
          return room
            ? moved(QUIET_MS, /^Still running after 3\.0 s and waiting for input: Password: \(bash reads its input\): moved to the background; the command was not stopped\.$/)
            : ended(TIMEOUT_MS, kill ? TIMED_OUT : NO_ROOM_AT_TIMEOUT);
      }
    }

    for (const moment of ['ended', 'timeout', 'due', 'waiting'] as const) {
      for (const room of [true, false]) {
        for (const onTimeout of ['background', 'kill'] as const) {
          const want = expected(moment, room, onTimeout);
          const title = `${moment}, ${room ? 'room' : 'no room'}, on_timeout "${onTimeout}": ${want.kind === 'moved' ? `moves at ${want.at} ms${want.killedLater ? ', stopped at its timeout in the background' : ''}` : `${want.stops.length ? 'stopped' : 'ends'} at ${want.at} ms`}`;
          it(title, async () => {
            const { run, process } = start({ onTimeout, busy: room ? 0 : 2, dueAfterMs: moment === 'due' ? ENDS_AT : undefined });
            if (moment === 'waiting') {
              process.readers = { state: 'reading', program: 'bash' };
              process.print('Password: ', 'stdout');
            }
            if (moment === 'ended') {
              clock.setTimeout(() => process.end({}), ENDS_AT);
            }
            assert.equal(await returnedAfter(run, want.at - 1), false, 'not before its moment');
            assert.equal(await returnedAfter(run, 1), true, 'at its moment');
            const result = await run;
            assert.equal(result.kind, want.kind, JSON.stringify(result));
            const first = result.kind === 'moved' ? result.report.text.split('\n')[0] : result.status;
            assert.match(first, want.first);
            assert.deepEqual(process.stops, want.stops);
            assert.equal(handedOff, want.kind === 'moved' ? 1 : 0, 'the lease moves with the command, and only then');
            if (result.kind === 'ended') {
              assert.equal(terminal.summary.startsWith(`${result.status} (`), true, terminal.summary);
              assert.equal(registry.running().length, room ? 0 : 2);
              return;
            }
            assert.equal(terminal.summary, '', 'the terminal goes on with the command');
            assert.equal(result.report.text.includes('It will be stopped at its timeout, 60 s after it started (on_timeout: "kill").'), want.killedLater);
            await clock.advance(TIMEOUT_MS);
            assert.deepEqual(process.stops, want.killedLater ? ['timeout'] : []);
          });
        }
      }
    }
  });

  describe('after the move', () => {
    it('the call\'s cancellation no longer stops it, even where disposing its listener does not unsubscribe', async () => {
      const token = new ManualCancellation();
      const { run, process } = start({ token, dueAfterMs: 1000 });
      await clock.advance(1000);
      moved(await run);
      token.cancel();
      assert.deepEqual(process.stops, []);
      assert.equal(registry.get('bg1')?.status().state, 'running');
    });

    it('Ctrl+C in its terminal still stops it, and the terminal shows its end', async () => {
      const { run, process } = start({ dueAfterMs: 1000 });
      await clock.advance(1000);
      moved(await run);
      terminal.interrupt();
      const command = registry.get('bg1');
      await command?.ended;
      await settle();
      assert.deepEqual(process.stops, ['interrupted']);
      assert.deepEqual(command?.status(), { state: 'killed', how: 'stopped by the user in its terminal' });
      assert.match(terminal.summary, /^killed \(stopped by the user in its terminal\) \(.*, background command bg1\)$/);
    });

    it('its later output goes to the registry: a read returns what came since, no line twice, then its end', async () => {
      const { run, process } = start({ dueAfterMs: 1000 });
      process.print('one\n', 'stdout');
      await clock.advance(1000);
      assert.match(moved(await run), /--- stdout ---\none\n/);
      process.print('two\n', 'stdout');
      const command = registry.get('bg1');
      assert.equal(command?.takeOutput().stdout.text, 'two\n');
      assert.equal(terminal.text, 'Sandbox: none, it ran outside the sandbox (a test)\none\ntwo\n', 'the terminal shows all of it once');
      process.end({ exitCode: 4 });
      await command?.ended;
      assert.deepEqual(command?.status(), { state: 'exited', code: 4 });
      assert.equal(command?.takeOutput().stdout.totalChars, 0);
    });

    it('the call\'s "after" checkpoint is taken when it ends, not when the call returns', async () => {
      const events: string[] = [];
      const checkpoint: CallCheckpoint = {
        beforeChange: async () => void events.push('before'),
        deferAfter: () => {
          events.push('deferred');
          return { finish: async () => void events.push('after') };
        },
      };
      const { run, process } = start({ checkpoint, dueAfterMs: 1000 });
      await clock.advance(1000);
      moved(await run);
      await settle();
      assert.deepEqual(events, ['deferred']);
      process.end({});
      await registry.get('bg1')?.ended;
      await settle();
      assert.deepEqual(events, ['deferred', 'after']);
      assert.equal(released, 1);
    });
  });
});
