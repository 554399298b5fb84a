// The three kinds of failure a tool call can end in, after VS Code's base/common/errors: a ToolError
// the model can act on, a cancellation (one error, one sentence), and a bug (an invariant broke).
import type { Redaction } from './secrets/redactSecrets';

/** An error whose message is written for the model: what was wrong and what to do next. */
export class ToolError extends Error {
  constructor(
    message: string,
    /** Secrets replaced by markers in the message. */
    readonly redactions: readonly Redaction[] = [],
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** The cancellation half of VS Code's CancellationToken, structurally compatible with it. */
export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** A signal that is never cancelled: for work no call's token may stop (a background command, a user's own restore question). */
export const NEVER_CANCELLED: CancellationSignal = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

/**
 * The call was cancelled. Thrown only where nothing has been changed yet; invokeTool turns it into
 * the one sentence the model sees, naming the tool.
 */
export class CancelledError extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'CancelledError';
  }
}

/** Throws CancelledError when the token asks to stop: checked between the steps of long work. */
export function throwIfCancelled(token: CancellationSignal | undefined): void {
  if (token?.isCancellationRequested) {
    throw new CancelledError();
  }
}

/**
 * An invariant broke: a bug in this extension, never a mistake of the model or the user. Do not
 * throw it for invalid input; that is a ToolError.
 */
export class BugError extends Error {
  constructor(message: string) {
    super(`Internal error: ${message}`);
    this.name = 'BugError';
  }
}

/** What went wrong, in words: an Error's message, or anything else thrown as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
