// Every tool call, in three places: the output channel (for reading), a JSON Lines file in the
// extension's storage (for tools and bug reports), and the Activity view (recent calls, see activityView.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeRecord, type ActivityRecord, type ActivityRecorder, type RecordedChange } from '../../core/activity/activityRecord';

const MAX_RECORDS = 200;

/** The recent calls, their inputs and proposed changes (in memory), the channel and the file. */
export class ActivityLog implements ActivityRecorder, vscode.Disposable {
  private readonly records: ActivityRecord[] = [];
  private readonly changes = new Map<number, readonly RecordedChange[]>();
  /** Whole inputs for "Copy Input"; kept in memory only, as they may hold file contents. */
  private readonly inputs = new Map<number, string>();
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  readonly channel = vscode.window.createOutputChannel('Workspace Agent Tools');
  readonly file: string;

  constructor(storageDir: string) {
    fs.mkdirSync(storageDir, { recursive: true });
    this.file = path.join(storageDir, 'activity.jsonl');
  }

  newId(): number {
    return this.nextId++;
  }

  add(record: ActivityRecord, fullInput: unknown, changes: readonly RecordedChange[] = []): void {
    this.records.unshift(record);
    this.inputs.set(record.id, JSON.stringify(fullInput, null, 2));
    if (changes.length) {
      this.changes.set(record.id, changes);
    }
    for (const dropped of this.records.splice(MAX_RECORDS)) {
      this.changes.delete(dropped.id);
      this.inputs.delete(dropped.id);
    }
    this.channel.appendLine(describeRecord(record));
    fs.appendFile(this.file, `${JSON.stringify(record)}\n`, (error) => {
      if (error) {
        this.channel.appendLine(`Could not write ${this.file}: ${error.message}`);
      }
    });
    this.changed.fire();
  }

  /**
   * Replaces fields of a record that is still in the log (a deferred "after" checkpoint arrives when
   * a background command ends); the file gets the whole record again, the later line wins.
   */
  amend(id: number, fields: Partial<Omit<ActivityRecord, 'id'>>): ActivityRecord | undefined {
    const index = this.records.findIndex((record) => record.id === id);
    if (index < 0) {
      return undefined;
    }
    const record = { ...this.records[index], ...fields };
    this.records[index] = record;
    fs.appendFile(this.file, `${JSON.stringify(record)}\n`, () => undefined);
    this.changed.fire();
    return record;
  }

  get(id: number): ActivityRecord | undefined {
    return this.records.find((record) => record.id === id);
  }

  /** Recent calls, newest first. */
  list(): readonly ActivityRecord[] {
    return this.records;
  }

  inputOf(id: number): string | undefined {
    return this.inputs.get(id);
  }

  changesOf(id: number): readonly RecordedChange[] {
    return this.changes.get(id) ?? [];
  }

  dispose(): void {
    this.channel.dispose();
    this.changed.dispose();
  }
}
