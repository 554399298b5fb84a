// How a command line is wrapped for the sandbox this machine has.
import { describeProtected, describeSecrets } from '../guard/protectedNames';
import type { SandboxAvailability } from '../ports/process';
import { bubblewrapLauncher, RELAY_HTTP_PORT, RELAY_SOCKS_PORT } from './bubblewrap';
import { cacheVariables } from './caches';
import { describeNetwork } from './network';
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
    const proxied = plan.network && plan.proxy?.transport === 'unix';
    return { argv: bubblewrapLauncher(availability.executable, plan, cwd), env: proxied ? proxyEnvironment(RELAY_HTTP_PORT, RELAY_SOCKS_PORT) : {} };
  }
  const proxied = plan.network && plan.proxy?.transport === 'tcp' ? proxyEnvironment(plan.proxy.http, plan.proxy.socks) : {};
  // Seatbelt cannot bind: the tools are pointed at the private copies of their caches instead.
  return { argv: seatbeltLauncher(availability.executable, plan), env: { ...cacheVariables(plan.caches), TMPDIR: plan.tempDirectory, ...proxied } };
}

/**
 * The variables that send a command's connections to the proxy (npm, pip, git, curl, cargo, go and
 * most HTTP clients read them); loopback stays direct, as it is the sandbox's own.
 */
export function proxyEnvironment(httpPort: number, socksPort: number): Record<string, string> {
  const http = `http://127.0.0.1:${httpPort}`;
  const socks = `socks5h://127.0.0.1:${socksPort}`;
  const local = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: http,
    HTTPS_PROXY: http,
    ALL_PROXY: socks,
    NO_PROXY: local,
    http_proxy: http,
    https_proxy: http,
    all_proxy: socks,
    no_proxy: local,
  };
}

/** The sandbox's name and what it allows, for results and questions. */
export function sandboxSummary(availability: Exclude<SandboxAvailability, { kind: 'none' }>, network: boolean | string): string {
  const name = availability.kind === 'bubblewrap' ? 'bubblewrap' : 'macOS sandbox-exec';
  const reach = typeof network === 'string' ? network : network ? describeNetwork(undefined) : 'no network';
  return `${name}: writes only in the workspace folders, a private /tmp and package managers' caches; ${describeProtected('brief')} read-only; secrets (${describeSecrets()}) and the session's sockets hidden; ${reach}`;
}
