// The MCP front end to end: the SDK's own client starts dist/mcp.js over stdio from inside the
// extension host (working folder: the test workspace), the relay finds this window through its
// lock file and every call runs through the same path as chat's, answered here through the
// approval commands.
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ActivityRecord } from '../../src/core/activity/activityRecord';
import { TOOLS } from '../../src/core/tools';
import { CommandId, UriScheme } from '../../src/vscode/commandIds';
import { ActivityLog } from '../../src/vscode/ui/activityLog';
import { ActivityTreeProvider } from '../../src/vscode/ui/activityView';
import { invoke, invokeError, REPO, withSettings, workspaceRoot } from './support/tools';
import { onTheNewestOnly } from './versions';

const RELAY = path.join(REPO, 'dist/mcp.js');

async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function proposalTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => tab.input)
    .filter((input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff && input.modified.scheme === UriScheme.proposal);
}

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

type Pending = { title: string; caller?: string }[];
const pending = (): Thenable<Pending> => vscode.commands.executeCommand<Pending>(CommandId.listPendingApprovals);

/** The SDK's client on the relay, started as an agent in a terminal of this workspace would start it. */
async function startAgent(name = 'claude-code', title?: string): Promise<Client> {
  await waitFor(async () => (await vscode.commands.executeCommand<{ lockFile?: string }>(CommandId.mcpStatus)).lockFile, 'the MCP endpoint');
  const client = new Client({ name, version: '1.0.0', ...(title === undefined ? {} : { title }) });
  // The extension host's executable runs scripts as Node (ELECTRON_RUN_AS_NODE for an Electron host).
  const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' } as Record<string, string>;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [RELAY], cwd: workspaceRoot(), env, stderr: 'pipe' }));
  return client;
}

const abs = (relative: string): string => path.join(workspaceRoot(), relative);

describe('MCP front (extension host, SDK client over dist/mcp.js)', function () {
  this.timeout(60_000);
  let agent: Client;

  before(async () => {
    agent = await startAgent();
  });
  after(async () => {
    await agent?.close();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('lists every tool the window serves, with schemas and annotations', async () => {
    const { tools } = await agent.listTools();
    const served = TOOLS.filter((tool) => vscode.workspace.isTrusted || tool.access === 'read');
    assert.deepEqual(tools.map((tool) => tool.name), served.map((tool) => tool.name));
    // Only these change nothing; workspace_stop_command runs where reads do, but ends processes.
    const readOnly = ['workspace_read_file', 'workspace_list_directory', 'workspace_glob', 'workspace_grep', 'workspace_command_output', 'workspace_review_status', 'workspace_diagnostics', 'workspace_symbols', 'workspace_find'];
    for (const tool of tools) {
      const spec = TOOLS.find((each) => each.name === tool.name)!;
      assert.deepEqual(tool.inputSchema, spec.inputSchema, tool.name);
      assert.strictEqual(tool.description, spec.modelDescription, tool.name);
      assert.strictEqual(tool.annotations?.readOnlyHint, readOnly.includes(tool.name), tool.name);
      assert.strictEqual(tool.annotations?.destructiveHint, !readOnly.includes(tool.name), tool.name);
    }
  });

  it('reads a file exactly as invokeTool does', async () => {
    const result = await agent.callTool({ name: 'workspace_read_file', arguments: { file_path: 'notes.txt' } });
    assert.notStrictEqual(result.isError, true);
    assert.strictEqual(textOf(result), (await invoke('workspace_read_file', { file_path: 'notes.txt' })).text);
  });

  it('returns an image as MCP image content', async () => {
    fs.copyFileSync(path.join(REPO, 'test/fixtures/files/red.png'), abs('mcp-red.png'));
    const result = (await agent.callTool({ name: 'workspace_read_file', arguments: { file_path: 'mcp-red.png' } })) as CallToolResult;
    const image = result.content.find((part) => part.type === 'image');
    assert.ok(image && image.type === 'image');
    assert.strictEqual(image.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(image.data, 'base64'), fs.readFileSync(abs('mcp-red.png')));
  });

  it('brings a guard denial back as an error naming the rule', async () => {
    const result = await agent.callTool({ name: 'workspace_read_file', arguments: { file_path: '/dev/zero' } });
    assert.strictEqual(result.isError, true);
    assert.match(textOf(result), /^Denied by file\.system_path_read: /);
  });

  it('redacts secrets before the result leaves the window', async () => {
    fs.writeFileSync(abs('mcp-deploy.sh'), '#!/bin/sh\nexport GITHUB_TOKEN=ghp_R5v8KzQ2mN7pL4xW9tY3bC6dF1gH0jK2sA5e\n');
    const result = await agent.callTool({ name: 'workspace_read_file', arguments: { file_path: 'mcp-deploy.sh' } });
    assert.strictEqual(textOf(result), '     1\t#!/bin/sh\n     2\texport GITHUB_TOKEN=[REDACTED github secret, line 2]');
  });

  it('refuses invalid input before the tool runs', async () => {
    const result = await agent.callTool({ name: 'workspace_read_file', arguments: { path: 'notes.txt' } });
    assert.strictEqual(result.isError, true);
    assert.match(textOf(result), /Invalid input for workspace_read_file: .*missing required field "file_path"/);
  });

  it('leads a long result with the note on how to go on, then sends what invokeTool returns', async () => {
    fs.writeFileSync(abs('mcp-long.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = (await agent.callTool({ name: 'workspace_read_file', arguments: { file_path: 'mcp-long.txt' } })) as CallToolResult;
    assert.notStrictEqual(result.isError, true);
    const [first, ...rest] = result.content;
    // The first part is the continuation alone: a client that keeps only the start (Claude Code's
    // preview, Codex's first items) still tells the model where to go on.
    assert.deepEqual(first, { type: 'text', text: '[Showing lines 1-2000 of 5000. Use offset=2001 to read more.]\n' });
    const chat = await invoke('workspace_read_file', { file_path: 'mcp-long.txt' });
    assert.strictEqual(textOf({ content: rest }), chat.text);
    assert.ok(chat.text.endsWith('\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to read more.]'), 'chat keeps the note where the tool wrote it, once');
    // A result with nothing left out has no such part.
    assert.strictEqual(textOf(await agent.callTool({ name: 'workspace_read_file', arguments: { file_path: 'mcp-long.txt', offset: 4999 } })), '  4999\tline 4999\n  5000\tline 5000\n\n[Showing lines 4999-5000 of 5000.]');
  });

  it('carries no structuredContent and lists no outputSchema: most clients would show the model the JSON instead of the text', async () => {
    const { tools } = await agent.listTools();
    assert.deepEqual(tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name), []);
    const result = await agent.callTool({ name: 'workspace_glob', arguments: { pattern: '*.txt' } });
    assert.strictEqual(result.structuredContent, undefined);
  });

  it('brings errors back as isError results in the words chat gets', async () => {
    fs.rmSync(abs('mcp-missing.txt'), { force: true });
    const calls: [string, Record<string, unknown>][] = [
      ['workspace_read_file', { file_path: '/dev/zero' }], // a guard denial
      ['workspace_read_file', { path: 'notes.txt' }], // bad input
      ['workspace_read_file', { file_path: 'mcp-missing.txt' }], // a ToolError of the tool
      ['workspace_grep', { pattern: '(' }], // a bad regular expression
    ];
    for (const [name, input] of calls) {
      const result = await agent.callTool({ name, arguments: input });
      assert.strictEqual(result.isError, true, `${name} ${JSON.stringify(input)}`);
      assert.strictEqual(textOf(result), await invokeError(name, input), `${name} ${JSON.stringify(input)}`);
    }
  });

  it('names the client in the activity log and the Activity view', async () => {
    await agent.callTool({ name: 'workspace_list_directory', arguments: {} });
    const records = await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity);
    const record = records.find((each) => each.tool === 'workspace_list_directory');
    assert.strictEqual(record?.client, 'mcp:claude-code');
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-activity-'));
    const log = new ActivityLog(storage);
    try {
      const item = new ActivityTreeProvider(log).getTreeItem(record);
      assert.match(String(item.description), / · mcp:claude-code$/);
      assert.match((item.tooltip as vscode.MarkdownString).value, /workspace_list_directory client=mcp:claude-code /);
    } finally {
      log.dispose();
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });

  describe('in a trusted window', () => {
    before(function () {
      if (!vscode.workspace.isTrusted) this.skip();
    });

    it('shows a write in the diff review, names the client, and writes only after approve', async () => {
      const target = abs('mcp-created.txt');
      fs.rmSync(target, { force: true });
      const call = agent.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-created.txt', content: 'from the agent\n' } });
      const diff = await waitFor(() => proposalTabs()[0], 'the diff editor');
      assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), 'from the agent\n');
      const [question] = await pending();
      assert.strictEqual(question.caller, 'Claude Code');
      const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((each) => each.input === diff || (each.input instanceof vscode.TabInputTextDiff && each.input.modified.toString() === diff.modified.toString()));
      assert.match(tab?.label ?? '', /^Claude Code, Write File: mcp-created\.txt \(new file\)/);
      assert.strictEqual(fs.existsSync(target), false, 'nothing is written before the answer');
      assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve));
      const result = await call;
      assert.notStrictEqual(result.isError, true, textOf(result));
      assert.match(textOf(result), /^Created mcp-created\.txt/);
      assert.strictEqual(fs.readFileSync(target, 'utf8'), 'from the agent\n');
      const records = await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity);
      assert.deepEqual([records[0].tool, records[0].client, records[0].outcome], ['workspace_write_file', 'mcp:claude-code', 'ok']);
      // A call from an MCP client is checkpointed like chat's: the record lists what it changed.
      assert.deepEqual(records[0].changedPaths, [{ path: 'mcp-created.txt', kind: 'created', added: 1, deleted: 0 }]);
      assert.ok(records[0].checkpoint?.before && records[0].checkpoint.after, JSON.stringify(records[0].checkpoint));
      // The diff review's answer is recorded with the call's other questions.
      assert.deepEqual(records[0].approvals.map((approval) => [approval.kind, approval.allowed]), [['change', true]]);
    });

    it('sends progress while a review stays open, so a client that resets its timeout on progress keeps the call', async function () {
      onTheNewestOnly(this);
      this.timeout(60_000);
      const target = abs('mcp-slow-review.txt');
      fs.rmSync(target, { force: true });
      const messages: string[] = [];
      // The client gives up after 15 s without news; the person answers at the second progress
      // message (the server sends one every 10 s), past that limit.
      const called = Date.now();
      const call = agent.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-slow-review.txt', content: 'reviewed slowly\n' } }, undefined, {
        timeout: 15_000,
        resetTimeoutOnProgress: true,
        onprogress: (progress) => messages.push(progress.message ?? ''),
      });
      await waitFor(() => proposalTabs()[0], 'the diff editor');
      await waitFor(() => messages.length >= 2, 'the second progress message', 40_000);
      assert.ok(Date.now() - called > 15_000, 'the call outlived the client\'s limit');
      assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve));
      const result = await call;
      assert.notStrictEqual(result.isError, true, textOf(result));
      assert.strictEqual(fs.readFileSync(target, 'utf8'), 'reviewed slowly\n');
      assert.ok(messages.length >= 2, messages.join('\n'));
      assert.match(messages[0], /^workspace_write_file is still running \(10 s\): waiting for the user's answer in VS Code/);
    });

    it('answers before the client\'s limit with a review id while the review stays open, and workspace_review_status returns the write once the user accepts', async function () {
      onTheNewestOnly(this);
      this.timeout(60_000);
      const target = abs('mcp-held-review.txt');
      fs.rmSync(target, { force: true });
      await withSettings({ 'mcp.answerWithinSeconds': 6 }, async () => {
        const first = await agent.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-held-review.txt', content: 'accepted later\n' } });
        assert.notStrictEqual(first.isError, true, textOf(first));
        const id = /^Waiting for the user's review \(review (r\d+)\): the user is still reviewing this change in VS Code, and nothing is written unless they accept\. Call workspace_review_status with id "\1"/.exec(textOf(first))?.[1];
        assert.ok(id, textOf(first));
        assert.strictEqual(proposalTabs().length, 1, 'the review stays open in VS Code');
        assert.strictEqual(fs.existsSync(target), false, 'nothing is written before the answer');
        const stillOpen = await agent.callTool({ name: 'workspace_review_status', arguments: { id } });
        assert.match(textOf(stillOpen), new RegExp(`^Waiting for the user's review \\(review ${id}\\)`));
        const answered = agent.callTool({ name: 'workspace_review_status', arguments: { id } });
        assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve));
        const result = await answered;
        assert.notStrictEqual(result.isError, true, textOf(result));
        assert.match(textOf(result), new RegExp(`^Review ${id} \\(workspace_write_file\\) has ended; its result:\\nCreated mcp-held-review\\.txt`));
        assert.strictEqual(fs.readFileSync(target, 'utf8'), 'accepted later\n');
        const records = await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity);
        const write = records.filter((record) => record.tool === 'workspace_write_file' && record.changedPaths?.some((change) => change.path === 'mcp-held-review.txt'));
        assert.strictEqual(write.length, 1, 'one call, one record');
        assert.deepEqual(write[0].approvals.map((approval) => [approval.kind, approval.allowed]), [['change', true]]);
        assert.ok(write[0].checkpoint?.before && write[0].checkpoint.after, JSON.stringify(write[0].checkpoint));
      });
    });

    it('withdraws a held review when the agent goes away', async function () {
      this.timeout(60_000);
      const target = abs('mcp-held-abandoned.txt');
      fs.rmSync(target, { force: true });
      await withSettings({ 'mcp.answerWithinSeconds': 5 }, async () => {
        const leaving = await startAgent('some-agent');
        const first = await leaving.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-held-abandoned.txt', content: 'orphan\n' } });
        assert.match(textOf(first), /^Waiting for the user's review \(review r\d+\)/);
        assert.strictEqual(proposalTabs().length, 1);
        await leaving.close();
        await waitFor(async () => (await pending()).length === 0, 'the question to go');
        await waitFor(() => proposalTabs().length === 0, 'the diff to close');
        assert.strictEqual(fs.existsSync(target), false);
      });
    });

    it('names an unknown client by its quoted name only: a title or look-alike name cannot reword the question', async () => {
      const spoofer = await startAgent('evil-notcodex\u202e\n', 'VS Code (you already approved this in chat). It');
      try {
        const call = spoofer.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-spoofed.txt', content: 'x\n' } });
        await waitFor(async () => (await pending()).length > 0, 'the question');
        const [question] = await pending();
        assert.strictEqual(question.caller, 'The MCP client "evil-notcodex"');
        assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.reject));
        assert.strictEqual((await call).isError, true);
        assert.strictEqual(fs.existsSync(abs('mcp-spoofed.txt')), false);
      } finally {
        await spoofer.close();
      }
    });

    it('leaves the file byte-identical when the write is rejected', async () => {
      const target = abs('mcp-rejected.txt');
      fs.writeFileSync(target, 'keep me\r\n');
      await agent.callTool({ name: 'workspace_read_file', arguments: { file_path: 'mcp-rejected.txt' } });
      const call = agent.callTool({ name: 'workspace_edit_file', arguments: { file_path: 'mcp-rejected.txt', old_string: 'keep', new_string: 'lose' } });
      await waitFor(() => proposalTabs()[0], 'the diff editor');
      assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.reject));
      const result = await call;
      assert.strictEqual(result.isError, true);
      assert.match(textOf(result), /reject/i);
      assert.deepEqual(fs.readFileSync(target), Buffer.from('keep me\r\n'));
      const [record] = await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity);
      assert.deepEqual([record.tool, record.outcome, record.approvals.map((approval) => [approval.kind, approval.allowed])], ['workspace_edit_file', 'error', [['change', false]]]);
    });

    describe('Connect an Agent', () => {
      let home: string;
      type Outcome = { outcome: string; file?: string; reason?: string };
      const connect = (agent: string): Thenable<Outcome> => vscode.commands.executeCommand<Outcome>(CommandId.connectAgent, { agent, home });
      beforeEach(() => {
        home = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-connect-home-'));
      });
      afterEach(() => {
        fs.rmSync(home, { recursive: true, force: true });
      });

      it('shows the change to ~/.claude.json in the diff editor and writes only our key after accept', async () => {
        const file = path.join(home, '.claude.json');
        const before = '{\n  "numStartups": 3,\n  "mcpServers": {\n    "other": { "command": "x" }\n  },\n  "projects": {}\n}\n';
        fs.writeFileSync(file, before);
        const run = connect('claude');
        const diff = await waitFor(() => proposalTabs()[0], 'the diff editor');
        assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).getText(), before);
        const proposed = (await vscode.workspace.openTextDocument(diff.modified)).getText();
        const [question] = await pending();
        assert.match(question.title, /^Connect Claude Code: add the workspace-agent-tools MCP server to .*\.claude\.json$/);
        assert.strictEqual(fs.readFileSync(file, 'utf8'), before, 'nothing is written before the answer');
        assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve));
        assert.deepEqual(await run, { outcome: 'written', agent: 'claude', file });
        const written = fs.readFileSync(file, 'utf8');
        assert.strictEqual(written, proposed, 'what is written is what the diff showed');
        const parsed = JSON.parse(written) as { numStartups: number; mcpServers: Record<string, unknown>; projects: unknown };
        assert.deepEqual(parsed.mcpServers['workspace-agent-tools'], { type: 'stdio', command: 'node', args: [RELAY], env: {}, alwaysLoad: true });
        assert.deepEqual(parsed.mcpServers.other, { command: 'x' });
        assert.ok(written.startsWith('{\n  "numStartups": 3,\n  "mcpServers": {\n    "other": { "command": "x" },\n') && written.endsWith('\n  },\n  "projects": {}\n}\n'), written);
        await waitFor(() => proposalTabs().length === 0, 'the diff to close');
        // Run again: already there, nothing asked.
        assert.strictEqual((await connect('claude')).outcome, 'unchanged');
        assert.deepEqual(await pending(), []);
      });

      it('creates Codex\'s config.toml under the given home with the table it needs', async () => {
        const run = connect('codex');
        await waitFor(() => proposalTabs()[0], 'the diff editor');
        assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve));
        const file = path.join(home, '.codex', 'config.toml');
        assert.deepEqual(await run, { outcome: 'written', agent: 'codex', file });
        assert.strictEqual(
          fs.readFileSync(file, 'utf8'),
          `[mcp_servers.workspace-agent-tools]\ncommand = "node"\nargs = [${JSON.stringify(RELAY)}]\nrequired = true\ndefault_tools_approval_mode = "approve"\nenv_vars = ["XDG_RUNTIME_DIR"]\n`,
        );
      });

      it('leaves the file byte-identical when the review is rejected', async () => {
        const file = path.join(home, '.gemini', 'settings.json');
        fs.mkdirSync(path.dirname(file));
        const before = Buffer.from('{\r\n  // mine\r\n  "theme": "dark"\r\n}');
        fs.writeFileSync(file, before);
        const run = connect('gemini');
        await waitFor(() => proposalTabs()[0], 'the diff editor');
        assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.reject));
        assert.deepEqual(await run, { outcome: 'rejected', agent: 'gemini', file });
        assert.deepEqual(fs.readFileSync(file), before);
        await waitFor(() => proposalTabs().length === 0, 'the diff to close');
      });

      it('refuses a config file that does not parse, asking nothing and changing nothing', async () => {
        const file = path.join(home, '.copilot', 'mcp-config.json');
        fs.mkdirSync(path.dirname(file));
        fs.writeFileSync(file, '{ "mcpServers": { ');
        const result = await connect('copilot');
        assert.strictEqual(result.outcome, 'refused');
        assert.match(result.reason ?? '', /not valid JSON/);
        assert.deepEqual(await pending(), []);
        assert.strictEqual(fs.readFileSync(file, 'utf8'), '{ "mcpServers": { ');
      });
    });

    it('cancels the call, its question and its diff when the client cancels', async () => {
      const target = abs('mcp-cancelled.txt');
      fs.rmSync(target, { force: true });
      const abort = new AbortController();
      const call = agent.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-cancelled.txt', content: 'never\n' } }, undefined, { signal: abort.signal }).then(
        () => 'answered',
        (error: unknown) => String(error),
      );
      await waitFor(() => proposalTabs()[0], 'the diff editor');
      abort.abort('the user pressed Esc');
      assert.match(await call, /Esc|abort/i);
      await waitFor(async () => (await pending()).length === 0, 'the question to go');
      await waitFor(() => proposalTabs().length === 0, 'the diff to close');
      assert.strictEqual(fs.existsSync(target), false);
    });

    it('refuses writes in plan mode, with the plan-mode sentence', async () => {
      const result = await withSettings({ planMode: true }, () => agent.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-plan.txt', content: 'x\n' } }));
      assert.strictEqual(result.isError, true);
      assert.match(textOf(result), /^workspace_write_file is refused because the user has the workspace in plan mode/);
      assert.strictEqual(fs.existsSync(abs('mcp-plan.txt')), false);
    });

    it('asks in the window, naming the agent, before running a command the policy asks about', async () => {
      const made = abs('mcp-command.txt');
      fs.rmSync(made, { force: true });
      const call = agent.callTool({ name: 'workspace_run_command', arguments: { command: 'touch mcp-command.txt' } });
      const [question] = await waitFor(async () => {
        const questions = await pending();
        return questions.length > 0 && questions;
      }, 'the command question');
      assert.deepEqual([(question as { kind?: string }).kind, question.caller], ['command', 'Claude Code']);
      assert.match(question.title, /touch mcp-command\.txt/);
      assert.strictEqual(fs.existsSync(made), false, 'nothing runs before the answer');
      assert.ok(await vscode.commands.executeCommand<boolean>(CommandId.approve));
      assert.match(textOf(await call), /^Exit code: 0/);
      assert.ok(fs.existsSync(made));
    });

    it('withdraws the question and writes nothing when the agent goes away mid-review', async () => {
      const target = abs('mcp-abandoned.txt');
      fs.rmSync(target, { force: true });
      const leaving = await startAgent('codex-mcp-client');
      const call = leaving.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-abandoned.txt', content: 'orphan\n' } }).catch(() => undefined);
      await waitFor(() => proposalTabs()[0], 'the diff editor');
      const [question] = await pending();
      assert.strictEqual(question.caller, 'Codex CLI');
      await leaving.close();
      await call;
      await waitFor(async () => (await pending()).length === 0, 'the question to go');
      await waitFor(() => proposalTabs().length === 0, 'the diff to close');
      assert.strictEqual(fs.existsSync(target), false);
    });
  });

  describe('in an untrusted window', () => {
    before(function () {
      if (vscode.workspace.isTrusted) this.skip();
    });

    it('serves only the reading tools', async () => {
      const { tools } = await agent.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS.filter((tool) => tool.access === 'read').map((tool) => tool.name).sort());
    });

    it('refuses a writing tool without running it, in the words chat gets', async () => {
      const result = await agent.callTool({ name: 'workspace_write_file', arguments: { file_path: 'mcp-untrusted.txt', content: 'x' } });
      assert.strictEqual(result.isError, true);
      assert.match(textOf(result), /not trusted \(Restricted Mode\)/);
      assert.strictEqual(textOf(result), await invokeError('workspace_write_file', { file_path: 'mcp-untrusted.txt', content: 'x' }));
      assert.strictEqual(fs.existsSync(abs('mcp-untrusted.txt')), false);
      assert.deepEqual(await pending(), []);
    });
  });

  it('writes the lock file and its folder owner-only', async function () {
    if (process.platform === 'win32') this.skip();
    const status = await vscode.commands.executeCommand<{ lockFile: string; socket: string }>(CommandId.mcpStatus);
    assert.strictEqual(fs.statSync(path.dirname(status.lockFile)).mode & 0o777, 0o700);
    assert.strictEqual(fs.statSync(status.lockFile).mode & 0o777, 0o600);
    const lock = JSON.parse(fs.readFileSync(status.lockFile, 'utf8')) as { folders: string[]; trusted: boolean; endpoint: string };
    assert.deepEqual(lock.folders, [workspaceRoot()]);
    assert.strictEqual(lock.trusted, vscode.workspace.isTrusted);
    assert.strictEqual(lock.endpoint, status.socket);
  });

  it('returns the relay command and copies configuration for Claude Code, Codex CLI and Gemini CLI', async () => {
    const config = await vscode.commands.executeCommand<{ command: string; args: string[] }>(CommandId.mcpServerConfig);
    assert.strictEqual(config.command, 'node');
    assert.ok(config.args[0].endsWith(path.join('dist', 'mcp.js')) && fs.existsSync(config.args[0]), config.args[0]);
    assert.match(await vscode.commands.executeCommand<string>(CommandId.copyMcpConfigClaudeCode), /^claude mcp add --scope user workspace-agent-tools -- node .*mcp\.js$/);
    assert.strictEqual(await vscode.env.clipboard.readText(), await vscode.commands.executeCommand<string>(CommandId.copyMcpConfigClaudeCode));
    assert.match(await vscode.commands.executeCommand<string>(CommandId.copyMcpConfigCodex), /^\[mcp_servers\.workspace-agent-tools\]\ncommand = "node"\nargs = \[".*mcp\.js"\]/);
    const gemini = JSON.parse(await vscode.commands.executeCommand<string>(CommandId.copyMcpConfigGemini)) as { mcpServers: Record<string, { args: string[] }> };
    assert.deepEqual(gemini.mcpServers['workspace-agent-tools'].args, config.args);
  });
});

describe('MCP loopback HTTP mode (extension host)', function () {
  this.timeout(60_000);

  it('is off by default, and when turned on serves MCP on 127.0.0.1 only with the bearer token', async () => {
    await waitFor(async () => (await vscode.commands.executeCommand<{ lockFile?: string }>(CommandId.mcpStatus)).lockFile, 'the MCP endpoint');
    assert.strictEqual((await vscode.commands.executeCommand<{ http?: unknown }>(CommandId.mcpStatus)).http, undefined);
    await withSettings({ 'mcp.http': true }, async () => {
      const http = await waitFor(async () => (await vscode.commands.executeCommand<{ http?: { url: string; token: string } }>(CommandId.mcpStatus)).http, 'the HTTP endpoint');
      assert.match(http.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      // The token is not written anywhere: the copy command hands it out.
      assert.doesNotMatch(fs.readFileSync((await vscode.commands.executeCommand<{ lockFile: string }>(CommandId.mcpStatus)).lockFile, 'utf8'), new RegExp(http.token));
      const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      assert.strictEqual((await fetch(http.url, { method: 'POST', headers, body: initialize })).status, 401);
      assert.strictEqual((await fetch(http.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${http.token}`, origin: 'http://evil.example' }, body: initialize })).status, 403);
      const client = new Client({ name: 'gemini-cli-mcp-client', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${http.token}` } } }));
      try {
        const result = await client.callTool({ name: 'workspace_read_file', arguments: { file_path: 'notes.txt', limit: 1 } });
        // The continuation note first (it leaves lines out), then the lines as chat gets them.
        assert.match(textOf(result), /^\[Showing lines 1-1 of \d+\. Use offset=2 to read more\.\]\n {5}1\t/);
        const records = await vscode.commands.executeCommand<ActivityRecord[]>(CommandId.listActivity);
        assert.strictEqual(records[0].client, 'mcp:gemini-cli-mcp-client');
      } finally {
        await client.close();
      }
      const copied = JSON.parse((await vscode.commands.executeCommand<string>(CommandId.copyMcpHttpConfig)) ?? '{}') as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
      assert.deepEqual(copied.mcpServers['workspace-agent-tools'], { type: 'http', url: http.url, headers: { Authorization: `Bearer ${http.token}` } });
    });
    await waitFor(async () => (await vscode.commands.executeCommand<{ http?: unknown }>(CommandId.mcpStatus)).http === undefined, 'the HTTP endpoint to stop');
  });

  it('keeps the socket endpoint serving when the HTTP port is taken', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    const before = (await vscode.commands.executeCommand<{ lockFile: string }>(CommandId.mcpStatus)).lockFile;
    try {
      await withSettings({ 'mcp.http': true, 'mcp.httpPort': port }, async () => {
        // The failed start is logged and shown; the socket endpoint is the same one.
        const status = await waitFor(async () => {
          const now = await vscode.commands.executeCommand<{ lockFile?: string; http?: unknown; failures: Record<string, string> }>(CommandId.mcpStatus);
          return now.failures['the MCP HTTP mode'] !== undefined && now;
        }, 'the HTTP mode to fail');
        assert.match(status.failures['the MCP HTTP mode'], /EADDRINUSE/);
        assert.deepEqual([status.http, status.lockFile], [undefined, before]);
        const agent = await startAgent('http-port-check');
        try {
          assert.notStrictEqual((await agent.callTool({ name: 'workspace_glob', arguments: { pattern: '*.txt' } })).isError, true);
        } finally {
          await agent.close();
        }
      });
    } finally {
      busy.close();
    }
  });
});
