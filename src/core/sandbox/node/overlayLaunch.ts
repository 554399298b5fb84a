// Staged command changes (issue 40; not wired yet), the launch: a command's sandbox started over an
// overlay of each workspace folder, so what it writes lands in an upper layer of its own and the
// folder is untouched until the merge (`upperLayer.ts`). Measured on Linux 6.x as a normal user:
// overlayfs mounts in a user namespace with `userxattr`, and bubblewrap 0.8 runs nested in it with
// `--unshare-user --uid --gid` (the command keeps the user's ids).
//
// The overlay is mounted on the folder's own path, so every path of the sandbox's plan (its binds of
// protected and secret entries) means the same inside; the folder itself stays reachable inside at
// its layout's `lower`, bound there before the overlay covers it. When the command ends, a few lines
// of JavaScript run by the extension host's own Node, still inside the namespace, find the opaque
// folders (folders the command deleted and made again) by comparing the merged and lower views, as
// Node cannot read the attribute overlayfs marks them with.
import * as path from 'node:path';

/** Where one folder's layers live, all inside the staging folder the caller owns. */
export interface StagedFolder {
  readonly folder: string;
  readonly lower: string;
  readonly upper: string;
  readonly work: string;
  /** A JSON array of the opaque folders' relative paths, written when the command ends. */
  readonly opaque: string;
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
    opaque: path.join(staging, `opaque${index}.json`),
  }));
}

/**
 * Lists the opaque folders of one layer pair: argv after the script is the upper, lower and merged
 * folders and the file to write. A folder of both layers is opaque when an entry of the lower one
 * is missing from the merged view and has no whiteout (a 0:0 character device) in the upper one.
 */
const OPAQUE_LISTER = `
const fs = require('fs'), path = require('path');
const [upper, lower, merged, out] = process.argv.slice(1);
const names = (dir) => { try { return fs.readdirSync(dir); } catch { return undefined; } };
const opaque = [];
const walk = (rel) => {
  for (const name of fs.readdirSync(path.join(upper, rel))) {
    const child = rel === '' ? name : rel + '/' + name;
    if (!fs.lstatSync(path.join(upper, child)).isDirectory()) continue;
    const below = names(path.join(lower, child));
    if (below && below.length > 0) {
      const seen = new Set(names(path.join(merged, child)) || []);
      const whiteout = (n) => { try { const s = fs.lstatSync(path.join(upper, child, n)); return s.isCharacterDevice() && s.rdev === 0; } catch { return false; } };
      if (below.some((n) => !seen.has(n) && !whiteout(n))) opaque.push(child);
    }
    walk(child);
  }
};
walk('');
fs.writeFileSync(out, JSON.stringify(opaque));
`;

/**
 * The argv that runs `launcher` (bubblewrap's argv, nested: with `--unshare-user --uid --gid`) over
 * overlays of the layout's folders, in a user and mount namespace of its own (util-linux's
 * `unshare`), then lists each folder's opaque folders into its `opaque` file; the exit code is the
 * command's. A missing `opaque` file means the listing failed: nothing of that folder may be merged.
 * `node` is a Node the script can run (the extension host's, with ELECTRON_RUN_AS_NODE). The mounts'
 * paths travel as positional parameters; the lister's are quoted into the script as single words.
 */
export function stagedLaunch(unshare: string, node: string, layout: readonly StagedFolder[], launcher: readonly string[]): string[] {
  const perFolder = layout.flatMap((layer) => [layer.folder, layer.lower, layer.upper, layer.work, layer.opaque]);
  const listing = layout.map((layer) => `ELECTRON_RUN_AS_NODE=1 "$node" -e "$lister" ${[layer.upper, layer.lower, layer.folder, layer.opaque].map(shellWord).join(' ')} || true`);
  const body = [
    'set -eu',
    `lister=${shellWord(OPAQUE_LISTER)}`,
    'node=$1; count=$2; shift 2',
    'i=0',
    'while [ "$i" -lt "$count" ]; do',
    '  mount --bind "$1" "$2"',
    '  mount -t overlay overlay -o "lowerdir=$2,upperdir=$3,workdir=$4,userxattr" "$1"',
    '  shift 5',
    '  i=$((i + 1))',
    'done',
    '[ "$1" = -- ] && shift',
    'set +e',
    '"$@"',
    'status=$?',
    ...listing,
    'exit $status',
  ].join('\n');
  return [unshare, '--user', '--map-root-user', '--mount', '--', '/bin/sh', '-c', body, 'wat-staged', node, String(layout.length), ...perFolder, '--', ...launcher];
}

/** A word the shell reads back as exactly `text`. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The arguments that nest bubblewrap in the staged namespace, keeping the user's ids for the command. */
export function nestedBubblewrapOptions(uid: number, gid: number): string[] {
  return ['--unshare-user', '--uid', String(uid), '--gid', String(gid)];
}
