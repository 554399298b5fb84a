// Package managers' caches inside the sandbox (docs/design.md section 5, "Caches"): the folders npm, pip,
// cargo, go, maven, gradle and the rest write outside the workspace, so that installs and builds
// need not leave the sandbox. Each is bound writable at its usual path: by default from a private
// persistent copy per user that the host owns (a cache a sandboxed command poisons never reaches
// the user's own, unsandboxed tools), or the real folder where runCommand.realCaches names it.
import * as path from 'node:path';
import type { ToolContext } from '../context';
import { fileLocation, isInsidePath } from '../location';

/** One row of the table: where a tool keeps its cache, and when the sandbox makes it writable. */
export interface CacheRow {
  /** The name runCommand.realCaches uses, and the private copy's folder name. */
  readonly id: string;
  /** Who writes there, for the README and the setting's description. */
  readonly users: string;
  /** The folder, from the environment and the home folder; undefined where it does not apply. */
  readonly folder: (env: CacheEnvironment, home: string, platform: string) => string | undefined;
  /**
   * Bound when one of these programs is on PATH (the folder is made if missing), or when the folder
   * exists; with none listed, always.
   */
  readonly programs?: readonly string[];
  /** The variable that moves this cache, for a sandbox that cannot bind (Seatbelt points it at the private copy). */
  readonly variable?: string;
}

export type CacheEnvironment = Readonly<Record<string, string | undefined>>;

/** An absolute path from a variable, or undefined (relative values are ignored, as the tools would misplace them). */
function absolute(value: string | undefined): string | undefined {
  return value && value.startsWith('/') ? path.posix.normalize(value).replace(/(.)\/$/, '$1') : undefined;
}

const cargoHome = (env: CacheEnvironment, home: string): string => absolute(env.CARGO_HOME) ?? path.posix.join(home, '.cargo');
const gradleHome = (env: CacheEnvironment, home: string): string => absolute(env.GRADLE_USER_HOME) ?? path.posix.join(home, '.gradle');

export const CACHE_TABLE: readonly CacheRow[] = [
  { id: 'npm', users: 'npm, npx', folder: (env, home) => absolute(env.npm_config_cache) ?? absolute(env.NPM_CONFIG_CACHE) ?? path.posix.join(home, '.npm'), programs: ['npm', 'npx', 'node'], variable: 'npm_config_cache' },
  {
    id: 'cache',
    users: 'the XDG cache: pip, go build, node-gyp, yarn 1, pnpm, deno, pre-commit, Playwright and most others',
    folder: (env, home, platform) => absolute(env.XDG_CACHE_HOME) ?? (platform === 'darwin' ? path.posix.join(home, 'Library', 'Caches') : path.posix.join(home, '.cache')),
    variable: 'XDG_CACHE_HOME',
  },
  // The store only: pnpm's own folder above it is PNPM_HOME, which its installer puts on PATH.
  { id: 'pnpm-store', users: 'pnpm', folder: (env, home) => path.posix.join(absolute(env.XDG_DATA_HOME) ?? path.posix.join(home, '.local', 'share'), 'pnpm', 'store'), programs: ['pnpm'] },
  { id: 'yarn-berry', users: 'yarn 2+', folder: (_env, home) => path.posix.join(home, '.yarn', 'berry'), programs: ['yarn'] },
  { id: 'bun', users: 'bun', folder: (env, home) => path.posix.join(absolute(env.BUN_INSTALL) ?? path.posix.join(home, '.bun'), 'install', 'cache'), programs: ['bun'] },
  { id: 'cargo-registry', users: 'cargo', folder: (env, home) => path.posix.join(cargoHome(env, home), 'registry'), programs: ['cargo'] },
  { id: 'cargo-git', users: 'cargo', folder: (env, home) => path.posix.join(cargoHome(env, home), 'git'), programs: ['cargo'] },
  { id: 'go-modules', users: 'go', folder: (env, home) => absolute(env.GOMODCACHE) ?? path.posix.join(absolute(env.GOPATH?.split(':')[0]) ?? path.posix.join(home, 'go'), 'pkg', 'mod'), programs: ['go'], variable: 'GOMODCACHE' },
  // Go's build cache lies in the XDG cache unless GOCACHE moves it.
  { id: 'go-build', users: 'go', folder: (env) => absolute(env.GOCACHE), programs: ['go'], variable: 'GOCACHE' },
  { id: 'maven', users: 'mvn', folder: (_env, home) => path.posix.join(home, '.m2', 'repository'), programs: ['mvn'] },
  // Not ~/.gradle itself: its gradle.properties often holds signing keys and tokens.
  { id: 'gradle-caches', users: 'gradle, ./gradlew', folder: (env, home) => path.posix.join(gradleHome(env, home), 'caches'), programs: ['gradle'] },
  { id: 'gradle-wrapper', users: './gradlew', folder: (env, home) => path.posix.join(gradleHome(env, home), 'wrapper'), programs: ['gradle'] },
];

export const CACHE_IDS: readonly string[] = CACHE_TABLE.map((row) => row.id);

/** One cache as the sandbox binds it: the folder the tools use, and what is bound there. */
export interface CacheBind {
  readonly id: string;
  /** The folder the tools write to, on the host's disk (where the sandbox binds it). */
  readonly target: string;
  /** What is bound there: the private copy, or the target itself. */
  readonly source: string;
  readonly real: boolean;
}

/** Where each cache is and whether it applies, before the host makes the folders. */
export interface CacheRequest {
  readonly env: CacheEnvironment;
  readonly home: string;
  readonly platform: string;
  /** The host's folder of private copies (undefined: no caches). */
  readonly privateRoot: string | undefined;
  /** runCommand.realCaches: ids bound from the real folder; `*` names all. */
  readonly real: readonly string[];
  /** Folders a cache must neither hold nor lie in: the writable folders, the hidden ones, the emptied runtime. */
  readonly writable: readonly string[];
  readonly hidden: readonly string[];
  /** PATH's folders: a cache that holds or lies in one is not bound (a program put there would run by name). */
  readonly searchPath?: readonly string[];
}

/** True when the program is a file in one of PATH's absolute folders. */
async function onPath(ctx: ToolContext, env: CacheEnvironment, program: string): Promise<boolean> {
  for (const entry of (env.PATH ?? '').split(':')) {
    if (entry.startsWith('/') && (await ctx.host.fs.stat(fileLocation(path.posix.join(entry, program))))?.kind === 'file') {
      return true;
    }
  }
  return false;
}

/**
 * The caches this command gets: each row whose tool is present, at a folder that neither holds
 * nor lies inside the workspace, the home folder or a hidden folder. The host still has to make
 * the folders (SandboxHost.prepareCaches) before they can be bound.
 */
export async function cacheBinds(ctx: ToolContext, request: CacheRequest): Promise<CacheBind[]> {
  const { privateRoot } = request;
  if (!privateRoot) {
    return [];
  }
  const binds: CacheBind[] = [];
  for (const row of CACHE_TABLE) {
    const target = row.folder(request.env, request.home, request.platform);
    if (!target || binds.some((bind) => bind.target === target)) {
      continue;
    }
    // Binding over a folder that holds the home folder, the workspace or a secret would hide or
    // expose them; one inside the workspace is writable anyway; one on PATH would let a command
    // plant a program that runs by name (outside the sandbox too, for a real folder).
    const overlaps = (folder: string): boolean => isInsidePath(folder, target) || isInsidePath(target, folder);
    if (isInsidePath(request.home, target) || (isInsidePath(privateRoot, target) && row.id !== 'cache') || request.writable.some(overlaps) || request.hidden.some(overlaps) || (request.searchPath ?? []).some(overlaps)) {
      continue;
    }
    const present = !row.programs
      || (await ctx.host.fs.stat(fileLocation(target)))?.kind === 'directory'
      || (await anyOnPath(ctx, request.env, row.programs));
    if (!present) {
      continue;
    }
    const real = request.real.includes(row.id) || request.real.includes('*');
    binds.push({ id: row.id, target, source: real ? target : path.posix.join(privateRoot, row.id), real });
  }
  return binds;
}

async function anyOnPath(ctx: ToolContext, env: CacheEnvironment, programs: readonly string[]): Promise<boolean> {
  for (const program of programs) {
    if (await onPath(ctx, env, program)) {
      return true;
    }
  }
  return false;
}

/** The variables a sandbox that cannot bind sets, so the tools use the private copies (Seatbelt). */
export function cacheVariables(binds: readonly CacheBind[]): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const bind of binds) {
    const variable = CACHE_TABLE.find((row) => row.id === bind.id)?.variable;
    if (variable && !bind.real) {
      variables[variable] = bind.source;
    }
  }
  return variables;
}
