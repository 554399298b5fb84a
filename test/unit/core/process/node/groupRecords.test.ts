import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { endOrphanedGroups, GroupRecordFile, parseWindowRecord } from '../../../../../src/core/process/node/groupRecords';
import { groupAlive, isSameProcess, processStartTime, startTimeOfStat, terminateGroup } from '../../../../../src/core/process/node/processGroup';
import { describeOnlyOn } from '../../../support/platforms';

/** A process group of its own (like a background command's) that sleeps until killed. */
function startGroup(): { pgid: number; startTime: string } {
  const child = spawn('/bin/sh', ['-c', 'sleep 300 & wait'], { detached: true, stdio: 'ignore' });
  child.unref();
  const pgid = child.pid ?? 0;
  const startTime = processStartTime(pgid);
  assert.ok(pgid > 0 && startTime, 'the group started');
  return { pgid, startTime };
}

/** The pid and start time of a process that has ended: a window that crashed. */
async function deadProcess(): Promise<{ pid: number; startTime: string }> {
  const child = spawn('/bin/sh', ['-c', 'read line'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const pid = child.pid ?? 0;
  const startTime = processStartTime(pid) ?? '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end('\n');
  await exited;
  return { pid, startTime };
}

describeOnlyOn(['linux'], 'process start times from /proc, which name a crashed window\'s process groups')('process/node/groupRecords (pid and start time)', () => {
  let dir: string;
  const groups: number[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-groups-'));
  });
  afterEach(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await Promise.all(groups.splice(0).map((pgid) => terminateGroup(pgid, 100)));
  });

  it('reads field 22 of /proc/<pid>/stat even when the command name holds spaces and parentheses', () => {
    const fields = ['S', ...Array.from({ length: 18 }, (_, i) => String(i + 4)), '987654', '23'];
    assert.equal(startTimeOfStat(`42 (a ) b (c) ${fields.join(' ')}`), '987654');
    assert.equal(startTimeOfStat('garbage'), undefined);
  });

  it('knows this process by its pid and start time, and not by its pid with another start time', () => {
    const startTime = processStartTime(process.pid) ?? '';
    assert.match(startTime, /^\d+$/);
    assert.equal(isSameProcess(process.pid, startTime), true);
    assert.equal(isSameProcess(process.pid, String(Number(startTime) + 1)), false);
  });

  it('ends the groups a crashed window recorded, and removes its record', async () => {
    const group = startGroup();
    groups.push(group.pgid);
    const crashed = await deadProcess();
    new GroupRecordFile(dir, crashed).add('bg1', group.pgid, group.startTime);
    assert.equal(await endOrphanedGroups(dir, 200), 1);
    assert.equal(groupAlive(group.pgid), false);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('never signals a group whose pid now belongs to another process (a different start time)', async () => {
    const group = startGroup();
    groups.push(group.pgid);
    const crashed = await deadProcess();
    new GroupRecordFile(dir, crashed).add('bg1', group.pgid, String(Number(group.startTime) - 1));
    assert.equal(await endOrphanedGroups(dir, 200), 0);
    assert.equal(groupAlive(group.pgid), true);
    assert.deepEqual(fs.readdirSync(dir), [], 'the stale record is removed');
  });

  it('leaves the groups of a window that still runs alone', async () => {
    const group = startGroup();
    groups.push(group.pgid);
    new GroupRecordFile(dir).add('bg1', group.pgid, group.startTime);
    assert.equal(await endOrphanedGroups(dir, 200), 0);
    assert.equal(groupAlive(group.pgid), true);
    assert.equal(fs.readdirSync(dir).length, 1);
  });

  it('removes the record when the last group ended', () => {
    const records = new GroupRecordFile(dir);
    records.add('bg1', 12345, '99');
    assert.equal(fs.readdirSync(dir).length, 1);
    records.remove('bg1');
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('ignores records that are not well formed (hostile or half written) instead of signalling anything', () => {
    assert.equal(parseWindowRecord('{'), undefined);
    assert.equal(parseWindowRecord(JSON.stringify({ owner: { pid: 1, startTime: '5' }, groups: [] })), undefined, 'pid 1 is never a window');
    assert.equal(parseWindowRecord(JSON.stringify({ owner: { pid: 77, startTime: '5' }, groups: [{ id: 'x', pgid: -1, startTime: '5' }] })), undefined, 'a negative pgid would signal every process');
    assert.equal(parseWindowRecord(JSON.stringify({ owner: { pid: 77, startTime: '5' }, groups: [{ id: 'x', pgid: 88, startTime: '5 6' }] })), undefined);
    assert.ok(parseWindowRecord(JSON.stringify({ owner: { pid: 77, startTime: '5' }, groups: [{ id: 'x', pgid: 88, startTime: '6' }] })));
  });
});
