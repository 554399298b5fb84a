// @ts-check
// The Anthropic Messages API as Claude Code calls it: POST /v1/messages (with ?beta=true), streamed
// as server-sent events when the body says `stream: true`, and POST /v1/messages/count_tokens.
// See scripted-model.mjs.

import { json, sse, startSse } from './scripted-model.mjs';

/** @typedef {import('./scripted-model.mjs').Dialect} Dialect */

let messageCount = 0;

/** @param {any} message */
function blocks(message) {
  return Array.isArray(message?.content) ? message.content : [];
}

/** @type {Dialect} */
export const anthropic = {
  name: 'anthropic',
  isModelRequest: ({ method, path }) => method === 'POST' && /^\/v1\/messages(\?|$)/.test(path),
  offeredTools: (body) => {
    const tools = Array.isArray(body?.tools) ? body.tools.map((/** @type {any} */ t) => String(t.name)) : [];
    // Claude Code's main loop offers its own tools and the MCP tools; side requests (titles,
    // summaries, quota probes) offer none.
    return tools.length ? tools : undefined;
  },
  callsSoFar: (body) => {
    let n = 0;
    for (const m of body?.messages ?? []) if (m.role === 'assistant') n += blocks(m).filter((/** @type {any} */ b) => b.type === 'tool_use').length;
    return n;
  },
  toolResults: (body) => {
    const out = [];
    for (const m of body?.messages ?? []) {
      if (m.role !== 'user') continue;
      for (const b of blocks(m)) {
        if (b.type !== 'tool_result') continue;
        const parts = typeof b.content === 'string' ? [{ type: 'text', text: b.content }] : Array.isArray(b.content) ? b.content : [];
        const text = parts.filter((/** @type {any} */ p) => p.type === 'text').map((/** @type {any} */ p) => p.text).join('\n');
        out.push({ id: String(b.tool_use_id), text, isError: b.is_error === true, raw: b });
      }
    }
    return out;
  },
  respond: (res, answer, { body }) => {
    const id = `msg_scripted_${++messageCount}`;
    const model = String(body?.model ?? 'claude-scripted');
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const block =
      answer.kind === 'tool'
        ? { type: 'tool_use', id: `toolu_${answer.id}`, name: answer.name, input: answer.input }
        : { type: 'text', text: answer.text };
    const stopReason = answer.kind === 'tool' ? 'tool_use' : 'end_turn';
    if (body?.stream !== true) {
      json(res, { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage });
      return;
    }
    startSse(res);
    sse(res, 'message_start', {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    });
    if (answer.kind === 'tool') {
      sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { ...block, input: {} } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(answer.input) } });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answer.text } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
    sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
    sse(res, 'message_stop', { type: 'message_stop' });
    res.end();
  },
  other: (res, { method, path }) => {
    if (method === 'POST' && /^\/v1\/messages\/count_tokens(\?|$)/.test(path)) {
      json(res, { input_tokens: 100 });
      return true;
    }
    return false;
  },
};
