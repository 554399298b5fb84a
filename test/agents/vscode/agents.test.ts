// The terminal agents, from their npm packages at pinned versions, against the real MCP front of
// this window (issue 26 item 5): each is connected with what Connect an Agent writes into its own
// config file (answered here like a person answers its diff review), plus what its own gate needs
// for a headless run (FINDINGS.md), started non-interactively in the workspace and pointed at a
// scripted model on 127.0.0.1. The three run side by side. Each must list our tools and send back,
// word for word, what workspace_read_file returns through vscode.lm.invokeTool; then edit a file
// through a diff review the test accepts only after REVIEW_SECONDS (when that is longer than the
// time within which the client's calls answer, ANSWER_WITHIN, the edit answers with a review id
// and the model waits on with workspace_review_status), and run a command of COMMAND_SECONDS (past
// that time it moves to the background, and the model reads on with workspace_command_output).
// Nothing may be left running. WAT_AGENT_REVIEW_SECONDS and WAT_AGENT_COMMAND_SECONDS make the proof longer (3 and 10
// minutes: see FINDINGS.md).
//
// Needs the agents installed (node scripts/test-host/agents.mjs, which `npm run test:agents` runs)
// in the cache the runner uses (WAT_CACHE_DIR), and dist/ built; an agent that is not installed is
// skipped unless WAT_AGENTS_REQUIRED is set (CI sets it).
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as vscode from 'vscode';
import { MCP_SERVER_NAME } from '../../../src/mcp/serverInfo';
import { TOOLS } from '../../../src/core/tools';
import { CommandId } from '../../../src/vscode/commandIds';
import { invoke, REPO, workspaceRoot } from '../../integration/support/tools';
import { processesWhere } from '../../support/procfs';
import { until } from '../../support/until';

// The scripts are ES modules with top-level await, which require() cannot load: a real import(),
// which TypeScript would compile to require() in this CommonJS build, hence the Function.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;
const load = (file: string): Promise<Record<string, unknown>> => importEsm(pathToFileURL(path.join(REPO, file)).href);

type AgentId = 'claude' | 'codex' | 'gemini';
const AGENT_IDS: readonly AgentId[] = ['claude', 'codex', 'gemini'];
interface Turn {
  tool?: string;
  input?: Record<string, unknown>;
  text?: string;
}
interface ScriptedModel {
  url: string;
  requests: { kind: string; tools?: string[]; turn?: number; body: unknown }[];
  calls: { name: string; followUp?: boolean }[];
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
  version: string;
}

const REVIEW_SECONDS = Number(process.env.WAT_AGENT_REVIEW_SECONDS ?? 90);
const COMMAND_SECONDS = Number(process.env.WAT_AGENT_COMMAND_SECONDS ?? 70);
/** Seconds within which each agent's calls answer (mcp.answerWithinSeconds, longer for clients known to wait longer). */
const ANSWER_WITHIN: Record<AgentId, number> = { claude: 45, codex: 240, gemini: 540 };

/** The installed agent (its pinned version), or undefined when it is not in the cache. */
async function installed(id: AgentId): Promise<Installed | undefined> {
  const agents = (await load('scripts/test-host/agents.mjs')) as { AGENTS: Record<AgentId, { pkg: string; version: string }>; agentDir: (a: unknown) => string };
  const dir = agents.agentDir(agents.AGENTS[id]);
  const bins: Record<AgentId, Omit<Installed, 'version'>> = {
    claude: { command: path.join(dir, 'node_modules', '.bin', 'claude'), args: [] },
    codex: { command: process.execPath, args: [path.join(dir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js')] },
    gemini: { command: process.execPath, args: [path.join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js')] },
  };
  const { pkg, version } = agents.AGENTS[id];
  return fs.existsSync(bins[id].args[0] ?? bins[id].command) ? { ...bins[id], version: `${pkg}@${version}` } : undefined;
}

/**
 * A scripted model's follow-up to an answer that says a call goes on: wait on a held review with
 * workspace_review_status, read on a command that moved to the background with
 * workspace_command_output (which waits for the end, as long as the client allows).
 */
function followHeldCalls(text: string): Turn | undefined {
  const held = /(?:Waiting for the user's (?:review|answer)|Still running) \(review (r\d+)\)/.exec(text);
  if (held) return { tool: 'workspace_review_status', input: { id: held[1] } };
  const running = /\bid: (bg\d+)\b/.exec(text);
  if (running && /\bStatus: running\b/.test(text)) return { tool: 'workspace_command_output', input: { id: running[1], timeout: 600 } };
  return undefined;
}

/** Runs one step at a time: the questions Connect an Agent asks are answered as the oldest. */
let configuring: Promise<unknown> = Promise.resolve();

/** Writes our entry into the agent's own config file under `home` with Connect an Agent, accepting its diff review. */
function connect(id: AgentId, home: string): Promise<void> {
  const step = configuring.then(async () => {
    const result = vscode.commands.executeCommand<{ outcome: string; file?: string; reason?: string }>(CommandId.connectAgent, { agent: id, home });
    await until(async () => (await vscode.commands.executeCommand<unknown[]>(CommandId.listPendingApprovals)).length > 0, `Connect an Agent's question for ${id}`, 10_000);
    assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve), `Connect an Agent asked nothing for ${id}`);
    const { outcome, reason } = await result;
    assert.equal(outcome, 'written', `Connect an Agent for ${id}: ${outcome} ${reason ?? ''}`);
  });
  configuring = step.catch(() => undefined);
  return step;
}

/**
 * Prepares `home` for agent `id` (what Connect an Agent writes, plus the agent's own settings for a
 * headless run, FINDINGS.md) and returns the arguments of its headless run.
 */
async function configure(id: AgentId, home: string, modelUrl: string, prompt: string, env: Record<string, string>): Promise<string[]> {
  const { codexProvider } = (await load('test/agents/setups.mjs')) as { codexProvider: (modelUrl: string) => string[] };
  if (id === 'codex') {
    const codexHome = path.join(home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    env.CODEX_HOME = codexHome;
    env.SCRIPTED_API_KEY = 'sk-scripted';
    // The model provider first; Connect an Agent appends our table.
    fs.writeFileSync(path.join(codexHome, 'config.toml'), `${codexProvider(modelUrl).join('\n')}\n`);
  }
  if (id === 'gemini') {
    const dir = path.join(home, '.gemini');
    fs.mkdirSync(dir, { recursive: true });
    env.GEMINI_API_KEY = 'scripted-key';
    env.GOOGLE_GEMINI_BASE_URL = modelUrl;
    // Gemini CLI's auth and trusted folder, which a headless run needs and Connect an Agent leaves to the user.
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } } }, null, 2));
    fs.writeFileSync(path.join(dir, 'trustedFolders.json'), JSON.stringify({ [workspaceRoot()]: 'TRUST_FOLDER' }, null, 2));
  }
  await connect(id, home);
  return {
    // Claude Code's own permission gate in a headless run: our server's tools allowed (the person approves in VS Code).
    claude: ['-p', prompt, '--output-format', 'json', '--allowedTools', `mcp__${MCP_SERVER_NAME}`],
    codex: ['exec', '--skip-git-repo-check', prompt],
    gemini: ['-p', prompt, '--output-format', 'json'],
  }[id];
}

/** A plan turn calling one of our tools, named as `id`'s plans name it. */
function ours(id: AgentId, tool: string, input: Record<string, unknown>): Turn {
  return { tool: id === 'claude' ? `mcp__${MCP_SERVER_NAME}__${tool}` : tool, input };
}

/** What one headless run of an agent saw. */
interface Run {
  model: ScriptedModel;
  setup: Setup;
  output: string;
  code: number | null;
  seconds: number;
}

/** Runs agent `id` headless in the workspace against a scripted model with `plan`. */
async function runAgent(id: AgentId, agent: Installed, plan: Turn[], prompt: string): Promise<Run> {
  const { startScriptedModel } = (await load('scripts/test-host/models/scripted-model.mjs')) as { startScriptedModel: (o: object) => Promise<ScriptedModel> };
  const { SETUPS } = (await load('test/agents/setups.mjs')) as { SETUPS: Record<AgentId, Setup> };
  await vscode.commands.executeCommand(CommandId.mcpStatus);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `wat-${id}-home-`));
  const follow = (text: string): Turn | undefined => {
    const next = followHeldCalls(SETUPS[id].unwrap(text));
    return next && ours(id, next.tool!, next.input!);
  };
  const model = await startScriptedModel({ dialect: SETUPS[id].dialect, plan, follow, log: (line: string) => console.log(`[${id} model] ${line}`) });
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
  const started = Date.now();
  try {
    const args = await configure(id, home, model.url, prompt, env);
    const child = spawn(agent.command, [...agent.args, ...args], { cwd: workspaceRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
    return { model, setup: SETUPS[id], output, code, seconds: (Date.now() - started) / 1000 };
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

/** The tool results the agent sent back, less the agent's wrapper. */
function results(run: Run): { text: string; isError: boolean; raw: string }[] {
  return run.model.toolResults().map((result) => ({ text: run.setup.unwrap(result.text), isError: result.isError, raw: result.text }));
}

/** The living processes whose command line has `text`, as `<pid> <command line>`. */
function processesWith(text: string): string[] {
  return processesWhere((line) => line.includes(text)).map(({ pid, commandLine }) => `${pid} ${commandLine}`);
}

/** Each agent's run, or why there is none (not installed). */
type Runs = Partial<Record<AgentId, Run | Error>>;

/** Runs `flow` for every installed agent side by side. */
async function forEachAgent(agents: Partial<Record<AgentId, Installed>>, flow: (id: AgentId, agent: Installed) => Promise<Run>): Promise<Runs> {
  const runs: Runs = {};
  await Promise.all(AGENT_IDS.map(async (id) => {
    const agent = agents[id];
    if (!agent) return;
    runs[id] = await flow(id, agent).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  }));
  return runs;
}

function runOf(runs: Runs, id: AgentId, context: Mocha.Context): Run {
  const run = runs[id];
  if (!run) context.skip();
  if (run instanceof Error) throw run;
  assert.equal(run.code, 0, `${id} exited with ${run.code}: ${run.output.slice(-3000)}`);
  return run;
}

describe('Terminal agents end to end (npm packages, scripted models, real MCP front)', function () {
  const agents: Partial<Record<AgentId, Installed>> = {};

  before(async function () {
    for (const id of AGENT_IDS) {
      const agent = await installed(id);
      if (agent) agents[id] = agent;
      else if (process.env.WAT_AGENTS_REQUIRED) throw new Error(`${id} is not installed: run node scripts/test-host/agents.mjs`);
    }
    console.log(`Agents: ${AGENT_IDS.map((id) => agents[id]?.version ?? `${id} not installed`).join(', ')}; review ${REVIEW_SECONDS} s, command ${COMMAND_SECONDS} s`);
  });

  describe('list and read', function () {
    this.timeout(300_000);
    let runs: Runs = {};
    before(async function () {
      this.timeout(300_000);
      runs = await forEachAgent(agents, (id, agent) => runAgent(id, agent, [ours(id, 'workspace_read_file', { file_path: 'notes.txt' }), { text: 'Read it.' }], 'Read notes.txt with the workspace tools.'));
    });

    for (const id of AGENT_IDS) {
      it(`${id}: lists every tool up front, calls workspace_read_file, and sends the result back word for word`, async function () {
        const run = runOf(runs, id, this);
        // Our tools in the first request's `tools`: Connect an Agent's entry loads them up front (Claude Code's alwaysLoad).
        const first = run.model.requests.find((r) => r.kind === 'main');
        const names = (first?.tools ?? []).filter((name) => name.includes('workspace_'));
        for (const tool of TOOLS) {
          assert.ok(names.some((name) => name === tool.name || name.endsWith(`_${tool.name}`)), `${id} did not offer ${tool.name}: ${names.join(', ')}`);
        }
        assert.equal(run.model.calls.length, 1, JSON.stringify(run.model.calls));
        const expected = (await invoke('workspace_read_file', { file_path: 'notes.txt' })).text;
        const [read] = results(run);
        keep(id, { agent: id, names, calls: run.model.calls, sentBack: read?.raw, requests: run.model.requests });
        assert.ok(read, `no tool result was sent back: ${run.output.slice(-2000)}`);
        assert.equal(read.isError, false, read.raw);
        assert.equal(read.text, expected, `${id} sent back ${JSON.stringify(read.raw)}`);
      });
    }
  });

  describe(`a diff review of ${REVIEW_SECONDS} s and a command of ${COMMAND_SECONDS} s`, function () {
    const limit = (REVIEW_SECONDS + COMMAND_SECONDS + 240) * 1000;
    this.timeout(limit);
    let runs: Runs = {};
    const reviews: Partial<Record<AgentId, { seenAt: number; acceptedAt: number }>> = {};
    let leftRunning: string[] = [];

    before(async function () {
      this.timeout(limit);
      let done = false;
      const started = Date.now();
      // The person: each agent's diff review is accepted REVIEW_SECONDS after it opened, from its own diff editor.
      const person = (async () => {
        const seen = new Map<AgentId, number>();
        while (!done) {
          for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs)) {
            const input = tab.input;
            const id = AGENT_IDS.find((each) => tab.label.includes(`agent-${each}.txt`));
            if (!id || !(input instanceof vscode.TabInputTextDiff)) continue;
            if (!seen.has(id)) seen.set(id, Date.now());
            if (Date.now() - seen.get(id)! >= REVIEW_SECONDS * 1000 && !reviews[id]) {
              if (await vscode.commands.executeCommand<boolean>(CommandId.approve, input.modified)) {
                reviews[id] = { seenAt: (seen.get(id)! - started) / 1000, acceptedAt: (Date.now() - started) / 1000 };
              }
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      })();
      runs = await forEachAgent(agents, (id, agent) => {
        const file = `agent-${id}.txt`;
        fs.writeFileSync(path.join(workspaceRoot(), file), 'one\ntwo\nthree\n');
        const plan: Turn[] = [
          ours(id, 'workspace_read_file', { file_path: file }),
          ours(id, 'workspace_edit_file', { file_path: file, old_string: 'two', new_string: 'TWO' }),
          ours(id, 'workspace_run_command', { command: `sleep ${COMMAND_SECONDS} && echo slept-${id}`, timeout: COMMAND_SECONDS + 120 }),
          { text: 'Edited and ran.' },
        ];
        return runAgent(id, agent, plan, `Change two to TWO in ${file}, then run the slow command.`);
      });
      done = true;
      await person;
      // Nothing is left running: no command of the test, no relay of this checkout (another checkout's may run beside).
      // (The relay VS Code's own MCP client starts from the server definition is VS Code's, and stays.)
      leftRunning = [...processesWith(`sleep ${COMMAND_SECONDS} && echo slept-`), ...processesWith(path.join(REPO, 'dist', 'mcp.js')).filter((line) => !line.includes('--vscode-definition'))];
    });

    for (const id of AGENT_IDS) {
      it(`${id}: the edit is written once accepted (held with a review id when the review outlasts the client's answer time), and the command's end comes back (through the background when it outlasts it)`, async function () {
        const run = runOf(runs, id, this);
        const sent = results(run);
        keep(`${id}-review`, { agent: id, review: reviews[id], seconds: run.seconds, calls: run.model.calls, results: sent, output: run.output.slice(-4000) });
        assert.ok(reviews[id], `${id}: no diff review was opened`);
        assert.equal(fs.readFileSync(path.join(workspaceRoot(), `agent-${id}.txt`), 'utf8'), 'one\nTWO\nthree\n');
        assert.equal(run.model.calls.filter((call) => !call.followUp).length, 3, JSON.stringify(run.model.calls));
        assert.ok(sent.every((result) => !result.isError), JSON.stringify(sent));
        // The edit: held before the client's limit when the review outlasts it (then its own result
        // through workspace_review_status), else its own result at once.
        const edit = `Edited agent-${id}.txt: 1 replacement(s)`;
        if (REVIEW_SECONDS > ANSWER_WITHIN[id]) {
          const editIndex = sent.findIndex((result) => /^Waiting for the user's review \(review r\d+\)/.test(result.text));
          assert.ok(editIndex > 0, `${id}: the edit did not answer with a review id: ${JSON.stringify(sent)}`);
          const reviewId = /\(review (r\d+)\)/.exec(sent[editIndex].text)![1];
          const edited = sent.find((result) => result.text.startsWith(`Review ${reviewId} (workspace_edit_file) has ended; its result:\n${edit}`));
          assert.ok(edited, `${id}: the edit's own result did not come back: ${JSON.stringify(sent)}`);
        } else {
          assert.ok(sent.some((result) => result.text.startsWith(edit)), `${id}: the edit's result did not come back: ${JSON.stringify(sent)}`);
        }
        // The command: its end (exit 0 and its last line) came back, through the background if it outlasted the limit.
        const last = sent[sent.length - 1].text;
        assert.match(last, new RegExp(`slept-${id}`), last);
        assert.match(last, /exited 0|^Exit code: 0/m, last);
        if (COMMAND_SECONDS > ANSWER_WITHIN[id]) {
          assert.ok(sent.some((result) => /^Still running after [\d.]+ s: moved to the background because the client needs an answer now/.test(result.text)), JSON.stringify(sent));
        }
        assert.deepEqual(leftRunning, [], 'left running');
      });
    }
  });
});
