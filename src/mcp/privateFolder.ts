// The folder the endpoints' sockets and lock files live in: the user's runtime folder, or a
// per-user folder in the temp folder. Before anything is created in it or read from it, it must be
// a real directory (not a symlink), owned by this user, with no access for group or others; an
// attacker who made it first, or swapped it for a link, gets a refusal instead of our nonce.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The environment variable tests and users may set to put the folder elsewhere (an absolute path). */
export const RUNTIME_DIR_VARIABLE = 'WORKSPACE_AGENT_TOOLS_RUNTIME_DIR';

/** A folder or socket that is not safe to use; the message says what is wrong with it. */
export class UnsafePathError extends Error {}

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** Where the lock files of this user's windows are: $XDG_RUNTIME_DIR, else a per-user folder in the temp folder. */
export function runtimeFolder(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[RUNTIME_DIR_VARIABLE];
  if (override && path.isAbsolute(override)) {
    return override;
  }
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg)) {
    return path.join(xdg, 'workspace-agent-tools');
  }
  const user = currentUid() ?? os.userInfo().username.replace(/[^\w.-]/g, '_');
  return path.join(os.tmpdir(), `workspace-agent-tools-${user}`);
}

/**
 * Every folder a window of this user may have announced itself in, the window's own choice
 * (runtimeFolder) first. An agent may start the relay with less of the environment than VS Code
 * has (Codex CLI passes an MCP server almost none: no XDG_RUNTIME_DIR, no TMPDIR), so the relay
 * also looks where a window with a desktop session's environment writes: the systemd runtime
 * folder, and the temp folder's fallback. Each is used only if it passes verifyPrivateFolder.
 */
export function runtimeFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  const first = runtimeFolder(env);
  const override = env[RUNTIME_DIR_VARIABLE];
  if (override && path.isAbsolute(override)) {
    return [first];
  }
  const uid = currentUid();
  const user = uid ?? os.userInfo().username.replace(/[^\w.-]/g, '_');
  const candidates = [
    first,
    ...(process.platform === 'linux' && uid !== undefined ? [path.join('/run/user', String(uid), 'workspace-agent-tools')] : []),
    path.join(os.tmpdir(), `workspace-agent-tools-${user}`),
    ...(process.platform === 'win32' ? [] : [path.join('/tmp', `workspace-agent-tools-${user}`)]),
  ];
  return [...new Set(candidates)];
}

/** Throws unless `stat` (from lstat) belongs to this user and gives nothing to group or others. */
function checkOwnerAndMode(what: string, target: string, stat: fs.Stats, mode: number): void {
  const uid = currentUid();
  if (uid !== undefined && stat.uid !== uid) {
    throw new UnsafePathError(`${what} ${target} belongs to uid ${stat.uid}, not to this user (${uid}); refusing to use it.`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o777) !== mode) {
    throw new UnsafePathError(`${what} ${target} has mode ${(stat.mode & 0o777).toString(8)}, not ${mode.toString(8)}; refusing to use it.`);
  }
}

/** Throws unless `dir` is a directory (not a symlink) of this user with mode 0700. */
export function verifyPrivateFolder(dir: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch (error) {
    throw new UnsafePathError(`The folder ${dir} cannot be used: ${(error as Error).message}`);
  }
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new UnsafePathError(`${dir} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; refusing to use it.`);
  }
  checkOwnerAndMode('The folder', dir, stat, 0o700);
}

/** Creates `dir` with mode 0700 when it is missing (its parent must exist), then verifies it. */
export function ensurePrivateFolder(dir: string): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw error;
    }
  }
  verifyPrivateFolder(dir);
}

/** Throws unless `socketPath` is a socket (not a symlink) of this user directly inside the private folder `dir`. */
export function verifyEndpointSocket(dir: string, socketPath: string): void {
  if (process.platform === 'win32') {
    return;
  }
  if (path.dirname(socketPath) !== dir) {
    throw new UnsafePathError(`The endpoint ${socketPath} is not in ${dir}; refusing to connect.`);
  }
  verifyPrivateFolder(dir);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch (error) {
    throw new UnsafePathError(`The endpoint ${socketPath} cannot be used: ${(error as Error).message}`);
  }
  if (stat.isSymbolicLink() || !stat.isSocket()) {
    throw new UnsafePathError(`The endpoint ${socketPath} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a socket'}; refusing to connect.`);
  }
  const uid = currentUid();
  if (uid !== undefined && stat.uid !== uid) {
    throw new UnsafePathError(`The endpoint ${socketPath} belongs to uid ${stat.uid}, not to this user; refusing to connect.`);
  }
}
