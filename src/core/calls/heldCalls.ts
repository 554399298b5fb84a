// A call that must answer within a client's time limit (MCP clients cut a call after 60 s or so,
// while a diff review a person takes minutes over goes on): callWithin runs it, and when it has not
// ended a little before the limit, holds it under an id (`r1`, `r2`...) and answers at once that it
// is still waiting, for what and how to ask about it. The call itself goes on untouched in the
// window: one approval, nothing written before it, its checkpoint and its activity record exactly
// as for any call. workspace_review_status waits on the held call through the HeldCalls port and
// hands its answer back once it has one.
import type { CancellationSignal } from '../errors';
import type { Clock } from '../ports/clock';
import type { HeldCallState, HeldCalls, HeldCallWait } from '../ports/heldCalls';
import { describeHeld } from '../tools/reviewStatus';
import { textResult, type Tool, type ToolResult } from '../tools/toolSpec';
import { failureMessage } from './runCall';

/** How long before the client's limit the call answers, and a command it runs moves to the background. */
export const ANSWER_MARGIN_MS = 3_000;

/** Ended held calls whose answer can still be asked for; older ones are forgotten. */
const KEPT_ENDED = 20;

/** What callWithin gives the call it starts, for its CallOrigin. */
export interface HeldCallHooks {
  /** When the call should answer by (CallInfo.returnBy). */
  readonly returnBy: () => number;
  /** The call asks the user something (a diff review, a question), or stopped asking (undefined). */
  readonly onWaiting: (waitingFor: Exclude<HeldCallWait, 'work'> | undefined) => void;
}

class HeldCall {
  waitingFor: Exclude<HeldCallWait, 'work'> | undefined;
  ended: { readonly result: ToolResult } | { readonly error: unknown } | undefined;
  private settledPromise: Promise<void> = Promise.resolve();

  /** answerBy: the latest time someone waits for this call's answer until. */
  constructor(readonly tool: Tool, public answerBy: number) {}

  /** The call's promise, settled without rejecting. */
  get settled(): Promise<void> {
    return this.settledPromise;
  }

  follow(running: Promise<ToolResult>): void {
    this.settledPromise = running.then(
      (result) => {
        this.ended = { result };
      },
      (error: unknown) => {
        this.ended = { error };
      },
    );
  }

  state(): HeldCallState {
    const ended = this.ended;
    if (!ended) {
      return { state: 'waiting', tool: this.tool.name, waitingFor: this.waitingFor ?? 'work' };
    }
    return 'result' in ended ? { state: 'finished', tool: this.tool.name, result: ended.result } : { state: 'failed', tool: this.tool.name, message: failureMessage(this.tool, ended.error) };
  }
}

/** Resolves true when `settled` resolves within `ms`, false when the time (or the token) runs out first. */
function settledWithin(clock: Clock, settled: Promise<void>, ms: number, token?: CancellationSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = clock.setTimeout(() => finish(false), Math.max(0, ms));
    const cancelled = token?.onCancellationRequested(() => finish(false));
    function finish(value: boolean): void {
      timer.dispose();
      cancelled?.dispose();
      resolve(value);
    }
    void settled.then(() => finish(true));
  });
}

/** The held calls of one window. */
export class HeldCallRegistry implements HeldCalls {
  private readonly held = new Map<string, HeldCall>();
  private next = 1;

  /** marginMs: how long before a limit a call answers (tests make it short). */
  constructor(private readonly clock: Clock, private readonly marginMs = ANSWER_MARGIN_MS) {}

  /**
   * Runs `start` and resolves with its result (or rejects with its error) when it ends within
   * `limitMs`; otherwise holds the call and resolves with the words of describeHeld. The call's
   * returnBy is the margin before the limit, and moves when workspace_review_status waits.
   */
  async callWithin(tool: Tool, limitMs: number, start: (hooks: HeldCallHooks) => Promise<ToolResult>): Promise<ToolResult> {
    const call = new HeldCall(tool, this.clock.now() + limitMs);
    const running = start({
      returnBy: () => call.answerBy - this.marginMs,
      onWaiting: (value) => {
        call.waitingFor = value;
      },
    });
    call.follow(running);
    if (await settledWithin(this.clock, call.settled, call.answerBy - this.clock.now() - this.marginMs / 2)) {
      return running;
    }
    const id = `r${this.next++}`;
    this.held.set(id, call);
    void call.settled.then(() => this.forgetOldEnded());
    const state = call.state();
    // It may have ended just now: then its own answer, as if it had been in time.
    return state.state === 'waiting' ? textResult(describeHeld(id, tool.name, state.waitingFor)) : running;
  }

  async wait(id: string, untilMs: number, token: CancellationSignal): Promise<HeldCallState | undefined> {
    const call = this.held.get(id);
    if (!call) {
      return undefined;
    }
    call.answerBy = Math.max(call.answerBy, untilMs);
    await settledWithin(this.clock, call.settled, untilMs - this.clock.now(), token);
    return call.state();
  }

  ids(): readonly string[] {
    return [...this.held.keys()];
  }

  private forgetOldEnded(): void {
    const ended = [...this.held].filter(([, call]) => call.ended);
    for (const [id] of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED))) {
      this.held.delete(id);
    }
  }
}
