// The terminal agents, from their npm packages, against the real MCP front of this window (issue
// 26 item 5, first step): each is configured with what the palette copies for it (Claude Code: the
// `claude mcp add --scope user ...` command line, run here against a fresh HOME; Codex CLI: the
// [mcp_servers.workspace-agent-tools] table; Gemini CLI: the mcpServers entry), plus what its own
// gate needs to let a headless run call the tools (FINDINGS.md), started non-interactively in the
// workspace and pointed at a scripted model on 127.0.0.1 whose plan calls workspace_read_file and
// ends. Each test checks that the agent offered our tools and sent back, word for word (less the
// agent's own wrapper), what the tool returns through vscode.lm.invokeTool.
//
// Needs the agents installed (node scripts/test-host/agents.mjs) in the cache the runner uses
// (WAT_CACHE_DIR), and dist/ built; an agent that is not installed is skipped. Not part of
// `npm test` yet: run with WAT_TESTS_PATH=out/test/agents/vscode/index.js (see index.ts).
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as vscode from 'vscode';
import { claudeCodeConfig, codexConfig, geminiConfig, mcpServerConfig } from '../../../src/vscode/mcp/configCommands';
import { MCP_SERVER_NAME } from '../../../src/mcp/serverInfo';
import { TOOLS } from '../../../src/core/tools';
import { CommandId } from '../../../src/vscode/commandIds';
import { invoke, REPO, workspaceRoot } from '../../integration/support/tools';

// The scripts are ES modules with top-level await, which require() cannot load: a real import(),
// which TypeScript would compile to require() in this CommonJS build, hence the Function.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;
const load = (file: string): Promise<Record<string, unknown>> => importEsm(pathToFileURL(path.join(REPO, file)).href);

type AgentId = 'claude' | 'codex' | 'gemini';
interface Turn {
  tool?: string;
  input?: Record<string, unknown>;
  text?: string;
}
interface ScriptedModel {
  url: string;
  requests: { kind: string; tools?: string[]; turn?: number; body: unknown }[];
  calls: { name: string }[];
  toolResults(): { id: string; text: string; isError: boolean }[];
  close(): Promise<void>;
}
interface Setup {
  dialect: unknown;
  unwrap(text: string): string;
}
interface Installed {
  command: string;
  args: string[];
}

/** Writes the agent's config into `home` and returns the arguments of its headless run. */
type Configure = (options: { home: string; modelUrl: string; prompt: string; agent: Installed; env: Record<string, string> }) => string[];

const toml = (s: string): string => JSON.stringify(s);
const relay = mcpServerConfig(REPO);

const CONFIGURE: Record<AgentId, Configure> = {
  claude: ({ prompt, agent, env }) => {
    // The palette's command line, word for word (only `claude` is the installed binary).
    const words = claudeCodeConfig(relay).split(' ');
    assert.equal(words[0], 'claude');
    const add = spawnSync(agent.command, [...agent.args, ...words.slice(1)], { cwd: workspaceRoot(), env, encoding: 'utf8' });
    assert.equal(add.status, 0, `claude mcp add failed: ${add.stdout}${add.stderr}`);
    return ['-p', prompt, '--output-format', 'json', '--allowedTools', `mcp__${MCP_SERVER_NAME}`];
  },
  codex: ({ home, modelUrl, prompt, env }) => {
    const codexHome = path.join(home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    env.CODEX_HOME = codexHome;
    env.SCRIPTED_API_KEY = 'sk-scripted';
    const provider = [
      'model = "scripted-model"',
      'model_provider = "scripted"',
      '',
      '[model_providers.scripted]',
      'name = "Scripted"',
      `base_url = ${toml(`${modelUrl}/v1`)}`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      '',
      '[features]',
      'plugins = false',
      'remote_plugin = false',
      '',
    ];
    // The palette's table, then what a headless run needs (FINDINGS.md).
    const table = [codexConfig(relay).trimEnd(), 'required = true', 'default_tools_approval_mode = "approve"'];
    // Codex starts MCP servers with a few variables only: without XDG_RUNTIME_DIR the relay looks
    // for the window's lock file elsewhere (issue 26 item 4). WAT_CODEX_PASS_XDG=1 forwards it.
    if (process.env.WAT_CODEX_PASS_XDG === '1') table.push('env_vars = ["XDG_RUNTIME_DIR"]');
    table.push('');
    fs.writeFileSync(path.join(codexHome, 'config.toml'), [...provider, ...table].join('\n'));
    return ['exec', '--skip-git-repo-check', prompt];
  },
  gemini: ({ home, modelUrl, prompt, env }) => {
    const dir = path.join(home, '.gemini');
    fs.mkdirSync(dir, { recursive: true });
    env.GEMINI_API_KEY = 'scripted-key';
    env.GOOGLE_GEMINI_BASE_URL = modelUrl;
    const settings = JSON.parse(geminiConfig(relay)) as { mcpServers: Record<string, Record<string, unknown>> };
    settings.mcpServers[MCP_SERVER_NAME].trust = true;
    const all = { ...settings, security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } } };
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(all, null, 2));
    fs.writeFileSync(path.join(dir, 'trustedFolders.json'), JSON.stringify({ [workspaceRoot()]: 'TRUST_FOLDER' }, null, 2));
    return ['-p', prompt, '--output-format', 'json'];
  },
};

describe('Terminal agents end to end (npm packages, scripted models, real MCP front)', function () {
  this.timeout(240_000);

  for (const id of ['claude', 'codex', 'gemini'] as const) {
    it(`${id}: lists our tools, calls workspace_read_file, and sends the result back word for word`, async function () {
      const agents = (await load('scripts/test-host/agents.mjs')) as {
        AGENTS: Record<AgentId, { version: string }>;
        agentDir: (a: unknown) => string;
      };
      const pkgBin: Record<AgentId, Installed> = {
        claude: { command: path.join(agents.agentDir(agents.AGENTS.claude), 'node_modules', '.bin', 'claude'), args: [] },
        codex: { command: process.execPath, args: [path.join(agents.agentDir(agents.AGENTS.codex), 'node_modules', '@openai', 'codex', 'bin', 'codex.js')] },
        gemini: { command: process.execPath, args: [path.join(agents.agentDir(agents.AGENTS.gemini), 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js')] },
      };
      const agent = pkgBin[id];
      if (!fs.existsSync(agent.args[0] ?? agent.command)) this.skip();
      const { startScriptedModel } = (await load('scripts/test-host/models/scripted-model.mjs')) as { startScriptedModel: (o: object) => Promise<ScriptedModel> };
      const { SETUPS } = (await load('test/agents/setups.mjs')) as { SETUPS: Record<AgentId, Setup> };
      await vscode.commands.executeCommand(CommandId.mcpStatus);

      const home = fs.mkdtempSync(path.join(os.tmpdir(), `wat-${id}-home-`));
      const read: Turn = { tool: id === 'claude' ? `mcp__${MCP_SERVER_NAME}__workspace_read_file` : 'workspace_read_file', input: { file_path: 'notes.txt' } };
      // Claude Code defers MCP tools behind its ToolSearch: a model loads the tool first.
      const plan: Turn[] = [...(id === 'claude' ? [{ tool: 'ToolSearch', input: { query: `select:${read.tool}`, max_results: 5 } }] : []), read, { text: 'Read it.' }];
      const model = await startScriptedModel({ dialect: SETUPS[id].dialect, plan, log: (line: string) => console.log(`[${id} model] ${line}`) });
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        HOME: home,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'sk-ant-scripted',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      };
      // The relay is started as `node dist/mcp.js` (and the Node CLIs by this Node): the extension
      // host's own Node first on PATH, run as Node.
      env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
      delete env.ELECTRON_RUN_AS_NODE;
      try {
        const args = CONFIGURE[id]({ home, modelUrl: model.url, prompt: 'Read notes.txt with the workspace tools.', agent, env });
        const child = spawn(agent.command, [...agent.args, ...args], { cwd: workspaceRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        assert.equal(code, 0, `${id} exited with ${code}: ${out.slice(-3000)}`);

        // Our tools as the first request names them: in `tools` (Codex, Gemini CLI) or, deferred,
        // in the list of tools ToolSearch can load (Claude Code).
        const first = model.requests.find((r) => r.kind === 'main');
        const deferred = JSON.stringify(first?.body ?? {}).match(new RegExp(`mcp__${MCP_SERVER_NAME}__workspace_[a-z_]+`, 'g')) ?? [];
        const names = [...new Set([...(first?.tools ?? []), ...deferred])].filter((name) => name.includes('workspace_'));
        for (const tool of TOOLS) {
          assert.ok(
            names.some((name) => name === tool.name || name.endsWith(`_${tool.name}`)),
            `${id} did not offer ${tool.name}: ${names.join(', ')}`,
          );
        }
        assert.equal(model.calls.length, plan.length - 1, JSON.stringify(model.calls));
        const expected = (await invoke('workspace_read_file', { file_path: 'notes.txt' })).text;
        const results = model.toolResults();
        const last = results[results.length - 1];
        assert.equal(last.isError, false, last.text);
        assert.equal(SETUPS[id].unwrap(last.text), expected, `${id} sent back ${JSON.stringify(last.text)}`);
        // What was seen, for FINDINGS.md: test-output/agents/vscode-<agent>.json (git-ignored).
        const record = { agent: id, names, calls: model.calls, sentBack: last.text, requests: model.requests };
        fs.mkdirSync(path.join(REPO, 'test-output', 'agents'), { recursive: true });
        fs.writeFileSync(path.join(REPO, 'test-output', 'agents', `vscode-${id}.json`), JSON.stringify(record, null, 2));
      } finally {
        await model.close();
        fs.rmSync(home, { recursive: true, force: true });
      }
    });
  }
});
