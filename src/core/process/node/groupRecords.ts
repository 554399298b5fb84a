// Running background groups recorded on disk, one file per window (named after the extension
// host's pid and start time), so that a window that starts after another crashed can end what the
// crashed one left running. A group is ended only when its leader is provably the process that was
// recorded: the same pid with the same start time (/proc/<pid>/stat field 22). A pid the kernel has
// since given to another process is never signalled; a group whose leader is gone is left alone
// (its members cannot be told apart from a stranger's group that reused the id).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunningGroupRecords } from '../../ports/process';
import { isSameProcess, processStartTime, terminateGroup } from './processGroup';

interface RecordedGroup {
  readonly id: string;
  readonly pgid: number;
  readonly startTime: string;
}

interface WindowRecord {
  readonly owner: { readonly pid: number; readonly startTime: string };
  readonly groups: readonly RecordedGroup[];
}

/** The groups this window runs, kept in `<directory>/<pid>-<start time>.json`. */
export class GroupRecordFile implements RunningGroupRecords {
  private readonly groups = new Map<string, RecordedGroup>();
  private readonly file: string | undefined;
  private readonly owner: WindowRecord['owner'] | undefined;

  constructor(private readonly directory: string, owner = { pid: process.pid, startTime: processStartTime(process.pid) }) {
    // Where start times cannot be read (no /proc) nothing is recorded: a record could not be verified later.
    this.file = owner.startTime === undefined ? undefined : path.join(directory, `${owner.pid}-${owner.startTime}.json`);
    this.owner = owner.startTime === undefined ? undefined : { pid: owner.pid, startTime: owner.startTime };
  }

  add(id: string, pgid: number, startTime: string): void {
    this.groups.set(id, { id, pgid, startTime });
    this.save();
  }

  remove(id: string): void {
    if (this.groups.delete(id)) {
      this.save();
    }
  }

  private save(): void {
    if (!this.file || !this.owner) {
      return;
    }
    try {
      if (this.groups.size === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      mkdirSync(this.directory, { recursive: true });
      const record: WindowRecord = { owner: this.owner, groups: [...this.groups.values()] };
      const temporary = `${this.file}.tmp`;
      writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch {
      // Recording is a safety net for crashes; a full disk must not stop the command itself.
    }
  }
}

/** A pid that can name one process: never 0 or 1 (init), never negative (a group signal to everything). */
function isProcessId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 1;
}

function isStartTime(value: unknown): value is string {
  return typeof value === 'string' && /^\d+$/.test(value);
}

function isRecordedGroup(value: unknown): value is RecordedGroup {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string'
    && 'pgid' in value && isProcessId(value.pgid) && 'startTime' in value && isStartTime(value.startTime);
}

function isOwner(value: unknown): value is WindowRecord['owner'] {
  return typeof value === 'object' && value !== null && 'pid' in value && isProcessId(value.pid) && 'startTime' in value && isStartTime(value.startTime);
}

/** A parsed record, or undefined when the file is not one (hostile or half-written content is ignored). */
export function parseWindowRecord(text: string): WindowRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || !('owner' in value) || !isOwner(value.owner) || !('groups' in value) || !Array.isArray(value.groups)) {
    return undefined;
  }
  const groups: unknown[] = value.groups;
  return groups.every(isRecordedGroup) ? { owner: value.owner, groups } : undefined;
}

/**
 * Ends the groups recorded by windows that are gone (their extension host is not the recorded
 * process any more) and removes their records. Returns how many groups were ended.
 */
export async function endOrphanedGroups(directory: string, graceMs: number, isAlive: (pid: number, startTime: string) => boolean = isSameProcess): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.json'));
  } catch {
    return 0;
  }
  let ended = 0;
  for (const name of names) {
    const file = path.join(directory, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const record = parseWindowRecord(text);
    if (record && isAlive(record.owner.pid, record.owner.startTime)) {
      continue; // that window still runs and looks after its own commands
    }
    for (const group of record?.groups ?? []) {
      if (isAlive(group.pgid, group.startTime)) {
        await terminateGroup(group.pgid, graceMs);
        ended += 1;
      }
    }
    rmSync(file, { force: true });
  }
  return ended;
}
