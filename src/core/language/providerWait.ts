// A language provider's answer within a time limit: a language server that never answers must not
// hold a call forever, and the model is told which one did not answer.
import { CancelledError, type CancellationSignal, ToolError } from '../errors';
import type { Clock, Timer } from '../ports/clock';

/** How long a query waits for a language provider (a language server may still be starting). */
export const PROVIDER_WAIT_MS = 30_000;

/** The provider's answer, or a ToolError naming the language and what was asked when it takes longer than `ms`. */
export async function answerWithin<T>(answer: Promise<T>, ms: number, token: CancellationSignal, what: string, clock: Clock): Promise<T> {
  let timer: Timer | undefined;
  let unsubscribe: { dispose(): void } | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = clock.setTimeout(() => reject(new ToolError(`${what} did not answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}; its language server may still be starting or be stuck. Try again shortly, or use workspace_grep.`)), ms);
    unsubscribe = token.onCancellationRequested(() => reject(new CancelledError()));
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    timer?.dispose();
    unsubscribe?.dispose();
  }
}
