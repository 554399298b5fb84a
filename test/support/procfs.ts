// Processes seen through /proc, for the unit and integration tests that check that nothing a
// command started is left running.
import * as fs from 'fs';

/** The fields of /proc/<pid>/stat after the command name (state first), or undefined when the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process that exists and is not a zombie (containers without a reaping init keep zombies). */
export function alive(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== undefined && !['Z', 'X'].includes(fields[0]);
}

/** The start time of a live process (field 22 of /proc/<pid>/stat), or undefined when it is gone or a zombie. */
export function startTime(pid: number): string | undefined {
  return alive(pid) ? statFields(pid)?.[19] : undefined;
}

/** Living processes whose command line (arguments joined by spaces) `matches`, with that line (a sandbox's pid namespace hides pids, not /proc). */
export function processesWhere(matches: (commandLine: string) => boolean): { pid: number; commandLine: string }[] {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).flatMap((pid) => {
    try {
      const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      return matches(commandLine) && alive(pid) ? [{ pid, commandLine }] : [];
    } catch {
      return [];
    }
  });
}

/** Living processes whose command line is exactly `commandLine`. */
export function processesWithCommandLine(commandLine: string): number[] {
  return processesWhere((line) => line === commandLine).map((process) => process.pid);
}
