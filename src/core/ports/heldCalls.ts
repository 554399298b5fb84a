// Calls a client stopped waiting for: an MCP client cuts a call after its time limit, while a diff
// review a person takes minutes over, or a command, goes on in the window. Such a call is held under
// an id, and workspace_review_status waits for it and hands its answer back.
import type { CancellationSignal } from '../errors';
import type { ToolResult } from '../result';

/** What a held call is waiting for: the user's diff review, the user's answer to a question, or its own work. */
export type HeldCallWait = 'review' | 'question' | 'work';

/** A held call as it is now. */
export type HeldCallState =
  | { readonly state: 'finished'; readonly tool: string; readonly result: ToolResult }
  | { readonly state: 'failed'; readonly tool: string; readonly message: string }
  | { readonly state: 'waiting'; readonly tool: string; readonly waitingFor: HeldCallWait };

/** The calls of this window that were held. */
export interface HeldCalls {
  /**
   * Waits until the held call `id` ends, `untilMs` (the clock's time) passes or the token is
   * cancelled, and says what it is now; undefined when no call is held under that id. The held
   * call's own answer-by time (CallInfo.returnBy) moves to just before `untilMs`, so a command it
   * runs comes back in time.
   */
  wait(id: string, untilMs: number, token: CancellationSignal): Promise<HeldCallState | undefined>;
  /** The ids held now, newest last. */
  ids(): readonly string[];
}
