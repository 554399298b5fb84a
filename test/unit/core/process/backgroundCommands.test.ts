// The registry with a scripted process handle: ids, the limit, the crash records it keeps, the end
// hook, and how long ended commands stay readable.
import * as assert from 'node:assert/strict';
import { BackgroundCommandRegistry } from '../../../../src/core/process/backgroundCommands';
import type { BackgroundStart, ProcessOutcome, RunningGroupRecords, StartedProcess, StopReason } from '../../../../src/core/ports/process';
import { neverCancelled } from '../../support/context';

/** A process the test ends by hand; its pgid and start time are made up. */
class ScriptedProcess implements StartedProcess {
  readonly startTime = '4242';
  readonly outcome: Promise<ProcessOutcome>;
  stops: StopReason[] = [];
  private resolve: (outcome: ProcessOutcome) => void = () => undefined;
  constructor(readonly pgid: number, readonly print: (chunk: string, stream: 'stdout' | 'stderr') => void) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve));
  }
  stop(reason: StopReason): void {
    this.stops.push(reason);
    this.end({ stopped: reason, exitCode: null, signal: 'SIGTERM' });
  }
  end(how: Partial<ProcessOutcome>): void {
    const empty = { text: '', totalChars: 0, omittedChars: 0 };
    this.resolve({ exitCode: 0, signal: null, leftoversStopped: false, durationMs: 1, stdout: empty, stderr: empty, logPath: '/log', logTruncated: false, ...how });
  }
}

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

  beforeEach(() => {
    records = new MemoryRecords();
    registry = new BackgroundCommandRegistry({ clock: { now: () => 1000 }, records });
    processes = [];
    nextPid = 500;
  });

  const start = (commandLine = 'serve', maxRunning = 5) => {
    const request: BackgroundStart = {
      commandLine, cwdShown: '.', sandboxLine: 'Sandbox: test', logPath: '/log', maxRunning, headChars: 100, tailChars: 100,
      launch: (onOutput) => {
        const handle = new ScriptedProcess(nextPid++, onOutput);
        processes.push(handle);
        return handle;
      },
    };
    return registry.start(request);
  };

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

  it('waits for a line printed later, or answers at once for one not read yet', async () => {
    const command = start();
    const waiting = command.waitFor((line) => line === 'ready', 5000, neverCancelled);
    processes[0].print('almost\nrea', 'stdout');
    processes[0].print('dy\n', 'stdout');
    assert.equal(await waiting, 'matched');
    assert.equal(await command.waitFor((line) => line === 'ready', 0, neverCancelled), 'matched', 'the line is not read yet');
    command.takeOutput();
    assert.equal(await command.waitFor((line) => line === 'ready', 10, neverCancelled), 'timeout');
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
});
