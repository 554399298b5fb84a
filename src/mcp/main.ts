// Entry point of dist/mcp.js (esbuild bundles it alone; it never loads vscode).
import { runRelay } from './relay';

declare const MCP_RELAY_VERSION: string | undefined;

const version = typeof MCP_RELAY_VERSION === 'string' ? MCP_RELAY_VERSION : '0.0.0-dev';
runRelay(process.argv.slice(2), version).catch((error: unknown) => {
  process.stderr.write(`workspace-agent-tools: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
