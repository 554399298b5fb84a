// The registry with a scripted process handle: ids, the limit, the crash records it keeps, the end
// hook, and how long ended commands stay readable.
import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../src/core/process/backgroundCommands';
import type { BackgroundStart, CommandInput, RunningGroupRecords } from '../../../../src/core/ports/process';
import { ScriptedProcess } from '../../support/scriptedProcess';
import { neverCancelled } from '../../support/context';
import { ManualClock } from '../../support/fakeTime';

class MemoryRecords implements RunningGroupRecords {
  readonly groups = new Map<string, string>();
  add(id: string, pgid: number, startTime: string): void {
    this.groups.set(id, `${pgid}@${startTime}`);
  }
  remove(id: string): void {
    this.groups.delete(id);
  }
}

describe('process/backgroundCommands (registry)', () => {
  let records: MemoryRecords;
  let registry: BackgroundCommandRegistry;
  let processes: ScriptedProcess[];
  let nextPid: number;
  let clock: ManualClock;

  beforeEach(() => {
    records = new MemoryRecords();
    clock = new ManualClock();
    registry = new BackgroundCommandRegistry({ clock, records, inputTiming: { quietMs: 40, checkMs: 10 } });
    processes = [];
    nextPid = 500;
  });

  const start = (commandLine = 'serve', maxRunning = 5, stdin: CommandInput = 'terminal') => {
    const request: BackgroundStart = {
      commandLine, cwdShown: '.', cwd: '/w', sandboxLine: 'Sandbox: test', logPath: '/log', maxRunning, headChars: 100, tailChars: 100,
      launch: (onOutput) => {
        const handle = new ScriptedProcess(nextPid++, onOutput);
        handle.stdin = stdin;
        processes.push(handle);
        return handle;
      },
    };
    return registry.start(request);
  };

  /** What `wait` settled with once the clock moved on `ms`; fails when it is still pending then. */
  async function settledAfter<T>(wait: Promise<T>, ms: number): Promise<T> {
    let settled = false;
    void wait.then(() => (settled = true), () => (settled = true));
    await clock.advance(ms);
    assert.ok(settled, `still waiting ${ms} ms later`);
    return wait;
  }

  it('gives short ids in order and records each running group with its start time', () => {
    assert.deepEqual([start().id, start().id], ['bg1', 'bg2']);
    assert.deepEqual([...records.groups.entries()], [['bg1', '500@4242'], ['bg2', '501@4242']]);
  });

  it('removes the record and settles ended with the outcome when a command ends', async () => {
    const command = start();
    processes[0].end({ exitCode: 7 });
    const outcome = await command.ended;
    assert.equal(outcome.exitCode, 7);
    assert.equal(records.groups.size, 0);
    assert.deepEqual(command.status(), { state: 'exited', code: 7 });
    assert.deepEqual(registry.running(), []);
  });

  it('stops with the reason "stopped", once, and resolves with the final outcome', async () => {
    const command = start();
    const outcome = await command.stop();
    await command.stop();
    assert.deepEqual(processes[0].stops, ['stopped']);
    assert.equal(outcome.stopped, 'stopped');
    assert.deepEqual(command.status(), { state: 'killed', how: 'stopped on request' });
  });

  it('refuses more than maxRunning at once, naming the running ids, and counts only running ones', async () => {
    start('one', 2);
    start('two', 2);
    assert.throws(() => start('three', 2), /2 background commands are already running.*bg1 \(one\), bg2 \(two\)/);
    processes[0].end({});
    await registry.get('bg1')?.ended;
    assert.equal(start('three', 2).id, 'bg3');
  });

  it('names a command that waits for input in the refusal, with the one call that stops it, and the others without', async () => {
    const asking = start('ask', 2);
    start('serve', 2);
    processes[0].readers = { state: 'reading', program: 'bash' };
    processes[0].print('Name? ', 'stderr');
    assert.equal(await settledAfter(asking.waitFor(undefined, 5000, neverCancelled), 40), 'waiting');
    await clock.advance(2000);
    assert.throws(() => start('three', 2), (error: Error) => {
      assert.match(error.message, /bg1 has waited for input for 2 s \(Name\?\): answer it with workspace_send_input, or stop it with workspace_stop_command \{"id": "bg1"\}\./);
      assert.doesNotMatch(error.message, /bg2 has waited/);
      return true;
    });
  });

  it('refuses input to a command started without it (end of file), naming interactive: true, but still takes Ctrl+C', () => {
    const command = start('rg needle', 5, 'eof');
    assert.equal(command.stdin, 'eof');
    assert.throws(() => command.sendInput('y\n'), /bg1 was started without input: its standard input is end of file.*interactive: true/);
    assert.throws(() => command.sendInput('', 'ctrl-d'), /interactive: true/);
    command.sendInput('', 'ctrl-c');
    assert.deepEqual(processes[0].input, ['<INT>']);
  });

  it('waits for a line printed later, or answers at once for one not read yet', async () => {
    const command = start();
    const waiting = command.waitFor((line) => line === 'ready', 5000, neverCancelled);
    processes[0].print('almost\nrea', 'stdout');
    processes[0].print('dy\n', 'stdout');
    assert.equal(await waiting, 'matched');
    assert.equal(await command.waitFor((line) => line === 'ready', 0, neverCancelled), 'matched', 'the line is not read yet');
    command.takeOutput();
    assert.equal(await settledAfter(command.waitFor((line) => line === 'ready', 10, neverCancelled), 10), 'timeout');
  });

  it('keeps the last 20 ended commands readable and forgets older ones', async () => {
    for (let i = 0; i < 22; i += 1) {
      start();
      processes[i].end({});
      await registry.get(`bg${i + 1}`)?.ended;
    }
    assert.equal(registry.get('bg1'), undefined);
    assert.equal(registry.get('bg2'), undefined);
    assert.ok(registry.get('bg3'));
    assert.ok(registry.get('bg22'));
  });

  it('reports a quiet command whose last line is a prompt as waiting, ends a wait with "waiting", and clears it on output', async () => {
    const command = start('ask');
    let changes = 0;
    registry.onDidChange(() => (changes += 1));
    processes[0].readers = { state: 'unknown' };
    processes[0].print('Deleting 3 files.\nContinue? [y/N] ', 'stderr');
    const wait = command.waitFor(undefined, 5000, neverCancelled);
    await clock.advance(39);
    assert.equal(command.waitingForInput(), undefined, 'not before it has been quiet');
    assert.equal(await settledAfter(wait, 1), 'waiting');
    assert.equal(command.waitingForInput()?.prompt, 'Continue? [y/N]');
    assert.equal(await command.waitFor((line) => line === 'never', 5000, neverCancelled), 'waiting', 'a wait while it waits answers at once');
    const before = changes;
    processes[0].print('more\n', 'stdout');
    assert.equal(command.waitingForInput(), undefined);
    assert.ok(changes > before, 'the view hears the change');
  });

  it('does not call a prompt-like line waiting when every process can be seen and none reads the input', async () => {
    const command = start('log');
    processes[0].readers = { state: 'none' };
    processes[0].print('Overwrite? [y/N]\n', 'stdout');
    assert.equal(await settledAfter(command.waitFor(undefined, 200, neverCancelled), 200), 'timeout');
    assert.equal(command.waitingForInput(), undefined);
  });

  it('calls a silent reader of the input waiting, naming the program', async () => {
    const command = start('python3');
    processes[0].readers = { state: 'reading', program: 'python3' };
    const started = clock.now();
    assert.equal(await settledAfter(command.waitFor(undefined, 5000, neverCancelled), 40), 'waiting');
    assert.deepEqual(command.waitingForInput(), { prompt: '(no prompt shown)', reader: 'python3', since: started + 40, silent: true });
  });

  it('sends text and keys: Ctrl+C interrupts, Ctrl+D closes the input and refuses more, an ended command refuses all', async () => {
    const command = start('repl');
    command.sendInput('y\n');
    command.sendInput('', 'up');
    command.sendInput('', 'ctrl-c');
    command.sendInput('print(1)\n', 'ctrl-d');
    assert.deepEqual(processes[0].input, ['y\n', '\u001b[A', '<INT>', 'print(1)\n', '<EOF>']);
    assert.equal(command.inputClosed, true);
    assert.throws(() => command.sendInput('more\n'), /input of background command bg1 was closed/);
    command.sendInput('', 'ctrl-c');
    processes[0].end({ exitCode: 0 });
    await command.ended;
    assert.throws(() => command.sendInput('y\n'), /bg1 has ended \(exited 0\)/);
    assert.equal(command.waitingForInput(), undefined);
  });
});
