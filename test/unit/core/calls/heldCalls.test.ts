import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HeldCallRegistry } from '../../../../src/core/calls/heldCalls';
import { runCall, type CallOrigin } from '../../../../src/core/calls/runCall';
import type { ToolContext } from '../../../../src/core/context';
import { ToolError } from '../../../../src/core/errors';
import type { ApprovalAnswer, Approver } from '../../../../src/core/ports/approval';
import { reviewStatusTool } from '../../../../src/core/tools/reviewStatus';
import { defineTool, textResult, type Tool, type ToolResult } from '../../../../src/core/tools/toolSpec';
import { MemoryActivityLog } from '../../support/activityLog';
import { ManualCancellation, resultText, testContext } from '../../support/context';
import { ManualClock, settle } from '../../support/fakeTime';

const MCP: CallOrigin = { client: 'mcp:claude-code', clientLabel: 'Claude Code' };
/** The client's limit and the margin (time is the test's ManualClock). */
const LIMIT_MS = 600;
const MARGIN_MS = 200;

/** Something the test settles by hand. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** An approver whose answers the test gives when it likes, as a person takes minutes over a review. */
class SlowApprover implements Approver {
  readonly answers: ReturnType<typeof deferred<boolean>>[] = [];
  confirm(): Promise<boolean> {
    const answer = deferred<boolean>();
    this.answers.push(answer);
    return answer.promise;
  }
  async choose(): Promise<ApprovalAnswer> {
    return (await this.confirm()) ? 'accept' : 'reject';
  }
}

function testTool(run: (ctx: ToolContext) => Promise<string>): Tool {
  return defineTool<Record<string, unknown>>({
    name: 'workspace_test_step',
    displayName: 'Test Step',
    toolReferenceName: 'workspaceTestStep',
    icon: '$(beaker)',
    access: 'write',
    userDescription: 'A step of a unit test.',
    modelDescription: 'A step of a unit test.',
    inputSchema: { type: 'object', properties: {} },
    invocationMessage: () => 'Testing',
    run: async (_input, ctx) => textResult(await run(ctx)),
  });
}

describe('calls/heldCalls', () => {
  let root: string;
  let approver: SlowApprover;
  let log: MemoryActivityLog;
  let held: HeldCallRegistry;
  let clock: ManualClock;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-held-'));
    approver = new SlowApprover();
    log = new MemoryActivityLog();
    clock = new ManualClock();
    held = new HeldCallRegistry(clock, MARGIN_MS);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function context(token = new ManualCancellation()): ToolContext {
    const base = testContext({ root, token });
    return { ...base, host: { ...base.host, clock }, session: { ...base.session, approver, heldCalls: held } };
  }

  /** Runs the clock's timers until `call` settles; its result (or error) and how much time passed. */
  async function answered<T>(call: Promise<T>): Promise<{ result: Promise<T>; afterMs: number }> {
    const started = clock.now();
    let done = false;
    call.then(() => (done = true), () => (done = true));
    await settle();
    while (!done) {
      await clock.runNext();
    }
    return { result: call, afterMs: clock.now() - started };
  }

  /** One MCP call of `tool` through runCall, within the limit. */
  function callWithin(tool: Tool, ctx = context()): Promise<ToolResult> {
    return held.callWithin(tool, LIMIT_MS, (hooks) => runCall(tool, {}, { context: ctx, activity: log }, { ...MCP, ...hooks }));
  }

  /** workspace_review_status as a client with the same limit calls it. */
  function status(id: string): Promise<ToolResult> {
    return held.callWithin(reviewStatusTool, LIMIT_MS, (hooks) => runCall(reviewStatusTool, { id }, { context: context(), activity: log }, { ...MCP, ...hooks }));
  }

  it('answers with the call\'s own result when it ends within the limit, and holds nothing', async () => {
    const result = await callWithin(testTool(async () => 'done at once'));
    assert.equal(resultText(result), 'done at once');
    assert.deepEqual(held.ids(), []);
  });

  it('rethrows the error of a call that fails within the limit', async () => {
    await assert.rejects(callWithin(testTool(async () => {
      throw new ToolError('The file changed since it was read.');
    })), /changed since it was read/);
  });

  it('holds a call whose question is still open at the limit and says so, half the margin before the limit', async () => {
    const tool = testTool(async (ctx) => ((await ctx.session.approver.confirm({ kind: 'command', title: 'Run it?', detail: '' }, ctx.call.token)) ? 'ran' : 'not run'));
    const { result, afterMs } = await answered(callWithin(tool));
    assert.equal(afterMs, LIMIT_MS - MARGIN_MS / 2, 'answered before the client\'s limit');
    assert.match(resultText(await result), /^Waiting for the user's answer \(review r1\): .*Call workspace_review_status with id "r1"/);
    assert.deepEqual(held.ids(), ['r1']);
  });

  it('says "waiting for the user\'s review" while a diff review is open, and returns the call\'s result once accepted: one approval, one record', async () => {
    const tool = testTool(async (ctx) => ((await ctx.session.changes!.reviewer.review({ summary: 'Edit a.txt', files: [] } as never, ctx.call.token)) ? 'written' : 'rejected'));
    const base = context();
    const ctx: ToolContext = { ...base, session: { ...base.session, changes: { reviewer: { review: () => approver.confirm() }, writer: { apply: async () => undefined } as never } } };
    const first = await (await answered(callWithin(tool, ctx))).result;
    assert.match(resultText(first), /^Waiting for the user's review \(review r1\): the user is still reviewing this change in VS Code, and nothing is written unless they accept\./);
    const stillWaiting = await answered(status('r1'));
    assert.match(resultText(await stillWaiting.result), /^Waiting for the user's review \(review r1\)/);
    assert.equal(stillWaiting.afterMs, LIMIT_MS - MARGIN_MS, 'a status call waits until the margin before its own limit');
    const second = status('r1');
    await clock.advance(100);
    approver.answers[0].resolve(true);
    const ended = await answered(second);
    assert.equal(ended.afterMs, 0, 'the status call answers as soon as the call ends');
    assert.equal(resultText(await ended.result), 'Review r1 (workspace_test_step) has ended; its result:\nwritten');
    assert.equal(approver.answers.length, 1, 'the user was asked once');
    const records = log.records.filter((record) => record.tool === 'workspace_test_step');
    assert.equal(records.length, 1);
    assert.deepEqual(records[0].approvals.map((approval) => approval.allowed), [true]);
  });

  it('says "still running" for a call that is only working, and hands back its failure with the same words', async () => {
    const work = deferred<string>();
    const first = await (await answered(callWithin(testTool(() => work.promise)))).result;
    assert.match(resultText(first), /^Still running \(review r1\): workspace_test_step has not finished yet/);
    work.reject(new ToolError('The patch did not apply: no line matches.'));
    await assert.rejects(status('r1'), (error: unknown) => error instanceof ToolError && error.message === 'Review r1 (workspace_test_step) ended with an error: The patch did not apply: no line matches.');
  });

  it('moves the held call\'s answer-by time later while a status call waits, so a command it runs comes back in time', async () => {
    const seen: number[] = [];
    const work = deferred<string>();
    const started = clock.now();
    await answered(callWithin(testTool(async (ctx) => {
      seen.push(ctx.call.returnBy?.() ?? Number.NaN);
      await work.promise;
      seen.push(ctx.call.returnBy?.() ?? Number.NaN);
      return 'done';
    })));
    const statusAt = clock.now();
    const waiting = status('r1');
    await clock.advance(50);
    work.resolve('done');
    await waiting;
    // The status call answers the margin before its own limit, and the held call the margin before that.
    assert.deepEqual(seen, [started + LIMIT_MS - MARGIN_MS, statusAt + LIMIT_MS - 2 * MARGIN_MS]);
    assert.ok(seen[1] > seen[0], 'the answer-by time moved later');
  });

  it('refuses an id that is not held, naming the held ones', async () => {
    await assert.rejects(status('r9'), /No call is held under the id "r9"\. No call is held now/);
    await answered(callWithin(testTool(() => deferred<string>().promise)));
    await assert.rejects(status('r9'), /The held calls are: r1\./);
  });

  it('keeps the held call going when the status call is cancelled', async () => {
    const work = deferred<string>();
    await answered(callWithin(testTool(() => work.promise)));
    const token = new ManualCancellation();
    const base = context(token);
    const cancelled = runCall(reviewStatusTool, { id: 'r1' }, { context: base }, MCP);
    token.cancel();
    await assert.rejects(cancelled, /cancel/i);
    work.resolve('still done');
    assert.equal(resultText(await status('r1')), 'Review r1 (workspace_test_step) has ended; its result:\nstill done');
  });
});
