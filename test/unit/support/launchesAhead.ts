// The staged launches started ahead (sandbox/node/stagedRuns.ts OverlayStaging), as tests find them
// among a process's children: their shell waits for its line, then makes the mounts private.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { until } from '../../support/until';
import { childProcesses } from './leftoverProcesses';

export interface LaunchAhead {
  readonly pid: number;
  /** Its staging folder (the parent of its first upper layer, among its arguments). */
  readonly staging: string;
}

/**
 * The launches started ahead among `pid`'s children whose layers lie under `root`. One discarded and
 * still exiting is left out: its staging folder is removed as it is discarded. /proc's lists of
 * children can miss one while others start or end: take the one waiting from `waitingAhead`.
 */
export function launchesAhead(root: string, pid = process.pid): LaunchAhead[] {
  return childProcesses(pid).flatMap((child) => {
    // As listed: read again, a process that just ended shows no arguments.
    const upper = child.commandLine.includes('mount --make-rprivate /') ? child.commandLine.split(/\s/).find((arg) => arg.startsWith(root) && arg.endsWith('/upper0')) : undefined;
    return upper && fs.existsSync(upper) ? [{ pid: child.pid, staging: path.dirname(upper) }] : [];
  });
}

/** The one launch started ahead under `root`, once listed (spawned, it may still be between unshare's exec and bash's): lists again until exactly one shows. */
export async function waitingAhead(root: string, pid = process.pid): Promise<LaunchAhead> {
  let listed: LaunchAhead[] = [];
  await until(() => (listed = launchesAhead(root, pid)).length === 1, 'one launch started ahead');
  return listed[0];
}
