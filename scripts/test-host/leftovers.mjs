// @ts-check
// Processes a test deliberately left running (background commands never stopped) must be gone once
// the extension host has exited: the test writes their pids and start times to WAT_LEFTOVERS_FILE,
// and the pass checks them after code-server stopped. A survivor fails the pass and is killed.
import * as fsp from 'node:fs/promises';

/** @typedef {{ pid: number, startTime: string, what?: string }} Leftover */

/**
 * The start time of a living process (field 22 of /proc/<pid>/stat), or undefined when it is gone or a zombie.
 * @param {number} pid
 */
async function startTime(pid) {
  try {
    const stat = await fsp.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ['Z', 'X'].includes(fields[0]) ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

/**
 * Why the pass must fail because a recorded process outlived the host, or undefined. Waits up to
 * `waitMs` for them to go; a pid is only the recorded process while its start time matches.
 * @param {string} file
 * @param {number} [waitMs]
 * @returns {Promise<string | undefined>}
 */
export async function leftoversAfterExit(file, waitMs = 5000) {
  /** @type {Leftover[]} */
  let recorded;
  try {
    recorded = JSON.parse(await fsp.readFile(file, 'utf8'));
  } catch {
    return undefined; // no test recorded anything (e.g. a --grep that left it out)
  }
  const survivors = async () => {
    /** @type {Leftover[]} */
    const alive = [];
    for (const entry of recorded) if ((await startTime(entry.pid)) === entry.startTime) alive.push(entry);
    return alive;
  };
  const deadline = Date.now() + waitMs;
  let alive = await survivors();
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    alive = await survivors();
  }
  if (alive.length === 0) {
    console.log(`leftovers: the ${recorded.length} background processes a test left running ended with the extension host`);
    return undefined;
  }
  for (const entry of alive) {
    try {
      process.kill(entry.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
  return `${alive.length} process(es) left running by a test outlived the extension host: ${alive.map((entry) => `${entry.pid} (${entry.what ?? '?'})`).join(', ')}`;
}
