// One sandboxed run's hold on the machine, from the plan to the end of the command: the walk of the
// workspace, the protected folders held as mount points, the plan and the launcher. The caller
// releases it in a `finally` (a foreground command), when the command ends (a background one), or
// at once when it cannot start; release is idempotent, so every path may call it.
import * as path from 'node:path';
import type { ToolContext } from '../context';
import { ToolError, type CancellationSignal } from '../errors';
import { fileLocation, isInsidePath } from '../location';
import type { AheadLaunch, CommandPortWatch, ProxyEndpoint, SandboxAvailability, SandboxHost, StagedRun, StagingHost } from '../ports/process';
import { sensitiveLocalPaths } from '../guard/protectedNames';
import { cacheBinds, type CacheBind, type CacheEnvironment } from './caches';
import { sandboxLaunch, type SandboxLaunch } from './launcher';
import { ecosystemDomains, gitRemoteHosts, type NetworkTally } from './network';
import { RELAY_HTTP_PORT, RELAY_SOCKS_PORT } from './bubblewrap';
import { NetworkSession, type CommandNetwork } from './networkGate';
import { foldersWithOtherSpellings, planSandbox, readOnlySecrets, resolvedSearchPath, scanWorkspace, splitWritable, writableFolders, type SandboxPlan, type SandboxProxy, type SessionSockets, type WorkspaceScan } from './plan';

export interface SandboxLease {
  readonly plan: SandboxPlan;
  readonly launch: SandboxLaunch;
  /** Lets go of the mount points this command holds; safe to call more than once. */
  release(): Promise<void>;
  /**
   * Protected entries that exist now and did not when the lease was taken: bind mounts keep what
   * exists read-only, but cannot keep a command from creating a new `*.code-workspace`, a new
   * repository or a `.gitattributes` in a folder that had none. Call it after release.
   */
  addedSince(): Promise<string[]>;
  /** What the command's proxy reached and refused so far; undefined without the network. */
  network(): NetworkTally | undefined;
  /** The command's listening ports and how each fared on the machine (a background command's, Linux); none otherwise. */
  readonly ports?: CommandPortWatch;
  /** Its overlays, when its changes are staged (LeaseRequest.staged): merged when the command ends, removed on release. */
  readonly staged?: StagedRun;
  /** Why its changes were asked to be staged and are not (no overlay here): the `Sandbox:` line says so. */
  readonly unstaged?: string;
  /**
   * The staged launch started ahead over its overlays, when there is a fresh one: it takes `argv`
   * (bubblewrap's, nested) on ARGS_FD instead of `launch.argv` (ProcessRequest.adopt), and the
   * command's environment in bubblewrap's input (bubblewrap.ts environmentOptions).
   */
  readonly ahead?: { readonly launch: AheadLaunch; readonly argv: readonly string[] };
}

/** What the lease needs to know about the command. */
export interface LeaseRequest {
  readonly sandbox: Exclude<SandboxAvailability, { kind: 'none' }>;
  readonly network: boolean;
  readonly cwd: string;
  /** The command's environment, for the session's sockets and the package caches it names. */
  readonly env: SessionSockets & CacheEnvironment;
  /** The command line, as a domain's question names it. */
  readonly command?: string;
  /** A background command: the servers it starts are reached from the machine's loopback (ports.ts). */
  readonly background?: boolean;
  /** Folders outside the workspace the user made writable for this command (grants.ts). */
  readonly granted?: readonly string[];
  /** Folders the person was told keep protected names under one spelling only (placement.ts), when they said yes. */
  readonly oneSpelling?: readonly string[];
  /** Run it over overlays of the writable workspace folders (bubblewrap, where the machine can mount them). */
  readonly staged?: boolean;
}

/**
 * The lease found folders where another spelling reaches a protected or secret entry, which the
 * placement did not know of (a folder measured as keeping case apart that holds one that does not):
 * nothing ran, and the command asks the person before it runs there (tools/command/runCommand.ts).
 */
export class OtherSpellingsError extends ToolError {
  constructor(readonly folders: readonly string[]) {
    super(`The command was not run: in ${folders.join(', ')} another spelling of a protected or secret name reaches it (the folder ignores letter case, or gives names streams), and the sandbox keeps such names under one spelling only. It needs the user's approval; run it again to ask.`);
  }
}

export async function acquireSandboxLease(ctx: ToolContext, host: SandboxHost, request: LeaseRequest): Promise<SandboxLease> {
  const granted = request.granted?.length ? await host.makeFolders(request.granted) : [];
  if (granted.length !== (request.granted?.length ?? 0)) {
    throw new ToolError(`The sandbox could not be prepared: ${request.granted?.filter((folder) => !granted.includes(folder)).join(', ')} could not be made as a folder.`);
  }
  // A granted folder is one more writable folder: its secrets and execution config are found and kept as the workspace's.
  // The home folder, a system folder or a PATH folder stays read-only, whatever names it (splitWritable).
  const searchPath = await resolvedSearchPath(ctx, (request.env.PATH ?? '').split(':'));
  const { writable: folders, notWritable } = await splitWritable(ctx, await writableFolders(ctx), searchPath, [...sensitiveLocalPaths(ctx.workspace.home), ...host.privateFolders]);
  // The index follows the writable folders (a granted one, for one command, is walked instead).
  host.scanIndex?.track(folders);
  const writable = [...folders, ...granted];
  const found = await scanWorkspace(ctx, host, writable, searchPath);
  const kept = await readOnlySecrets(ctx, host, notWritable, writable);
  if (!kept) {
    throw new ToolError(`The sandbox could not be prepared: searching ${notWritable.map((entry) => entry.folder).join(', ')}, which commands may read but not write, for secret files (.env) took too long or met a folder it could not read. Ask the user to run the command, or to open a smaller folder.`);
  }
  const scan = { ...found, secrets: [...found.secrets, ...kept] };
  if (request.sandbox.kind === 'bubblewrap') {
    // Seatbelt matches names by pattern in any case; bubblewrap's mounts cover one spelling.
    const spelled = await foldersWithOtherSpellings(ctx.host.fs, [...scan.protectedEntries, ...scan.secrets]);
    const unasked = spelled.filter((folder) => !(request.oneSpelling ?? []).some((known) => isInsidePath(folder, known)));
    if (unasked.length > 0) {
      throw new OtherSpellingsError(unasked);
    }
  }
  // Held last, after everything that may fail on its own; from here on, a failure releases.
  const caches = await packageCaches(ctx, host, request, writable);
  const mountPoints = host.acquireMountPoints(scan.mustExist);
  let proxy: { gate?: CommandNetwork; endpoint: ProxyEndpoint; local: readonly number[]; end(): void } | undefined;
  let staged: StagedRun | undefined;
  const release = async (): Promise<void> => {
    proxy?.end();
    await Promise.all([mountPoints.release(), proxy?.endpoint.close(), staged?.dispose()]);
  };
  try {
    const planned = await planSandbox(ctx, host, request.network, request.env, writable, scan, mountPoints.missing, caches, notWritable, request.cwd);
    const forwardPorts = request.background === true && request.sandbox.kind === 'bubblewrap';
    proxy = host.network && (request.network || forwardPorts) ? await openEndpoint(ctx, host, request, writable, forwardPorts) : undefined;
    const plan: SandboxPlan = { ...planned, ...(proxy && host.network ? { proxy: sandboxProxy(proxy.endpoint, host.network.relay, proxy.local) } : {}), serves: request.background === true };
    const staging = request.staged && request.sandbox.kind === 'bubblewrap' ? await stagingFor(host, request.sandbox.executable) : undefined;
    if (staging?.ok) {
      staged = await staging.host.prepare(outermost(folders), mountPoints.missing);
    }
    const launch = sandboxLaunch(request.sandbox, plan, request.cwd);
    let released: Promise<void> | undefined;
    return {
      plan,
      launch: staged ? { ...launch, argv: staged.wrap(launch.argv) } : launch,
      ...(staged ? { staged } : staging && !staging.ok ? { unstaged: staging.why } : {}),
      ...(staged?.ahead ? { ahead: { launch: staged.ahead.launch, argv: staged.ahead.argv(launch.argv) } } : {}),
      release: () => (released ??= release()),
      addedSince: () => addedSince(ctx, host, writable, scan, searchPath),
      network: () => proxy?.gate?.tally(),
      ...(forwardPorts && proxy ? { ports: portWatch(proxy.endpoint) } : {}),
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** The machine's staging, when it can mount overlays for bubblewrap here, or why not. */
async function stagingFor(host: SandboxHost, bubblewrap: string): Promise<{ readonly ok: true; readonly host: StagingHost } | { readonly ok: false; readonly why: string }> {
  if (!host.staging) {
    return { ok: false, why: 'this machine has no overlay staging' };
  }
  const available = await host.staging.available(bubblewrap);
  return available.ok ? { ok: true, host: host.staging } : available;
}

/** The folders not inside another of them: an overlay covers what is below its folder. */
function outermost(folders: readonly string[]): string[] {
  return folders.filter((folder) => !folders.some((other) => other !== folder && isInsidePath(folder, other)));
}

/**
 * The command's endpoint: for an approved command, the proxy and its gate, with the rules from user
 * settings and the workspace's defaults (its ecosystems' registries, its git remotes' hosts),
 * questions through the call's approver until the lease is released (then a waiting question is
 * answered no), and the machine's loopback ports its relay serves; for a background command, its
 * listening ports forwarded to the machine.
 */
async function openEndpoint(ctx: ToolContext, host: SandboxHost, request: LeaseRequest, writable: readonly string[], forwardPorts: boolean): Promise<{ gate?: CommandNetwork; endpoint: ProxyEndpoint; local: readonly number[]; end(): void }> {
  const network = host.network;
  if (!network) {
    throw new Error('openEndpoint without a proxy');
  }
  const ended = endSignal();
  let gate: CommandNetwork | undefined;
  let local: readonly number[] = [];
  if (request.network) {
    const defaults = await workspaceDomains(ctx, writable);
    const localPorts = (): number[] => [...ctx.settings.runCommandAllowedLocalPorts, ...network.forwardedPorts()];
    const session = new NetworkSession(() => ({ allowed: ctx.settings.runCommandAllowedDomains, denied: ctx.settings.runCommandDeniedDomains, defaults, localPorts: localPorts() }), network.sessionDomains);
    gate = session.forCommand(request.command ?? 'a command', ctx.session.approver, ended.signal);
    // bubblewrap: every loopback port of the machine, each connection asked about by the gate; Seatbelt cannot ask, so only those allowed already.
    local = request.sandbox.kind === 'bubblewrap' ? network.machinePorts(new Set([RELAY_HTTP_PORT, RELAY_SOCKS_PORT])) : [...new Set(localPorts())];
  }
  const endpoint = await network.openEndpoint({ gate, transport: request.sandbox.kind === 'bubblewrap' ? 'unix' : 'tcp', forwardPorts });
  return { gate, endpoint, local, end: ended.end };
}

function sandboxProxy(endpoint: ProxyEndpoint, relay: { readonly program: string; readonly script: string }, local: readonly number[]): SandboxProxy {
  return endpoint.transport === 'unix'
    ? { transport: 'unix', directory: endpoint.directory, relay, proxy: endpoint.proxy, ports: endpoint.ports, local }
    : { transport: 'tcp', http: endpoint.http, socks: endpoint.socks, local };
}

function portWatch(endpoint: ProxyEndpoint): CommandPortWatch {
  return { now: () => endpoint.forwarded(), settle: () => endpoint.settlePorts() };
}

/** A signal that fires once, when the lease ends. */
function endSignal(): { signal: CancellationSignal; end(): void } {
  const listeners = new Set<() => void>();
  let ended = false;
  return {
    signal: {
      get isCancellationRequested() {
        return ended;
      },
      onCancellationRequested: (listener) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    },
    end: () => {
      if (!ended) {
        ended = true;
        listeners.forEach((listener) => listener());
      }
    },
  };
}

/**
 * The domains the workspace needs by default: the registries of the ecosystems whose files lie at
 * the top of a writable folder, and the hosts of its repository's remotes, read from `.git/config`
 * as text (git never runs for this).
 */
export async function workspaceDomains(ctx: ToolContext, writable: readonly string[]): Promise<string[]> {
  const domains = new Set<string>();
  for (const root of writable) {
    const entries = await ctx.host.fs.readDirectory(fileLocation(root)).catch(() => []);
    ecosystemDomains(entries.map((entry) => entry.name)).forEach((domain) => domains.add(domain));
    const config = await ctx.host.fs.readFile(fileLocation(path.posix.join(root, '.git', 'config'))).catch(() => undefined);
    if (config) {
      gitRemoteHosts(new TextDecoder().decode(config)).forEach((domain) => domains.add(domain));
    }
  }
  return [...domains];
}

/** The package caches the command gets, with their folders made (caches.ts). */
async function packageCaches(ctx: ToolContext, host: SandboxHost, request: LeaseRequest, writable: readonly string[]): Promise<CacheBind[]> {
  const home = ctx.workspace.home;
  const runtime = ['/run', '/var/run', request.env.XDG_RUNTIME_DIR].filter((folder): folder is string => Boolean(folder?.startsWith('/')));
  const binds = await cacheBinds(ctx, {
    env: request.env,
    home,
    platform: request.sandbox.kind === 'seatbelt' ? 'darwin' : 'linux',
    privateRoot: host.cacheDirectory,
    real: ctx.settings.runCommandRealCaches,
    writable,
    hidden: [...sensitiveLocalPaths(home), ...host.privateFolders, ...runtime],
    searchPath: (request.env.PATH ?? '').split(':').filter((entry) => entry.startsWith('/')),
  });
  const ready = new Set(await host.makeFolders([...new Set(binds.flatMap((bind) => [bind.source, bind.target]))]));
  return binds.filter((bind) => ready.has(bind.source) && ready.has(bind.target));
}

async function addedSince(ctx: ToolContext, host: SandboxHost, writable: readonly string[], before: WorkspaceScan, searchPath: readonly string[]): Promise<string[]> {
  const after = await scanWorkspace(ctx, host, writable, searchPath);
  const known = new Set([...before.protectedEntries, ...before.mustExist]);
  const added: string[] = [];
  for (const entry of after.protectedEntries) {
    if (!known.has(entry)) {
      added.push(entry);
    }
  }
  // A protected link made, removed, or pointed elsewhere (`mv .vscode x && mkdir .vscode`: a link is no mount point).
  const linksBefore = new Set(before.links);
  const linksAfter = new Set(after.links);
  for (const link of [...before.links.filter((entry) => !linksAfter.has(entry)), ...after.links.filter((entry) => !linksBefore.has(entry))]) {
    added.push(link.slice(0, link.indexOf(' -> ')));
  }
  // A folder that had to exist (a new repository's hooks, a .vscode) and exists now for real.
  for (const folder of after.mustExist) {
    if (!known.has(folder) && (await ctx.host.fs.stat(fileLocation(folder)))) {
      added.push(folder);
    }
  }
  return [...new Set(added)];
}
