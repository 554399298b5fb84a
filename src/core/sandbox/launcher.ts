// How a command line is wrapped for the sandbox this machine has.
import { describeProtected, describeSecrets } from '../guard/protectedNames';
import type { SandboxAvailability } from '../ports/process';
import { bubblewrapLauncher } from './bubblewrap';
import { cacheVariables } from './caches';
import type { SandboxPlan } from './plan';
import { seatbeltLauncher } from './seatbelt';

/** The program and arguments that run the shell inside the sandbox, and what they add to its environment. */
export interface SandboxLaunch {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export function sandboxLaunch(availability: Exclude<SandboxAvailability, { kind: 'none' }>, plan: SandboxPlan, cwd: string): SandboxLaunch {
  if (availability.kind === 'bubblewrap') {
    // bubblewrap sets TMPDIR=/tmp itself (the private folder is bound there).
    return { argv: bubblewrapLauncher(availability.executable, plan, cwd), env: {} };
  }
  // Seatbelt cannot bind: the tools are pointed at the private copies of their caches instead.
  return { argv: seatbeltLauncher(availability.executable, plan), env: { ...cacheVariables(plan.caches), TMPDIR: plan.tempDirectory } };
}

/** The sandbox's name and what it allows, for results and questions. */
export function sandboxSummary(availability: Exclude<SandboxAvailability, { kind: 'none' }>, network: boolean): string {
  const name = availability.kind === 'bubblewrap' ? 'bubblewrap' : 'macOS sandbox-exec';
  return `${name}: writes only in the workspace folders, a private /tmp and package managers' caches; ${describeProtected('brief')} read-only; secrets (${describeSecrets()}) and the session's sockets hidden; ${network ? 'network on' : 'no network'}`;
}
