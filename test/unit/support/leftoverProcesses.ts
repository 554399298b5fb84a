// A mocha root hook plugin (package.json's test:unit loads it with --require): a test file that
// leaves a child process of the mocha process running fails, naming the process, and the process
// is killed so the next file starts clean and mocha can exit. Linux only (it reads /proc).
//
// Mocha has no hook per file, so before the first test this adds an "after all" hook to the last
// top-level suite of each file. A process given a moment to end (a stop that is still reaping) is
// not counted: the hook looks again until the children are gone or LEFTOVER_GRACE_MS passed.
import * as fs from 'node:fs';
import type { Context, Suite } from 'mocha';
import { alive } from '../../support/procfs';

/** How long a file's children get to finish ending after its last hook. */
const LEFTOVER_GRACE_MS = 3000;

/** The running (not zombie) children of this process, from every thread's children list. */
export function childProcesses(pid = process.pid): { pid: number; commandLine: string }[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const pids = new Set<number>();
  for (const task of tasks) {
    try {
      fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).forEach((child) => pids.add(Number(child)));
    } catch {
      // The thread ended.
    }
  }
  return [...pids].filter(alive).map((child) => {
    let commandLine = '?';
    try {
      commandLine = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // Gone meanwhile.
    }
    return { pid: child, commandLine };
  });
}

async function checkNothingLeft(file: string): Promise<void> {
  const deadline = Date.now() + LEFTOVER_GRACE_MS;
  let left = childProcesses();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = childProcesses();
  }
  if (left.length === 0) {
    return;
  }
  for (const child of left) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  const named = left.map((child) => `${child.pid} (${child.commandLine.slice(0, 200)})`).join('; ');
  throw new Error(`${file} left ${left.length} child process${left.length === 1 ? '' : 'es'} of mocha running after its tests: ${named}. Stop what a test starts in its after/afterEach hook. (Killed now.)`);
}

export const mochaHooks = process.platform !== 'linux' ? {} : {
  beforeAll(this: Context): void {
    const root = this.test?.parent;
    if (!root) {
      return;
    }
    // The last top-level suite of each file runs last of that file.
    const lastOfFile = new Map<string, Suite>();
    for (const suite of root.suites) {
      if (suite.file) {
        lastOfFile.set(suite.file, suite);
      }
    }
    for (const [file, suite] of lastOfFile) {
      suite.afterAll(`nothing of ${file.split('/').slice(-1)[0]} is left running`, async function (this: Context) {
        this.timeout(LEFTOVER_GRACE_MS + 5000);
        await checkNothingLeft(file);
      });
    }
  },
};
