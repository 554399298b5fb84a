// One call's record in the activity log, written once when the call returns and amended by what
// comes later (execution config a background command made, the "after" checkpoint it deferred).
// An amend that arrives before the record is written waits for it; each amend is a function of
// the moment it is applied, so a queued one never writes back a value older than the record's, and
// one that changes nothing the record holds is not applied.
import type { ActivityRecord, ActivityRecorder, RecordedChange } from '../activity/activityRecord';

/** Fields of a record as they are when the amend is applied. */
export type RecordAmend = () => Partial<Omit<ActivityRecord, 'id'>>;

export class CallRecord {
  private written: ActivityRecord | undefined;
  private readonly queued: RecordAmend[] = [];

  /** `activity` undefined: nothing is recorded, and amends are dropped. */
  constructor(private readonly activity: ActivityRecorder | undefined) {}

  /** Writes the record (once), with its id, then every amend that came before it. */
  write(build: (id: number) => ActivityRecord, fullInput: unknown, changes: readonly RecordedChange[]): void {
    const activity = this.activity;
    if (!activity || this.written) {
      return;
    }
    const record = build(activity.newId());
    this.written = record;
    activity.add(record, fullInput, changes);
    for (const amend of this.queued.splice(0)) {
      this.apply(activity, amend);
    }
  }

  /** Changes fields of the record: now if it is written, otherwise right after it is. */
  amend(amend: RecordAmend): void {
    if (!this.activity) {
      return;
    }
    if (this.written) {
      this.apply(this.activity, amend);
    } else {
      this.queued.push(amend);
    }
  }

  private apply(activity: ActivityRecorder, amend: RecordAmend): void {
    const record = this.written as ActivityRecord;
    const fields = amend();
    const held = record as unknown as Record<string, unknown>;
    if (Object.entries(fields).every(([key, value]) => JSON.stringify(held[key]) === JSON.stringify(value))) {
      return;
    }
    this.written = { ...record, ...fields };
    activity.amend(record.id, fields);
  }
}
