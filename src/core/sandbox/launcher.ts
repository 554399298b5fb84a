// How a command line is wrapped for the sandbox this machine has.
import * as path from 'node:path';
import { ToolError } from '../errors';
import { describeProtected, describeSecrets } from '../guard/protectedNames';
import { isInsidePath } from '../location';
import type { SandboxAvailability } from '../ports/process';
import { BUBBLEWRAP_MAX_ARGUMENTS, bubblewrapLaunch, RELAY_HTTP_PORT, RELAY_SOCKS_PORT } from './bubblewrap';
import { cacheVariables } from './caches';
import { describeNetwork } from './network';
import type { SandboxPlan } from './plan';
import { seatbeltLauncher, seatbeltListedFiles } from './seatbelt';

/** The program and arguments that run the shell inside the sandbox, and what they add to its environment. */
export interface SandboxLaunch {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** What the launcher reads on its fd 3 (bubblewrap's options, `--args 3`); none for Seatbelt. */
  readonly input?: string;
}

/** The arguments that follow the launcher in argv: the shell, `-c` and the command line. */
const SHELL_ARGUMENTS = 3;

export function sandboxLaunch(availability: Exclude<SandboxAvailability, { kind: 'none' }>, plan: SandboxPlan, cwd: string): SandboxLaunch {
  if (availability.kind === 'bubblewrap') {
    // bubblewrap sets TMPDIR=/tmp itself (the private folder is bound there).
    const proxied = plan.network && plan.proxy?.transport === 'unix' && plan.proxy.proxy;
    const launch = bubblewrapLaunch(availability.executable, plan, cwd);
    const count = launch.argv.length - 1 + launch.options + SHELL_ARGUMENTS;
    if (count > BUBBLEWRAP_MAX_ARGUMENTS) {
      throw new ToolError(tooManyMounts(plan, count));
    }
    return { argv: launch.argv, input: launch.input, env: proxied ? proxyEnvironment(RELAY_HTTP_PORT, RELAY_SOCKS_PORT) : {} };
  }
  const proxied = plan.network && plan.proxy?.transport === 'tcp' ? proxyEnvironment(plan.proxy.http, plan.proxy.socks) : {};
  const argv = seatbeltLauncher(availability.executable, plan);
  const bytes = new TextEncoder().encode(argv[argv.length - 1]).length;
  if (bytes > SEATBELT_MAX_PROFILE_BYTES) {
    throw new ToolError(tooLargeProfile(plan, bytes));
  }
  // Seatbelt cannot bind: the tools are pointed at the private copies of their caches instead.
  return { argv, env: { ...cacheVariables(plan.caches), TMPDIR: plan.tempDirectory, ...proxied } };
}

/**
 * The largest Seatbelt profile a command starts with. The profile is one argument of sandbox-exec,
 * and macOS takes at most 1 MiB of a program's arguments and environment together (kern.argmax):
 * half is left to the environment and the command line. About 6,000 read-only entries, folders
 * that hold them and secret files outside the secret names, at 70 characters a path.
 */
export const SEATBELT_MAX_PROFILE_BYTES = 512 * 1024;

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

/**
 * Why bubblewrap cannot start with this plan, and the ways out: the workspace holds more secret and
 * protected entries than bubblewrap takes mounts (each is one mount of three arguments), so no
 * command can run in the sandbox until there are fewer. Names how many of each, and where most are.
 */
export function tooManyMounts(plan: SandboxPlan, argumentCount: number): string {
  const { counted, where } = crowdedEntries(plan);
  return `The sandbox could not be prepared: it needs a mount for each secret file and protected entry of the workspace, and bubblewrap starts with at most ${count(BUBBLEWRAP_MAX_ARGUMENTS)} arguments (about ${count(Math.floor(BUBBLEWRAP_MAX_ARGUMENTS / 3))} mounts); this workspace needs ${count(argumentCount)} for ${counted}. ${waysOut(where)}`;
}

/** Why Seatbelt cannot start with this plan: its profile is larger than SEATBELT_MAX_PROFILE_BYTES. Names how many of each, and where most are. */
export function tooLargeProfile(plan: SandboxPlan, bytes: number): string {
  // The secret files the profile hides by their names cost nothing: only the others are counted.
  const { counted, where } = crowdedEntries({ ...plan, hiddenFiles: seatbeltListedFiles(plan) });
  return `The sandbox could not be prepared: macOS's sandbox takes a rule for each protected entry of the workspace, each folder that holds one and each secret file it cannot hide by its name, as one argument of at most ${count(SEATBELT_MAX_PROFILE_BYTES / 1024)} KiB; this workspace needs ${count(Math.ceil(bytes / 1024))} KiB for ${counted}. ${waysOut(where)}`;
}

function waysOut(where: string): string {
  return `No command can run in the sandbox here until there are fewer. Ask the user to delete what the workspace does not need or move it out of the workspace folders${where}, or to open a smaller folder; to run this command now, call again with permissions: "unsandboxed" (the user is asked), or ask the user to run it.`;
}

/** The plan's secret and protected entries and the folders pinned around them, counted, and where most are. */
function crowdedEntries(plan: SandboxPlan): { counted: string; where: string } {
  const inWorkspace = (entry: string): boolean => plan.writable.some((root) => isInsidePath(entry, root));
  const groups = [
    { one: 'secret file', many: 'secret files', like: '.env and the like', entries: plan.hiddenFiles.filter(inWorkspace) },
    { one: 'protected entry', many: 'protected entries', like: '.vscode, a repository\'s config and hooks, and the like', entries: [...plan.readOnly, ...plan.readOnlyMissing].filter(inWorkspace) },
    { one: 'folder', many: 'folders', like: 'that hold them, pinned so none can be renamed', entries: plan.pinned },
  ].filter((group) => group.entries.length > 0);
  const counted = groups.map((group) => {
    const most = mostUnder(group.entries, plan.writable);
    const where = most && !plan.writable.includes(most.folder) ? `; ${count(most.count)} under ${most.folder}` : '';
    return `${count(group.entries.length)} ${group.entries.length === 1 ? group.one : group.many} (${group.like}${where})`;
  });
  const all = mostUnder(groups.flatMap((group) => group.entries), plan.writable);
  const where = all && !plan.writable.includes(all.folder) ? ` (most are under ${all.folder})` : '';
  return { counted: counted.join(', '), where };
}

/** The deepest folder inside a writable folder (or the writable folder itself) that holds at least half of the entries. */
function mostUnder(entries: readonly string[], roots: readonly string[]): { folder: string; count: number } | undefined {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    const root = roots.find((folder) => isInsidePath(entry, folder));
    for (let folder = path.posix.dirname(entry); root && isInsidePath(folder, root); folder = path.posix.dirname(folder)) {
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
      if (folder === root) {
        break;
      }
    }
  }
  let best: { folder: string; count: number } | undefined;
  for (const [folder, held] of counts) {
    if (held * 2 >= entries.length && (!best || folder.length > best.folder.length)) {
      best = { folder, count: held };
    }
  }
  return best;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
