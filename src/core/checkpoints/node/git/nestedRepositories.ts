// The nested repositories of a folder store. A nested repository (a folder with its own `.git`: a
// clone, a submodule's work tree) is a work tree git will not enter from the folder's, so it is
// recorded as a work tree of its own: a private git directory under `nested/` (the same config, its
// own index and HEAD) over the folder store's objects, `GIT_WORK_TREE` at its root. Its tree is
// grafted into the folder's at its path (ls-tree and mktree along the paths only), so a checkpoint
// is still one commit and diffs and restores see its files as any others. A folder without nested
// repositories costs nothing more; each nested one costs a `git status` of its own files.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { joinNul, PRIVATE_ATTRIBUTES, splitNul, storeEnvironment } from './gitRunner';

/** How deep nested repositories inside nested repositories are followed. */
export const MAX_NESTING = 8;
/** The folder of the store that holds the nested repositories' indexes and exclude files. */
export const NESTED_FOLDER = 'nested';
/** Refs of the folder store that keep each nested repository's private HEAD from pruning. */
const NESTED_REF_PREFIX = 'refs/nested/';

/** What one checkpoint writes into the private index and drops from it, and what it noted. */
export interface Staging {
  readonly update: Buffer[];
  /** The size of each path of `update` (progress of a build is counted in bytes hashed). */
  readonly updateBytes: number[];
  readonly forget: Buffer[];
  /** Nested repositories' roots, relative to the work tree. */
  readonly nested: Buffer[];
}

/** A work tree the store records: the folder (empty prefix), or a nested repository at `prefix` (ending in `/`). */
export interface WorkTree {
  readonly prefix: Buffer;
  readonly env: Record<string, string>;
  /** The exclude file of this work tree (files.exclude re-rooted at it). */
  readonly excludesFile: string;
  /** A nested repository's own private git directory (its index and HEAD; objects are the folder store's), and its name there. */
  readonly nested?: { readonly gitDir: string; readonly key: string };
}

/** A work tree whose private index is up to date, and the nested repositories inside it. */
export interface RecordedTree {
  readonly tree: WorkTree;
  readonly staging: Staging;
  readonly children: readonly { readonly root: Buffer; readonly recorded: RecordedTree }[];
}

/** The folder store as the nested repositories use it: its folder, its private repository, git run one call at a time. */
interface NestingStore {
  readonly folder: string;
  readonly gitDir: string;
  git(args: readonly string[], input?: Buffer, okCodes?: readonly number[], env?: Record<string, string>): Promise<Buffer>;
}

export function hasChanges(recorded: RecordedTree): boolean {
  return recorded.staging.update.length > 0 || recorded.staging.forget.length > 0 || recorded.children.some((child) => hasChanges(child.recorded));
}

/** Every nested repository's path in the folder, as one string to compare. */
export function nestedRootsOf(recorded: RecordedTree): string {
  return recorded.children.map((child) => `${child.recorded.tree.prefix.toString('latin1')}\0${nestedRootsOf(child.recorded)}`).join('');
}

/** A relative path's components. */
function splitPath(rawPath: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= rawPath.length; i += 1) {
    if (i === rawPath.length || rawPath[i] === 0x2f) {
      parts.push(rawPath.subarray(start, i));
      start = i + 1;
    }
  }
  return parts;
}

/** One folder store's nested repositories: their private git directories, HEADs and grafted trees, as this window last wrote them. */
export class NestedRepositories {
  constructor(private readonly store: NestingStore) {}

  /**
   * A nested repository at `prefix` as a work tree with a private git directory of its own (config,
   * index, HEAD: its status compares with its own last tree, not the whole folder's) whose objects
   * are the folder store's; undefined when its path cannot be passed to git (not UTF-8).
   */
  nestedTree(prefix: Buffer): WorkTree | undefined {
    const relative = prefix.toString('utf8');
    if (!Buffer.from(relative).equals(prefix)) {
      return undefined;
    }
    const key = createHash('sha256').update(prefix).digest('hex').slice(0, 16);
    const gitDir = path.join(this.store.gitDir, NESTED_FOLDER, key);
    if (!this.preparedNested.has(key)) {
      fs.mkdirSync(path.join(gitDir, 'refs'), { recursive: true });
      fs.mkdirSync(path.join(gitDir, 'info'), { recursive: true });
      fs.copyFileSync(path.join(this.store.gitDir, 'config'), path.join(gitDir, 'config'));
      fs.writeFileSync(path.join(gitDir, 'info', 'attributes'), PRIVATE_ATTRIBUTES);
      fs.writeFileSync(path.join(gitDir, 'info', 'exclude'), '');
      if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
        fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/checkpoint\n');
      }
      this.preparedNested.add(key);
    }
    return {
      prefix,
      env: { ...storeEnvironment(gitDir, path.join(this.store.folder, relative)), GIT_OBJECT_DIRECTORY: path.join(this.store.gitDir, 'objects') },
      excludesFile: path.join(gitDir, 'exclude-folder'),
      nested: { gitDir, key },
    };
  }

  private readonly preparedNested = new Set<string>();
  /** Per nested repository, the tree its private HEAD holds (as this window last wrote it). */
  private readonly nestedHeads = new Map<string, string>();

  /** Makes a nested repository's private HEAD its index's tree, kept from pruning by a ref of the folder store. */
  private async moveNestedHead(tree: WorkTree, own: string): Promise<void> {
    if (!tree.nested || this.nestedHeads.get(tree.nested.key) === own) {
      return;
    }
    const commit = (await this.store.git(['commit-tree', own, '-m', 'nested repository'], undefined, [0], tree.env)).toString('utf8').trim();
    await this.store.git(['update-ref', `${NESTED_REF_PREFIX}${tree.nested.key}`, commit]);
    fs.writeFileSync(path.join(tree.nested.gitDir, 'HEAD'), `${commit}\n`);
    this.nestedHeads.set(tree.nested.key, own);
  }

  /** The work tree's index as a tree, with the trees of the nested repositories it holds grafted in at their paths. */
  async treeOf(recorded: RecordedTree): Promise<string> {
    const nested = recorded.tree.nested;
    const roots = nestedRootsOf(recorded);
    const cached = nested && this.nestedTrees.get(nested.key);
    // A nested repository whose index and nested repositories did not change since this window wrote its tree.
    if (cached && cached.roots === roots && !hasChanges(recorded)) {
      return cached.tree;
    }
    const written = (await this.store.git(['write-tree'], undefined, [0], recorded.tree.env)).toString('utf8').trim();
    await this.moveNestedHead(recorded.tree, written);
    const grafts: { parts: Buffer[]; child: string }[] = [];
    const empty = await this.emptyTree();
    for (const { root, recorded: child } of recorded.children) {
      const childTree = await this.treeOf(child);
      // A repository without recorded files is an empty folder to git: no entry.
      if (childTree !== empty) {
        grafts.push({ parts: splitPath(root), child: childTree });
      }
    }
    const tree = grafts.length ? await this.graft(written, grafts) : written;
    if (nested) {
      this.nestedTrees.set(nested.key, { roots, tree });
    }
    return tree;
  }

  /** Per nested repository, its tree with its own nested repositories grafted in, as this window last wrote it. */
  private readonly nestedTrees = new Map<string, { readonly roots: string; readonly tree: string }>();

  private emptyTreeId: string | undefined;

  private async emptyTree(): Promise<string> {
    this.emptyTreeId ??= (await this.store.git(['mktree', '-z'], Buffer.alloc(0))).toString('utf8').trim();
    return this.emptyTreeId;
  }

  /**
   * `tree` with each child tree at its path (replacing whatever was there), rewriting only the trees
   * along those paths: one ls-tree and one mktree per tree rewritten, however many children it gets.
   */
  private async graft(tree: string | undefined, grafts: readonly { readonly parts: readonly Buffer[]; readonly child: string }[]): Promise<string> {
    const byName = new Map<string, { name: Buffer; child?: string; deeper: { parts: readonly Buffer[]; child: string }[] }>();
    for (const { parts, child } of grafts) {
      const [name, ...rest] = parts;
      const key = name.toString('latin1');
      const group = byName.get(key) ?? { name, deeper: [] };
      if (rest.length) {
        group.deeper.push({ parts: rest, child });
      } else {
        group.child = child;
      }
      byName.set(key, group);
    }
    const entries = tree ? splitNul(await this.store.git(['ls-tree', '-z', tree])) : [];
    const existing = new Map<string, string>();
    const kept = entries.filter((line) => {
      const tab = line.indexOf(0x09);
      const key = line.subarray(tab + 1).toString('latin1');
      if (!byName.has(key)) {
        return true;
      }
      const [, type, sha] = line.subarray(0, tab).toString('latin1').split(' ');
      if (type === 'tree') {
        existing.set(key, sha);
      }
      return false;
    });
    const added: Buffer[] = [];
    for (const [key, group] of byName) {
      // A nested repository inside another one is grafted into that one's tree already (treeOf); here only paths of this tree.
      const sub = group.child ?? (await this.graft(existing.get(key), group.deeper));
      added.push(Buffer.concat([Buffer.from(`040000 tree ${sub}\t`), group.name]));
    }
    return (await this.store.git(['mktree', '-z'], joinNul([...kept, ...added]))).toString('utf8').trim();
  }
}
