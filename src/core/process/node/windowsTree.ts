// Stops a process tree on Windows, where there are no process groups: taskkill /T /F ends a
// process and every descendant at once. Where taskkill has no /T (wine 8), the tree is read with
// wmic (each process's parent id) and ended one process at a time, the root first so it starts no
// more, looking again until nothing of it is left. Synchronous: the host's last moment ('exit')
// allows no waiting.
//
// Limit: a process whose parent ended before the stop is no longer linked to the tree by its
// parent's id, and a background process left when the shell exits normally is not looked for (a
// job object would hold them all, and Node has no API for one).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { descendantsOf, parseProcessTable } from '../processTree';

/** How many times the wmic fallback looks again for processes the tree started meanwhile. */
const ROUNDS = 3;

/** A program of Windows' own folder, never one found on PATH (which a workspace can change). */
function system32(program: string): string {
  return path.win32.join(process.env.SystemRoot ?? process.env.windir ?? 'C:\\Windows', 'System32', program);
}

/** Decodes a Windows tool's output: wmic writes UTF-16 to a pipe. */
function decode(output: Buffer): string {
  return output.includes(0) ? output.toString('utf16le').replace(/^\uFEFF/, '') : output.toString('latin1');
}

function end(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Ends the process `pid` and all its descendants. */
export function killTree(pid: number): void {
  const taskkill = spawnSync(system32('taskkill.exe'), ['/PID', String(pid), '/T', '/F'], { windowsHide: true, timeout: 10_000 });
  if (taskkill.status === 0) {
    return;
  }
  end(pid);
  for (let round = 0; round < ROUNDS; round++) {
    const wmic = spawnSync(system32(path.win32.join('wbem', 'WMIC.exe')), ['process', 'get', 'ParentProcessId,ProcessId'], { windowsHide: true, timeout: 10_000 });
    const tree = wmic.stdout ? descendantsOf(pid, parseProcessTable(decode(wmic.stdout))) : [];
    if (tree.length === 0) {
      return;
    }
    tree.forEach(end);
  }
}
