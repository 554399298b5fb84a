// Who made the tool call now running, for the questions it asks: an MCP client's approvals say
// "Claude Code wants to ..." so the user knows which agent is asking. Carried through the call's
// async work by AsyncLocalStorage, so the approval queue and the diff review need no new arguments.
import { AsyncLocalStorage } from 'node:async_hooks';

const caller = new AsyncLocalStorage<string>();

/** Runs `body` with `label` as the caller its questions name. */
export function runAsCaller<T>(label: string | undefined, body: () => Promise<T>): Promise<T> {
  return label === undefined ? body() : caller.run(label, body);
}

/** The name of the client whose call is asking, if it is one that must be named (MCP). */
export function currentCaller(): string | undefined {
  return caller.getStore();
}
