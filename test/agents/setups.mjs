// @ts-check
// What each terminal agent needs to run headless against a scripted model server with one MCP
// server: its flags, environment and config files (FINDINGS.md says why each is there).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { anthropic } from '../../scripts/test-host/models/anthropic.mjs';
import { gemini } from '../../scripts/test-host/models/gemini.mjs';
import { openaiResponses } from '../../scripts/test-host/models/openai.mjs';

/** A TOML basic string (TOML takes JSON's escapes). @param {string} s */
const toml = (s) => JSON.stringify(s);

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
 * @property {(text: string) => string} unwrap the tool's own result text from what the agent sends the model
 * @property {(server: string, tool: string) => import('../../scripts/test-host/models/scripted-model.mjs').Turn[]} [loadTool] the turns a model takes before it can call a deferred MCP tool
 */

export const MCP_NAME = 'echo';

/**
 * The lines of Codex's config.toml that point it at the scripted model (a custom provider with the
 * Responses API), before any MCP server table.
 * @param {string} modelUrl
 * @returns {string[]}
 */
export function codexProvider(modelUrl) {
  return [
    'model = "scripted-model"',
    'model_provider = "scripted"',
    '',
    '[model_providers.scripted]',
    'name = "Scripted"',
    `base_url = ${toml(`${modelUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "SCRIPTED_API_KEY"',
    '',
    // Offline, the curated-plugin sync (git, then GitHub's API) fails slowly (seconds) and makes
    // the start-up race of optional servers worse (an optional server missed the first request in
    // 3 of 3 runs with it on).
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    '',
  ];
}

/** @type {Record<'claude' | 'codex' | 'gemini', Setup>} */
export const SETUPS = {
  claude: {
    dialect: anthropic,
    unwrap: (text) => text,
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
  codex: {
    dialect: openaiResponses,
    // Codex sends an MCP result as input_text parts, the first "Wall time: <s> seconds\nOutput:".
    unwrap: (text) => text.replace(/^Wall time: [\d.]+ seconds\nOutput:\n/, ''),
    prepare: ({ home, modelUrl, mcp, prompt }) => {
      const codexHome = path.join(home, '.codex');
      fs.mkdirSync(codexHome, { recursive: true });
      const env = Object.entries(mcp.env ?? {}).map(([k, v]) => `${k} = ${toml(v)}`).join(', ');
      fs.writeFileSync(
        path.join(codexHome, 'config.toml'),
        [
          ...codexProvider(modelUrl),
          `[mcp_servers.${MCP_NAME}]`,
          `command = ${toml(mcp.command)}`,
          `args = [${mcp.args.map(toml).join(', ')}]`,
          `env = { ${env} }`,
          // An optional server gets 1 s after the turn starts (mcp_optional_startup_grace_ms) and
          // is left out of that request if it has not listed its tools by then: the tools were
          // missing from the first request in about 1 run of 4 here. A required server is waited for.
          'required = true',
          // The per-call limit, 300 s by default whatever the progress (FINDINGS.md); WAT_CODEX_TOOL_TIMEOUT_SEC raises it.
          ...(process.env.WAT_CODEX_TOOL_TIMEOUT_SEC ? [`tool_timeout_sec = ${Number(process.env.WAT_CODEX_TOOL_TIMEOUT_SEC)}`] : []),
          // Codex asks before a call of a tool annotated destructive, and with approval_policy
          // "never" (exec's default) that is a refusal: "MCP tool call requires approval, but
          // approval policy is never". "approve" runs every tool of the server without asking.
          ...(process.env.WAT_CODEX_APPROVAL === 'default' ? [] : [`default_tools_approval_mode = ${toml(process.env.WAT_CODEX_APPROVAL ?? 'approve')}`]),
          '',
        ].join('\n'),
      );
      return {
        args: ['exec', '--skip-git-repo-check', prompt],
        env: { CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'sk-scripted', ...(process.env.RUST_LOG ? { RUST_LOG: process.env.RUST_LOG } : {}) },
      };
    },
  },
  gemini: {
    dialect: gemini,
    // Gemini CLI wraps an MCP result's text: {"output": "<untrusted_context>\n...\n</untrusted_context>"}.
    unwrap: (text) => text.replace(/^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/, '$1'),
    prepare: ({ home, workspace, modelUrl, mcp, prompt }) => {
      const dir = path.join(home, '.gemini');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'settings.json'),
        JSON.stringify(
          {
            // trust: the server's tools run without Gemini CLI's own confirmation, which a headless
            // run cannot give (its tools are left out of the request without it).
            // timeout: the per-call limit in ms, 600,000 by default whatever the progress (FINDINGS.md);
            // WAT_GEMINI_TOOL_TIMEOUT_MS raises it.
            mcpServers: {
              [MCP_NAME]: {
                command: mcp.command,
                args: mcp.args,
                env: mcp.env ?? {},
                trust: true,
                ...(process.env.WAT_GEMINI_TOOL_TIMEOUT_MS ? { timeout: Number(process.env.WAT_GEMINI_TOOL_TIMEOUT_MS) } : {}),
              },
            },
            security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } },
          },
          null,
          2,
        ),
      );
      fs.writeFileSync(path.join(dir, 'trustedFolders.json'), JSON.stringify({ [workspace]: 'TRUST_FOLDER' }, null, 2));
      return {
        args: ['-p', prompt, '--output-format', 'json', ...(process.env.WAT_GEMINI_ARGS ? process.env.WAT_GEMINI_ARGS.split(' ') : [])],
        env: { GEMINI_API_KEY: 'scripted-key', GOOGLE_GEMINI_BASE_URL: modelUrl },
      };
    },
  },
};
