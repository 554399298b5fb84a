import type { ActivityRecord, ActivityRecorder, RecordedChange } from '../../../src/core/activity/activityRecord';

/** The activity log port in memory: the records as added, then as amended, and every amendment. */
export class MemoryActivityLog implements ActivityRecorder {
  readonly records: ActivityRecord[] = [];
  readonly inputs = new Map<number, unknown>();
  readonly changes = new Map<number, readonly RecordedChange[]>();
  readonly amendments: { id: number; fields: Partial<Omit<ActivityRecord, 'id'>> }[] = [];
  private nextId = 1;

  newId(): number {
    return this.nextId++;
  }

  add(record: ActivityRecord, fullInput: unknown, changes: readonly RecordedChange[] = []): void {
    this.records.push(record);
    this.inputs.set(record.id, fullInput);
    this.changes.set(record.id, changes);
  }

  amend(id: number, fields: Partial<Omit<ActivityRecord, 'id'>>): ActivityRecord | undefined {
    this.amendments.push({ id, fields });
    const index = this.records.findIndex((record) => record.id === id);
    if (index < 0) {
      return undefined;
    }
    this.records[index] = { ...this.records[index], ...fields };
    return this.records[index];
  }

  /** The one record there is; fails when there are none or several. */
  only(): ActivityRecord {
    if (this.records.length !== 1) {
      throw new Error(`expected one record, found ${this.records.length}`);
    }
    return this.records[0];
  }
}

/** A clock the test moves by hand (fakeTime.ts). */
export { ManualClock } from './fakeTime';
