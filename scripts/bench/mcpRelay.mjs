// @ts-check
// A read's round trip through the MCP relay against the same call in process. The relay is the
// shipped dist/mcp.js, started by the SDK's stdio client as an agent starts it; behind it is a real
// endpoint (out/src/mcp/endpoint.js: private socket, nonce handshake, SDK framing) whose SDK server
// runs the call through core's invokeTool, as the extension's endpoint does. What is left out: the
// extension host's own share (settings read, activity record), which the in-host tests exercise.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { printTable, ratio } from './measure.mjs';
import { ourContext, ourTool } from './ourContext.mjs';

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** @type {typeof import('../../src/mcp/endpoint.js')} */
const { McpEndpoint } = require(path.join(repo, 'out/src/mcp/endpoint.js'));
/** @type {typeof import('../../src/mcp/privateFolder.js')} */
const { RUNTIME_DIR_VARIABLE } = require(path.join(repo, 'out/src/mcp/privateFolder.js'));
/** @type {typeof import('../../src/core/tools/invoke.js')} */
const { invokeTool } = require(path.join(repo, 'out/src/core/tools/invoke.js'));

/** @param {import('./measure.mjs').BenchContext} context */
export async function benchMcpRelay({ log }) {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'wat-bench-mcp-ws-'));
  const runtime = path.join(mkdtempSync(path.join(os.tmpdir(), 'wat-bench-mcp-')), 'run');
  const lines = Array.from({ length: 500 }, (_, index) => `line ${index + 1}: the quick brown fox jumps over the lazy dog`).join('\n');
  writeFileSync(path.join(workspace, 'read.txt'), `${lines}\n`);
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  const tool = ourTool('workspace_read_file');
  const ctx = ourContext({ root: workspace });
  const input = { file_path: 'read.txt', limit: 500 };

  const endpoint = await McpEndpoint.start(
    {
      dir: runtime,
      onSession: (transport) => {
        const server = new Server({ name: 'bench', version: '1' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: tool.name, inputSchema: { type: 'object' } }] }));
        server.setRequestHandler(CallToolRequestSchema, async (request) => {
          const result = await invokeTool(tool, request.params.arguments, ctx);
          return { content: result.parts.map((part) => (part.kind === 'text' ? { type: /** @type {const} */ ('text'), text: part.text } : { type: /** @type {const} */ ('text'), text: '' })) };
        });
        void server.connect(transport);
      },
    },
    { folders: [workspace], trusted: true, app: 'bench' },
  );
  const client = new Client({ name: 'bench-agent', version: '1' });
  const env = /** @type {Record<string, string>} */ ({ ...process.env, [RUNTIME_DIR_VARIABLE]: runtime });
  const started = performance.now();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'dist/mcp.js')], cwd: path.join(workspace, 'src'), env }));
  const connectMs = performance.now() - started;
  try {
    // Interleaved, after a warm-up of both, so a busy machine slows both sides alike.
    const direct = () => invokeTool(tool, input, ctx);
    const viaRelay = () => client.callTool({ name: tool.name, arguments: input });
    for (let i = 0; i < 20; i += 1) {
      await direct();
      await viaRelay();
    }
    /** @type {number[]} */
    const inProcessTimes = [];
    /** @type {number[]} */
    const relayedTimes = [];
    const timed = async (/** @type {() => Promise<unknown>} */ fn) => {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    };
    for (let i = 0; i < 101; i += 1) {
      inProcessTimes.push(await timed(direct));
      relayedTimes.push(await timed(viaRelay));
    }
    const median = (/** @type {number[]} */ times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    const inProcess = median(inProcessTimes);
    const relayed = median(relayedTimes);
    const check = await client.callTool({ name: tool.name, arguments: input });
    const chars = JSON.stringify(check.content).length;
    printTable(log, ['read_file, 500 lines', 'median ms', 'ratio'], [
      ['in process (invokeTool)', inProcess.toFixed(2), '1.00x'],
      ['agent → dist/mcp.js → socket → endpoint', relayed.toFixed(2), ratio(relayed, inProcess)],
    ]);
    log(`relay overhead per call: ${(relayed - inProcess).toFixed(2)} ms for a ${chars}-character result; starting the relay and connecting: ${connectMs.toFixed(0)} ms`);
  } finally {
    await client.close();
    endpoint.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(path.dirname(runtime), { recursive: true, force: true });
  }
}
