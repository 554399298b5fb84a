// Staged command changes (issue 40), the launch: a command's sandbox started over an
// overlay of each workspace folder, so what it writes lands in an upper layer of its own and the
// folder is untouched until the merge (`upperLayer.ts`). Measured on Linux 6.x as a normal user:
// overlayfs mounts in a user namespace with `userxattr`, and bubblewrap 0.8 runs nested in it with
// `--unshare-user --uid --gid` (the command keeps the user's ids).
//
// The overlay is mounted on the folder's own path, so every path of the sandbox's plan (its binds of
// protected and secret entries) means the same inside, with the folder itself as its lower layer
// (overlayfs holds the layer it was given, so covering its path after does not change it); only a
// folder whose path overlayfs's options cannot carry is bound at the layout's `lower` first, one
// `mount` program more. The overlay is `volatile`: without it, the namespace's end unmounts it and
// overlayfs then syncs the whole file system of the upper layer, waiting for every program's unwritten
// data on that disk (measured: 0.4 s after 300 MB written elsewhere, 20 to 90 ms beside a build); the
// upper layer is scratch until the merge, which is what makes a change last. When the command ends the namespace waits on the hold
// descriptor (HOLD_FD) while the extension host finds the opaque folders (folders the command
// deleted and made again; Node cannot read the attribute overlayfs marks them with) by comparing the
// merged view, which it reads through the namespace's `/proc/<pid>/root`, with the folder itself.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { ARGS_FD, HOLD_FD } from '../../ports/process';
import { opaqueFolders, type UpperEntry } from '../staging';

/** Where one folder's layers live, all inside the staging folder the caller owns. */
export interface StagedFolder {
  readonly folder: string;
  readonly lower: string;
  readonly upper: string;
  readonly work: string;
}

/**
 * Whether a path can travel in overlayfs's options as `mount` passes them: overlayfs splits them at
 * commas and lowerdir's folders at colons, reads a backslash as an escape, and `mount` reads a double
 * quote as the start of a quoted value.
 */
function carriedInOptions(folder: string): boolean {
  return !/[,:\\"]/.test(folder);
}

/** The layout of `folders` under `staging` (folders made by the caller: lower, upper and work empty). */
export function stagingLayout(staging: string, folders: readonly string[]): StagedFolder[] {
  if (!carriedInOptions(staging)) {
    throw new Error(`The staging folder ${staging} has a comma, colon, backslash or double quote in its path, which overlayfs's options cannot carry`);
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
 * volatile overlays of the layout's folders, in a user and mount namespace of its own (util-linux's
 * `unshare`): one `mount` program a folder (two for one whose path the options cannot carry). When the command ends, its exit code is written to HOLD_FD and the namespace waits
 * for a line there (read `opaqueFoldersThrough` meanwhile); it then exits with the command's code.
 * Without HOLD_FD open it exits at once. Paths travel as positional parameters, never in the script.
 */
export function stagedLaunch(unshare: string, layout: readonly StagedFolder[], launcher: readonly string[]): string[] {
  return launchArgv([unshare, '--user', '--map-root-user', '--mount'], '/bin/sh', layout, [], [], `"$@" ${HOLD_FD}<&-`, launcher);
}

/** The descriptor from which a launch started ahead reads its launcher's argv: NUL-separated, to its end. */
export { ARGS_FD };

/**
 * `stagedLaunch` started ahead of its command, so that `unshare` and the shell are off the
 * command's path: the namespace is made at once and waits for a line on HOLD_FD (at its end it
 * exits, having run nothing). Then it mounts the overlays, the folders as they are at that moment,
 * and runs the launcher whose argv the host wrote to ARGS_FD, NUL-separated and ended (bash's
 * `mapfile -d ''`: read as data, never as script). From there on it is `stagedLaunch`'s: the exit
 * code on HOLD_FD, then a line written back ends it.
 */
export function stagedLaunchAhead(unshare: string, bash: string, layout: readonly StagedFolder[]): string[] {
  const read = [`mapfile -d '' -u ${ARGS_FD} launcher`, `exec ${ARGS_FD}<&-`, '[ "${#launcher[@]}" -gt 0 ]'];
  // While it waits, its copy of the machine's mounts follows the machine's (a slave): a file system
  // unmounted there is not held here. From its line on they are private, as `stagedLaunch`'s are.
  const first = [`read -r _ <&${HOLD_FD}`, 'mount --make-rprivate /'];
  return launchArgv([unshare, '--user', '--map-root-user', '--mount', '--propagation', 'slave'], bash, layout, first, read, `"\${launcher[@]}" ${HOLD_FD}<&-`, []);
}

function launchArgv(unshare: readonly string[], shell: string, layout: readonly StagedFolder[], first: readonly string[], mounted: readonly string[], run: string, launcher: readonly string[]): string[] {
  const body = [
    'set -eu',
    ...first,
    'count=$1; shift',
    'i=0',
    'while [ "$i" -lt "$count" ]; do',
    '  [ "$2" = "$1" ] || mount --bind "$1" "$2"',
    '  mount -t overlay overlay -o "lowerdir=$2,upperdir=$3,workdir=$4,userxattr,volatile" "$1"',
    '  shift 4',
    '  i=$((i + 1))',
    'done',
    '[ "$1" = -- ] && shift',
    ...mounted,
    'set +e',
    run,
    'status=$?',
    `{ printf '%s\\n' "$status" >&${HOLD_FD} && read -r _ <&${HOLD_FD}; } 2>/dev/null`,
    'exit $status',
  ].join('\n');
  // The lower layer is the folder itself where its path can travel in the options, else its bind.
  const perFolder = layout.flatMap((layer) => [layer.folder, carriedInOptions(layer.folder) ? layer.folder : layer.lower, layer.upper, layer.work]);
  return [...unshare, '--', shell, '-c', body, 'wat-staged', String(layout.length), ...perFolder, '--', ...launcher];
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
 * Lets the owner remove a layer's work folder: overlayfs leaves the folders it makes inside it
 * (`work/work`, and a volatile mount's `work/work/incompat/volatile`) with mode 0, which a normal
 * user cannot list to remove. Opens each folder there, never following a symbolic link. Nothing to
 * do when absent.
 */
export async function openWorkFolder(work: string): Promise<void> {
  const open = async (folder: string): Promise<void> => {
    try {
      await fs.chmod(folder, 0o700);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) await open(path.join(folder, entry.name));
    }
  };
  const inner = path.join(work, 'work');
  const stat = await fs.lstat(inner).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stat?.isDirectory()) await open(inner);
}

/** The arguments that nest bubblewrap in the staged namespace, keeping the user's ids for the command. */
export function nestedBubblewrapOptions(uid: number, gid: number): string[] {
  return ['--unshare-user', '--uid', String(uid), '--gid', String(gid)];
}
