// A process tree from a table of (process, parent) pairs: what a stop must end on Windows, where a
// command's processes share no group, only the chain of parent ids down from its shell.

/** The process ids and their parents' ids from `wmic process get ParentProcessId,ProcessId` (a header, then one pair a line). */
export function parseProcessTable(text: string): Array<{ pid: number; parent: number }> {
  const rows: Array<{ pid: number; parent: number }> = [];
  for (const line of text.split(/\r?\n|\r/)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length === 2 && fields.every((field) => /^\d+$/.test(field))) {
      rows.push({ parent: Number(fields[0]), pid: Number(fields[1]) });
    }
  }
  return rows;
}

/** Every descendant of `root` (children, their children, ...), parents before their children; a cycle of reused ids ends the walk. */
export function descendantsOf(root: number, table: ReadonlyArray<{ pid: number; parent: number }>): number[] {
  const found: number[] = [];
  const seen = new Set([root]);
  for (let index = -1; index < found.length; index++) {
    const parent = index === -1 ? root : found[index];
    for (const row of table) {
      if (row.parent === parent && !seen.has(row.pid)) {
        seen.add(row.pid);
        found.push(row.pid);
      }
    }
  }
  return found;
}
