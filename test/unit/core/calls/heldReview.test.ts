import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ActivityRecord } from '../../../../src/core/activity/activityRecord';
import { discardHeldChange, mergeHeldChange, type HeldQuestion, type HeldReviewServices } from '../../../../src/core/calls/heldReview';
import { restoreToBefore } from '../../../../src/core/calls/restore';
import { checkpointLimits } from '../../../../src/core/checkpoints/callCheckpoint';
import { fileLocation } from '../../../../src/core/location';
import { describeKept, discardKept, mergeKept } from '../../../../src/core/sandbox/node/keptRuns';
import { OverlayStaging } from '../../../../src/core/sandbox/node/stagedRuns';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { ManualClock, MemoryActivityLog } from '../../support/activityLog';
import { DiskRestoreWriter, MemoryCheckpointStore } from '../../support/checkpointStore';
import { ScriptedApprover } from '../../support/context';
import { describeOnlyOn } from '../../support/platforms';
import { requireProgram } from '../../support/programs';

class Log extends MemoryActivityLog {
  get(id: number): ActivityRecord | undefined {
    return this.records.find((record) => record.id === id);
  }
}

describeOnlyOn('linux', "util-linux's unshare (a staged run's layers)")('calls/heldReview: Merge and Discard Held Change, the person\'s own acts', function () {
  let base: string;
  let root: string;
  let folder: string;
  let log: Log;
  let store: MemoryCheckpointStore;
  let answers: (string | undefined)[];
  let asked: HeldQuestion[];
  let shown: number[];
  let services: HeldReviewServices;
  const workspace = (): { folders: { name: string; location: ReturnType<typeof fileLocation> }[]; platform: string } => ({ folders: [{ name: 'ws', location: fileLocation(folder) }], platform: process.platform });

  beforeEach(() => {
    requireProgram('unshare');
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wat-review-')));
    root = path.join(base, 'staged');
    folder = path.join(base, 'ws');
    fs.mkdirSync(folder);
    log = new Log();
    store = new MemoryCheckpointStore();
    answers = [];
    asked = [];
    shown = [];
    services = {
      kept: { describe: (at) => describeKept(root, at), merge: (at) => mergeKept(root, at), discard: (at) => discardKept(root, at) },
      activity: log,
      clock: new ManualClock(),
      ask: async (question) => {
        asked.push(question);
        return answers.shift();
      },
      show: async (_record, index) => {
        shown.push(index);
      },
      checkpoints: { store, limits: checkpointLimits(DEFAULT_SETTINGS), workspace: workspace() },
      folders: [folder],
    };
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  /** A staged command's record whose `upper` was merged, what it held listed as the record's held changes. */
  async function heldRecord(upper: Record<string, string>, meanwhile: () => void = () => undefined): Promise<ActivityRecord> {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const staging = new OverlayStaging(root);
    const run = await staging.prepare([folder], []);
    const dir = path.join(root, fs.readdirSync(root)[0], 'upper0');
    for (const [relative, text] of Object.entries(upper)) {
      fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
      fs.writeFileSync(path.join(dir, relative), text);
    }
    // The kernel's file times are coarse (a few ms): the person's change comes visibly after the start.
    await new Promise((resolve) => setTimeout(resolve, 20));
    meanwhile();
    const merge = await run.merge(undefined);
    await run.dispose();
    // The launch the run's end starts ahead for the next command is not this test's: ended, its folder gone.
    staging.dispose();
    await staging.aheadReady();
    const held = merge.changes.filter((change) => change.held).map((change) => ({ path: change.path, status: change.status, why: change.held ?? '', keptAt: change.keptAt ?? '' }));
    const record: ActivityRecord = { id: log.newId(), startedAt: '', tool: 'workspace_run_command', input: '{}', verdicts: [], approvals: [], durationMs: 1, outcome: 'ok', resultChars: 1, redactions: [], changedPaths: [], held };
    log.add(record, {});
    return record;
  }
  const read = (name: string): string | undefined => (fs.existsSync(path.join(folder, name)) ? fs.readFileSync(path.join(folder, name), 'utf8') : undefined);

  it("replaces the person's version only after they looked at the diff, with a checkpoint that undoes it", async () => {
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'original');
    const record = await heldRecord({ 'notes.txt': 'the command' }, () => fs.writeFileSync(path.join(folder, 'notes.txt'), 'the person'));

    answers = ['Show Held Change'];
    const first = await mergeHeldChange(record.id, 0, false, services);
    assert.equal(first.done, false);
    assert.equal(asked.length, 1, first.message);
    assert.deepEqual([asked[0].go, asked[0].looksFirst, shown], ['Show Held Change', true, [0]]);
    assert.match(asked[0].detail, /changed it while the command ran[\s\S]*Look at both versions first/);
    assert.equal(read('notes.txt'), 'the person');

    answers = ['Replace Your Version'];
    const second = await mergeHeldChange(record.id, 0, true, services);
    assert.equal(second.done, true, second.message);
    assert.equal(asked[1].go, 'Replace Your Version');
    assert.equal(read('notes.txt'), 'the command');
    assert.equal(log.get(record.id)?.held?.[0].state, 'merged');
    const merge = log.get(second.activityId ?? -1);
    assert.equal(merge?.tool, 'mergeHeldChange');
    assert.deepEqual(merge?.changedPaths, [{ path: 'notes.txt', kind: 'modified' }]);

    // Merged once: a second merge is refused without a question.
    assert.equal((await mergeHeldChange(record.id, 0, true, services)).done, false);
    assert.equal(asked.length, 2);

    const restored = await restoreToBefore(merge, String(merge?.id), { store, activity: log, approver: new ScriptedApprover(true), writer: new DiskRestoreWriter(), clock: new ManualClock() }, { ...workspace(), limits: checkpointLimits(DEFAULT_SETTINGS) });
    assert.equal(restored.outcome.restored, true, restored.outcome.message);
    assert.equal(read('notes.txt'), 'the person');
  });

  it('asks what the change is and why it was held, and merges nothing without the answer', async () => {
    const record = await heldRecord({ 'pkg/.git/config': '[core]\n\tfsmonitor = touch pwned\n', 'pkg/.git/HEAD': 'ref: refs/heads/main\n' });
    const outcome = await mergeHeldChange(record.id, 0, false, services);
    assert.equal(outcome.done, false);
    assert.equal(asked[0].go, 'Merge');
    assert.match(asked[0].title, /pkg\/\.git/);
    assert.match(asked[0].detail, /the folder pkg\/\.git \(2 file\(s\), merged as a whole\) was held: [\s\S]*core\.fsmonitor of a repository it opens/);
    assert.equal(fs.existsSync(path.join(folder, 'pkg/.git')), false);
    assert.equal(log.get(record.id)?.held?.[0].state, undefined);
  });

  it('refuses, without asking, a change of a folder that is not in the workspace now', async () => {
    const record = await heldRecord({ '.vscode/tasks.json': '{}' });
    const outcome = await mergeHeldChange(record.id, 0, false, { ...services, folders: [path.join(base, 'other')] });
    assert.match(outcome.message, /not a folder of this workspace now; nothing was merged/);
    assert.deepEqual(asked, []);
  });

  it('discards after its own question, and the row says so', async () => {
    const record = await heldRecord({ 'app.code-workspace': '{}' });
    assert.equal((await discardHeldChange(record.id, 0, services)).done, false, 'no answer, no discard');
    assert.ok(fs.existsSync(record.held?.[0].keptAt ?? ''));
    answers = ['Discard'];
    assert.equal((await discardHeldChange(record.id, 0, services)).done, true);
    assert.equal(log.get(record.id)?.held?.[0].state, 'discarded');
    assert.equal(fs.existsSync(record.held?.[0].keptAt ?? ''), false);
    assert.equal(read('app.code-workspace'), undefined);
  });
});
