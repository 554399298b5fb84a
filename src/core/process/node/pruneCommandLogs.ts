// Pruning the full logs of workspace_run_command (where a new one goes: ../commandLogs.ts).
import { readdirSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** Deletes all but the newest `keep` command logs, so the log folder cannot grow without end. */
export function pruneCommandLogs(directory: string, keep: number): void {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.log'));
  } catch {
    return;
  }
  const logs = names
    .map((name) => {
      try {
        return { file: path.join(directory, name), mtime: statSync(path.join(directory, name)).mtimeMs };
      } catch {
        return undefined;
      }
    })
    .filter((entry): entry is { file: string; mtime: number } => entry !== undefined)
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of logs.slice(keep)) {
    rmSync(old.file, { force: true });
  }
}
