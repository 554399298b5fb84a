// @ts-check
// A scripted model server on 127.0.0.1 for the end-to-end tests of the terminal agents (docs/design.md
// section 7, issue 26 item 5). It speaks one model API (a "dialect": Anthropic Messages, OpenAI
// Responses, Gemini generateContent; see the files beside this one) and answers the agent's main
// loop with a fixed plan: a list of turns, each a tool call or a final text. Every request is
// recorded (path, headers, body) so a test can check word for word what the agent sent back.
//
// Which turn to answer is read from the conversation the agent sends, not counted per request:
// turn k is answered when the request carries k earlier tool calls of this plan. So a retried
// request gets the same answer, and side requests (titles, token counts, quota probes, a "next
// speaker" check) do not move the plan. A request is part of the main loop when the dialect says so
// (it offers tools); every other request gets `sideText` as a plain answer.
//
// Usage:
//   import { startScriptedModel } from './scripted-model.mjs';
//   const model = await startScriptedModel({ dialect: anthropic, plan: [
//     { tool: 'echo', input: { text: 'hi' } },   // a tool call; the name is resolved, see resolveToolName
//     { text: 'Done.' },                          // the final answer
//   ] });
//   ... model.url ...; model.requests; model.toolResults(); await model.close();

import * as http from 'node:http';

/**
 * One turn of the plan.
 * @typedef {{ tool: string, input: Record<string, unknown> } | { text: string }} Turn
 */

/**
 * One recorded request.
 * @typedef {object} RecordedRequest
 * @property {number} at ms since the server started
 * @property {string} method
 * @property {string} path with the query
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {any} body the parsed JSON body (or the raw text, or undefined)
 * @property {'main' | 'side' | 'other'} kind
 * @property {number} [turn] the plan's turn answered (main requests)
 * @property {string[]} [tools] the tool names offered (main requests)
 */

/**
 * A tool result the agent sent back, in a common shape.
 * @typedef {object} ToolResult
 * @property {string} id the call's id
 * @property {string} text the result's text parts joined with a newline
 * @property {boolean} isError whether the agent marked it as an error
 * @property {any} raw the dialect's own result object
 */

/**
 * A model API.
 * @typedef {object} Dialect
 * @property {string} name
 * @property {(req: { method: string, path: string, body: any }) => boolean} isModelRequest a request this dialect answers (else 404)
 * @property {(body: any, path: string) => string[] | undefined} offeredTools the tool names a main-loop request offers; undefined for side requests
 * @property {(body: any) => number} callsSoFar how many tool calls the model made in the conversation the request carries
 * @property {(body: any) => ToolResult[]} toolResults the tool results the request carries
 * @property {(res: http.ServerResponse, answer: Answer, req: { body: any, path: string }) => void} respond writes the answer (streamed if the request asks)
 * @property {(res: http.ServerResponse, req: { method: string, path: string, body: any }) => boolean} [other] answers a non-model request (model lists ...); true if answered
 */

/**
 * What to answer: a tool call or text.
 * @typedef {{ kind: 'tool', id: string, name: string, input: Record<string, unknown> } | { kind: 'text', text: string }} Answer
 */

/**
 * The name of the tool a plan turn means among the tools offered: the exact name if offered, else
 * the one offered name that ends with `__<name>` or `_<name>` (how agents prefix MCP tools:
 * `mcp__server__tool`, `mcp_server_tool`), else the name as written.
 * @param {string} name
 * @param {string[]} offered
 */
export function resolveToolName(name, offered) {
  if (offered.includes(name)) return name;
  const matches = offered.filter((o) => o.endsWith(`__${name}`));
  if (matches.length === 1) return matches[0];
  const loose = offered.filter((o) => o.endsWith(`_${name}`));
  if (loose.length === 1) return loose[0];
  return name;
}

/**
 * @param {object} options
 * @param {Dialect} options.dialect
 * @param {Turn[]} options.plan
 * @param {string} [options.sideText] the answer to side requests
 * @param {(lastResult: string) => { tool: string, input: Record<string, unknown> } | undefined} [options.follow]
 *   a follow-up call to make instead of the plan's next turn, chosen from the text of the last tool
 *   result (e.g. wait on a call that answered with a review id); follow-ups do not move the plan
 * @param {(line: string) => void} [options.log]
 */
export async function startScriptedModel({ dialect, plan, sideText = 'OK', follow, log = () => {} }) {
  const started = Date.now();
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {{ turn: number, name: string, id: string, followUp?: boolean }[]} */
  const calls = [];
  let finished = false;
  /** @type {(() => void)[]} */
  const onFinished = [];

  const server = http.createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      /** @type {any} */
      let body = raw.length ? raw : undefined;
      try {
        if (raw.length) body = JSON.parse(raw);
      } catch {
        // keep the text
      }
      const path = req.url ?? '/';
      const method = req.method ?? 'GET';
      /** @type {RecordedRequest} */
      const record = { at: Date.now() - started, method, path, headers: req.headers, body, kind: 'other' };
      requests.push(record);
      try {
        if (!dialect.isModelRequest({ method, path, body })) {
          if (dialect.other?.(res, { method, path, body })) return;
          log(`${method} ${path}: 404`);
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `scripted model: no ${method} ${path}` } }));
          return;
        }
        const offered = dialect.offeredTools(body, path);
        if (!offered) {
          record.kind = 'side';
          log(`${method} ${path}: side request`);
          dialect.respond(res, { kind: 'text', text: sideText }, { body, path });
          return;
        }
        record.kind = 'main';
        record.tools = offered;
        const turn = dialect.callsSoFar(body);
        record.turn = turn;
        /** Answers with a call of `step`'s tool, recorded under this turn. @param {{ tool: string, input: Record<string, unknown> }} step @param {boolean} followUp */
        const callTool = (step, followUp) => {
          const name = resolveToolName(step.tool, offered);
          const id = `call_${turn + 1}`;
          calls[turn] = followUp ? { turn, name, id, followUp } : { turn, name, id };
          log(`${method} ${path}: turn ${turn}: ${followUp ? 'follow-up ' : ''}call ${name}`);
          dialect.respond(res, { kind: 'tool', id, name, input: step.input }, { body, path });
        };
        const results = turn > 0 ? dialect.toolResults(body) : [];
        const followUp = results.length ? follow?.(results[results.length - 1].text) : undefined;
        if (followUp) {
          callTool(followUp, true);
          return;
        }
        // The plan's step: the calls so far, less the follow-ups among them.
        const stepIndex = turn - calls.slice(0, turn).filter((call) => call?.followUp).length;
        const step = plan[Math.min(stepIndex, plan.length - 1)];
        if (stepIndex >= plan.length) log(`turn ${turn} is past the plan (${plan.length} turns): repeating the last`);
        if ('tool' in step) {
          callTool(step, false);
        } else {
          log(`${method} ${path}: turn ${turn}: text`);
          dialect.respond(res, { kind: 'text', text: step.text }, { body, path });
          if (stepIndex === plan.length - 1 && !finished) {
            finished = true;
            for (const f of onFinished.splice(0)) f();
          }
        }
      } catch (e) {
        log(`${method} ${path}: ${e instanceof Error ? e.stack : e}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(e) } }));
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('scripted model: no port');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    port: address.port,
    requests,
    /** The calls the model made, in order: the resolved tool names and ids (follow-ups marked). */
    calls,
    /** The main-loop requests. */
    mainRequests: () => requests.filter((r) => r.kind === 'main'),
    /** The tool results carried by the last main-loop request (every result of the conversation). */
    toolResults: () => {
      const main = requests.filter((r) => r.kind === 'main');
      return main.length ? dialect.toolResults(main[main.length - 1].body) : [];
    },
    /** Resolves when the final text was sent. */
    finished: () => (finished ? Promise.resolve() : new Promise((resolve) => onFinished.push(() => resolve(undefined)))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve(undefined));
      }),
  };
}

/**
 * Writes one server-sent event.
 * @param {http.ServerResponse} res
 * @param {string | undefined} event
 * @param {unknown} data
 */
export function sse(res, event, data) {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

/** @param {http.ServerResponse} res */
export function startSse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

/**
 * @param {http.ServerResponse} res
 * @param {unknown} data
 */
export function json(res, data, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(data));
}
