// Staged command changes (issue 40), what outlives a command: a run's folder under the staging root
// keeps the upper layer of each workspace folder while something in it waits for the person (a held
// change, the rest of a merge that stopped), with a small manifest (`run.json`) that says which
// folders, what was held and why, and how far the merge got. From it the person merges or discards
// one held change at a time (`mergeKept`, `discardKept`: the same plan and merge as the command's,
// so each file is old or new, no symlink followed, modes kept), and at the next activation
// `recoverKeptRuns` lists the runs of a window that is gone: a merge killed midway has its temporary
// names removed (in the folders its planned steps name, never a scan of the workspace) and what it
// had not merged yet listed beside what it held. A run with nothing left is removed, and so is any
// run older than KEPT_RUN_DAYS.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../../process/node/processGroup';
import { planMerge, withoutMountPoints, type ChangeStatus, type MergeStep } from '../staging';
import { openWorkFolder } from './overlayLaunch';
import { applyMerge, isMergeTemporary, lowerFactsOf, readUpperLayer } from './upperLayer';

/** The manifest's name in a run's folder. */
export const RUN_MANIFEST = 'run.json';

/** How long a kept run waits for the person before the next activation removes it. */
export const KEPT_RUN_DAYS = 14;

/** A change kept in a layer for the person: folder-relative, `/`-separated. */
export interface KeptEntry {
  readonly path: string;
  readonly status: ChangeStatus;
  readonly why: string;
}

/** One workspace folder of a run. */
export interface LayerManifest {
  /** The workspace folder, a host path. */
  readonly folder: string;
  /** The upper layer's name in the run's folder (`upper0`). */
  readonly upper: string;
  /** Folders the command deleted and made again (found while its namespace held). */
  readonly opaque?: readonly string[];
  /** The merge's steps as planned before it began (op and path), while it runs: a killed merge's temporaries lie beside them. */
  readonly planned?: readonly (readonly [MergeStep['op'], string])[];
  readonly held: readonly KeptEntry[];
}

export interface RunManifest {
  readonly version: 1;
  /** The extension host that made the run. */
  readonly pid: number;
  /** When the command started, ms since the epoch: an entry of the folder changed after it was changed by someone else. */
  readonly startedAt: number;
  /** `running`: the command ran and nothing was merged; `merging`: the merge began; `merged`: it ended, `held` is what is left. */
  readonly state: 'running' | 'merging' | 'merged';
  /** The sandbox's own mount points (host paths), which are not the command's changes. */
  readonly mountPoints?: readonly string[];
  readonly layers: readonly LayerManifest[];
}

/** A change kept for the person, where it is kept and what it would change. */
export interface KeptChange extends KeptEntry {
  readonly folder: string;
  /** The command's version: a host path in the run's upper layer. */
  readonly keptAt: string;
}

/** Why the rest of a merge is kept: the words a listed change carries. */
export const NOT_MERGED_COMMAND = 'not merged: the window closed while the command ran, before its merge';
export const NOT_MERGED_KILLED = 'not merged: the window closed in the middle of the merge';

/** Writes a run's manifest whole (a new file renamed over the old): it is old or new, never partial. */
export async function writeManifest(run: string, manifest: RunManifest): Promise<void> {
  const temporary = path.join(run, `${RUN_MANIFEST}.new`);
  await fs.writeFile(temporary, JSON.stringify(manifest), { mode: 0o600 });
  await fs.rename(temporary, path.join(run, RUN_MANIFEST));
}

/** A run's manifest, or undefined when it has none or it is not one. */
export async function readManifest(run: string): Promise<RunManifest | undefined> {
  const text = await fs.readFile(path.join(run, RUN_MANIFEST), 'utf8').catch(() => undefined);
  if (text === undefined) {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as RunManifest;
    const fine = parsed?.version === 1 && Number.isInteger(parsed.pid) && typeof parsed.startedAt === 'number' && ['running', 'merging', 'merged'].includes(parsed.state) && Array.isArray(parsed.layers)
      && parsed.layers.every((layer) => typeof layer.folder === 'string' && path.isAbsolute(layer.folder) && /^upper\d+$/.test(layer.upper) && Array.isArray(layer.held));
    return fine ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The paths that stand for the rest: a path below a new folder of the rest goes with it. */
export function restRoots(steps: readonly MergeStep[]): string[] {
  const made = new Set(steps.filter((step) => step.op === 'mkdir').map((step) => step.path));
  const roots = new Set<string>();
  for (const step of steps) {
    const parts = step.path.split('/');
    const under = parts.slice(0, -1).some((_part, index) => made.has(parts.slice(0, index + 1).join('/')));
    if (!under) {
      roots.add(step.path);
    }
  }
  return [...roots];
}

/** The run folder's name: `<pid>-<n>-<hex>` (stagedRuns.ts). */
const RUN_NAME = /^(\d+)-\d+-[0-9a-f]+$/;

/** Removes a run's folder whole (overlayfs's work folders are opened first: it leaves them mode 0). */
export async function removeRun(run: string): Promise<void> {
  const names = await fs.readdir(run).catch(() => [] as string[]);
  for (const name of names.filter((each) => /^work\d+$/.test(each))) {
    await openWorkFolder(path.join(run, name)).catch(() => undefined);
  }
  await fs.rm(run, { recursive: true, force: true });
}

/** A run of an earlier window, as recovery left it. */
export interface RecoveredRun {
  readonly run: string;
  readonly startedAt: number;
  /** What it held and what it had not merged yet, each to merge or discard. */
  readonly changes: readonly KeptChange[];
  /** `command`: the window closed while the command ran; `merge`: in the middle of its merge. */
  readonly interrupted?: 'command' | 'merge';
  /** The merge's temporary names removed from the workspace folders. */
  readonly removedTemporaries: number;
}

export interface RecoveryOptions {
  /** Whether the process that made a run is alive (its run is left alone); by default a signal 0. */
  readonly isAlive?: (pid: number) => boolean;
  readonly now?: number;
  readonly maxAgeMs?: number;
}

/**
 * The kept runs of windows that are gone, under `root`, each made whole again: a killed merge's
 * temporaries removed, its planned steps not done yet (each compared with the folder) and a killed
 * command's changes (planned as its merge would have) kept beside what was held, the layers' other
 * folders removed, the manifest rewritten. A run with nothing left, without a manifest, or older
 * than the age limit is removed; a live window's runs are not touched, nor a run whose command
 * outlived its window and still runs over its layers.
 */
export async function recoverKeptRuns(root: string, options: RecoveryOptions = {}): Promise<{ readonly runs: readonly RecoveredRun[]; readonly removed: readonly string[] }> {
  const isAlive = options.isAlive ?? processAlive;
  const now = options.now ?? Date.now();
  const maxAge = options.maxAgeMs ?? KEPT_RUN_DAYS * 24 * 60 * 60 * 1000;
  const runs: RecoveredRun[] = [];
  const removed: string[] = [];
  const names = await fs.readdir(root).catch(() => [] as string[]);
  for (const name of names.sort()) {
    const match = RUN_NAME.exec(name);
    if (!match || isAlive(Number(match[1]))) {
      continue;
    }
    const run = path.join(root, name);
    const manifest = await readManifest(run);
    if (!manifest || now - manifest.startedAt > maxAge) {
      await removeRun(run);
      removed.push(run);
      continue;
    }
    if (manifest.state !== 'merged' && (await mountedSomewhere(run))) {
      continue; // its command outlived its window and still runs over the layers: left for a later start
    }
    const recovered = await recoverRun(run, manifest);
    if (recovered.changes.length === 0) {
      await removeRun(run);
      removed.push(run);
    } else {
      runs.push(recovered);
    }
  }
  return { runs, removed };
}

/** Whether some process's mount namespace still has an overlay over one of the run's upper layers (Linux's /proc). */
async function mountedSomewhere(run: string): Promise<boolean> {
  const needle = `upperdir=${run}${path.sep}upper`;
  const pids = (await fs.readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    const mounts = await fs.readFile(`/proc/${pid}/mountinfo`, 'utf8').catch(() => '');
    if (mounts.includes(needle)) {
      return true;
    }
  }
  return false;
}

async function recoverRun(run: string, manifest: RunManifest): Promise<RecoveredRun> {
  let removedTemporaries = 0;
  const layers: LayerManifest[] = [];
  for (const layer of manifest.layers) {
    const upper = path.join(run, layer.upper);
    const rest: KeptEntry[] = [];
    if (manifest.state === 'running') {
      // The command ran, its merge never began: plan it now, as its merge would have (opaque folders
      // cannot be told without its namespace: their old entries stay).
      const points = new Set((manifest.mountPoints ?? []).filter((point) => point.startsWith(`${layer.folder}${path.sep}`)).map((point) => path.relative(layer.folder, point).split(path.sep).join('/')));
      const entries = withoutMountPoints(await readUpperLayer(upper).catch(() => []), points);
      const plan = planMerge(entries, await lowerFactsOf(layer.folder, entries, manifest.startedAt));
      const status = new Map(plan.changes.map((change) => [change.path, change.status]));
      rest.push(...plan.changes.filter((change) => change.held !== undefined).map((change) => ({ path: change.path, status: change.status, why: change.held ?? '' })));
      rest.push(...restRoots(plan.steps).map((p) => ({ path: p, status: status.get(p) ?? 'M', why: NOT_MERGED_COMMAND })));
    } else if (layer.planned) {
      // The merge began: what it had not done yet, and the temporaries it left beside its steps.
      removedTemporaries += await removeTemporaries(layer.folder, layer.planned);
      const left: MergeStep[] = [];
      const last = new Map<string, readonly [MergeStep['op'], string]>();
      for (const step of layer.planned) {
        last.set(step[1], step);
      }
      for (const [, [op, p]] of last) {
        if (!(await stepDone(op, p, upper, layer.folder))) {
          left.push({ op, path: p } as MergeStep);
        }
      }
      rest.push(...restRoots(left).map((p) => {
        const op = last.get(p)?.[0];
        return { path: p, status: op === 'remove' ? 'D' : 'M', why: NOT_MERGED_KILLED } as KeptEntry;
      }));
    }
    const known = new Set(layer.held.map((entry) => entry.path));
    layers.push({ folder: layer.folder, upper: layer.upper, ...(layer.opaque?.length ? { opaque: layer.opaque } : {}), held: [...layer.held, ...rest.filter((entry) => !known.has(entry.path))] });
  }
  // Only the upper layers hold what the person may want.
  for (const name of await fs.readdir(run).catch(() => [] as string[])) {
    if (/^(lower|work)\d+$/.test(name)) {
      if (name.startsWith('work')) await openWorkFolder(path.join(run, name)).catch(() => undefined);
      await fs.rm(path.join(run, name), { recursive: true, force: true }).catch(() => undefined);
    }
  }
  const changes = layers.flatMap((layer) => layer.held.map((entry) => ({ folder: layer.folder, ...entry, keptAt: path.join(run, layer.upper, ...entry.path.split('/')) })));
  if (changes.length) {
    await writeManifest(run, { version: 1, pid: manifest.pid, startedAt: manifest.startedAt, state: 'merged', layers });
  }
  const interrupted = manifest.state === 'running' ? 'command' : manifest.state === 'merging' ? 'merge' : undefined;
  return { run, startedAt: manifest.startedAt, changes, ...(interrupted ? { interrupted } : {}), removedTemporaries };
}

/** The folder's entry at a step's path, reached without a symbolic link on the way, or undefined. */
async function placeOf(folder: string, relative: string): Promise<string | undefined> {
  const parts = relative.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) {
    return undefined;
  }
  const root = await fs.realpath(folder).catch(() => undefined);
  if (root === undefined) {
    return undefined;
  }
  const target = path.join(root, ...parts);
  const parent = path.dirname(target);
  return (await fs.realpath(parent).catch(() => undefined)) === parent ? target : undefined;
}

/** Removes the merge's temporaries (by their exact name form) from the folders where the planned steps put entries; how many. */
async function removeTemporaries(folder: string, planned: readonly (readonly [MergeStep['op'], string])[]): Promise<number> {
  const parents = new Set(planned.filter(([op]) => op === 'write' || op === 'symlink' || op === 'link').map(([, p]) => p.split('/').slice(0, -1).join('/')));
  let count = 0;
  for (const parent of parents) {
    const place = parent === '' ? await fs.realpath(folder).catch(() => undefined) : await placeOf(folder, `${parent}/x`).then((target) => target && path.dirname(target));
    if (place === undefined) {
      continue;
    }
    for (const name of (await fs.readdir(place).catch(() => [] as string[])).filter(isMergeTemporary)) {
      const full = path.join(place, name);
      const stat = await fs.lstat(full).catch(() => undefined);
      if (stat && !stat.isDirectory()) {
        await fs.rm(full, { force: true });
        count += 1;
      }
    }
  }
  return count;
}

/** Whether the folder already holds what a step puts there (compared with the upper layer). */
async function stepDone(op: MergeStep['op'], relative: string, upper: string, folder: string): Promise<boolean> {
  const target = await placeOf(folder, relative);
  if (target === undefined) {
    return false;
  }
  const here = await fs.lstat(target).catch(() => undefined);
  const source = path.join(upper, ...relative.split('/'));
  switch (op) {
    case 'remove':
      return here === undefined;
    case 'mkdir':
      return here?.isDirectory() ?? false;
    case 'symlink':
      return Boolean(here?.isSymbolicLink()) && (await fs.readlink(target)) === (await fs.readlink(source).catch(() => undefined));
    case 'write':
    case 'link': {
      const kept = await fs.lstat(source).catch(() => undefined);
      if (!here?.isFile() || !kept?.isFile() || here.size !== kept.size || (here.mode & 0o7777) !== (kept.mode & 0o7777)) {
        return false;
      }
      const [mine, theirs] = await Promise.all([fs.readFile(target), fs.readFile(source)]);
      return mine.equals(theirs);
    }
  }
}

/** A held change located in its run: the run, its manifest, the layer and the folder-relative path. */
interface Located {
  readonly run: string;
  readonly manifest: RunManifest;
  readonly layer: LayerManifest;
  readonly entry: KeptEntry;
  /** Other held changes below this one: each waits for its own answer, so none goes with it. */
  readonly nested: readonly string[];
}

/** Finds the held change kept at `keptAt` under `root`; a path that is not one is refused. */
async function locate(root: string, keptAt: string): Promise<Located> {
  const relative = path.relative(root, keptAt).split(path.sep);
  const refuse = (why: string): Error => new Error(`${keptAt} is not a change kept for review (${why}); nothing was changed.`);
  if (relative.length < 3 || !RUN_NAME.test(relative[0]) || !/^upper\d+$/.test(relative[1]) || relative.some((part) => part === '' || part === '.' || part === '..')) {
    throw refuse('not in a run of the staging folder');
  }
  const run = path.join(root, relative[0]);
  const manifest = await readManifest(run);
  const layer = manifest?.layers.find((candidate) => candidate.upper === relative[1]);
  const entryPath = relative.slice(2).join('/');
  const entry = layer?.held.find((candidate) => candidate.path === entryPath);
  if (!manifest || !layer || !entry) {
    throw refuse('its run lists no such held change: it was merged or discarded already, or pruned');
  }
  const nested = layer.held.filter((other) => other.path.startsWith(`${entry.path}/`)).map((other) => other.path);
  return { run, manifest, layer, entry, nested };
}

/** Whether a path is one of `roots` or below one. */
function within(p: string, roots: readonly string[]): boolean {
  return roots.some((root) => p === root || p.startsWith(`${root}/`));
}

/** What merging a kept change would change, for the person's question. */
export interface KeptChangeFacts extends KeptChange {
  /** The command's version: a file, a folder (merged whole), a symbolic link, or a deletion. */
  readonly kind: 'file' | 'folder' | 'symlink' | 'deletion' | 'other';
  /** The folder's entry changed after the command started (the person's version would be replaced). */
  readonly changedInFolder: boolean;
  /** Files below a folder (without the held changes below it, which wait for their own answer). */
  readonly files?: number;
  /** Held changes below it, which a merge of it leaves held. */
  readonly nested: readonly string[];
}

export async function describeKept(root: string, keptAt: string): Promise<KeptChangeFacts> {
  const { layer, entry, manifest, nested } = await locate(root, keptAt);
  const entries = (await readUpperLayer(path.dirname(keptAt), new Set(), path.basename(keptAt))).filter((each) => !within(path.posix.join(path.posix.dirname(entry.path), each.path), nested));
  const first = entries[0];
  const kind = first === undefined ? 'other' : first.kind === 'directory' ? 'folder' : first.kind === 'whiteout' ? 'deletion' : first.kind;
  const facts = await lowerFactsOf(layer.folder, [{ path: entry.path, kind: 'file' }], manifest.startedAt);
  return {
    folder: layer.folder,
    ...entry,
    keptAt,
    kind,
    changedInFolder: facts.kindOf(entry.path) !== undefined && facts.changedSince(entry.path),
    ...(kind === 'folder' ? { files: entries.filter((each) => each.kind === 'file').length } : {}),
    nested,
  };
}

/** What a merge or a discard left. */
export interface KeptOutcome {
  /** Entries the merge made or removed in the folder (none for a discard). */
  readonly steps: number;
  /** Held changes still kept in the run; 0 means its folder was removed. */
  readonly left: number;
  /** Entries of a merged folder no merge makes (neither a file, a folder nor a link), dropped with it. */
  readonly skipped: readonly string[];
}

let serial: Promise<unknown> = Promise.resolve();

/** One merge or discard at a time: each reads and rewrites its run's manifest. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = serial.then(work, work);
  serial = next.catch(() => undefined);
  return next;
}

/**
 * Merges the one held change kept at `keptAt` into its workspace folder: planned by the command's
 * plan with that change approved (it and what is below it, none held again), carried out by the
 * command's merge. Then it is no longer kept; a run with nothing left is removed. A merge that
 * stops throws MergeStopped, the change still kept.
 */
export function mergeKept(root: string, keptAt: string): Promise<KeptOutcome> {
  return oneAtATime(async () => {
    const located = await locate(root, keptAt);
    const upper = path.join(located.run, located.layer.upper);
    const entries = (await readUpperLayer(upper, new Set(located.layer.opaque ?? []), located.entry.path)).filter((entry) => !within(entry.path, located.nested));
    const plan = planMerge(entries, await lowerFactsOf(located.layer.folder, entries, located.manifest.startedAt), located.entry.path);
    await applyMerge(plan, upper, located.layer.folder);
    const skipped = plan.changes.filter((change) => change.held !== undefined).map((change) => change.path);
    return { steps: plan.steps.length, skipped, left: await forget(located) };
  });
}

/** Discards the one held change kept at `keptAt`: the folder is not touched. A run with nothing left is removed. */
export function discardKept(root: string, keptAt: string): Promise<KeptOutcome> {
  return oneAtATime(async () => ({ steps: 0, skipped: [], left: await forget(await locate(root, keptAt)) }));
}

/** Drops a held change from its run (the kept entry and the manifest's line); removes the run when nothing is left. */
async function forget({ run, manifest, layer, entry, nested }: Located): Promise<number> {
  if (nested.length === 0) {
    await fs.rm(path.join(run, layer.upper, ...entry.path.split('/')), { recursive: true, force: true });
  }
  const layers = manifest.layers.map((each) => (each === layer ? { ...each, held: each.held.filter((other) => other.path !== entry.path) } : each));
  const left = layers.reduce((sum, each) => sum + each.held.length, 0);
  if (left === 0 && manifest.state !== 'running') {
    await removeRun(run);
  } else {
    await writeManifest(run, { ...manifest, layers });
  }
  return left;
}
