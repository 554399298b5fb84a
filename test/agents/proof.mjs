// @ts-check
// First end-to-end proof of the terminal agents, outside VS Code (FINDINGS.md): each agent runs
// non-interactively in a temporary workspace with a temporary HOME, pointed at a scripted model
// server on 127.0.0.1, with an MCP config that starts echo-mcp.mjs; the plan is one `echo` call
// and a final text. Prints what the agent offered and sent back; keeps every request, the agent's
// output and the MCP server's log under test-output/agents/<agent>/.
//
//   node test/agents/proof.mjs claude|codex|gemini [scenario]
//
// Scenarios (default: echo): echo; sleep70 (a call that takes 70 s, with progress every 10 s);
// sleep70quiet (the same without progress); sleep200quiet (200 s without progress); sleep330, sleep660 (5.5 and 11 minutes, with progress);
// destroy (a destructive-annotated tool); longdesc (what the model gets of a 3,000-character
// description); big (a 60,000-character result with a footer at its end); structured (text content and a
// structuredContent that differ: which reaches the model); bigparts (the 60,000 characters as the
// front sends them: the footer also first, parts of at most 8,000 characters).
//
// Environment: WAT_CACHE_DIR (where the agents are installed, see scripts/test-host/agents.mjs).

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, ensureAgent } from '../../scripts/test-host/agents.mjs';
import { startScriptedModel } from '../../scripts/test-host/models/scripted-model.mjs';
import { SETUPS } from './setups.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const which = /** @type {'claude' | 'codex' | 'gemini'} */ (process.argv[2]);
if (!AGENTS[which]) throw new Error('usage: node test/agents/proof.mjs claude|codex|gemini [scenario]');

/** @type {Record<string, { tool: string, input: Record<string, unknown>, expect: string }>} */
const SCENARIOS = {
  echo: { tool: 'echo', input: { text: 'scripted ping 42' }, expect: 'echo: scripted ping 42' },
  sleep70: { tool: 'sleep', input: { seconds: 70 }, expect: 'slept 70 s' },
  sleep70quiet: { tool: 'sleep', input: { seconds: 70, quiet: true }, expect: 'slept 70 s' },
  sleep200quiet: { tool: 'sleep', input: { seconds: 200, quiet: true }, expect: 'slept 200 s' },
  sleep330: { tool: 'sleep', input: { seconds: 330 }, expect: 'slept 330 s' },
  sleep660: { tool: 'sleep', input: { seconds: 660 }, expect: 'slept 660 s' },
  destroy: { tool: 'destroy', input: { what: 'nothing' }, expect: 'destroyed nothing' },
  longdesc: { tool: 'long_description', input: {}, expect: 'ok' },
  big: { tool: 'big', input: { chars: 60000 }, expect: '' },
  bigparts: { tool: 'big', input: { chars: 60000, parts: true }, expect: '' },
  structured: { tool: 'structured', input: {}, expect: 'TEXT-CONTENT line one\nline two' },
};
const scenarioName = process.argv[3] ?? 'echo';
const scenario = SCENARIOS[scenarioName];
if (!scenario) throw new Error(`unknown scenario ${scenarioName} (${Object.keys(SCENARIOS).join(', ')})`);
const outDir = path.join(REPO, 'test-output', 'agents', scenarioName === 'echo' ? which : `${which}-${scenarioName}`);
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

const installed = await ensureAgent(AGENTS[which]);
console.log(`${AGENTS[which].pkg}: ${installed.version}`);
const root = fs.mkdtempSync(path.join(os.tmpdir(), `wat-agent-${which}-`));
const home = path.join(root, 'home');
const workspace = path.join(root, 'workspace');
fs.mkdirSync(home);
fs.mkdirSync(workspace);
fs.writeFileSync(path.join(workspace, 'hello.txt'), 'hello\n');
const mcpLog = path.join(outDir, 'echo-mcp.jsonl');
const mcp = { command: process.execPath, args: [path.join(HERE, 'echo-mcp.mjs')], env: { ECHO_MCP_LOG: mcpLog } };

const setup = SETUPS[which];
const model = await startScriptedModel({
  dialect: setup.dialect,
  plan: [...(setup.loadTool?.('echo', scenario.tool) ?? []), { tool: scenario.tool, input: scenario.input }, { text: 'The echo tool answered.' }],
  log: (line) => console.log(`[model] ${line}`),
});
const { args, env } = setup.prepare({ home, workspace, modelUrl: model.url, mcp, prompt: `Call the ${scenario.tool} tool with ${JSON.stringify(scenario.input)}.` });
const started = Date.now();
const child = spawn(installed.command, [...installed.args, ...args], {
  cwd: workspace,
  env: { PATH: process.env.PATH ?? '', HOME: home, USER: os.userInfo().username, LANG: 'C.UTF-8', TERM: 'dumb', ...env },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stdout = '';
let stderr = '';
child.stdout.on('data', (d) => (stdout += d));
child.stderr.on('data', (d) => (stderr += d));
const killer = setTimeout(() => child.kill('SIGKILL'), 900_000);
const code = await new Promise((resolve) => child.on('close', (c, s) => resolve(c ?? s)));
clearTimeout(killer);
await model.close();
fs.writeFileSync(path.join(outDir, 'stdout.txt'), stdout);
fs.writeFileSync(path.join(outDir, 'stderr.txt'), stderr);
fs.writeFileSync(path.join(outDir, 'requests.json'), JSON.stringify(model.requests, null, 2));
console.log(`exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`requests: ${model.requests.map((r) => `${r.method} ${r.path} [${r.kind}${r.turn !== undefined ? ` turn ${r.turn}` : ''}]`).join('\n  ')}`);
const main = model.mainRequests();
const offered = main[0]?.tools ?? [];
console.log(`offered tools (${offered.length}): ${offered.filter((t) => /echo/.test(t)).join(', ') || '(no echo tool)'}; all: ${offered.join(' ')}`);
console.log(`calls: ${JSON.stringify(model.calls)}`);
const shorten = (/** @type {string} */ t) => (t.length > 600 ? `${t.slice(0, 300)} [... ${t.length} chars ...] ${t.slice(-300)}` : t);
console.log(`tool results sent back: ${JSON.stringify(model.toolResults().map(({ raw, ...r }) => ({ ...r, text: shorten(r.text), length: r.text.length })))}`);
console.log(`stdout: ${stdout.slice(-1500)}`);
if (stderr.trim()) console.log(`stderr: ${stderr.slice(-3000)}`);
const ok = model.toolResults().some((r) => setup.unwrap(r.text) === scenario.expect) && main.some((r) => r.turn === model.calls.length);
console.log(ok ? 'PROOF OK' : 'PROOF FAILED');
fs.rmSync(root, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
