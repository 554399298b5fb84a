// When the checkpoint store is built: in the background, shortly after the window starts in a
// trusted workspace or when the workspace becomes trusted, never on the activation path and never
// when checkpoints are off. Built again (an up-to-date store costs one `git status` per folder) when
// the folders or what is recorded change; stopped when checkpoints are turned off. The host says
// what the workspace is now (`current`) and when it may have changed (`refresh`), and shows the
// state (the status bar).
import type { CheckpointLimits, CheckpointStore, StoreBuildState } from '../ports/checkpoints';
import { errorMessage } from '../errors';

/** What the store is doing, for the status bar. */
export type WarmUpState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'building'; readonly fraction: number; readonly waiting: number }
  | { readonly phase: 'ready'; readonly notes: readonly string[] }
  | { readonly phase: 'failed'; readonly message: string };

/** What to build now: the folders checkpoints record and their limits; undefined while checkpoints are off or the workspace is not trusted. */
export interface WarmUpTarget {
  readonly folders: readonly string[];
  readonly limits: CheckpointLimits;
}

/** A timer: the host's, so tests decide when it fires. */
export type Schedule = (delayMs: number, run: () => void) => { cancel(): void };

/** How long after the window starts (or the workspace changes) the build begins: out of the way of activation and the first reads. */
export const WARM_UP_DELAY_MS = 3000;

/** The status bar's words for the checkpoint store's build: shown while it runs, or when it failed. */
export function warmUpStatus(state: WarmUpState): { text: string; tooltip: string } | undefined {
  if (state.phase === 'building') {
    const percent = `${Math.floor(state.fraction * 100)}%`;
    const waiting = state.waiting > 0 ? `; ${state.waiting} change${state.waiting === 1 ? '' : 's'} wait${state.waiting === 1 ? 's' : ''} for it to record ${state.waiting === 1 ? 'its' : 'their'} "before"` : '';
    return {
      text: `$(sync~spin) preparing undo ${percent}${state.waiting > 0 ? ' (waiting)' : ''}`,
      tooltip: `Checkpoints: recording the workspace's files for Restore (${percent} hashed) at low priority${waiting}. Reads do not wait for it.`,
    };
  }
  if (state.phase === 'failed') {
    return { text: '$(warning) undo not prepared', tooltip: `Checkpoints: the store could not be prepared; each change will try again. ${state.message}` };
  }
  return undefined;
}

export class StoreWarmUp {
  private pending: { cancel(): void } | undefined;
  private running: { readonly key: string; readonly stop: AbortController } | undefined;
  /** The target the store was last built for (built, or failed: not tried again until it changes). */
  private doneKey: string | undefined;
  private state: WarmUpState = { phase: 'idle' };
  private disposed = false;

  constructor(
    private readonly store: Pick<CheckpointStore, 'build'>,
    private readonly current: () => WarmUpTarget | undefined,
    private readonly schedule: Schedule,
    private readonly onState: (state: WarmUpState) => void,
    private readonly delayMs: number = WARM_UP_DELAY_MS,
  ) {}

  /** The state now. */
  get now(): WarmUpState {
    return this.state;
  }

  /** The workspace, its trust or the settings may have changed: builds, or stops a build, as they now say. */
  refresh(): void {
    if (this.disposed || !this.store.build) {
      return;
    }
    const target = this.current();
    if (!target || target.folders.length === 0) {
      this.cancelPending();
      this.running?.stop.abort();
      this.doneKey = undefined;
      this.setState({ phase: 'idle' });
      return;
    }
    const key = JSON.stringify(target);
    if (this.running) {
      // The running build ends first; its end refreshes again if the target moved on.
      return;
    }
    if (key === this.doneKey) {
      return;
    }
    this.cancelPending();
    this.pending = this.schedule(this.delayMs, () => {
      this.pending = undefined;
      void this.start();
    });
  }

  private async start(): Promise<void> {
    const target = this.current();
    const build = this.store.build?.bind(this.store);
    if (this.disposed || this.running || !target || target.folders.length === 0 || !build) {
      return;
    }
    const key = JSON.stringify(target);
    const stop = new AbortController();
    this.running = { key, stop };
    this.setState({ phase: 'building', fraction: 0, waiting: 0 });
    try {
      const notes = await build(target.folders, target.limits, {
        signal: stop.signal,
        onState: (state: StoreBuildState) => {
          if (!stop.signal.aborted) {
            this.setState({ phase: 'building', ...state });
          }
        },
      });
      this.doneKey = key;
      this.setState({ phase: 'ready', notes });
    } catch (error) {
      if (stop.signal.aborted) {
        this.setState({ phase: 'idle' });
      } else {
        this.doneKey = key;
        this.setState({ phase: 'failed', message: errorMessage(error) });
      }
    } finally {
      this.running = undefined;
    }
    this.refresh();
  }

  private cancelPending(): void {
    this.pending?.cancel();
    this.pending = undefined;
  }

  private setState(state: WarmUpState): void {
    this.state = state;
    if (!this.disposed) {
      this.onState(state);
    }
  }

  /** Stops any build (the window closes). */
  dispose(): void {
    this.cancelPending();
    this.running?.stop.abort();
    this.disposed = true;
  }
}
