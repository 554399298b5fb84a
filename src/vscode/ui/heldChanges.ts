// Merge Held Change and Discard Held Change on a staged command's held row of the Activity view,
// and the kept runs of an earlier window listed there again at activation. The decisions are
// core's (core/calls/heldReview.ts: the question's text, the checkpoint, the record); the merge is
// core's too (core/sandbox/node/keptRuns.ts). Here: the modal question, the pick from the palette,
// the messages.
import { realpathSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ActivityRecord } from '../../core/activity/activityRecord';
import { buildActivityRecord } from '../../core/calls/activityRecordBuilder';
import { discardHeldChange, mergeHeldChange, type HeldQuestion, type HeldReviewOutcome, type HeldReviewServices, type KeptChanges } from '../../core/calls/heldReview';
import { checkpointLimits } from '../../core/checkpoints/callCheckpoint';
import type { CheckpointStore } from '../../core/ports/checkpoints';
import { describeKept, discardKept, mergeKept, recoverKeptRuns, type RecoveredRun } from '../../core/sandbox/node/keptRuns';
import { systemClock } from '../../core/time';
import { CommandId } from '../commandIds';
import { readToolSettings, readWorkspaceInfo } from '../host/settings';
import type { ActivityLog } from './activityLog';

/** The held changes whose diff the person opened (Show Held Change): a conflict is replaced only after that. */
const looked = new Set<string>();

/** Show Held Change calls this for the change it opened. */
export function markLooked(keptAt: string): void {
  looked.add(keptAt);
}

/** Tests answer the modal questions (they cannot show in tests): the buttons to press, in order. */
let testAnswers: (string | undefined)[] | undefined;
const askedForTests: HeldQuestion[] = [];

async function ask(question: HeldQuestion): Promise<string | undefined> {
  if (testAnswers) {
    askedForTests.push(question);
    return testAnswers.shift();
  }
  return vscode.window.showWarningMessage(question.title, { modal: true, detail: question.detail }, question.go);
}

/** The workspace folders as host paths, as written and resolved (a run names the folder as its lease did). */
function folderPaths(): string[] {
  const paths = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme === 'file') {
      paths.add(folder.uri.fsPath);
      try {
        paths.add(realpathSync(folder.uri.fsPath));
      } catch {
        // A folder that is gone merges nothing.
      }
    }
  }
  return [...paths];
}

/** A row's argument (the tree node), or a record id and an index; undefined when neither. */
function target(argument: unknown, index: unknown): { id: number; index: number } | undefined {
  const node = argument as { record?: { id?: unknown }; index?: unknown } | undefined;
  if (node && typeof node === 'object' && typeof node.record?.id === 'number' && typeof node.index === 'number') {
    return { id: node.record.id, index: node.index };
  }
  return typeof argument === 'number' && typeof index === 'number' ? { id: argument, index } : undefined;
}

/** From the palette: one of the held changes still waiting, picked. */
async function pick(log: ActivityLog, verb: string): Promise<{ id: number; index: number } | undefined> {
  const waiting = log.list().flatMap((record) => (record.held ?? []).map((held, index) => ({ record, held, index }))).filter((entry) => entry.held.state === undefined);
  if (waiting.length === 0) {
    void vscode.window.showInformationMessage('Workspace Agent Tools: no held change is waiting for review.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    waiting.map((entry) => ({ label: entry.held.path, description: entry.held.why, detail: `call ${entry.record.id} · ${entry.record.startedAt}`, id: entry.record.id, index: entry.index })),
    { placeHolder: `${verb} which held change?` },
  );
  return picked && { id: picked.id, index: picked.index };
}

export function registerHeldChangeCommands(log: ActivityLog, root: string | undefined, store: CheckpointStore): vscode.Disposable[] {
  const kept: KeptChanges | undefined = root === undefined ? undefined : { describe: (at) => describeKept(root, at), merge: (at) => mergeKept(root, at), discard: (at) => discardKept(root, at) };
  const services = (): HeldReviewServices | undefined => {
    if (!kept) {
      return undefined;
    }
    const settings = readToolSettings();
    const workspace = readWorkspaceInfo();
    return {
      kept,
      activity: log,
      clock: systemClock,
      ask,
      show: async (record, index) => {
        await vscode.commands.executeCommand(CommandId.showHeldChange, record.id, index);
      },
      ...(settings.checkpointsEnabled && workspace.trusted ? { checkpoints: { store, limits: checkpointLimits(settings), workspace } } : {}),
      folders: folderPaths(),
    };
  };
  const run = (verb: 'Merge' | 'Discard') => async (argument?: unknown, index?: unknown): Promise<HeldReviewOutcome> => {
    const chosen = target(argument, index) ?? (argument === undefined ? await pick(log, verb) : undefined);
    const built = services();
    if (!chosen || !built) {
      return { done: false, message: built ? 'No held change was named.' : 'Staged changes are not available here; nothing was changed.' };
    }
    const record = log.get(chosen.id);
    const keptAt = record?.held?.[chosen.index]?.keptAt;
    const outcome = verb === 'Merge' ? await mergeHeldChange(chosen.id, chosen.index, keptAt !== undefined && looked.has(keptAt), built) : await discardHeldChange(chosen.id, chosen.index, built);
    if (outcome.done) {
      void vscode.window.showInformationMessage(`Workspace Agent Tools: ${outcome.message}`);
    } else if (!/stays held|was not merged: look/.test(outcome.message)) {
      void vscode.window.showWarningMessage(`Workspace Agent Tools: ${outcome.message}`);
    }
    return outcome;
  };
  return [vscode.commands.registerCommand(CommandId.mergeHeldChange, run('Merge')), vscode.commands.registerCommand(CommandId.discardHeldChange, run('Discard'))];
}

/** The test-only answer to the modal questions (registered in test mode only: composition/testHooks.ts). */
export function registerHeldQuestionsForTests(): vscode.Disposable {
  return vscode.commands.registerCommand(CommandId.heldQuestionsForTests, (answers?: unknown) => {
    if (Array.isArray(answers)) {
      testAnswers = answers.map((answer) => (typeof answer === 'string' ? answer : undefined));
    }
    return [...askedForTests];
  });
}

/** The workspace-relative path of a kept change, as the tools show paths (the folder's name first in a multi-root workspace). */
function shownPath(folder: string, relative: string): string {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const owner = folders.find((candidate) => candidate.uri.scheme === 'file' && (candidate.uri.fsPath === folder || safeRealpath(candidate.uri.fsPath) === folder));
  if (!owner) {
    return `${folder}/${relative}`;
  }
  return folders.length > 1 ? `${owner.name}/${relative}` : relative;
}

function safeRealpath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** One activity record for a recovered run: its held and unmerged changes, each with the rows' actions. */
function recoveredRecord(id: number, run: RecoveredRun): ActivityRecord {
  const when = run.interrupted === 'command' ? 'closed while the command ran' : run.interrupted === 'merge' ? 'closed in the middle of its merge' : 'closed with changes held';
  return buildActivityRecord({
    id,
    tool: 'staged changes from an earlier session',
    input: { run: run.run, window: when, temporariesRemoved: run.removedTemporaries },
    startedAt: run.startedAt,
    finishedAt: run.startedAt,
    verdicts: [],
    approvals: [],
    result: { resultChars: 0 },
    redactions: [],
    changes: { changedPaths: [] },
    held: run.changes.map((change) => ({ path: shownPath(change.folder, change.path), status: change.status, why: change.why, keptAt: change.keptAt })),
  });
}

/**
 * Lists the kept runs of windows that are gone (keptRuns.ts `recoverKeptRuns`: temporaries removed,
 * old and empty runs pruned) in the Activity view, a record each. Run off the activation's path.
 */
export async function recoverHeldChanges(log: ActivityLog, root: string | undefined): Promise<number> {
  if (root === undefined) {
    return 0;
  }
  const { runs, removed } = await recoverKeptRuns(root);
  for (const run of runs) {
    log.add(recoveredRecord(log.newId(), run), {});
  }
  if (runs.length || removed.length) {
    log.channel.appendLine(`Staged changes from an earlier session: ${runs.length} run(s) listed for review, ${removed.length} removed (nothing left, or older than the age limit).`);
  }
  return runs.length;
}
