// The machine side of the command sandbox (an adapter: it runs programs and touches the disk):
// finds bubblewrap or sandbox-exec and tries it once, lists the workspace's secret and protected
// files with ripgrep, owns the private /tmp and the empty folder the sandbox binds, keeps count
// of the mount points bubblewrap makes for folders that were missing, and makes the package cache
// folders (the user's private copies, and the real folders they are bound over).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CancellationSignal } from '../../errors';
import type { MountPointLease, SandboxAvailability, SandboxHost } from '../../ports/process';
import { runRipgrep } from '../../search/ripgrep/node/run';
import { classifyBubblewrapFailure } from '../bubblewrapFailure';
import { ScanIndex } from '../scanIndex';
import { seatbeltProbeProfile } from '../seatbelt';
import { InotifyWatcher, inotifyWatchLimit } from './inotifyWatch';
import { NetworkProxy } from './networkProxy';
import { OverlayStaging } from './stagedRuns';
import { systemClock } from '../../time';

/** Where bubblewrap is when the user names no path. */
const SYSTEM_BUBBLEWRAP = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'];
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
/** How long trying the sandbox, or searching for secret files, may take. */
const PROBE_MS = 10_000;
const SECRET_SEARCH_MS = 10_000;

/** Runs a program without a shell; resolves with its exit code and stderr. */
function tryRun(file: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: PROBE_MS, windowsHide: true }, (error, _stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stderr: String(stderr || (error && code === null ? error.message : '')).trim() });
    });
  });
}

/** A kernel setting's value, or undefined where this kernel has no such file. */
function readSysctl(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

async function probeBubblewrap(setting: string): Promise<SandboxAvailability> {
  const candidates = setting ? [setting] : SYSTEM_BUBBLEWRAP;
  const executable = candidates.find((candidate) => path.isAbsolute(candidate) && existsSync(candidate));
  if (!executable) {
    return setting
      ? { kind: 'none', reason: `bubblewrap was not found at ${setting} (workspaceAgentTools.runCommand.bubblewrapPath)`, fix: 'install it (on Debian or Ubuntu: sudo apt install bubblewrap) or correct the setting' }
      : { kind: 'none', reason: 'bubblewrap (bwrap) is not installed', fix: 'on Debian or Ubuntu: sudo apt install bubblewrap; on Fedora: sudo dnf install bubblewrap; then reload the window' };
  }
  // The same namespaces real runs use: a machine that forbids unprivileged user namespaces fails here.
  const probe = await tryRun(executable, ['--die-with-parent', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', '/bin/sh', '-c', 'exit 0']);
  if (probe.code !== 0) {
    // The kernel settings that decide it make the cause certain where bwrap's words are not.
    const failure = classifyBubblewrapFailure({
      executable,
      exitCode: probe.code,
      stderr: probe.stderr,
      apparmorRestrictUserns: readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
      maxUserNamespaces: readSysctl('/proc/sys/user/max_user_namespaces'),
      unprivilegedUsernsClone: readSysctl('/proc/sys/kernel/unprivileged_userns_clone'),
    });
    return { kind: 'none', reason: `bubblewrap cannot start here: ${failure.why}`, fix: failure.fix };
  }
  return { kind: 'bubblewrap', executable };
}

async function probeSeatbelt(): Promise<SandboxAvailability> {
  if (!existsSync(SANDBOX_EXEC)) {
    return { kind: 'none', reason: `${SANDBOX_EXEC} is missing` };
  }
  // Every kind of rule a command's profile has, so a macOS that does not read one is noticed here.
  const probe = await tryRun(SANDBOX_EXEC, ['-p', seatbeltProbeProfile(), '/usr/bin/true']);
  return probe.code === 0 ? { kind: 'seatbelt', executable: SANDBOX_EXEC } : { kind: 'none', reason: `sandbox-exec does not work here: ${probe.stderr}` };
}

/**
 * Where this user's private copies of package caches live: under the user's cache folder
 * ($XDG_CACHE_HOME or ~/.cache; ~/Library/Caches on macOS), owned by the extension, mode 0700.
 */
export function privateCacheDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const xdg = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  const base = xdg ?? (platform === 'darwin' ? path.join(os.homedir(), 'Library', 'Caches') : path.join(os.homedir(), '.cache'));
  return path.join(base, 'workspace-agent-tools', 'sandbox-caches');
}

export class MachineSandbox implements SandboxHost {
  /** The window's folder holding tmp/ and empty/, made when the first sandboxed command needs it. */
  private base: string | undefined;
  private readonly probes = new Map<string, Promise<SandboxAvailability>>();
  /** How many commands hold each protected folder (see acquireMountPoints). */
  private readonly holds = new Map<string, number>();
  /** Protected folders that exist only as the sandbox's mount points. */
  private readonly madeMountPoints = new Set<string>();

  /** The proxy approved commands reach the network through; it listens only once a command needs it. */
  readonly network: NetworkProxy | undefined;

  /** The user's private copies of package caches, or undefined: commands get no caches. */
  readonly cacheDirectory: string | undefined;

  /** The index of the secret and protected files (Linux, where inotify keeps it true); elsewhere every command walks. */
  readonly scanIndex: ScanIndex | undefined;

  /** Staged command changes: overlays of the workspace folders (Linux). */
  readonly staging: OverlayStaging | undefined;

  constructor(
    private readonly ripgrepPath: string | undefined,
    readonly privateFolders: readonly string[] = [],
    private readonly platform: NodeJS.Platform = process.platform,
    options: {
      /** The program and script that serve the proxy inside bubblewrap; without them approved commands get no network. */
      readonly relay?: { readonly program: string; readonly script: string };
      /** The user's private copies of package caches (see privateCacheDirectory); none: commands get no caches. */
      readonly cacheDirectory?: string;
      /** False: no index, every command walks the writable folders (the bench's baseline). */
      readonly scanIndex?: boolean;
      /** Where staged commands' layers are made (stagedRuns.ts): a folder among `privateFolders`, so commands never see it. Linux only. */
      readonly stagingRoot?: string;
    } = {},
  ) {
    this.cacheDirectory = options.cacheDirectory;
    this.staging = platform === 'linux' && options.stagingRoot ? new OverlayStaging(options.stagingRoot) : undefined;
    // Half the user's inotify watches at most: VS Code's own file watcher needs the rest.
    const watchLimit = inotifyWatchLimit();
    this.scanIndex = platform === 'linux' && options.scanIndex !== false ? new ScanIndex(new InotifyWatcher(), watchLimit === undefined ? {} : { maxWatches: Math.floor(watchLimit / 2) }) : undefined;
    // The proxy's sockets live in the window's private folder (0700), beside tmp/ and empty/.
    const relay = options.relay;
    this.network = relay ? new NetworkProxy(() => path.join(this.folders(), 'proxy'), relay) : undefined;
  }

  async makeFolders(folders: readonly string[]): Promise<string[]> {
    const ready: string[] = [];
    for (const folder of folders) {
      try {
        if (!existsSync(folder)) {
          mkdirSync(folder, { recursive: true, mode: 0o700 });
        }
        if (statSync(folder).isDirectory()) {
          ready.push(folder);
        }
      } catch {
        // Not ours to make (a read-only or foreign folder): the cache stays read-only.
      }
    }
    return ready;
  }

  get tempDirectory(): string {
    return path.join(this.folders(), 'tmp');
  }

  get emptyDirectory(): string {
    return path.join(this.folders(), 'empty');
  }

  private folders(): string {
    if (!this.base) {
      // realpath: macOS's /var is a link to /private/var, and Seatbelt matches resolved paths.
      const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wat-sandbox-')));
      mkdirSync(path.join(base, 'tmp'), { mode: 0o700 });
      mkdirSync(path.join(base, 'empty'), { mode: 0o500 });
      this.base = base;
    }
    return this.base;
  }

  availability(bubblewrapPath: string): Promise<SandboxAvailability> {
    const key = `${this.platform}:${bubblewrapPath}`;
    let probe = this.probes.get(key);
    if (!probe) {
      probe = this.platform === 'linux'
        ? probeBubblewrap(bubblewrapPath)
        : this.platform === 'darwin'
          ? probeSeatbelt()
          : Promise.resolve<SandboxAvailability>(this.platform === 'win32'
            ? { kind: 'none', reason: 'Windows has no OS sandbox this extension uses', windows: true }
            : { kind: 'none', reason: `there is no OS sandbox for ${this.platform}` });
      this.probes.set(key, probe);
    }
    return probe;
  }

  async listFiles(folders: readonly string[], globs: readonly string[], token: CancellationSignal): Promise<string[] | undefined> {
    if (folders.length === 0) {
      return [];
    }
    if (!this.ripgrepPath) {
      return undefined;
    }
    const args = ['--files', '--hidden', '--no-ignore', '--no-config', '--no-messages', '--glob-case-insensitive', ...globs.flatMap((glob) => ['--glob', glob]), '--null', ...folders];
    let output = '';
    const clock = systemClock;
    const run = await runRipgrep(this.ripgrepPath, folders[0], args, { token, clock, deadline: clock.now() + SECRET_SEARCH_MS }, (chunk) => {
      output += chunk.toString('utf8');
    });
    // 1: nothing found; 2: some folder could not be read, so a secret may have been missed.
    if (run.timedOut || (run.exitCode !== 0 && run.exitCode !== 1)) {
      return undefined;
    }
    return output.split('\0').filter((file) => file !== '');
  }

  acquireMountPoints(folders: readonly string[]): MountPointLease {
    // Held, looked at and marked in one synchronous step: no other command's release can remove a
    // folder between the look and the hold.
    const held = [...new Set(folders)];
    const missing: string[] = [];
    for (const folder of held) {
      this.holds.set(folder, (this.holds.get(folder) ?? 0) + 1);
      if (this.madeMountPoints.has(folder) || !existsSync(folder)) {
        this.madeMountPoints.add(folder);
        missing.push(folder);
      }
    }
    let released = false;
    return {
      missing,
      release: async () => {
        if (!released) {
          released = true;
          this.releaseMountPoints(held);
        }
      },
    };
  }

  private releaseMountPoints(folders: readonly string[]): void {
    for (const folder of folders) {
      const holds = (this.holds.get(folder) ?? 1) - 1;
      if (holds > 0) {
        this.holds.set(folder, holds);
        continue;
      }
      this.holds.delete(folder);
      if (this.madeMountPoints.delete(folder)) {
        try {
          rmdirSync(folder);
        } catch {
          // Not empty (something real is there now) or already gone: leave it.
        }
      }
    }
  }

  /** Closes the proxy's endpoints, ends the staged launch started ahead, and removes the private /tmp and the empty folder (extension deactivation). */
  dispose(): void {
    this.scanIndex?.dispose();
    this.staging?.dispose();
    void this.network?.dispose();
    if (this.base) {
      rmSync(this.base, { recursive: true, force: true });
    }
  }
}
