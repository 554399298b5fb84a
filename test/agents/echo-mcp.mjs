// @ts-check
// A trivial stdio MCP server for the first end-to-end proof of the terminal agents (FINDINGS.md):
// one tool, `echo`, which returns `echo: <text>`. It appends every request it gets (method, params)
// and its environment's names to the JSON-lines file named by ECHO_MCP_LOG, if set.

import * as fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const logFile = process.env.ECHO_MCP_LOG;
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
    ],
  };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  record({ event: 'tools/call', params: request.params });
  const args = /** @type {Record<string, unknown>} */ (request.params.arguments ?? {});
  return { content: [{ type: 'text', text: `echo: ${String(args.text)}` }] };
});
await server.connect(new StdioServerTransport());
server.oninitialized = () => record({ event: 'initialized', client: server.getClientVersion(), capabilities: server.getClientCapabilities() });
