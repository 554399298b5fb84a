// Claude Code, from its npm package, against the real MCP front of this window (issue 26 item 5,
// first step): configured with the exact command the palette copies (`claude mcp add --scope user
// workspace-agent-tools -- node <extension>/dist/mcp.js`, run here against a fresh HOME), started
// non-interactively (`claude -p`) in the workspace, pointed at a scripted Anthropic model on
// 127.0.0.1 whose plan loads our read tool through Claude Code's ToolSearch, calls it and ends. The
// test checks that Claude Code offered our tools and sent back, word for word, what the tool returns
// through vscode.lm.invokeTool.
//
// Needs the agent installed (node scripts/test-host/agents.mjs claude) in the cache the runner
// uses (WAT_CACHE_DIR), and dist/ built. Skipped when the agent is not installed.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as vscode from 'vscode';
import { claudeCodeConfig, mcpServerConfig } from '../../../src/vscode/mcp/configCommands';
import { MCP_SERVER_NAME } from '../../../src/mcp/serverInfo';
import { CommandId } from '../../../src/vscode/commandIds';
import { invoke, REPO, workspaceRoot } from '../../integration/support/tools';

// The scripts are ES modules with top-level await, which require() cannot load: a real import(),
// which TypeScript would compile to require() in this CommonJS build, hence the Function.
interface ScriptedModel {
  url: string;
  requests: { kind: string; tools?: string[]; turn?: number }[];
  calls: { name: string }[];
  toolResults(): { id: string; text: string; isError: boolean }[];
  close(): Promise<void>;
}
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;
const load = (file: string): Promise<Record<string, unknown>> => importEsm(pathToFileURL(path.join(REPO, file)).href);


describe('Claude Code end to end (npm package, scripted model, real MCP front)', function () {
  this.timeout(240_000);

  it('lists our tools, loads and calls workspace_read_file, and sends the result back word for word', async function () {
    const agents = (await load('scripts/test-host/agents.mjs')) as { AGENTS: { claude: unknown }; agentDir: (a: unknown) => string };
    const claude = path.join(agents.agentDir(agents.AGENTS.claude), 'node_modules', '.bin', 'claude');
    if (!fs.existsSync(claude)) this.skip();
    const { startScriptedModel } = (await load('scripts/test-host/models/scripted-model.mjs')) as { startScriptedModel: (o: object) => Promise<ScriptedModel> };
    const { anthropic } = await load('scripts/test-host/models/anthropic.mjs');
    await vscode.commands.executeCommand(CommandId.mcpStatus);

    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-claude-home-'));
    const tool = `mcp__${MCP_SERVER_NAME}__workspace_read_file`;
    const model = await startScriptedModel({
      dialect: anthropic,
      plan: [
        { tool: 'ToolSearch', input: { query: `select:${tool}`, max_results: 5 } },
        { tool, input: { file_path: 'notes.txt' } },
        { text: 'Read it.' },
      ],
      log: (line: string) => console.log(`[model] ${line}`),
    });
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      HOME: home,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-ant-scripted',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    // The relay is started as `node dist/mcp.js`: the extension host's own Node on PATH first.
    env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
    delete env.ELECTRON_RUN_AS_NODE;
    try {
      // The palette's command line, word for word (only `claude` is the installed binary).
      const words = claudeCodeConfig(mcpServerConfig(REPO)).split(' ');
      assert.equal(words[0], 'claude');
      const add = spawnSync(claude, words.slice(1), { cwd: workspaceRoot(), env, encoding: 'utf8' });
      assert.equal(add.status, 0, `claude mcp add failed: ${add.stdout}${add.stderr}`);

      const child = spawn(claude, ['-p', 'Read notes.txt with the workspace tools.', '--output-format', 'json', '--allowedTools', `mcp__${MCP_SERVER_NAME}`], {
        cwd: workspaceRoot(),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, `claude -p exited with ${code}: ${out.slice(-3000)}`);

      const main = model.requests.filter((r) => r.kind === 'main');
      const offered = main[main.length - 1]?.tools ?? [];
      assert.ok(offered.includes(tool), `Claude Code offered ${offered.join(', ')}`);
      assert.deepEqual(
        model.calls.map((c) => c.name),
        ['ToolSearch', tool],
      );
      const expected = (await invoke('workspace_read_file', { file_path: 'notes.txt' })).text;
      const results = model.toolResults();
      assert.equal(results.length, 2, JSON.stringify(results));
      assert.equal(results[1].isError, false, results[1].text);
      assert.equal(results[1].text, expected);
      console.log(`Claude Code sent back: ${JSON.stringify(results[1].text)}`);
    } finally {
      await model.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
