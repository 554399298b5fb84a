import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { failureMessage, runCall, type CallOrigin } from '../../../../src/core/calls/runCall';
import type { ToolContext } from '../../../../src/core/context';
import { BugError, ToolError } from '../../../../src/core/errors';
import type { DeferredCheckpoint } from '../../../../src/core/ports/checkpoints';
import { readFileTool } from '../../../../src/core/tools/readFile';
import { defineTool, textResult, type Tool, type ToolAccess } from '../../../../src/core/tools/toolSpec';
import { writeFileTool } from '../../../../src/core/tools/writeFile';
import { MemoryActivityLog, ManualClock } from '../../support/activityLog';
import { RecordingChangeApplier } from '../../support/changeApplier';
import { MemoryCheckpointStore } from '../../support/checkpointStore';
import { resultText, ScriptedApprover, testContext } from '../../support/context';

const MCP: CallOrigin = { client: 'mcp:claude-code', clientLabel: 'Claude Code' };
const CHAT: CallOrigin = { chatConfirmation: 'Run make?', client: 'chat', tokenBudget: 900 };

/** A tool whose run the test writes, to reach the ports runCall wraps. */
function testTool(access: ToolAccess, run: (ctx: ToolContext) => Promise<string>): Tool {
  return defineTool<Record<string, unknown>>({
    name: 'workspace_test_step',
    displayName: 'Test Step',
    toolReferenceName: 'workspaceTestStep',
    icon: '$(beaker)',
    access,
    userDescription: 'A step of a unit test.',
    modelDescription: 'A step of a unit test.',
    inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
    invocationMessage: () => 'Testing',
    run: async (_input, ctx) => textResult(await run(ctx)),
  });
}

describe('calls/runCall', () => {
  let root: string;
  let log: MemoryActivityLog;
  let store: MemoryCheckpointStore;
  let clock: ManualClock;
  let applier: RecordingChangeApplier;
  let approver: ScriptedApprover;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-run-call-'));
    fs.writeFileSync(path.join(root, 'kept.txt'), 'kept\n');
    log = new MemoryActivityLog();
    store = new MemoryCheckpointStore();
    clock = new ManualClock();
    applier = new RecordingChangeApplier(true);
    approver = new ScriptedApprover(true);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const context = (): ToolContext => {
    const ctx = testContext({ root, changes: applier, approver });
    return { ...ctx, host: { ...ctx.host, clock } };
  };
  const call = (tool: Tool, input: unknown, origin: CallOrigin = MCP) => runCall(tool, input, { context: context(), activity: log, checkpoints: store }, origin);

  it('records a call that changed files with its checkpoints, client, input and time from the clock port', async () => {
    const writing = testTool('write', async (ctx) => {
      await ctx.call.checkpoint?.beforeChange();
      fs.writeFileSync(path.join(root, 'made.txt'), 'one\ntwo\n');
      clock.time += 42;
      return 'done';
    });
    const result = await call(writing, { note: 'x'.repeat(200) });
    assert.equal(resultText(result), 'done');
    const record = log.only();
    assert.equal(record.startedAt, '2026-01-02T03:04:05.000Z');
    assert.equal(record.durationMs, 42);
    assert.deepEqual([record.tool, record.client, record.outcome, record.resultChars], ['workspace_test_step', 'mcp:claude-code', 'ok', 4]);
    assert.match(record.input, /^\{"note":"x{80}… \(200 chars\)"\}$/);
    assert.deepEqual(log.inputs.get(record.id), { note: 'x'.repeat(200) }, 'the whole input goes to the log, the record keeps an excerpt');
    assert.deepEqual(record.checkpoint, { before: 'ckpt-1', after: 'ckpt-2' });
    assert.deepEqual(record.changedPaths, [{ path: 'made.txt', kind: 'created', added: 2, deleted: 0 }]);
    assert.deepEqual(store.takes, [[root], [root]]);
  });

  it('records a failed call with its error and the files it proposed, then rethrows the error', async () => {
    applier.accept = false;
    await assert.rejects(call(writeFileTool, { file_path: 'new.txt', content: 'a\n' }, CHAT), /The user rejected the change to new\.txt/);
    const record = log.only();
    assert.equal(record.outcome, 'error');
    assert.match(record.error ?? '', /^The user rejected the change to new\.txt/);
    assert.equal(record.resultChars, 0);
    assert.equal(record.client, 'chat');
    assert.deepEqual(record.approvals, [{ kind: 'change', title: 'Create new.txt', allowed: false }]);
    assert.deepEqual(record.changedPaths, [{ path: 'new.txt', kind: 'created' }], 'no checkpoint was started: the proposed files');
    assert.equal(record.checkpoint, undefined);
    assert.deepEqual(log.changes.get(record.id), [{ path: 'new.txt', kind: 'created', before: '', after: 'a\n' }], 'the diff stays reopenable');
    assert.deepEqual(store.takes, []);
  });

  it('names the caller in every question and the change review, and traces each answer', async () => {
    approver.choice = 'alternative';
    const asking = testTool('command', async (ctx) => {
      await ctx.session.approver.confirm({ kind: 'command', title: 'run make', detail: 'Run it?' }, ctx.call.token);
      await ctx.session.approver.choose({ kind: 'command', title: 'run curl', detail: 'Network?', alternative: 'Run Outside the Sandbox' }, ctx.call.token);
      return 'asked';
    });
    await call(asking, {});
    await call(writeFileTool, { file_path: 'agent.txt', content: 'from the agent\n' });
    assert.deepEqual(approver.asked.map((request) => [request.title, request.caller]), [['run make', 'Claude Code'], ['run curl', 'Claude Code']]);
    assert.deepEqual(applier.reviewed.map((plan) => plan.caller), ['Claude Code']);
    assert.equal(applier.applied[0].caller, undefined, 'the writer gets the plan as the tool made it');
    assert.deepEqual(log.records[0].approvals, [
      { kind: 'command', title: 'run make', allowed: true },
      { kind: 'command', title: 'run curl', allowed: true, choice: 'Run Outside the Sandbox' },
    ]);
    assert.deepEqual(log.records[1].approvals, [{ kind: 'change', title: 'Create agent.txt', allowed: true }]);
  });

  it('names no caller for chat', async () => {
    const asking = testTool('command', async (ctx) => String(await ctx.session.approver.confirm({ kind: 'command', title: 'run make', detail: 'Run it?' }, ctx.call.token)));
    await call(asking, {}, CHAT);
    assert.equal('caller' in approver.asked[0], false);
  });

  it('passes the origin to the call: chat confirmation and token budget', async () => {
    let seen: ToolContext['call'] | undefined;
    await call(testTool('read', async (ctx) => ((seen = ctx.call), 'ok')), {}, CHAT);
    assert.deepEqual([seen?.chatConfirmation, seen?.tokenBudget], ['Run make?', 900]);
  });

  it('amends the record when a deferred "after" arrives once the call has returned', async () => {
    let deferred: DeferredCheckpoint | undefined;
    const background = testTool('command', async (ctx) => {
      await ctx.call.checkpoint?.beforeChange();
      deferred = ctx.call.checkpoint?.deferAfter();
      return 'started';
    });
    await call(background, {});
    const record = log.only();
    assert.deepEqual(record.checkpoint, { before: 'ckpt-1' }, 'the "after" is pending');
    assert.deepEqual(record.changedPaths, []);
    fs.writeFileSync(path.join(root, 'later.txt'), 'made by the background command\n');
    const outcome = await deferred?.finish();
    assert.equal(outcome?.after, 'ckpt-2');
    assert.deepEqual(log.amendments.map((amendment) => amendment.id), [record.id]);
    assert.deepEqual(log.only().checkpoint, { before: 'ckpt-1', after: 'ckpt-2' });
    assert.deepEqual(log.only().changedPaths, [{ path: 'later.txt', kind: 'created', added: 1, deleted: 0 }]);
  });

  it('amends the record with execution config reported once the call has returned (a background command that ended)', async () => {
    let report: ((path: string) => void) | undefined;
    const background = testTool('command', async (ctx) => {
      ctx.call.observer?.onExecutionConfigChanged([{ path: '.vscode/tasks.json', change: 'created' }]);
      report = (file) => ctx.call.observer?.onExecutionConfigChanged([{ path: file, change: 'changed' }]);
      return 'started';
    });
    await call(background, {});
    assert.deepEqual(log.only().executionConfig, [{ path: '.vscode/tasks.json', change: 'created' }]);
    assert.equal(log.amendments.length, 0, 'what came during the call is on the record as written');
    report?.('.git/config');
    assert.deepEqual(log.only().executionConfig, [{ path: '.vscode/tasks.json', change: 'created' }, { path: '.git/config', change: 'changed' }]);
    assert.equal(log.amendments.length, 1);
  });

  it('amends the record right after adding it when the deferred "after" came first', async () => {
    const quick = testTool('command', async (ctx) => {
      await ctx.call.checkpoint?.beforeChange();
      const deferred = ctx.call.checkpoint?.deferAfter();
      fs.writeFileSync(path.join(root, 'quick.txt'), 'ended at once\n');
      await deferred?.finish();
      return 'ended';
    });
    await call(quick, {});
    assert.equal(log.amendments.length, 1);
    assert.deepEqual(log.only().checkpoint, { before: 'ckpt-1', after: 'ckpt-2' });
    assert.deepEqual(log.only().changedPaths, [{ path: 'quick.txt', kind: 'created', added: 1, deleted: 0 }]);
  });

  it('appends the checkpoint notes to the result and keeps them on the record', async () => {
    store.notes = ['big.bin is over the size cap and was not recorded.'];
    const writing = testTool('write', async (ctx) => {
      await ctx.call.checkpoint?.beforeChange();
      return 'written';
    });
    const result = await call(writing, {});
    assert.deepEqual(result.parts, [{ kind: 'text', text: 'written' }, { kind: 'text', text: '\n[Checkpoint: big.bin is over the size cap and was not recorded.]' }]);
    assert.deepEqual(log.only().checkpoint?.notes, ['big.bin is over the size cap and was not recorded.']);
    assert.equal(log.only().resultChars, 'written'.length, 'the notes are not counted as the tool\'s result');
  });

  it('notes a checkpoint that could not be taken, and the call still runs', async () => {
    store.failure = new Error('disk full');
    const writing = testTool('write', async (ctx) => {
      await ctx.call.checkpoint?.beforeChange();
      return 'written';
    });
    assert.deepEqual((await call(writing, {})).parts.map((part) => (part.kind === 'text' ? part.text : '')), ['written', '\n[Checkpoint: No checkpoint was taken before this call: disk full]']);
    assert.equal(log.only().checkpoint, undefined);
  });

  it('gives a reading tool no checkpoint', async () => {
    let checkpoint: unknown = 'unset';
    await call(testTool('read', async (ctx) => ((checkpoint = ctx.call.checkpoint), 'read')), {});
    await call(readFileTool, { file_path: 'kept.txt' });
    assert.equal(checkpoint, undefined);
    assert.deepEqual(store.takes, []);
    assert.deepEqual(log.records.map((record) => [record.outcome, record.checkpoint, record.changedPaths]), [['ok', undefined, []], ['ok', undefined, []]]);
  });

  it('takes no checkpoint when checkpoints are off or there is no store', async () => {
    let checkpoint: unknown = 'unset';
    const base = context();
    const writing = testTool('write', async (ctx) => ((checkpoint = ctx.call.checkpoint), 'w'));
    await runCall(writing, {}, { context: { ...base, settings: { ...base.settings, checkpointsEnabled: false } }, activity: log, checkpoints: store }, MCP);
    assert.equal(checkpoint, undefined);
    await runCall(writing, {}, { context: base, activity: log }, MCP);
    assert.equal(checkpoint, undefined, 'no store, no checkpoint');
  });

  it('runs without an activity log', async () => {
    assert.equal(resultText(await runCall(testTool('read', async () => 'plain'), {}, { context: context() }, MCP)), 'plain');
  });

  it('says what failed: a ToolError as it is, anything else as a bug or unexpected', () => {
    assert.equal(failureMessage(readFileTool, new ToolError('Read it first.')), 'Read it first.');
    assert.equal(failureMessage(readFileTool, new BugError('lost')), 'workspace_read_file failed because of a bug in Workspace Agent Tools: Internal error: lost');
    assert.equal(failureMessage(readFileTool, 'odd'), 'workspace_read_file failed unexpectedly: odd');
  });
});
