// @ts-check
// The terminal agent of the host bench (test/bench/host), in a process of its own as a real one is:
// the MCP SDK's client on the shipped relay (dist/mcp.js), started in the workspace. Its parent
// sends one message per call; the agent times the call itself and answers with the milliseconds,
// so the messages between the two are not counted and the agent's own work (sending, parsing the
// result) does not load the extension host's event loop, which only serves the call.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** @typedef {{ call: { name: string, arguments: Record<string, unknown> } } | { close: true }} AgentRequest */

const [relay, cwd] = process.argv.slice(2);
const send = (/** @type {unknown} */ message) => process.send?.(message);
const client = new Client({ name: 'bench-agent', version: '1.0.0' });
try {
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [relay], cwd, env: /** @type {Record<string, string>} */ (process.env), stderr: 'ignore' }));
  send({ ready: true });
} catch (error) {
  send({ error: String(error) });
  process.exit(1);
}
process.on('message', (/** @type {AgentRequest} */ request) => {
  if ('close' in request) {
    void client.close().finally(() => process.exit(0));
    return;
  }
  const started = performance.now();
  client.callTool(request.call).then(
    (result) => send(result.isError ? { error: JSON.stringify(result.content) } : { ms: performance.now() - started }),
    (error) => send({ error: String(error) }),
  );
});
