// @ts-check
// The Gemini API as Gemini CLI calls it with an API key and GOOGLE_GEMINI_BASE_URL:
// POST /v1beta/models/<model>:streamGenerateContent?alt=sse (server-sent events, one
// GenerateContentResponse per event), :generateContent (plain JSON; the CLI's side questions) and
// :countTokens. See scripted-model.mjs.

import { json, sse, startSse } from './scripted-model.mjs';

/** @typedef {import('./scripted-model.mjs').Dialect} Dialect */

/** @param {any} body */
function parts(body) {
  /** @type {any[]} */
  const out = [];
  for (const c of Array.isArray(body?.contents) ? body.contents : []) for (const p of Array.isArray(c?.parts) ? c.parts : []) out.push({ role: c.role, part: p });
  return out;
}

/** @param {any} response a functionResponse's response */
function responseText(response) {
  if (typeof response?.output === 'string') return response.output;
  if (typeof response?.error === 'string') return response.error;
  if (Array.isArray(response?.content)) return response.content.filter((/** @type {any} */ p) => typeof p?.text === 'string').map((/** @type {any} */ p) => p.text).join('\n');
  return JSON.stringify(response);
}

/**
 * A value that fits a response schema (the CLI's side questions ask for JSON: a routing
 * classifier's complexity score, a "next speaker" check): an enum's first value, 1, false, [],
 * `text` for strings, every property of an object.
 * @param {any} schema
 * @param {string} text
 * @returns {unknown}
 */
export function sampleFor(schema, text) {
  if (!schema || typeof schema !== 'object') return text;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  switch (String(schema.type ?? '').toLowerCase()) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleFor(v, text)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    default:
      return text;
  }
}

/** @type {Dialect} */
export const gemini = {
  name: 'gemini',
  isModelRequest: ({ method, path }) => method === 'POST' && /:(streamGenerateContent|generateContent)(\?|$)/.test(path),
  offeredTools: (body, path) => {
    if (!/:streamGenerateContent/.test(path)) return undefined;
    const names = [];
    for (const t of Array.isArray(body?.tools) ? body.tools : []) for (const f of Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : []) names.push(String(f.name));
    return names.length ? names : undefined;
  },
  callsSoFar: (body) => parts(body).filter((p) => p.role === 'model' && p.part?.functionCall).length,
  toolResults: (body) =>
    parts(body)
      .filter((p) => p.part?.functionResponse)
      .map(({ part }) => ({ id: String(part.functionResponse.id ?? part.functionResponse.name), text: responseText(part.functionResponse.response), isError: part.functionResponse.response?.error !== undefined, raw: part.functionResponse })),
  respond: (res, answer, { body, path }) => {
    const model = /models\/([^:]+):/.exec(path)?.[1] ?? 'gemini-scripted';
    const schema = body?.generationConfig?.responseJsonSchema ?? body?.generationConfig?.responseSchema;
    const text = answer.kind === 'text' && body?.generationConfig?.responseMimeType === 'application/json' ? JSON.stringify(sampleFor(schema, answer.text)) : answer.kind === 'text' ? answer.text : '';
    const part = answer.kind === 'tool' ? { functionCall: { id: answer.id, name: answer.name, args: answer.input } } : { text };
    const response = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: model,
      responseId: `scripted-${Date.now()}`,
    };
    if (!/:streamGenerateContent/.test(path)) {
      json(res, response);
      return;
    }
    startSse(res);
    sse(res, undefined, response);
    res.end();
  },
  other: (res, { method, path }) => {
    if (method === 'POST' && /:countTokens(\?|$)/.test(path)) {
      json(res, { totalTokens: 100 });
      return true;
    }
    return false;
  },
};
