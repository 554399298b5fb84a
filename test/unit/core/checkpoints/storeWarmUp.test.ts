// When the checkpoint store is built: deferred after the window starts, only in a trusted workspace
// with checkpoints on, again when what it records changes, stopped when checkpoints are turned off;
// and what the status bar says meanwhile.
import * as assert from 'node:assert/strict';
import { StoreWarmUp, warmUpStatus, type WarmUpState, type WarmUpTarget } from '../../../../src/core/checkpoints/storeWarmUp';
import type { CheckpointLimits, CheckpointStore, StoreBuildRun } from '../../../../src/core/ports/checkpoints';

const LIMITS: CheckpointLimits = { maxFileBytes: 1, maxTotalBytes: 2, excludes: [] };

/** A store whose builds the test ends by hand. */
class FakeStore implements Pick<CheckpointStore, 'build'> {
  readonly builds: { folders: readonly string[]; run: StoreBuildRun; finish: (notes?: string[]) => void; fail: (error: Error) => void }[] = [];

  build(folders: readonly string[], _limits: CheckpointLimits, run: StoreBuildRun): Promise<readonly string[]> {
    return new Promise((resolve, reject) => {
      this.builds.push({ folders, run, finish: (notes = []) => resolve(notes), fail: reject });
      run.signal?.addEventListener('abort', () => reject(new Error('stopped')));
    });
  }
}

/** A timer the test fires. */
class ManualTimers {
  readonly pending: { delayMs: number; run: () => void; cancelled: boolean }[] = [];
  schedule = (delayMs: number, run: () => void) => {
    const timer = { delayMs, run, cancelled: false };
    this.pending.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  };
  fireAll(): void {
    for (const timer of this.pending.splice(0)) if (!timer.cancelled) timer.run();
  }
  get live(): number {
    return this.pending.filter((timer) => !timer.cancelled).length;
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StoreWarmUp', () => {
  let store: FakeStore;
  let timers: ManualTimers;
  let target: WarmUpTarget | undefined;
  let states: WarmUpState[];
  let warmUp: StoreWarmUp;

  beforeEach(() => {
    store = new FakeStore();
    timers = new ManualTimers();
    target = { folders: ['/ws'], limits: LIMITS };
    states = [];
    warmUp = new StoreWarmUp(store, () => target, timers.schedule, (state) => states.push(state), 3000);
  });

  it('builds nothing when refreshed: it only sets a timer (nothing on the activation path)', () => {
    warmUp.refresh();
    assert.equal(store.builds.length, 0);
    assert.equal(timers.live, 1);
    assert.equal(timers.pending[0].delayMs, 3000);
  });

  it('builds the folders when the timer fires, and shows the build until it ends', async () => {
    warmUp.refresh();
    timers.fireAll();
    assert.deepEqual(store.builds[0].folders, ['/ws']);
    assert.deepEqual(warmUp.now, { phase: 'building', fraction: 0, waiting: 0 });
    store.builds[0].run.onState?.({ fraction: 0.4, waiting: 1 });
    assert.deepEqual(warmUp.now, { phase: 'building', fraction: 0.4, waiting: 1 });
    store.builds[0].finish();
    await settle();
    assert.deepEqual(warmUp.now, { phase: 'ready', notes: [] });
  });

  it('builds nothing while the workspace is not trusted or checkpoints are off, and builds once that changes', async () => {
    target = undefined;
    warmUp.refresh();
    timers.fireAll();
    assert.equal(store.builds.length, 0);
    target = { folders: ['/ws'], limits: LIMITS };
    warmUp.refresh();
    timers.fireAll();
    assert.equal(store.builds.length, 1);
  });

  it('builds nothing for a workspace without folders on this disk', () => {
    target = { folders: [], limits: LIMITS };
    warmUp.refresh();
    timers.fireAll();
    assert.equal(store.builds.length, 0);
  });

  it('stops a running build when checkpoints are turned off, and shows nothing', async () => {
    warmUp.refresh();
    timers.fireAll();
    target = undefined;
    warmUp.refresh();
    assert.equal(store.builds[0].run.signal?.aborted, true);
    await settle();
    assert.deepEqual(warmUp.now, { phase: 'idle' });
  });

  it('does not build again for the same folders and limits', async () => {
    warmUp.refresh();
    timers.fireAll();
    store.builds[0].finish();
    await settle();
    warmUp.refresh();
    assert.equal(timers.live, 0);
  });

  it('builds again when the folders change, after the running build ends', async () => {
    warmUp.refresh();
    timers.fireAll();
    target = { folders: ['/ws', '/other'], limits: LIMITS };
    warmUp.refresh();
    assert.equal(timers.live, 0, 'nothing new while a build runs');
    store.builds[0].finish();
    await settle();
    timers.fireAll();
    assert.deepEqual(store.builds[1].folders, ['/ws', '/other']);
  });

  it('shows a failed build and does not retry it until the target changes', async () => {
    warmUp.refresh();
    timers.fireAll();
    store.builds[0].fail(new Error('over the cap'));
    await settle();
    assert.deepEqual(warmUp.now, { phase: 'failed', message: 'over the cap' });
    warmUp.refresh();
    assert.equal(timers.live, 0);
  });

  it('stops its build and sets no more state once disposed', async () => {
    warmUp.refresh();
    timers.fireAll();
    const seen = states.length;
    warmUp.dispose();
    await settle();
    assert.equal(store.builds[0].run.signal?.aborted, true);
    assert.equal(states.length, seen);
  });

  it('cancels a pending start when checkpoints are turned off before the timer fires', () => {
    warmUp.refresh();
    target = undefined;
    warmUp.refresh();
    timers.fireAll();
    assert.equal(store.builds.length, 0);
  });
});

describe('warmUpStatus (the status bar)', () => {
  it('shows the build as "preparing undo" with its percentage', () => {
    assert.equal(warmUpStatus({ phase: 'building', fraction: 0.4, waiting: 0 })?.text, '$(sync~spin) preparing undo 40%');
  });

  it('shows that a change waits for the build, in the text and the tooltip', () => {
    const shown = warmUpStatus({ phase: 'building', fraction: 0.4, waiting: 1 });
    assert.equal(shown?.text, '$(sync~spin) preparing undo 40% (waiting)');
    assert.match(shown?.tooltip ?? '', /1 change waits for it/);
  });

  it('shows a failed build with its reason', () => {
    assert.match(warmUpStatus({ phase: 'failed', message: 'over the cap' })?.tooltip ?? '', /over the cap/);
  });

  it('shows nothing once the store is ready, or when there is nothing to build', () => {
    assert.equal(warmUpStatus({ phase: 'ready', notes: [] }), undefined);
    assert.equal(warmUpStatus({ phase: 'idle' }), undefined);
  });
});
