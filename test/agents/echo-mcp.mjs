// @ts-check
// A trivial stdio MCP server for the first end-to-end proof of the terminal agents (FINDINGS.md):
// `echo` returns `echo: <text>`; the others probe a client's limits: `sleep` answers after
// <seconds> (with a progress notification every 10 s when the call has a progress token),
// `destroy` is annotated destructive, `long_description` has a 3,000-character description,
// `big` returns <chars> characters ending with a footer, `structured` returns text content and a
// structuredContent that says something else (which of the two reaches the model). It appends every request it gets
// (method, params, and for calls what happened) and its environment's names to the JSON-lines file
// named by ECHO_MCP_LOG, if set.

import * as fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const logFile = process.env.ECHO_MCP_LOG;
// 3,000 characters: the words up to 2,000 say so, then a marker at 2,040 and one at 2,990.
const LONG_DESCRIPTION = `${'This description is long on purpose. '.repeat(60).slice(0, 2040)}MARK-2040 ${'x'.repeat(940)}MARK-2990`;
/** @param {unknown} entry */
function record(entry) {
  if (logFile) fs.appendFileSync(logFile, JSON.stringify({ at: new Date().toISOString(), ...(/** @type {object} */ (entry)) }) + '\n');
}
record({ event: 'start', argv: process.argv.slice(2), cwd: process.cwd(), env: Object.keys(process.env).sort() });

const server = new Server({ name: 'echo-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  record({ event: 'tools/list', params: request.params });
  return {
    tools: [
      {
        name: 'echo',
        description: 'Echo the text back.',
        inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'What to echo.' } }, required: ['text'], additionalProperties: false },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'sleep',
        description: 'Wait <seconds> seconds, then say so (quiet: without progress notifications).',
        inputSchema: { type: 'object', properties: { seconds: { type: 'number' }, quiet: { type: 'boolean' } }, required: ['seconds'] },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'destroy',
        description: 'Pretend to delete something (annotated destructive).',
        inputSchema: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] },
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
      {
        name: 'long_description',
        description: LONG_DESCRIPTION,
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'big',
        description: 'Return <chars> characters of text, ending with a footer line (parts: also first, and in parts of 8,000 characters).',
        inputSchema: { type: 'object', properties: { chars: { type: 'number' }, parts: { type: 'boolean' } }, required: ['chars'] },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'structured',
        description: 'Return a text content and a structuredContent with an outputSchema.',
        inputSchema: { type: 'object', properties: {} },
        outputSchema: { type: 'object', properties: { said: { type: 'string' } }, required: ['said'] },
        annotations: { readOnlyHint: true },
      },
    ],
  };
});
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  record({ event: 'tools/call', params: request.params });
  const args = /** @type {Record<string, unknown>} */ (request.params.arguments ?? {});
  switch (request.params.name) {
    case 'sleep': {
      const started = Date.now();
      const seconds = Number(args.seconds);
      const token = request.params._meta?.progressToken;
      let aborted = false;
      extra.signal.addEventListener('abort', () => {
        aborted = true;
        record({ event: 'cancelled', name: 'sleep', after: (Date.now() - started) / 1000 });
      });
      for (let t = 0; t < seconds && !aborted; t += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        if (token !== undefined && args.quiet !== true && (t + 1) % 10 === 0) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: t + 1, total: seconds, message: `slept ${t + 1} s` } });
        }
      }
      record({ event: 'returned', name: 'sleep', after: (Date.now() - started) / 1000, aborted });
      return { content: [{ type: 'text', text: `slept ${seconds} s` }] };
    }
    case 'destroy':
      return { content: [{ type: 'text', text: `destroyed ${String(args.what)}` }] };
    case 'long_description':
      return { content: [{ type: 'text', text: 'ok' }] };
    case 'big': {
      const chars = Number(args.chars);
      const footer = '\n[footer: continue at offset 12345]';
      const line = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n';
      const body = line.repeat(Math.ceil(chars / line.length)).slice(0, Math.max(0, chars - footer.length));
      if (args.parts !== true) return { content: [{ type: 'text', text: body + footer }] };
      // As the front sends a long result: the footer also first, as a part of its own, then parts of at most 8,000 characters.
      const parts = body.match(/[^]{1,8000}/g) ?? [];
      return { content: [{ type: 'text', text: '[footer: continue at offset 12345]\n' }, ...parts.map((text) => ({ type: 'text', text })), { type: 'text', text: footer }] };
    }
    case 'structured':
      return { content: [{ type: 'text', text: 'TEXT-CONTENT line one\nline two' }], structuredContent: { said: 'STRUCTURED-CONTENT' } };
    default:
      return { content: [{ type: 'text', text: `echo: ${String(args.text)}` }] };
  }
});
await server.connect(new StdioServerTransport());
server.oninitialized = () => record({ event: 'initialized', client: server.getClientVersion(), capabilities: server.getClientCapabilities() });
