// The terminal agents, from their npm packages, against the real MCP front of this window (issue
// 26 item 5, first step): each is configured with what the palette copies for it (Claude Code: the
// `claude mcp add --scope user ...` command line, run here against a fresh HOME; Codex CLI: the
// [mcp_servers.workspace-agent-tools] table Connect an Agent writes; Gemini CLI: the mcpServers entry), plus what its own
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
import { claudeCodeConfig, geminiConfig, mcpServerConfig } from '../../../src/vscode/mcp/configCommands';
import { codexTable } from '../../../src/vscode/mcp/agentConfigs';
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
type Configure = (options: { home: string; modelUrl: string; prompt: string; agent: Installed; env: Record<string, string>; codexProvider: (modelUrl: string) => string[] }) => string[];

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
  codex: ({ home, modelUrl, prompt, env, codexProvider }) => {
    const codexHome = path.join(home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    env.CODEX_HOME = codexHome;
    env.SCRIPTED_API_KEY = 'sk-scripted';
    // The entry Connect an Agent writes (required, per-server approval, XDG_RUNTIME_DIR forwarded:
    // the test host gives the window a runtime folder of its own, which the relay cannot guess).
    const table = codexTable(relay);
    fs.writeFileSync(path.join(codexHome, 'config.toml'), [...codexProvider(modelUrl), table].join('\n'));
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

/** What one headless run of an agent saw. */
interface Run {
  model: ScriptedModel;
  setup: Setup;
  output: string;
  code: number | null;
}

/** The installed agent, or undefined when it is not in the cache. */
async function installed(id: AgentId): Promise<Installed | undefined> {
  const agents = (await load('scripts/test-host/agents.mjs')) as { AGENTS: Record<AgentId, unknown>; agentDir: (a: unknown) => string };
  const dir = agents.agentDir(agents.AGENTS[id]);
  const bins: Record<AgentId, Installed> = {
    claude: { command: path.join(dir, 'node_modules', '.bin', 'claude'), args: [] },
    codex: { command: process.execPath, args: [path.join(dir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js')] },
    gemini: { command: process.execPath, args: [path.join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js')] },
  };
  return fs.existsSync(bins[id].args[0] ?? bins[id].command) ? bins[id] : undefined;
}

/** A plan turn calling one of our tools, named as `id`'s plans name it. */
function ours(id: AgentId, tool: string, input: Record<string, unknown>): Turn {
  return { tool: id === 'claude' ? `mcp__${MCP_SERVER_NAME}__${tool}` : tool, input };
}

/** Claude Code defers MCP tools behind its ToolSearch: a model loads them first. */
function loadFirst(id: AgentId, tools: string[]): Turn[] {
  return id === 'claude' ? [{ tool: 'ToolSearch', input: { query: `select:${tools.map((t) => `mcp__${MCP_SERVER_NAME}__${t}`).join(',')}`, max_results: 5 } }] : [];
}

/** Runs agent `id` headless in the workspace against a scripted model with `plan`; `whileRunning` runs beside it. */
async function runAgent(id: AgentId, agent: Installed, plan: Turn[], prompt: string, whileRunning?: (done: () => boolean) => Promise<void>): Promise<Run> {
  const { startScriptedModel } = (await load('scripts/test-host/models/scripted-model.mjs')) as { startScriptedModel: (o: object) => Promise<ScriptedModel> };
  const { SETUPS, codexProvider } = (await load('test/agents/setups.mjs')) as { SETUPS: Record<AgentId, Setup>; codexProvider: (modelUrl: string) => string[] };
  await vscode.commands.executeCommand(CommandId.mcpStatus);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `wat-${id}-home-`));
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
    const args = CONFIGURE[id]({ home, modelUrl: model.url, prompt, agent, env, codexProvider });
    const child = spawn(agent.command, [...agent.args, ...args], { cwd: workspaceRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    let exited = false;
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => ((exited = true), resolve(code))));
    const [code] = await Promise.all([closed, whileRunning?.(() => exited)]);
    return { model, setup: SETUPS[id], output, code };
  } finally {
    await model.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** Keeps what was seen, for FINDINGS.md: test-output/agents/vscode-<name>.json (git-ignored). */
function keep(name: string, record: object): void {
  fs.mkdirSync(path.join(REPO, 'test-output', 'agents'), { recursive: true });
  fs.writeFileSync(path.join(REPO, 'test-output', 'agents', `vscode-${name}.json`), JSON.stringify(record, null, 2));
}

/** The last tool result the agent sent back, less the agent's wrapper. */
function lastResult(run: Run): { text: string; isError: boolean; raw: string } {
  const results = run.model.toolResults();
  const last = results[results.length - 1];
  assert.ok(last, `no tool result was sent back: ${run.output.slice(-2000)}`);
  return { text: run.setup.unwrap(last.text), isError: last.isError, raw: last.text };
}

describe('Terminal agents end to end (npm packages, scripted models, real MCP front)', function () {
  this.timeout(240_000);

  for (const id of ['claude', 'codex', 'gemini'] as const) {
    it(`${id}: lists our tools, calls workspace_read_file, and sends the result back word for word`, async function () {
      const agent = await installed(id);
      if (!agent) this.skip();
      const plan: Turn[] = [...loadFirst(id, ['workspace_read_file']), ours(id, 'workspace_read_file', { file_path: 'notes.txt' }), { text: 'Read it.' }];
      const run = await runAgent(id, agent, plan, 'Read notes.txt with the workspace tools.');
      assert.equal(run.code, 0, `${id} exited with ${run.code}: ${run.output.slice(-3000)}`);
      // Our tools as the first request names them: in `tools` (Codex, Gemini CLI) or, deferred,
      // in the list of tools ToolSearch can load (Claude Code).
      const first = run.model.requests.find((r) => r.kind === 'main');
      const deferred = JSON.stringify(first?.body ?? {}).match(new RegExp(`mcp__${MCP_SERVER_NAME}__workspace_[a-z_]+`, 'g')) ?? [];
      const names = [...new Set([...(first?.tools ?? []), ...deferred])].filter((name) => name.includes('workspace_'));
      for (const tool of TOOLS) {
        assert.ok(
          names.some((name) => name === tool.name || name.endsWith(`_${tool.name}`)),
          `${id} did not offer ${tool.name}: ${names.join(', ')}`,
        );
      }
      assert.equal(run.model.calls.length, plan.length - 1, JSON.stringify(run.model.calls));
      const expected = (await invoke('workspace_read_file', { file_path: 'notes.txt' })).text;
      const last = lastResult(run);
      keep(id, { agent: id, names, calls: run.model.calls, sentBack: last.raw, requests: run.model.requests });
      assert.equal(last.isError, false, last.raw);
      assert.equal(last.text, expected, `${id} sent back ${JSON.stringify(last.raw)}`);
    });
  }

  for (const id of ['claude', 'codex', 'gemini'] as const) {
    it(`${id}: edits through a diff review accepted after 90 s, runs a 70 s command, and sends both results back`, async function () {
      this.timeout(600_000);
      const agent = await installed(id);
      if (!agent) this.skip();
      const file = `agent-${id}.txt`;
      fs.writeFileSync(path.join(workspaceRoot(), file), 'one\ntwo\nthree\n');
      const plan: Turn[] = [
        ...loadFirst(id, ['workspace_read_file', 'workspace_edit_file', 'workspace_run_command']),
        ours(id, 'workspace_read_file', { file_path: file }),
        ours(id, 'workspace_edit_file', { file_path: file, old_string: 'two', new_string: 'TWO' }),
        ours(id, 'workspace_run_command', { command: 'sleep 70 && echo slept-70', timeout: 120 }),
        { text: 'Edited and ran.' },
      ];
      const seen: { at: number; title: string }[] = [];
      const started = Date.now();
      const run = await runAgent(id, agent, plan, `Change two to TWO in ${file}, then run the slow command.`, async (done) => {
        // Every question the window asks: the first (the edit's diff review) after 90 s, the rest at once.
        while (!done()) {
          const pending = await vscode.commands.executeCommand<{ title: string }[]>(CommandId.listPendingApprovals);
          if (pending.length > 0) {
            seen.push({ at: (Date.now() - started) / 1000, title: pending[0].title });
            if (seen.length === 1) await new Promise((resolve) => setTimeout(resolve, 90_000));
            await vscode.commands.executeCommand<boolean>(CommandId.approve);
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      });
      const results = run.model.toolResults().map((r) => ({ ...r, text: run.setup.unwrap(r.text) }));
      keep(`${id}-review`, { agent: id, approvals: seen, seconds: (Date.now() - started) / 1000, calls: run.model.calls, results, output: run.output.slice(-4000) });
      assert.equal(run.code, 0, `${id} exited with ${run.code}: ${run.output.slice(-3000)}`);
      assert.ok(seen.length >= 1, 'no diff review was asked');
      assert.equal(fs.readFileSync(path.join(workspaceRoot(), file), 'utf8'), 'one\nTWO\nthree\n');
      assert.equal(run.model.calls.length, plan.length - 1, JSON.stringify(run.model.calls));
      const [edit, command] = results.slice(-2);
      assert.equal(edit.isError, false, edit.text);
      assert.match(command.text, /slept-70/, command.text);
    });
  }
});
