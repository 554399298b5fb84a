// A process group as one thing to watch and to end: alive while any living member is, ended with
// TERM to the whole group and KILL to what is left after a grace period.
//
// Windows has no process groups: the "group" is the tree under the command's shell (its pid stands
// for the group), alive while the shell is, and stopped whole at once (windowsTree.ts); there is
// no TERM to give first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { killTree } from './windowsTree';

const POLL_MS = 50;
/** After KILL, how long to wait for the group to disappear before giving up on it. */
const AFTER_KILL_MS = 2000;

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * True while a living process of the group exists. On Linux /proc is read so that zombies (dead
 * processes nobody reaped, common in containers whose init does not reap) do not count as alive;
 * elsewhere a signal 0 to the group answers.
 */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32') {
    return processAlive(pgid);
  }
  if (existsSync('/proc/self/stat')) {
    return livingMembersOnLinux(pgid);
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while the process exists (a signal 0 answers; on Windows, OpenProcess does). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function livingMembersOnLinux(pgid: number): boolean {
  return groupMembersOnLinux(pgid).length > 0;
}

/** The living processes (not zombies) of a group, from /proc: pid and name (comm); none where /proc cannot be read. */
export function groupMembersOnLinux(pgid: number): Array<{ pid: string; comm: string }> {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: Array<{ pid: string; comm: string }> = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') {
      members.push({ pid: entry, comm: stat.slice(stat.indexOf('(') + 1, close) });
    }
  }
  return members;
}

/**
 * A process's start time in clock ticks after boot (/proc/<pid>/stat field 22): with the pid it
 * names one process for the machine's uptime, so a pid the kernel gave to another process since is
 * never mistaken for it. Undefined where there is no /proc or the process is gone.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    return startTimeOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Field 22 of a /proc/<pid>/stat line; comm (field 2) may hold spaces and parentheses, so fields are counted after the last ')'. */
export function startTimeOfStat(stat: string): string | undefined {
  const close = stat.lastIndexOf(')');
  if (close === -1) {
    return undefined;
  }
  // After ") " come field 3 (state) onwards: field 22 is index 19.
  const value = stat.slice(close + 2).split(' ')[19];
  return value !== undefined && /^\d+$/.test(value) ? value : undefined;
}

/** True when the process of `pid` is alive (not a zombie) and is the one that started at `startTime`. */
export function isSameProcess(pid: number, startTime: string): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  return state !== 'Z' && state !== 'X' && startTimeOfStat(stat) === startTime;
}

/** KILL to the whole group at once, without waiting: for the host's last moment. */
export function killGroupNow(pgid: number): void {
  signalGroup(pgid, 'SIGKILL');
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    killTree(pgid);
    return;
  }
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Resolves true once no living process of the group is left, false when `ms` passed first. */
export async function waitUntilGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  // A group usually ends within a few milliseconds of its leader (the sandbox's pid namespace
  // winding down): look again soon at first, then every POLL_MS, so no command waits a whole poll.
  let wait = 1;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) {
      return false;
    }
    await delay(Math.min(wait, POLL_MS, Math.max(1, deadline - Date.now())));
    wait *= 2;
  }
  return true;
}

/** TERM to the whole group, KILL to whatever is left after the grace period (on Windows: the whole tree at once). */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (process.platform === 'win32') {
    killTree(pgid);
    await waitUntilGone(pgid, AFTER_KILL_MS);
    return;
  }
  signalGroup(pgid, 'SIGTERM');
  if (await waitUntilGone(pgid, graceMs)) {
    return;
  }
  signalGroup(pgid, 'SIGKILL');
  await waitUntilGone(pgid, AFTER_KILL_MS);
}
