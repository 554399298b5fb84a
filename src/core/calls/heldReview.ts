// Merge Held Change and Discard Held Change: the person's own acts on a staged command's change
// that was held for review (sandbox/staging.ts). Nothing here is reachable from a tool: the host
// calls it from the Activity view's row or the palette, and a merge happens only after the person's
// answer to a question that says what the change is and why it was held. A change the person made
// in the folder meanwhile is replaced only after they looked at the diff. A merge is checkpointed
// and recorded like a restore (restore.ts), so Restore to Before This Call undoes it. The merge
// itself is the command's merge (sandbox/node/keptRuns.ts, behind the KeptChanges port below).
import type { ActivityRecord, ActivityRecorder, HeldChangeRecord } from '../activity/activityRecord';
import { CallCheckpoints } from '../checkpoints/callCheckpoint';
import type { CheckpointLimits, CheckpointStore } from '../ports/checkpoints';
import type { Clock } from '../ports/clock';
import type { KeptChangeFacts, KeptOutcome } from '../sandbox/node/keptRuns';
import { buildActivityRecord, checkpointFields } from './activityRecordBuilder';
import type { CheckpointWorkspace } from '../checkpoints/callCheckpoint';

/** The kept changes of staged runs (keptRuns.ts over the staging root). */
export interface KeptChanges {
  describe(keptAt: string): Promise<KeptChangeFacts>;
  merge(keptAt: string): Promise<KeptOutcome>;
  discard(keptAt: string): Promise<KeptOutcome>;
}

/** The question put to the person before a merge: its answers are the buttons, `undefined` is no. */
export interface HeldQuestion {
  readonly title: string;
  readonly detail: string;
  /** The one button that goes on: merge (`Merge`, `Replace Your Version`), or first look (`Show Held Change`). */
  readonly go: string;
  /** True when the button only shows the diff: nothing is merged from this question. */
  readonly looksFirst: boolean;
}

export interface HeldReviewServices {
  readonly kept: KeptChanges;
  readonly activity: ActivityRecorder & { get(id: number): ActivityRecord | undefined };
  readonly clock: Clock;
  /** Asks modally; resolves to the button pressed or undefined. */
  readonly ask: (question: HeldQuestion) => Promise<string | undefined>;
  /** Opens the diff (Show Held Change). */
  readonly show: (record: ActivityRecord, index: number) => Promise<void>;
  /** Where checkpoints are kept, while they are on; absent: the merge is not checkpointed. */
  readonly checkpoints?: { readonly store: CheckpointStore; readonly limits: CheckpointLimits; readonly workspace: CheckpointWorkspace };
  /** The workspace folders' host paths: a change of another folder is not merged. */
  readonly folders: readonly string[];
}

export interface HeldReviewOutcome {
  readonly done: boolean;
  readonly message: string;
  /** The merge's own activity record (restore it to undo the merge). */
  readonly activityId?: number;
}

/** Why the tools hold a kind of change, in the person's words, for the question. */
function consequence(facts: KeptChangeFacts): string {
  if (/new repository/.test(facts.why) || /(^|\/)\.git$/i.test(facts.path)) {
    return "Git obeys a repository's config and hooks: VS Code's git extension runs core.fsmonitor of a repository it opens, and git runs its hooks, outside any sandbox.";
  }
  if (/execution config/.test(facts.why)) {
    return 'VS Code or git runs what execution config names (tasks, launch configurations, settings that name programs, filters and hooks) outside the sandbox.';
  }
  if (/changed in the folder while the command ran/.test(facts.why)) {
    return 'You (or another program) changed it while the command ran.';
  }
  return '';
}

/** The question for a merge of `facts`; `looked`: the person opened its diff already. */
export function mergeQuestion(shown: string, facts: KeptChangeFacts, looked: boolean): HeldQuestion {
  const what = facts.kind === 'folder' ? `the folder ${shown} (${facts.files ?? 0} file(s), merged as a whole)` : facts.kind === 'deletion' ? `the deletion of ${shown}` : facts.kind === 'symlink' ? `the symbolic link ${shown}` : `${shown}`;
  const nested = facts.nested.length ? ` Held changes below it stay held: ${facts.nested.join(', ')}.` : '';
  const lines = [`The command's change to ${what} was held: ${facts.why}.`, consequence(facts), nested.trim()].filter(Boolean);
  if (facts.changedInFolder && !looked) {
    lines.push('The folder\'s version changed after the command started. Look at both versions first: Show Held Change opens the diff, then merge again to choose.');
    return { title: `Merge ${shown}? Look at it first.`, detail: lines.join('\n\n'), go: 'Show Held Change', looksFirst: true };
  }
  if (facts.changedInFolder) {
    lines.push('Merging replaces the version in the folder (yours, changed after the command started) with the command\'s. Restore to Before This Call on the merge\'s record undoes it.');
    return { title: `Replace your version of ${shown} with the command's?`, detail: lines.join('\n\n'), go: 'Replace Your Version', looksFirst: false };
  }
  lines.push('Merge it only if you read it and trust it. Restore to Before This Call on the merge\'s record undoes it.');
  return { title: `Merge the held change ${shown} into the workspace?`, detail: lines.join('\n\n'), go: 'Merge', looksFirst: false };
}

/** The record with one held change marked merged or discarded. */
function marked(record: ActivityRecord, index: number, state: 'merged' | 'discarded'): readonly HeldChangeRecord[] {
  return (record.held ?? []).map((entry, at) => (at === index ? { ...entry, state } : entry));
}

/** The held change `index` of `record`, when it is still waiting. */
function pending(record: ActivityRecord | undefined, index: number): HeldChangeRecord | undefined {
  const held = record?.held?.[index];
  return held && held.state === undefined ? held : undefined;
}

/**
 * Merges the held change `index` of activity record `id` after the person's answer. Refuses a
 * change that is not waiting, or of a folder not in the workspace; a merge that stops says where,
 * and the change stays held.
 */
export async function mergeHeldChange(id: number, index: number, looked: boolean, services: HeldReviewServices): Promise<HeldReviewOutcome> {
  const record = services.activity.get(id);
  const held = pending(record, index);
  if (!record || !held) {
    return { done: false, message: `There is no held change ${index} waiting in activity record ${id}; nothing was merged.` };
  }
  let facts: KeptChangeFacts;
  try {
    facts = await services.kept.describe(held.keptAt);
  } catch (error) {
    return { done: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (!services.folders.includes(facts.folder)) {
    return { done: false, message: `${held.path} belongs to ${facts.folder}, which is not a folder of this workspace now; nothing was merged. Open that folder to merge it, or discard it.` };
  }
  const question = mergeQuestion(held.path, facts, looked);
  const answer = await services.ask(question);
  if (answer !== question.go) {
    return { done: false, message: `${held.path} was not merged; it stays held.` };
  }
  if (question.looksFirst) {
    await services.show(record, index);
    return { done: false, message: `${held.path} was not merged: look at both versions, then merge again to choose.` };
  }
  const started = services.clock.now();
  const checkpoints = services.checkpoints && new CallCheckpoints(services.checkpoints.store, [facts.folder], services.checkpoints.limits);
  await checkpoints?.beforeChange();
  let outcome: KeptOutcome | undefined;
  let failure: string | undefined;
  try {
    outcome = await services.kept.merge(held.keptAt);
  } catch (error) {
    failure = `${held.path} was not merged (it stays held): ${error instanceof Error ? error.message : String(error)}`;
  }
  const after = await checkpoints?.finishNow();
  const skipped = outcome?.skipped.length ? ` Not merged, as no merge makes them (neither a file, a folder nor a link): ${outcome.skipped.join(', ')}.` : '';
  const message = failure ?? `Merged ${held.path} from the review of call ${id}.${skipped}`;
  const activityId = services.activity.newId();
  const input = { activityId: id, held: held.path };
  services.activity.add(
    buildActivityRecord({
      id: activityId,
      tool: 'mergeHeldChange',
      input,
      startedAt: started,
      finishedAt: services.clock.now(),
      verdicts: [],
      approvals: [{ kind: 'change', title: question.title, allowed: true }],
      result: failure ? { error: failure } : { resultChars: 0 },
      redactions: [],
      changes: after && services.checkpoints ? checkpointFields(after, services.checkpoints.workspace) : { changedPaths: [] },
    }),
    input,
  );
  if (!failure) {
    services.activity.amend(id, { held: marked(record, index, 'merged') });
  }
  return { done: !failure, message, activityId };
}

/** Discards the held change `index` of activity record `id` (the folder is not touched). */
export async function discardHeldChange(id: number, index: number, services: Pick<HeldReviewServices, 'kept' | 'activity' | 'ask'>): Promise<HeldReviewOutcome> {
  const record = services.activity.get(id);
  const held = pending(record, index);
  if (!record || !held) {
    return { done: false, message: `There is no held change ${index} waiting in activity record ${id}; nothing was discarded.` };
  }
  const question = { title: `Discard the held change ${held.path}?`, detail: `The command's version (held: ${held.why}) is deleted; the workspace is not changed.`, go: 'Discard', looksFirst: false };
  if ((await services.ask(question)) !== question.go) {
    return { done: false, message: `${held.path} was not discarded; it stays held.` };
  }
  try {
    await services.kept.discard(held.keptAt);
  } catch (error) {
    return { done: false, message: error instanceof Error ? error.message : String(error) };
  }
  services.activity.amend(id, { held: marked(record, index, 'discarded') });
  return { done: true, message: `Discarded the held change ${held.path}; the workspace was not changed.` };
}
