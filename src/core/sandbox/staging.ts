// Staged command changes (issue 40): a command runs over an overlay of a workspace
// folder, its writes land in the overlay's upper layer, and when it ends this plan says what of the
// upper layer goes into the folder and what is held for review. Pure: the walk of the upper layer and
// the look at the folder come in as data, and the node side carries the plan out one file at a time
// (each file old or new, never partial). What is held is decided by the guard's one table, by name,
// whatever spelling the command used, so no protected entry is merged unasked however it was made.
import type { StagedChange } from '../ports/process';
import { GIT_DIRECTORY_MARKER, isWorkspaceExecutionConfig, whyProtected } from '../guard/protectedNames';

/** One entry of the upper layer, as the walk found it: a path relative to the folder, `/`-separated. */
export interface UpperEntry {
  readonly path: string;
  /** `whiteout`: overlayfs's mark of a deleted lower entry (a character device 0:0). */
  readonly kind: 'file' | 'directory' | 'symlink' | 'whiteout' | 'other';
  /** A directory overlayfs marked opaque: it replaces the lower one whole (deleted, then made again). */
  readonly opaque?: boolean;
  /** Permission bits, for files and directories. */
  readonly mode?: number;
  /** A symbolic link's target, as written. */
  readonly target?: string;
  /** Entries that are hard links of one file share this key (device and inode). */
  readonly inode?: string;
}

export type LowerKind = 'file' | 'directory' | 'symlink' | 'other' | undefined;

/** What the folder holds at a path now, and whether someone else changed it while the command ran. */
export interface LowerFacts {
  kindOf(relative: string): LowerKind;
  /** True when the entry changed after the command started (an editor's save, another program). */
  changedSince(relative: string): boolean;
  /**
   * For a command that ran without its question (askAfter): true when what is here now, or a file
   * below it, is not in the checkpoint taken before the command, so a restore could not bring it
   * back. Absent: every change may be merged.
   */
  unrecorded?(relative: string): boolean;
}

export type MergeStep =
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'mkdir'; readonly path: string; readonly mode?: number }
  | { readonly op: 'write'; readonly path: string; readonly mode?: number }
  | { readonly op: 'link'; readonly path: string; readonly to: string }
  | { readonly op: 'symlink'; readonly path: string; readonly target: string };

export type ChangeStatus = StagedChange['status'];

/** One change in the folder the plan is for (the port's change without its folder). */
export type FolderChange = Omit<StagedChange, 'folder'>;

export interface MergePlan {
  /** In order: removals and folders before what goes inside them. */
  readonly steps: readonly MergeStep[];
  /** Every change the command made, merged or held, as `git status --short` would name it. */
  readonly changes: readonly FolderChange[];
}

/** True when the entries below `dir` in the upper layer make it a git directory (a new repository's). */
function isNewGitDirectory(dir: string, children: ReadonlySet<string>): boolean {
  const has = (name: string): boolean => children.has(`${dir}/${name}`.toLowerCase());
  return has(GIT_DIRECTORY_MARKER) && (has('objects') || has('refs') || has('config'));
}

/**
 * The plan for one folder's upper layer. A change is held when its path is execution config of the
 * guard's table (at any depth, any letter case), when it lies in a git directory the command created
 * (a new repository, whatever its name), when someone else changed the same entry while the command ran
 * (a conflict is shown, never resolved silently), or when it is neither a file, a folder nor a link.
 * A held change holds everything below it. `approved`: a held change the person chose to merge from
 * its review; it and everything below it are planned as any change is, none held again (but what is
 * neither a file, a folder nor a link, which no merge makes).
 */
export function planMerge(upper: readonly UpperEntry[], lower: LowerFacts, approved?: string): MergePlan {
  const entries = [...upper].sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lowerCase = new Set(entries.map((entry) => entry.path.toLowerCase()));
  const heldRoots: { path: string; why: string }[] = [];
  const heldBelow = (p: string): string | undefined => heldRoots.find((root) => isBelow(p, root.path))?.why;
  const steps: MergeStep[] = [];
  const changes: FolderChange[] = [];
  const linkedTo = new Map<string, string>();
  for (const entry of entries) {
    const before = lower.kindOf(entry.path);
    const status: ChangeStatus = entry.kind === 'whiteout' ? 'D' : before === undefined ? 'A' : 'M';
    if (heldBelow(entry.path) !== undefined) {
      continue; // the held folder's change stands for it
    }
    if (entry.kind === 'directory' && before === 'directory' && !entry.opaque) {
      continue; // a folder the layer holds only for what changed inside it
    }
    const asked = approved !== undefined && (entry.path === approved || isBelow(entry.path, approved));
    const held = asked ? (entry.kind === 'other' ? 'neither a file, a folder nor a link' : undefined) : holdReason(entry, before, lower, lowerCase);
    if (held !== undefined) {
      heldRoots.push({ path: entry.path, why: held });
      changes.push({ path: entry.path, status, held });
      continue;
    }
    switch (entry.kind) {
      case 'whiteout':
        if (before !== undefined) {
          steps.push({ op: 'remove', path: entry.path });
          changes.push({ path: entry.path, status: 'D' });
        }
        break;
      case 'directory':
        // New, or in place of what was there: an opaque folder replaces the old one whole.
        if (before !== undefined) {
          steps.push({ op: 'remove', path: entry.path });
        }
        steps.push({ op: 'mkdir', path: entry.path, ...(entry.mode === undefined ? {} : { mode: entry.mode }) });
        changes.push({ path: entry.path, status });
        break;
      case 'symlink':
        steps.push({ op: 'symlink', path: entry.path, target: entry.target ?? '' });
        changes.push({ path: entry.path, status });
        break;
      case 'file': {
        const first = entry.inode === undefined ? undefined : linkedTo.get(entry.inode);
        if (first !== undefined) {
          steps.push({ op: 'link', path: entry.path, to: first });
        } else {
          if (entry.inode !== undefined) {
            linkedTo.set(entry.inode, entry.path);
          }
          steps.push({ op: 'write', path: entry.path, ...(entry.mode === undefined ? {} : { mode: entry.mode }) });
        }
        changes.push({ path: entry.path, status });
        break;
      }
      default:
        break;
    }
  }
  return { steps, changes };
}

function holdReason(entry: UpperEntry, before: LowerKind, lower: LowerFacts, upperPaths: ReadonlySet<string>): string | undefined {
  const absolute = `/${entry.path}`;
  if (isWorkspaceExecutionConfig(absolute)) {
    return `${whyProtected(absolute)}: execution config is never merged unasked`;
  }
  if (entry.kind === 'directory' && (before === undefined || entry.opaque) && isNewGitDirectory(entry.path.toLowerCase(), upperPaths)) {
    return 'a new repository: git would obey its config and hooks';
  }
  if (entry.kind === 'other') {
    return 'neither a file, a folder nor a link';
  }
  if (before !== undefined && entry.kind !== 'directory' && lower.changedSince(entry.path)) {
    return 'changed in the folder while the command ran: both versions are kept for you to choose';
  }
  if (before !== undefined && lower.unrecorded?.(entry.path)) {
    return 'the command ran without asking, and what it replaces or deletes here is not in the checkpoint before it (ignored, or over the size cap), so Restore could not bring it back';
  }
  return undefined;
}

/** The entries without the sandbox's own mount points (`points`, folder-relative): empty folders bubblewrap made for its binds, not the command's changes. */
export function withoutMountPoints(entries: readonly UpperEntry[], points: ReadonlySet<string>): UpperEntry[] {
  return entries.filter((entry) => !(entry.kind === 'directory' && points.has(entry.path) && !entries.some((other) => other.path.startsWith(`${entry.path}/`))));
}

function depth(p: string): number {
  return p.split('/').length;
}

function isBelow(p: string, root: string): boolean {
  return p.startsWith(`${root}/`);
}

/**
 * The folders of the upper layer that overlayfs made opaque (deleted, then made again: the lower
 * folder's entries are gone from the merged view). Found by what they do, as Node cannot read the
 * attribute that marks them: a folder of both layers is opaque when an entry of the lower folder is
 * missing from the merged view without a whiteout of its own. (A lower folder with no entries is the
 * same either way.) `lowerNames` and `mergedNames` list a folder's entries in each view.
 */
export function opaqueFolders(upper: readonly UpperEntry[], lowerNames: (relative: string) => readonly string[] | undefined, mergedNames: (relative: string) => readonly string[]): Set<string> {
  const whiteouts = new Set(upper.filter((entry) => entry.kind === 'whiteout').map((entry) => entry.path));
  const opaque = new Set<string>();
  for (const entry of upper) {
    if (entry.kind !== 'directory') {
      continue;
    }
    const merged = new Set(mergedNames(entry.path));
    if ((lowerNames(entry.path) ?? []).some((name) => !merged.has(name) && !whiteouts.has(`${entry.path}/${name}`))) {
      opaque.add(entry.path);
    }
  }
  return opaque;
}
