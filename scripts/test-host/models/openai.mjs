// @ts-check
// Two OpenAI APIs: Responses as Codex CLI calls it through a custom model provider
// (`wire_api = "responses"`): POST <base_url>/responses, streamed as server-sent events, the
// conversation sent whole in `input` each time (openaiResponses); and Chat Completions as Copilot
// Chat's Custom Endpoint models call it (openaiChat, at the end). See scripted-model.mjs.

import { json, sse, startSse } from './scripted-model.mjs';

/** @typedef {import('./scripted-model.mjs').Dialect} Dialect */

let responseCount = 0;

/**
 * The names of the tools a Responses request offers: a function by its name, a function inside a
 * namespace tool (`{ type: 'namespace', name: 'mcp__echo', tools: [{ name: 'echo' }] }`, how Codex
 * offers an MCP server's tools) as `<namespace>__<name>`; the call then names both (see split).
 * @param {any[]} tools
 * @returns {string[]}
 */
function toolNames(tools) {
  /** @type {string[]} */
  const names = [];
  for (const t of tools) {
    if (t?.type === 'namespace' && Array.isArray(t.tools)) {
      for (const inner of t.tools) if (typeof inner?.name === 'string') names.push(`${t.name}__${inner.name}`);
    } else if (typeof t?.name === 'string') names.push(t.name);
  }
  return names;
}

/**
 * A plan's tool name as the call names it: `{ namespace, name }` when it is a namespace's function.
 * @param {any} body
 * @param {string} name
 * @returns {{ namespace?: string, name: string }}
 */
function split(body, name) {
  for (const t of Array.isArray(body?.tools) ? body.tools : []) {
    if (t?.type !== 'namespace' || !Array.isArray(t.tools)) continue;
    for (const inner of t.tools) if (`${t.name}__${inner?.name}` === name) return { namespace: t.name, name: inner.name };
  }
  return { name };
}

/** @param {any} item */
function outputText(item) {
  const o = item?.output;
  if (typeof o === 'string') return o;
  if (Array.isArray(o)) return o.filter((p) => typeof p?.text === 'string').map((p) => p.text).join('\n');
  if (o && typeof o.content === 'string') return o.content;
  return JSON.stringify(o);
}

/** @type {Dialect} */
export const openaiResponses = {
  name: 'openai-responses',
  isModelRequest: ({ method, path }) => method === 'POST' && /\/responses(\?|$)/.test(path),
  offeredTools: (body) => {
    const tools = Array.isArray(body?.tools) ? toolNames(body.tools) : [];
    return tools.length ? tools : undefined;
  },
  callsSoFar: (body) => (Array.isArray(body?.input) ? body.input.filter((/** @type {any} */ i) => i?.type === 'function_call' || i?.type === 'custom_tool_call').length : 0),
  toolResults: (body) =>
    (Array.isArray(body?.input) ? body.input : [])
      .filter((/** @type {any} */ i) => i?.type === 'function_call_output' || i?.type === 'custom_tool_call_output')
      .map((/** @type {any} */ i) => ({ id: String(i.call_id), text: outputText(i), isError: i?.output?.success === false, raw: i })),
  respond: (res, answer, { body }) => {
    const id = `resp_scripted_${++responseCount}`;
    const model = String(body?.model ?? 'scripted');
    const item =
      answer.kind === 'tool'
        ? { type: 'function_call', id: `fc_${answer.id}`, call_id: answer.id, ...split(body, answer.name), arguments: JSON.stringify(answer.input), status: 'completed' }
        : { type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
    const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
    const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'completed', model, output: [item], usage };
    if (body?.stream !== true) {
      json(res, response);
      return;
    }
    startSse(res);
    sse(res, 'response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
    sse(res, 'response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: answer.kind === 'tool' ? { ...item, arguments: '' } : { ...item, content: [] } });
    if (answer.kind === 'text') sse(res, 'response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: answer.text });
    sse(res, 'response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
    sse(res, 'response.completed', { type: 'response.completed', response });
    res.end();
  },
  other: (res, { method, path }) => {
    if (method === 'GET' && /\/models(\?|$)/.test(path)) {
      json(res, { object: 'list', data: [], models: [] });
      return true;
    }
    return false;
  },
};

/**
 * A chat-completions message's text: a string, or the text of its content parts.
 * @param {any} content
 */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((p) => typeof p?.text === 'string').map((p) => p.text).join('\n');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

let completionCount = 0;

/**
 * The OpenAI Chat Completions API as an OpenAI-compatible client calls it (VS Code's Copilot Chat
 * with a `customendpoint` model, `apiType: "chat-completions"`): POST <base>/v1/chat/completions,
 * the conversation sent whole in `messages`, tools as `{ type: 'function', function: { name,
 * parameters } }`, streamed as `chat.completion.chunk` events ending with `data: [DONE]` when the
 * body says `stream: true`. See scripted-model.mjs.
 * @type {Dialect}
 */
export const openaiChat = {
  name: 'openai-chat',
  isModelRequest: ({ method, path }) => method === 'POST' && /\/chat\/completions(\?|$)/.test(path),
  offeredTools: (body) => {
    const tools = Array.isArray(body?.tools) ? body.tools.map((/** @type {any} */ t) => String(t?.function?.name ?? t?.name)) : [];
    return tools.length ? tools : undefined;
  },
  callsSoFar: (body) => {
    let n = 0;
    for (const m of Array.isArray(body?.messages) ? body.messages : []) if (m?.role === 'assistant' && Array.isArray(m.tool_calls)) n += m.tool_calls.length;
    return n;
  },
  toolResults: (body) =>
    (Array.isArray(body?.messages) ? body.messages : [])
      .filter((/** @type {any} */ m) => m?.role === 'tool')
      .map((/** @type {any} */ m) => ({ id: String(m.tool_call_id), text: contentText(m.content), isError: false, raw: m })),
  respond: (res, answer, { body }) => {
    const id = `chatcmpl-scripted-${++completionCount}`;
    const model = String(body?.model ?? 'scripted');
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const finish = answer.kind === 'tool' ? 'tool_calls' : 'stop';
    const call = answer.kind === 'tool' ? { id: answer.id, type: 'function', function: { name: answer.name, arguments: JSON.stringify(answer.input) } } : undefined;
    if (body?.stream !== true) {
      const message = call ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: answer.kind === 'text' ? answer.text : '' };
      json(res, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
      return;
    }
    /** @param {object} delta @param {string | null} finishReason */
    const chunk = (delta, finishReason) => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
    startSse(res);
    if (call) {
      sse(res, undefined, chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, ...call, function: { name: call.function.name, arguments: '' } }] }, null));
      sse(res, undefined, chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }, null));
    } else {
      sse(res, undefined, chunk({ role: 'assistant', content: '' }, null));
      sse(res, undefined, chunk({ content: answer.kind === 'text' ? answer.text : '' }, null));
    }
    sse(res, undefined, { ...chunk({}, finish), usage });
    res.write('data: [DONE]\n\n');
    res.end();
  },
  other: (res, { method, path }) => {
    if (method === 'GET' && /\/models(\?|$)/.test(path)) {
      json(res, { object: 'list', data: [] });
      return true;
    }
    return false;
  },
};
