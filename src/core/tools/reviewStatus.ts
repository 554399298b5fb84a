// workspace_review_status: the answer of a call the client stopped waiting for. An MCP client cuts
// a call after its time limit; the MCP front then holds a call still waiting for the user's review
// (or still running) under an id and answers with it (calls/heldCalls.ts). This tool waits for
// that call, as long as the client can wait, and returns its result once it has one.
import { throwIfCancelled, ToolError } from '../errors';
import type { HeldCallWait } from '../ports/heldCalls';
import { oneLine } from '../text/truncate';
import { defineTool, type Tool } from './toolSpec';

export interface ReviewStatusInput {
  id: string;
}

/** How long a call waits when its client has no time limit (chat). */
const WAIT_WITHOUT_LIMIT_MS = 5 * 60_000;

/** The words of a held call still waiting: the held call's own answer, and this tool's while it still waits. */
export function describeHeld(id: string, tool: string, waitingFor: HeldCallWait): string {
  const again = `Call workspace_review_status with id "${id}" to wait for it: it returns this call's result once there is one. Do not repeat the ${tool} call.`;
  switch (waitingFor) {
    case 'review':
      return `Waiting for the user's review (review ${id}): the user is still reviewing this change in VS Code, and nothing is written unless they accept. ${again}`;
    case 'question':
      return `Waiting for the user's answer (review ${id}): VS Code is still asking the user whether to allow this call, and nothing runs unless they allow it. ${again}`;
    default:
      return `Still running (review ${id}): ${tool} has not finished yet and goes on in VS Code. ${again}`;
  }
}

export const reviewStatusTool: Tool = defineTool<ReviewStatusInput>({
  name: 'workspace_review_status',
  displayName: 'Wait for a Review',
  toolReferenceName: 'workspaceReviewStatus',
  icon: '$(watch)',
  // It only waits for an answer: allowed wherever reads are (plan mode, Restricted Mode).
  access: 'read',
  userDescription: 'Wait for the answer of a call that was still waiting for your review when the agent had to move on.',
  modelDescription: [
    'Wait for a call that answered "Waiting for the user\'s review (review r<n>)" or "Still running (review r<n>)": the user was still reviewing its change in VS Code (or the call was still running) when your client\'s time limit came, and it goes on there.',
    'id: that id, e.g. "r1". Returns that call\'s own result once the user answered and it ended (the edit written, or why not), or the same "waiting" line again if it is still waiting: then call this again. Never repeat the original call: it would ask the user a second time.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The id from the "waiting" answer, e.g. "r1".' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  invocationMessage: (input) => `Waiting for review ${oneLine(input.id, 20)}`,

  async run(input, ctx) {
    const held = ctx.session.heldCalls;
    const id = input.id.trim();
    const until = ctx.call.returnBy?.() ?? ctx.host.clock.now() + WAIT_WITHOUT_LIMIT_MS;
    const state = held ? await held.wait(id, until, ctx.call.token) : undefined;
    throwIfCancelled(ctx.call.token);
    if (!held || !state) {
      const ids = held?.ids() ?? [];
      throw new ToolError(`No call is held under the id ${JSON.stringify(oneLine(input.id, 20))}. ${ids.length ? `The held calls are: ${ids.join(', ')}.` : 'No call is held now: ids come from a call that answered "Waiting for the user\'s review (review r<n>)", and are forgotten some time after that call ended.'}`);
    }
    if (state.state === 'failed') {
      throw new ToolError(`Review ${id} (${state.tool}) ended with an error: ${state.message}`);
    }
    if (state.state === 'waiting') {
      return { parts: [{ kind: 'text', text: describeHeld(id, state.tool, state.waitingFor) }] };
    }
    // The headline joins the result's first text part: clients show each part apart (or wrap each).
    const headline = `Review ${id} (${state.tool}) has ended; its result:`;
    const [first, ...rest] = state.result.parts;
    const parts = first?.kind === 'text' ? [{ ...first, text: `${headline}\n${first.text}` }, ...rest] : [{ kind: 'text' as const, text: headline }, ...state.result.parts];
    return { ...state.result, parts };
  },
});
