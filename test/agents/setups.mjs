// @ts-check
// What each terminal agent needs to run headless against a scripted model server with one MCP
// server: its flags, environment and config files (FINDINGS.md says why each is there).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { anthropic } from '../../scripts/test-host/models/anthropic.mjs';

/**
 * @typedef {object} SetupInput
 * @property {string} home a fresh HOME
 * @property {string} workspace the folder the agent runs in
 * @property {string} modelUrl the scripted model server's base URL
 * @property {{ command: string, args: string[], env?: Record<string, string> }} mcp the MCP server to start
 * @property {string} prompt
 */

/**
 * @typedef {object} Setup
 * @property {import('../../scripts/test-host/models/scripted-model.mjs').Dialect} dialect
 * @property {(input: SetupInput) => { args: string[], env: Record<string, string> }} prepare writes the config files, returns the agent's arguments and environment
 * @property {(server: string, tool: string) => import('../../scripts/test-host/models/scripted-model.mjs').Turn[]} [loadTool] the turns a model takes before it can call a deferred MCP tool
 */

export const MCP_NAME = 'echo';

/** @type {Record<'claude' | 'codex' | 'gemini', Setup>} */
export const SETUPS = {
  claude: {
    dialect: anthropic,
    // Claude Code defers MCP tools: the first request lists them by name only ("available via
    // ToolSearch"), and a model loads one with its ToolSearch tool before calling it.
    loadTool: (server, tool) => [{ tool: 'ToolSearch', input: { query: `select:mcp__${server}__${tool}`, max_results: 5 } }],
    prepare: ({ home, modelUrl, mcp, prompt }) => {
      // User scope, as `claude mcp add --scope user` writes it.
      fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ mcpServers: { [MCP_NAME]: { type: 'stdio', command: mcp.command, args: mcp.args, env: mcp.env ?? {} } } }, null, 2));
      return {
        args: ['-p', prompt, '--output-format', 'json', '--allowedTools', `mcp__${MCP_NAME}`],
        env: {
          ANTHROPIC_BASE_URL: modelUrl,
          ANTHROPIC_API_KEY: 'sk-ant-scripted',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
        },
      };
    },
  },
  codex: /** @type {any} */ (undefined),
  gemini: /** @type {any} */ (undefined),
};
