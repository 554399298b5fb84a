// A call's record (core/calls/callRecord.ts): written once, amended now once written and right after
// it otherwise, each amend read at the moment it is applied.
import * as assert from 'node:assert/strict';
import type { ActivityRecord, ActivityRecorder } from '../../../../src/core/activity/activityRecord';
import { CallRecord } from '../../../../src/core/calls/callRecord';

class RecordingLog implements ActivityRecorder {
  readonly events: string[] = [];
  private next = 7;
  newId(): number {
    return this.next++;
  }
  add(record: ActivityRecord): void {
    this.events.push(`add ${record.id} ${JSON.stringify(record.executionConfig ?? null)}`);
  }
  amend(id: number, fields: Partial<Omit<ActivityRecord, 'id'>>): void {
    this.events.push(`amend ${id} ${JSON.stringify(fields)}`);
  }
}

const recordOf = (id: number, executionConfig: readonly string[]): ActivityRecord => ({ id, executionConfig } as unknown as ActivityRecord);

describe('core/calls/callRecord', () => {
  it('holds an amend that comes before the record and applies it, as it is then, right after the write, unless it changes nothing', () => {
    const log = new RecordingLog();
    const record = new CallRecord(log);
    const config: string[] = ['a'];
    record.amend(() => ({ executionConfig: [...config] } as never));
    config.push('b');
    record.write((id) => recordOf(id, [...config]), {}, []);
    assert.deepEqual(log.events, ['add 7 ["a","b"]'], 'never an older value than the record\'s, and no amend that changes nothing');
    config.push('c');
    record.amend(() => ({ executionConfig: [...config] } as never));
    assert.deepEqual(log.events, ['add 7 ["a","b"]', 'amend 7 {"executionConfig":["a","b","c"]}']);
  });

  it('amends a written record at once, and writes it only once', () => {
    const log = new RecordingLog();
    const record = new CallRecord(log);
    record.write((id) => recordOf(id, []), {}, []);
    record.write((id) => recordOf(id, ['again']), {}, []);
    record.amend(() => ({ executionConfig: ['late'] } as never));
    assert.deepEqual(log.events, ['add 7 []', 'amend 7 {"executionConfig":["late"]}']);
  });

  it('does nothing without an activity log', () => {
    const record = new CallRecord(undefined);
    let built = 0;
    record.amend(() => ({}));
    record.write((id) => {
      built += 1;
      return recordOf(id, []);
    }, {}, []);
    assert.equal(built, 0);
  });
});
