// The sandbox plan as bubblewrap arguments (Linux). Order matters: later mounts cover earlier ones,
// so the root is bound read-only first, then the session's runtime folders are emptied (and what
// name resolution needs bound back), then /tmp, the writable folders, the pinned folders inside
// them (shallowest first), what stays read-only inside them, the package caches, and the secrets
// last, so no bind can uncover them.
import * as path from 'node:path';
import { BugError } from '../errors';
import { isInsidePath } from '../location';
import type { SandboxPlan } from './plan';
import { PORTS_SOCKET, type RelayConfig } from './ports';

/** Where the proxy's socket folder appears inside the sandbox: in bubblewrap's own /dev, made fresh for each command. */
export const PROXY_MOUNT = '/dev/wat-proxy';
/** The loopback ports the relay serves the proxy on, in the command's own network namespace. */
export const RELAY_HTTP_PORT = 3128;
export const RELAY_SOCKS_PORT = 1080;

/**
 * bubblewrap refuses to start with more arguments than this, counted over its argv and its `--args`
 * input together (MAX_ARGS in bubblewrap.c, unchanged from 0.1 to 0.11): about 2,990 mounts.
 */
export const BUBBLEWRAP_MAX_ARGUMENTS = 9000;

/** The descriptor the process runner gives a launcher its input on (ProcessRequest.launcherInput). */
const ARGUMENTS_FD = '3';

/** The argv that runs the rest of the command line (the shell and its arguments) inside bubblewrap. */
export function bubblewrapLauncher(executable: string, plan: SandboxPlan, cwd: string): string[] {
  return [executable, ...bubblewrapOptions(plan, cwd), '--', ...bubblewrapCommand(plan)];
}

/**
 * The same launcher with every option read from the launcher's input (`--args 3`): a mount per
 * secret and protected file of the workspace, as many as the repository holds, never meets execve's
 * limit on argv (E2BIG). What stays in argv is the program, the separator and the relay.
 */
export function bubblewrapLaunch(executable: string, plan: SandboxPlan, cwd: string): { readonly argv: string[]; readonly input: string; readonly options: number } {
  const options = bubblewrapOptions(plan, cwd);
  return { argv: [executable, '--args', ARGUMENTS_FD, '--', ...bubblewrapCommand(plan)], input: argumentFile(options), options: options.length };
}

/**
 * The options that give the command exactly `env` when bubblewrap itself runs with another (a
 * launch started ahead: ProcessRequest.adopt), as the command would get it through the staged
 * launch's `/bin/sh`: the variables whose names are not a shell's identifiers are left out, as
 * dash leaves them. bubblewrap then sets PWD (to `--chdir`'s folder) and TMPDIR, as it does anyway.
 */
export function environmentOptions(env: Readonly<Record<string, string | undefined>>): string[] {
  const options = ['--clearenv'];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      options.push('--setenv', name, value);
    }
  }
  return options;
}

/** Arguments as bubblewrap's `--args` reads them: each one ended by a NUL, any other byte (spaces, newlines) kept. */
export function argumentFile(args: readonly string[]): string {
  if (args.some((arg) => arg.includes('\0'))) {
    throw new BugError('A bubblewrap argument holds a NUL byte, which would split it in two');
  }
  return args.map((arg) => `${arg}\0`).join('');
}

/** bubblewrap's options, from the namespaces to the working folder. */
function bubblewrapOptions(plan: SandboxPlan, cwd: string): string[] {
  const args = [
    // The command dies with the extension host, and the whole process tree with its pid namespace.
    '--die-with-parent',
    '--unshare-pid',
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
  ];
  for (const folder of plan.emptiedRuntime) {
    args.push('--tmpfs', folder);
  }
  for (const folder of plan.keptRuntime) {
    args.push('--ro-bind', folder, folder);
  }
  for (const folder of plan.emptiedRuntime) {
    args.push('--remount-ro', folder);
  }
  args.push('--bind', plan.tempDirectory, '/tmp');
  // A folder named writable but kept read-only under /tmp would be covered by the private one: bound back as it is.
  for (const { folder } of plan.notWritable ?? []) {
    if (isInsidePath(folder, '/tmp') && folder !== '/tmp') {
      args.push('--ro-bind', folder, folder);
    }
  }
  // Every command has a network namespace of its own: an approved one reaches only the proxy, through the relay,
  // and a background one's servers are reached from the machine through it too (ports.ts).
  args.push('--unshare-net');
  for (const folder of plan.writable) {
    args.push('--bind', folder, folder);
  }
  // A mount point cannot be renamed or removed: the path to every protected entry stays put.
  for (const folder of plan.pinned) {
    args.push('--bind', folder, folder);
  }
  for (const entry of plan.readOnly) {
    args.push('--ro-bind', entry, entry);
  }
  for (const folder of plan.readOnlyMissing) {
    args.push('--ro-bind', plan.emptyDirectory, folder);
  }
  // The private copy (or the real folder) at the cache's usual path (caches.ts).
  for (const cache of plan.caches) {
    args.push('--bind', cache.source, cache.target);
  }
  for (const folder of plan.hiddenDirectories) {
    args.push('--tmpfs', folder, '--remount-ro', folder);
  }
  for (const file of plan.hiddenFiles) {
    args.push('--ro-bind', '/dev/null', file);
  }
  const proxy = plan.proxy?.transport === 'unix' ? plan.proxy : undefined;
  if (proxy) {
    args.push('--ro-bind', proxy.directory, PROXY_MOUNT, '--setenv', 'ELECTRON_RUN_AS_NODE', '1');
    // The relay's program or script under the host's /tmp (a Node or an extension kept there) is
    // covered by the private /tmp: its folder is bound back, read-only.
    for (const folder of new Set([path.posix.dirname(proxy.relay.program), path.posix.dirname(proxy.relay.script)])) {
      if (isInsidePath(folder, '/tmp') && folder !== '/tmp') {
        args.push('--ro-bind', folder, folder);
      }
    }
  }
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', cwd);
  return args;
}

/**
 * What runs first inside bubblewrap, before the shell: the relay (ports.ts), serving the proxy and
 * the machine's loopback ports for an approved command and forwarding a background command's
 * listening ports; else nothing.
 */
function bubblewrapCommand(plan: SandboxPlan): string[] {
  const proxy = plan.proxy?.transport === 'unix' ? plan.proxy : undefined;
  if (!proxy || (!proxy.proxy && !proxy.ports)) {
    return [];
  }
  const served = proxy.proxy && plan.network;
  const config: RelayConfig = {
    ...(served ? { http: { socket: `${PROXY_MOUNT}/http.sock`, port: RELAY_HTTP_PORT }, socks: { socket: `${PROXY_MOUNT}/socks.sock`, port: RELAY_SOCKS_PORT }, local: proxy.local } : {}),
    ...(proxy.ports ? { ports: `${PROXY_MOUNT}/${PORTS_SOCKET}` } : {}),
  };
  return [proxy.relay.program, proxy.relay.script, JSON.stringify(config), '--'];
}
