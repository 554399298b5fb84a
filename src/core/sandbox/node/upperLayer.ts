// Staged command changes (issue 40), the disk side: what a command's overlay upper
// layer holds (`readUpperLayer`), and carrying out the merge plan of `../staging.ts` into the
// workspace folder (`applyMerge`), one entry at a time, each file old or new, never partial: a
// file, link or symlink is made under a temporary name beside its place and renamed over it.
//
// The merge runs outside any sandbox, while other programs (a background command, the person's
// editor) may change the folder. So no step follows a symbolic link on the way to its place: the
// folder above each entry must be, by its real path, exactly where the plan puts it, or the merge
// stops with what it did so far named. A command that plants `src -> ~/.ssh` in the folder cannot
// make the merge write `src/authorized_keys` there.
import { randomBytes } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { RecordedBy } from '../../ports/process';
import type { LowerFacts, LowerKind, MergePlan, MergeStep, UpperEntry } from '../staging';

/** The prefix of the temporary names the merge makes beside an entry; leftovers of a crash carry it. */
export const MERGE_TEMPORARY_PREFIX = '.wat-merge-';

/** True for a name the merge made as a temporary: the prefix and 12 hexadecimal digits, nothing else. */
export function isMergeTemporary(name: string): boolean {
  return name.length === MERGE_TEMPORARY_PREFIX.length + 12 && name.startsWith(MERGE_TEMPORARY_PREFIX) && /^[0-9a-f]{12}$/.test(name.slice(MERGE_TEMPORARY_PREFIX.length));
}

/**
 * Every entry of an upper layer, folders before what is inside them, paths `/`-separated and
 * relative to the layer. A character device 0:0 is overlayfs's whiteout. `opaque` names the folders
 * overlayfs marked opaque (its `user.overlay.opaque` attribute, which Node cannot read: the caller
 * finds them inside the command's namespace, where the merged view shows what the lower one lacks).
 * `under`: only that entry of the layer and what is below it (a held change merged from its review).
 */
export async function readUpperLayer(upper: string, opaque: ReadonlySet<string> = new Set(), under = ''): Promise<UpperEntry[]> {
  const entries: UpperEntry[] = [];
  const add = async (child: string): Promise<boolean> => {
    const full = path.join(upper, ...child.split('/'));
    const stat = await fs.lstat(full);
    if (stat.isDirectory()) {
      entries.push({ path: child, kind: 'directory', mode: stat.mode & 0o7777, ...(opaque.has(child) ? { opaque: true } : {}) });
      return true;
    }
    if (stat.isFile()) {
      entries.push({ path: child, kind: 'file', mode: stat.mode & 0o7777, ...(stat.nlink > 1 ? { inode: `${stat.dev}:${stat.ino}` } : {}) });
    } else if (stat.isSymbolicLink()) {
      entries.push({ path: child, kind: 'symlink', target: await fs.readlink(full) });
    } else if (stat.isCharacterDevice() && stat.rdev === 0) {
      entries.push({ path: child, kind: 'whiteout' });
    } else {
      entries.push({ path: child, kind: 'other' });
    }
    return false;
  };
  const walk = async (relative: string): Promise<void> => {
    const names = (await fs.readdir(relative === '' ? upper : path.join(upper, ...relative.split('/')))).sort();
    for (const name of names) {
      const child = relative === '' ? name : `${relative}/${name}`;
      if (await add(child)) {
        await walk(child);
      }
    }
  };
  if (under === '' || (await add(under))) {
    await walk(under);
  }
  return entries;
}

/**
 * The folder's entries as the merge plan asks about them, read from the disk with one lstat each.
 * `startedAt` is when the command started (ms since the epoch): its writes never reach the folder
 * itself, so an entry changed after it (a newer ctime) was changed by someone else.
 */
export async function lowerFactsOf(folder: string, entries: readonly UpperEntry[], startedAt: number): Promise<LowerFacts> {
  const kinds = new Map<string, LowerKind>();
  const changed = new Set<string>();
  for (const entry of entries) {
    const stat = await fs.lstat(path.join(folder, ...entry.path.split('/'))).catch(() => undefined);
    kinds.set(entry.path, kindOf(stat));
    if (stat && stat.ctimeMs > startedAt) {
      changed.add(entry.path);
    }
  }
  return { kindOf: (relative) => kinds.get(relative), changedSince: (relative) => changed.has(relative) };
}

/** The most files below a folder the command deletes or replaces that are looked up in the checkpoint; past it, the folder counts as not recorded. */
const MAX_CHECKED_FILES = 20_000;

/**
 * The entries whose merge would delete or replace something in the folder that the checkpoint
 * before the command did not record (an ignored or oversized file, or a folder holding one, or what
 * is neither a file nor a link): what a restore could not bring back. One `recordedBy` question.
 */
export async function unrecordedOf(folder: string, entries: readonly UpperEntry[], lower: LowerFacts, recordedBy: RecordedBy): Promise<Set<string>> {
  const below = new Map<string, string[] | undefined>();
  for (const entry of entries) {
    const kind = lower.kindOf(entry.path);
    if (kind === undefined || (kind === 'directory' && entry.kind === 'directory' && !entry.opaque)) {
      continue; // nothing there to lose, or a folder the merge only goes into
    }
    below.set(entry.path, kind === 'directory' ? await filesBelow(folder, entry.path) : kind === 'other' ? undefined : [entry.path]);
  }
  const asked = [...new Set([...below.values()].flatMap((files) => files ?? []))];
  const recorded = asked.length ? await recordedBy(folder, asked) : new Set<string>();
  return new Set([...below].filter(([, files]) => files === undefined || files.some((file) => !recorded.has(file))).map(([relative]) => relative));
}

/** Every file and link below a folder (folder-relative, `/`-separated); undefined past MAX_CHECKED_FILES or for what is neither. */
async function filesBelow(folder: string, relative: string): Promise<string[] | undefined> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<boolean> => {
    for (const entry of await fs.readdir(path.join(folder, ...dir.split('/')), { withFileTypes: true })) {
      const child = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!(await walk(child))) {
          return false;
        }
      } else if ((entry.isFile() || entry.isSymbolicLink()) && files.length < MAX_CHECKED_FILES) {
        files.push(child);
      } else {
        return false;
      }
    }
    return true;
  };
  return (await walk(relative).catch(() => false)) ? files : undefined;
}

function kindOf(stat: Stats | undefined): LowerKind {
  return stat === undefined ? undefined : stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : 'other';
}

async function kindAt(full: string): Promise<LowerKind> {
  return kindOf(await fs.lstat(full).catch(() => undefined));
}

/** A merge that stopped: the steps done before it, and why. */
export class MergeStopped extends Error {
  constructor(
    readonly done: readonly MergeStep[],
    readonly step: MergeStep,
    reason: string,
  ) {
    super(`The merge stopped at ${step.path} (${step.op}): ${reason}. ${done.length} earlier step(s) were done; the rest is still in the command's upper layer.`);
    this.name = 'MergeStopped';
  }
}

/**
 * Carries out the plan's steps in order, from `upper` into `folder`. Each step is whole or not done.
 * Stops at the first step whose place is reached through a symbolic link or cannot be made.
 */
export async function applyMerge(plan: MergePlan, upper: string, folder: string): Promise<void> {
  const root = await fs.realpath(folder);
  const done: MergeStep[] = [];
  for (const step of plan.steps) {
    try {
      await applyStep(step, upper, root);
    } catch (error) {
      throw new MergeStopped(done, step, error instanceof Error ? error.message : String(error));
    }
    done.push(step);
  }
}

async function applyStep(step: MergeStep, upper: string, root: string): Promise<void> {
  const parts = step.path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error('not a plain relative path');
  }
  const target = path.join(root, ...parts);
  const parent = path.dirname(target);
  if ((await fs.realpath(parent)) !== parent) {
    throw new Error(`${path.relative(root, parent) || '.'} is reached through a symbolic link now`);
  }
  switch (step.op) {
    case 'remove':
      await fs.rm(target, { recursive: true, force: true });
      return;
    case 'mkdir':
      await fs.mkdir(target, { mode: step.mode ?? 0o755 });
      if (step.mode !== undefined) {
        await fs.chmod(target, step.mode);
      }
      return;
    case 'write':
      await replace(target, async (temporary) => {
        await fs.copyFile(path.join(upper, ...parts), temporary, fs.constants.COPYFILE_EXCL);
        if (step.mode !== undefined) {
          await fs.chmod(temporary, step.mode);
        }
      });
      return;
    case 'symlink':
      await replace(target, (temporary) => fs.symlink(step.target, temporary));
      return;
    case 'link':
      await replace(target, (temporary) => fs.link(path.join(root, ...step.to.split('/')), temporary));
      return;
  }
}

/** Makes the new entry under a fresh name beside `target`, then renames it over `target` (a folder there is removed first). */
async function replace(target: string, make: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = path.join(path.dirname(target), `${MERGE_TEMPORARY_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    await make(temporary);
    if ((await kindAt(target)) === 'directory') {
      await fs.rm(target, { recursive: true, force: true });
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
