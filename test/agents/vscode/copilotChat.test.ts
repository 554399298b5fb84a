// The built-in Copilot Chat of VS Code 1.139 (extensions/copilot) in agent mode, with a
// bring-your-own-model endpoint served by a scripted model on 127.0.0.1, calling our Language
// Model Tools through its own loop: its tool list and schema normalizer, its confirmation, its
// result handling (issue 26 item 5, last part; docs/design.md section 7). No GitHub sign-in, no network:
// `workbench.action.chat.manage` once (a fresh profile leaves the built-in chat extension disabled
// until then), the model added as a `customendpoint` group of the user's chatLanguageModels.json
// (Chat Completions, streamed, no key) with `lm.addLanguageModelsProviderGroup`, then
// `workbench.action.chat.open` in agent mode with that model.
//
// The test answers every question as a person would: Copilot's tool confirmations with
// `workbench.action.chat.acceptTool`, our diff review and approvals with workspaceAgentTools.approve.
// The scripted model records every request, so the test checks word for word what Copilot offered
// and what it sent back. FINDINGS.md has what was seen.
//
// Runs only where VS Code ships Copilot Chat (1.139.1: `--vscode newest`), with the agents' tests:
//   WAT_TESTS_PATH=out/test/agents/vscode/index.js node scripts/test-host/run-integration.mjs --vscode newest --pass trusted --grep Copilot
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../../src/core/activity/activityRecord';
import { TOOLS } from '../../../src/core/tools';
import { CommandId } from '../../../src/vscode/commandIds';
import { answerNextApproval, invoke, invokeError, REPO, workspaceRoot } from '../../integration/support/tools';

const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;
const load = (file: string): Promise<Record<string, unknown>> => importEsm(pathToFileURL(path.join(REPO, file)).href);

interface Turn {
  tool?: string;
  input?: Record<string, unknown>;
  text?: string;
}
interface RecordedRequest {
  kind: string;
  method: string;
  headers: Record<string, unknown>;
  path: string;
  tools?: string[];
  turn?: number;
  body: { tools?: { function?: { name: string; description?: string; parameters?: unknown } }[]; messages?: unknown[] } | undefined;
}
interface ScriptedModel {
  url: string;
  port: number;
  requests: RecordedRequest[];
  calls: { name: string; id: string }[];
  mainRequests(): RecordedRequest[];
  toolResults(): { id: string; text: string; isError: boolean; raw: unknown }[];
  finished(): Promise<void>;
  close(): Promise<void>;
}

/** The vendor of Copilot Chat's "Custom Endpoint" models. */
const VENDOR = 'customendpoint';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps what was seen, for FINDINGS.md: test-output/agents/vscode-copilot-<name>.json (git-ignored). */
function keep(name: string, record: object): void {
  fs.mkdirSync(path.join(REPO, 'test-output', 'agents'), { recursive: true });
  fs.writeFileSync(path.join(REPO, 'test-output', 'agents', `vscode-copilot-${name}.json`), JSON.stringify(record, null, 2));
}

/**
 * Adds a `customendpoint` model group pointed at the scripted server, the way the Language Models
 * editor's "Add Models..." does (the command `lm.addLanguageModelsProviderGroup`, which writes the
 * user's chatLanguageModels.json through VS Code's own model of the file), and waits until chat
 * knows the model. (A write of the file from outside, while the window was up, was never picked up
 * here: FINDINGS.md.)
 */
async function configureModel(url: string, port: number): Promise<vscode.LanguageModelChat> {
  // One model id per server: chat.open's modelSelector takes the first of the models that match it
  // (sorted by identifier), and every test's group stays in the profile.
  const modelId = `scripted-${port}`;
  const group = {
    name: `Scripted ${port}`,
    vendor: VENDOR,
    models: [
      {
        id: modelId,
        name: 'Scripted Model',
        url: `${url}/v1/chat/completions`,
        apiType: 'chat-completions',
        toolCalling: true,
        vision: false,
        maxInputTokens: 128_000,
        maxOutputTokens: 4_096,
      },
    ],
  };
  // A fresh profile leaves the built-in chat extension disabled until the Language Models editor
  // has been opened once (docs/design.md section 7); its vendors are known once it has started.
  await vscode.commands.executeCommand('workbench.action.chat.manage');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await vscode.commands.executeCommand('lm.addLanguageModelsProviderGroup', group);
      break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`could not add the ${VENDOR} group: ${String(error)}`);
      await sleep(500);
    }
  }
  for (;;) {
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    const model = models.find((m) => m.id === modelId);
    if (model) return model;
    if (Date.now() > deadline) {
      const all = await vscode.lm.selectChatModels();
      throw new Error(`Copilot Chat never offered the ${VENDOR} model (models: ${all.map((m) => `${m.vendor}/${m.id}`).join(', ') || 'none'})`);
    }
    await sleep(500);
  }
}

/** What `workbench.action.chat.open` reports with blockOnResponse when a tool waits for chat's confirmation. */
interface ChatConfirmation {
  type: 'confirmation';
  kind: string;
  toolId?: string;
}

/** What happened while Copilot ran one request. */
interface Session {
  /** What `workbench.action.chat.open` returned: the first confirmation chat asked for, or the request's result. */
  opened: unknown;
  /** What the test saw when chat first asked to confirm a tool call, before accepting it. */
  atFirstConfirmation?: unknown;
  /** Our own questions (diff review, approvals), with when they were asked. */
  ourQuestions: { at: number; title: string }[];
}

function isConfirmation(value: unknown): value is ChatConfirmation {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'confirmation';
}

/**
 * Sends `query` to Copilot Chat in agent mode with the scripted model and answers every question
 * until the model has sent its final text: ours with workspaceAgentTools.approve, Copilot's with
 * workbench.action.chat.acceptTool. With blockOnResponse, chat.open returns as soon as a tool waits
 * for chat's confirmation (or the request ends): the first confirmation is recorded, with what
 * `observe` sees at that moment, before it is accepted; later ones are accepted as they come.
 */
async function runCopilot(model: ScriptedModel, query: string, modelId: string, timeoutMs: number, observe: () => unknown = () => undefined): Promise<Session> {
  const session: Session = { opened: undefined, ourQuestions: [] };
  const started = Date.now();
  let finished = false;
  void model.finished().then(() => (finished = true));
  let returned = false;
  // A new session: the scripted model reads its turn from the conversation it is sent.
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  const opened = Promise.resolve(
    vscode.commands.executeCommand('workbench.action.chat.open', { query, mode: 'agent', modelSelector: { vendor: VENDOR, id: modelId }, blockOnResponse: true }),
  ).then(
    (value) => ((session.opened = value), (returned = true)),
    (error: unknown) => ((session.opened = { error: String(error) }), (returned = true)),
  );
  let acceptedFirst = false;
  while (!finished) {
    if (Date.now() - started > timeoutMs) throw new Error(`Copilot did not finish in ${timeoutMs / 1000} s: ${JSON.stringify({ session, calls: model.calls })}`);
    const pending = await vscode.commands.executeCommand<{ title: string }[]>(CommandId.listPendingApprovals);
    if (pending.length > 0) {
      session.ourQuestions.push({ at: (Date.now() - started) / 1000, title: pending[0].title });
      await vscode.commands.executeCommand<boolean>(CommandId.approve);
    }
    if (returned && isConfirmation(session.opened) && !acceptedFirst) {
      session.atFirstConfirmation = observe();
      acceptedFirst = true;
      await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
    } else if (acceptedFirst) {
      // A later confirmation, if chat asks one (a no-op when none is waiting).
      await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
    }
    await sleep(250);
  }
  await Promise.race([opened, sleep(10_000)]);
  return session;
}

/** A scripted Chat Completions model with `plan`, added to Copilot Chat as a Custom Endpoint model. */
async function scriptedCopilotModel(plan: Turn[]): Promise<{ model: ScriptedModel; chatModel: vscode.LanguageModelChat }> {
  const { startScriptedModel } = (await load('scripts/test-host/models/scripted-model.mjs')) as { startScriptedModel: (o: object) => Promise<ScriptedModel> };
  const { openaiChat } = (await load('scripts/test-host/models/openai.mjs')) as { openaiChat: unknown };
  const model = await startScriptedModel({ dialect: openaiChat, plan, log: (line: string) => console.log(`[copilot model] ${line}`) });
  try {
    return { model, chatModel: await configureModel(model.url, model.port) };
  } catch (error) {
    await model.close();
    throw error;
  }
}

/** The activity records of the calls of `tool` that came from chat (with its invocation token) since record `since`. */
async function chatRecordsOf(tool: string, since: number): Promise<ActivityRecord[]> {
  const records = await vscode.commands.executeCommand<readonly ActivityRecord[]>(CommandId.listActivity);
  return records.filter((r) => r.tool === tool && r.id > since && r.client === 'chat');
}

async function lastRecordId(): Promise<number> {
  const records = await vscode.commands.executeCommand<readonly ActivityRecord[]>(CommandId.listActivity);
  return records.reduce((max, r) => Math.max(max, r.id), 0);
}

/** A command result less what changes from run to run: its duration and the name of its full log. */
function steady(text: string): string {
  return text.replace(/^Duration: [\d.]+ s$/m, 'Duration: <s> s').replace(/^Full log: .*$/m, 'Full log: <log>');
}

describe('Copilot Chat (built into VS Code 1.139) in agent mode with a scripted model', function () {
  this.timeout(300_000);

  before(function () {
    // Copilot Chat is built in from 1.139 (extensions/copilot); the floor has none.
    if (!fs.existsSync(path.join(vscode.env.appRoot, 'extensions', 'copilot', 'package.json'))) this.skip();
  });

  it('offers our tools, and calls them through its own loop: read, edit (our diff review), a command (its confirmation); the results reach the model word for word', async function () {
    const file = 'copilot-chat.txt';
    const ran = path.join(workspaceRoot(), 'copilot-ran.txt');
    fs.writeFileSync(path.join(workspaceRoot(), file), 'one\ntwo\nthree\n');
    fs.rmSync(ran, { force: true });
    // `touch` writes, so the command policy asks: through chat, that is Copilot's confirmation.
    const command = 'touch copilot-ran.txt && echo ran-by-copilot';
    const plan: Turn[] = [
      { tool: 'workspace_read_file', input: { file_path: file } },
      { tool: 'workspace_edit_file', input: { file_path: file, old_string: 'two', new_string: 'TWO' } },
      { tool: 'workspace_run_command', input: { command } },
      { text: 'Read, edited and ran.' },
    ];
    const since = await lastRecordId();
    const { model, chatModel } = await scriptedCopilotModel(plan);
    try {
      const expectedRead = (await invoke('workspace_read_file', { file_path: file })).text;
      const session = await runCopilot(model, `Change two to TWO in ${file}, then run: ${command}`, chatModel.id, 240_000, () => ({
        commandCalled: model.calls.some((c) => c.name === 'workspace_run_command'),
        ranBeforeAccept: fs.existsSync(ran),
      }));
      const main = model.mainRequests();
      const offered = main[0]?.tools ?? [];
      const results = model.toolResults();
      const records = {
        read: await chatRecordsOf('workspace_read_file', since),
        edit: await chatRecordsOf('workspace_edit_file', since),
        run: await chatRecordsOf('workspace_run_command', since),
      };
      keep('chat', {
        model: { vendor: chatModel.vendor, id: chatModel.id, family: chatModel.family, maxInputTokens: chatModel.maxInputTokens },
        session,
        offered,
        ourTools: (main[0]?.body?.tools ?? []).filter((t) => t.function?.name.startsWith('workspace_')),
        calls: model.calls,
        results,
        records,
        requests: model.requests.map((r) => ({ kind: r.kind, method: r.method, path: r.path, turn: r.turn, tools: r.tools?.length })),
        headers: main[0]?.headers,
        lastRequest: main[main.length - 1]?.body,
      });

      // Copilot offered every one of our tools, under their own names, in every request.
      for (const tool of TOOLS) assert.ok(offered.includes(tool.name), `Copilot did not offer ${tool.name}: ${offered.join(', ')}`);
      // Its tool normalizer (schema checked against JSON Schema draft 7, top-level combinators and
      // unknown required names dropped; keywords and long descriptions cut only for gpt-4 families)
      // left our schemas and descriptions as the manifest declares them.
      const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string; modelDescription: string; inputSchema: unknown }[] } };
      for (const declared of manifest.contributes.languageModelTools) {
        const sent = main[0]?.body?.tools?.find((t) => t.function?.name === declared.name)?.function;
        assert.deepEqual(sent?.parameters, declared.inputSchema, `${declared.name}: the schema Copilot sent differs`);
        assert.equal(sent?.description, declared.modelDescription, `${declared.name}: the description Copilot sent differs`);
      }
      assert.deepEqual(
        model.calls.map((c) => c.name),
        ['workspace_read_file', 'workspace_edit_file', 'workspace_run_command'],
      );
      // Copilot asked to confirm the command (and nothing before it), and the command waited for it.
      assert.deepEqual(session.opened, { type: 'confirmation', kind: 'toolInvocation', toolId: 'workspace_run_command' });
      assert.deepEqual(session.atFirstConfirmation, { commandCalled: true, ranBeforeAccept: false });
      assert.ok(fs.existsSync(ran), 'the command did not run after Copilot\'s confirmation');
      // Our diff review was asked for the edit (and only that), and the file has the edit.
      assert.deepEqual(
        session.ourQuestions.map((q) => q.title),
        [`Edit File: Edit ${file}`],
      );
      assert.equal(fs.readFileSync(path.join(workspaceRoot(), file), 'utf8'), 'one\nTWO\nthree\n');

      // The results as the model received them, word for word.
      assert.equal(results.length, 3, JSON.stringify(results));
      const [read, edit, run] = results;
      assert.equal(read.text, expectedRead);
      assert.equal(edit.text, `Edited ${file}: 1 replacement(s)\n     2\tTWO`);
      // The same command run again outside chat (our own approval) returns the same text, less its duration and log name.
      const again = invoke('workspace_run_command', { command });
      await answerNextApproval(true);
      assert.equal(steady(run.text), steady((await again).text));
      assert.match(run.text, /^Exit code: 0\n[\s\S]*\n--- stdout ---\nran-by-copilot\n/);

      // Each call came from chat with its token (one record each), and the model got every character of each result.
      assert.deepEqual([records.read.length, records.edit.length, records.run.length], [1, 1, 1], JSON.stringify(records));
      const [readRecord, editRecord, runRecord] = [records.read[0], records.edit[0], records.run[0]];
      assert.deepEqual([readRecord.resultChars, editRecord.resultChars, runRecord.resultChars], [read.text.length, edit.text.length, run.text.length]);
      // Chat's confirmation stood for the command's approval: ours asked nothing for it.
      assert.deepEqual(runRecord.approvals, []);
    } finally {
      await model.close();
    }
  });

  it('takes a long read whole: no part spilled to a file, nothing cut, our continuation footer kept', async function () {
    const file = 'copilot-long.txt';
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${String(i + 1).padStart(4, '0')} ${'x'.repeat(40)}`);
    fs.writeFileSync(path.join(workspaceRoot(), file), lines.join('\n') + '\n');
    const plan: Turn[] = [{ tool: 'workspace_read_file', input: { file_path: file } }, { text: 'Read it.' }];
    const since = await lastRecordId();
    const { model, chatModel } = await scriptedCopilotModel(plan);
    try {
      const session = await runCopilot(model, `Read ${file}.`, chatModel.id, 240_000);
      const results = model.toolResults();
      const records = await chatRecordsOf('workspace_read_file', since);
      const alone = (await invoke('workspace_read_file', { file_path: file })).text;
      keep('long-read', {
        session,
        received: results.map((r) => ({ length: r.text.length, head: r.text.slice(0, 200), tail: r.text.slice(-300), contentType: typeof (r.raw as { content?: unknown }).content })),
        records,
        withoutBudget: { length: alone.length, tail: alone.slice(-300) },
      });
      assert.equal(results.length, 1, JSON.stringify(results));
      const [read] = results;
      assert.doesNotMatch(read.text, /Large tool result|written to file|Tool response was too long/);
      // Word for word what the tool returns outside chat: every part of about 8,000 characters kept
      // inline and joined back, our continuation footer with it.
      assert.ok(read.text.length > 8 * 1024 * 10, `only ${read.text.length} characters: not a long result`);
      assert.equal(read.text, alone);
      assert.match(read.text, /\n\[Showing lines 1-\d+ of 2500\. Use offset=\d+ to read more\.\]\n/, read.text.slice(-400));
      assert.equal(records.length, 1, JSON.stringify(records));
      assert.equal(read.text.length, records[0].resultChars);
    } finally {
      await model.close();
    }
  });
  it('sends our error back as its own sentence around our words', async function () {
    const plan: Turn[] = [{ tool: 'workspace_read_file', input: { file_path: 'copilot-missing.txt' } }, { text: 'It is not there.' }];
    const { model, chatModel } = await scriptedCopilotModel(plan);
    try {
      await runCopilot(model, 'Read copilot-missing.txt.', chatModel.id, 240_000);
      const ours = await invokeError('workspace_read_file', { file_path: 'copilot-missing.txt' });
      const results = model.toolResults();
      keep('error', { ours, results });
      assert.equal(results.length, 1, JSON.stringify(results));
      // Copilot's words around ours (a plain tool message: Chat Completions has no error flag).
      assert.equal(results[0].text, `ERROR while calling tool: ${ours}\nPlease check your input and try again.`);
    } finally {
      await model.close();
    }
  });
});
