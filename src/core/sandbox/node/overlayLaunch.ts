// Staged command changes (issue 40), the launch: a command's sandbox started over an
// overlay of each workspace folder, so what it writes lands in an upper layer of its own and the
// folder is untouched until the merge (`upperLayer.ts`). Measured on Linux 6.x as a normal user:
// overlayfs mounts in a user namespace with `userxattr`, and bubblewrap 0.8 runs nested in it with
// `--unshare-user --uid --gid` (the command keeps the user's ids).
//
// The overlay is mounted on the folder's own path, so every path of the sandbox's plan (its binds of
// protected and secret entries) means the same inside; the folder itself is bound at the layout's
// `lower` before the overlay covers it. When the command ends the namespace waits on the hold
// descriptor (HOLD_FD) while the extension host finds the opaque folders (folders the command
// deleted and made again; Node cannot read the attribute overlayfs marks them with) by comparing the
// merged view, which it reads through the namespace's `/proc/<pid>/root`, with the folder itself.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { HOLD_FD } from '../../ports/process';
import { opaqueFolders, type UpperEntry } from '../staging';

/** Where one folder's layers live, all inside the staging folder the caller owns. */
export interface StagedFolder {
  readonly folder: string;
  readonly lower: string;
  readonly upper: string;
  readonly work: string;
}

/** The layout of `folders` under `staging` (folders made by the caller: lower, upper and work empty). */
export function stagingLayout(staging: string, folders: readonly string[]): StagedFolder[] {
  if (/[,:\\]/.test(staging)) {
    // overlayfs reads its options split at commas, and lowerdir's folders split at colons.
    throw new Error(`The staging folder ${staging} has a comma, colon or backslash in its path, which overlayfs's options cannot carry`);
  }
  return folders.map((folder, index) => ({
    folder,
    lower: path.join(staging, `lower${index}`),
    upper: path.join(staging, `upper${index}`),
    work: path.join(staging, `work${index}`),
  }));
}

/** The descriptor of the staged launch's hold: the command's exit code arrives on it, and a line written back ends the namespace. */
export { HOLD_FD };

/**
 * The argv that runs `launcher` (bubblewrap's argv, nested: with `--unshare-user --uid --gid`) over
 * overlays of the layout's folders, in a user and mount namespace of its own (util-linux's
 * `unshare`). When the command ends, its exit code is written to HOLD_FD and the namespace waits
 * for a line there (read `opaqueFoldersThrough` meanwhile); it then exits with the command's code.
 * Without HOLD_FD open it exits at once. Paths travel as positional parameters, never in the script.
 */
export function stagedLaunch(unshare: string, layout: readonly StagedFolder[], launcher: readonly string[]): string[] {
  const body = [
    'set -eu',
    'count=$1; shift',
    'i=0',
    'while [ "$i" -lt "$count" ]; do',
    '  mount --bind "$1" "$2"',
    '  mount -t overlay overlay -o "lowerdir=$2,upperdir=$3,workdir=$4,userxattr" "$1"',
    '  shift 4',
    '  i=$((i + 1))',
    'done',
    '[ "$1" = -- ] && shift',
    'set +e',
    `"$@" ${HOLD_FD}<&-`,
    'status=$?',
    `{ printf '%s\\n' "$status" >&${HOLD_FD} && read -r _ <&${HOLD_FD}; } 2>/dev/null`,
    'exit $status',
  ].join('\n');
  const perFolder = layout.flatMap((layer) => [layer.folder, layer.lower, layer.upper, layer.work]);
  return [unshare, '--user', '--map-root-user', '--mount', '--', '/bin/sh', '-c', body, 'wat-staged', String(layout.length), ...perFolder, '--', ...launcher];
}

/** The command's exit code, once the staged namespace reports it on its hold (the stream of HOLD_FD). */
export function commandEnded(hold: Duplex): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end !== -1) {
        hold.off('data', onData);
        resolve(Number(text.slice(0, end)));
      }
    };
    hold.on('data', onData);
    hold.once('end', () => reject(new Error('the staged namespace ended without reporting its command\'s exit code')));
    hold.once('error', reject);
  });
}

/**
 * The opaque folders of one folder's upper layer, while the namespace of `pid` holds: its merged
 * view through `/proc/<pid>/root`, its lower one the folder itself.
 */
export async function opaqueFoldersThrough(pid: number, layer: StagedFolder, upper: readonly UpperEntry[]): Promise<Set<string>> {
  // A folder the lower view lacks is new (undefined); one the merged view cannot list stops the
  // merge (an empty answer would read as opaque, and the merge would replace the folder whole).
  const listings = async (root: string, missing: 'undefined' | 'throw'): Promise<Map<string, readonly string[] | undefined>> => {
    const listed = new Map<string, readonly string[] | undefined>();
    for (const entry of upper.filter((each) => each.kind === 'directory')) {
      const folder = path.join(root, ...entry.path.split('/'));
      listed.set(entry.path, await fs.readdir(folder).catch((error: unknown) => {
        if (missing === 'throw') throw error;
        return undefined;
      }));
    }
    return listed;
  };
  const lower = await listings(layer.folder, 'undefined');
  const merged = await listings(path.join(`/proc/${pid}/root`, layer.folder), 'throw');
  return opaqueFolders(upper, (relative) => lower.get(relative), (relative) => merged.get(relative) ?? []);
}

/**
 * Lets the owner remove a layer's work folder: overlayfs leaves the folder it makes inside it
 * (`work/work`) with mode 0, which a normal user cannot list to remove. Nothing to do when absent.
 */
export async function openWorkFolder(work: string): Promise<void> {
  try {
    await fs.chmod(path.join(work, 'work'), 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
}

/** The arguments that nest bubblewrap in the staged namespace, keeping the user's ids for the command. */
export function nestedBubblewrapOptions(uid: number, gid: number): string[] {
  return ['--unshare-user', '--uid', String(uid), '--gid', String(gid)];
}
