// The full logs of workspace_run_command: where a new one goes (pruning the old ones: node/pruneCommandLogs.ts).
import * as path from 'node:path';

/** A new log file's path: when, which window (`pid`, CommandHost.pid), a random part, and the start of the command. */
export function commandLogPath(directory: string, command: string, now: number, pid: number): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  // Only the program's name: the rest of a line can hold a credential (a URL with a password, a
  // token argument), and the file's name reaches the model where redaction cannot recognise it.
  const program = /^\s*([A-Za-z0-9_.-]+)/.exec(command)?.[1] ?? '';
  const slug = program.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24) || 'command';
  return path.join(directory, `${stamp}-${pid}-${Math.floor(Math.random() * 1e6)}-${slug}.log`);
}
