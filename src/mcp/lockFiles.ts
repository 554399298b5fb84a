// The lock file a window announces its endpoint in, and how the relay finds the live ones. A lock
// file holds the endpoint's nonce, so it is written owner-only and atomically (a fresh temp file
// opened with O_EXCL|O_NOFOLLOW, then renamed over), and read only when it is a plain file of this
// user with mode 0600. Lock files of windows whose process is gone are ignored and removed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { verifyPrivateFolder } from './privateFolder';

export const LOCK_FILE_VERSION = 1;
const LOCK_SUFFIX = '.lock.json';

/** What a window announces. */
export interface WindowLock {
  readonly version: typeof LOCK_FILE_VERSION;
  /** The extension host's process id. */
  readonly pid: number;
  /** The unix socket (or named pipe) the endpoint listens on. */
  readonly endpoint: string;
  /** The secret a client sends first on the socket, hex. */
  readonly nonce: string;
  /** The workspace folders on disk (file paths). */
  readonly folders: readonly string[];
  readonly trusted: boolean;
  /** The application (VS Code, code-server, ...) for messages. */
  readonly app: string;
}

/** One lock file read from disk. */
export interface FoundLock {
  readonly file: string;
  readonly lock: WindowLock;
}

/** The lock file's path for an endpoint id. */
export function lockFilePath(dir: string, id: string): string {
  return path.join(dir, `${id}${LOCK_SUFFIX}`);
}

const WRITE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** Writes the lock atomically with mode 0600 in the private folder `dir` (verified first). */
export function writeLockFile(file: string, lock: WindowLock): void {
  const dir = path.dirname(file);
  verifyPrivateFolder(dir);
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, WRITE_FLAGS, 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, JSON.stringify(lock, null, 2));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Removes a file if it is there; a missing file is fine. */
export function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // Already gone, or never made.
  }
}

/** True while a process with this id exists (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isWindowLock(value: unknown): value is WindowLock {
  const lock = value as Partial<WindowLock> | null;
  return (
    typeof lock === 'object' &&
    lock !== null &&
    lock.version === LOCK_FILE_VERSION &&
    Number.isInteger(lock.pid) &&
    typeof lock.endpoint === 'string' &&
    typeof lock.nonce === 'string' &&
    /^[0-9a-f]{64}$/.test(lock.nonce) &&
    Array.isArray(lock.folders) &&
    lock.folders.every((folder) => typeof folder === 'string') &&
    typeof lock.trusted === 'boolean' &&
    typeof lock.app === 'string'
  );
}

/** Reads one lock file without following a link; undefined when it is not a 0600 file of this user or not a lock. */
function readLockFile(file: string): WindowLock | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (process.platform !== 'win32' && (stat.mode & 0o777) !== 0o600) || stat.size > 64 * 1024) {
      return undefined;
    }
    const parsed: unknown = JSON.parse(fs.readFileSync(fd, 'utf8'));
    return isWindowLock(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The lock files of live windows in the private folder `dir` (verified first). A lock file whose
 * process is gone is removed, with its socket when that is a socket in `dir`.
 */
export function readLiveLocks(dir: string): FoundLock[] {
  verifyPrivateFolder(dir);
  const found: FoundLock[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith(LOCK_SUFFIX)) {
      continue;
    }
    const file = path.join(dir, name);
    const lock = readLockFile(file);
    if (!lock) {
      continue;
    }
    if (!isProcessAlive(lock.pid)) {
      removeQuietly(file);
      if (path.dirname(lock.endpoint) === dir && fs.lstatSync(lock.endpoint, { throwIfNoEntry: false })?.isSocket()) {
        removeQuietly(lock.endpoint);
      }
      continue;
    }
    found.push({ file, lock });
  }
  return found;
}

/** Whether `folder` is `root` or inside it, by whole path components. */
function contains(root: string, folder: string): boolean {
  const relative = path.relative(root, folder);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real path of a folder, or the path itself when it cannot be resolved. */
function realFolder(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** The window whose endpoint has the id `id` (its lock file is `<id>.lock.json`), if it is live. */
export function chooseWindowById(locks: readonly FoundLock[], id: string): FoundLock | undefined {
  return locks.find((found) => path.basename(found.file) === `${id}${LOCK_SUFFIX}`);
}

/** The window whose workspace folder holds `folder` most closely (the deepest folder wins), if any. */
export function chooseWindow(locks: readonly FoundLock[], folder: string): FoundLock | undefined {
  const wanted = realFolder(folder);
  let best: { found: FoundLock; depth: number } | undefined;
  for (const found of locks) {
    for (const root of found.lock.folders) {
      const real = realFolder(root);
      if (contains(real, wanted) && (!best || real.length > best.depth)) {
        best = { found, depth: real.length };
      }
    }
  }
  return best?.found;
}
