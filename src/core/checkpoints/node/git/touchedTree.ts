// A checkpoint of the paths a change touched (a staged command's "after") without the private
// index: the touched paths' files as a whole record would take them (git lists the files that are
// not ignored, with the folder's excludes; statusPaths.ts gives each verdict, mode and size), their
// blobs written by one `hash-object`, and only the trees along the touched paths rebuilt from the
// last state's (one `cat-file --batch` reads them, one `mktree --batch` writes them). O(changed
// files), where the index costs O(tree) to read and write. The index then lags HEAD at those paths:
// `indexInfo` brings it up to date later, off the command's path (folderStore.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckpointLimits } from '../../../ports/checkpoints';
import { splitNul, TreeWriter } from './gitRunner';
import type { RecordedTree, WorkTree } from './nestedRepositories';
import { StatusPaths, type RecordedMode } from './statusPaths';

/** The folder store as the touched tree uses it: its folder, its private repository, git run one call at a time. */
interface TreeStore {
  readonly folder: string;
  readonly gitDir: string;
  git(args: readonly string[], input?: Buffer, okCodes?: readonly number[], env?: Record<string, string>): Promise<Buffer>;
}

/** What the touched paths hold now, as a state's tree. */
export interface TouchedTree {
  /** The new root tree; undefined when the touched paths hold what `head` holds. */
  readonly tree: string | undefined;
  /** Bytes of the files recorded anew. */
  readonly addedBytes: number;
  readonly notes: string[];
  /** `update-index -z --index-info` input that makes the private index hold the new tree at the touched paths. */
  readonly indexInfo: Buffer;
}

interface Leaf {
  readonly mode: string;
  readonly type: string;
  readonly id: string;
}

/** A folder of the new tree: its entries by name (latin1 keys), each a leaf as recorded or a folder rebuilt. */
interface Folder {
  readonly entries: Map<string, { readonly name: Buffer; readonly value: Leaf | Folder }>;
}

const isFolder = (value: Leaf | Folder): value is Folder => 'entries' in value;

/** True when `rawPath` is `root` or lies below it (both relative, without a trailing slash). */
function atOrBelow(rawPath: Buffer, root: Buffer): boolean {
  return rawPath.equals(root) || (rawPath.length > root.length && rawPath[root.length] === 0x2f && rawPath.subarray(0, root.length).equals(root));
}

/** The folders above a relative path, outermost first (not the root). */
function foldersAbove(rawPath: Buffer): Buffer[] {
  const folders: Buffer[] = [];
  for (let i = 0; i < rawPath.length; i += 1) {
    if (rawPath[i] === 0x2f) {
      folders.push(rawPath.subarray(0, i));
    }
  }
  return folders;
}

/** A tree object's entries (`<mode> <name>\0<id bytes>` each) as leaves by name. */
function treeEntries(body: Buffer, idBytes: number): Map<string, { name: Buffer; value: Leaf }> {
  const entries = new Map<string, { name: Buffer; value: Leaf }>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space);
    const mode = body.subarray(at, space).toString('latin1').padStart(6, '0');
    const name = body.subarray(space + 1, nul);
    const id = body.subarray(nul + 1, nul + 1 + idBytes).toString('hex');
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.set(name.toString('latin1'), { name, value: { mode, type, id } });
    at = nul + 1 + idBytes;
  }
  return entries;
}

/**
 * The tree of `head` with the touched `paths` (outermost, relative to the work tree) as the folder
 * holds them now; undefined when this way cannot record them exactly as a whole record would (a
 * nested repository at, above or below one, a folder along one that is no longer a real folder, a
 * name with a newline, a total over the cap): the caller records them through the index then.
 */
export async function touchedTree(store: TreeStore, tree: WorkTree, head: string, paths: readonly Buffer[], last: RecordedTree, limits: CheckpointLimits): Promise<TouchedTree | undefined> {
  if (process.platform === 'win32' || store.folder.includes('\n') || paths.some((p) => p.includes(0x0a))) {
    return undefined;
  }
  const base = Buffer.from(store.folder.endsWith('/') ? store.folder : `${store.folder}/`);
  if (paths.some((p) => last.children.some((child) => atOrBelow(p, child.root) || atOrBelow(child.root, p)))) {
    return undefined;
  }
  const above = new Map<string, Buffer>();
  for (const p of paths) {
    for (const folder of foldersAbove(p)) {
      above.set(folder.toString('latin1'), folder);
    }
  }
  // A folder along a touched path that is now a link or a file: a whole record would drop what HEAD holds below it.
  for (const folder of above.values()) {
    try {
      if (!fs.lstatSync(Buffer.concat([base, folder])).isDirectory()) {
        return undefined;
      }
    } catch {
      return undefined;
    }
  }
  const literal = paths.map((p) => p.toString('utf8'));
  // An index that does not exist: git lists every file at the paths that is not ignored, as a whole record's status would name an untracked one.
  const emptyIndex = path.join(store.gitDir, 'touched-index');
  fs.rmSync(emptyIndex, { force: true });
  const folders = [Buffer.alloc(0), ...above.values()];
  const [listed, recorded, trees] = await Promise.all([
    store.git(['--literal-pathspecs', '-c', `core.excludesFile=${tree.excludesFile}`, 'ls-files', '-o', '-z', '--exclude-standard', '--', ...literal], undefined, [0], { ...tree.env, GIT_INDEX_FILE: emptyIndex }),
    store.git(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', head, '--', ...literal]),
    store.git(['cat-file', '--batch'], Buffer.concat(folders.map((folder) => Buffer.concat([Buffer.from(`${head}:`), folder, Buffer.from('\n')])))),
  ]);
  // What HEAD holds at the touched paths.
  const old = new Map<string, { rawPath: Buffer; leaf: Leaf }>();
  for (const line of splitNul(recorded)) {
    const tab = line.indexOf(0x09);
    const rawPath = line.subarray(tab + 1);
    const [mode, type, id] = line.subarray(0, tab).toString('latin1').split(' ');
    if (paths.some((p) => atOrBelow(rawPath, p))) {
      old.set(rawPath.toString('latin1'), { rawPath, leaf: { mode, type, id } });
    }
  }
  // What a whole record would record there now: files git lists (not ignored), and files HEAD holds (a recorded file stays recorded while it is there, ignored or not).
  const candidates = new Map<string, Buffer>();
  for (const rawPath of splitNul(listed)) {
    // A nested repository (git names it with a trailing slash), or a name git cannot be given on a line.
    if (rawPath[rawPath.length - 1] === 0x2f || rawPath.includes(0x0a)) {
      return undefined;
    }
    candidates.set(rawPath.toString('latin1'), rawPath);
  }
  for (const [key, entry] of old) {
    if (entry.leaf.type !== 'blob' || entry.rawPath.includes(0x0a)) {
      return undefined;
    }
    candidates.set(key, entry.rawPath);
  }
  const verdicts = new StatusPaths(store.folder, limits.maxFileBytes, tree.prefix);
  const kept: { rawPath: Buffer; mode: RecordedMode; bytes: number }[] = [];
  const notes: string[] = [];
  for (const rawPath of candidates.values()) {
    const verdict = verdicts.verdict(rawPath);
    if (verdict.record === true) {
      kept.push({ rawPath, mode: verdict.mode, bytes: verdict.bytes });
    } else if (verdict.record === 'nested') {
      return undefined;
    } else if (verdict.note) {
      notes.push(verdict.note);
    }
  }
  if (kept.reduce((sum, file) => sum + file.bytes, 0) > limits.maxTotalBytes) {
    return undefined;
  }
  const ids = await hashFiles(store, base, kept);
  const now = new Map(kept.map((file, i) => [file.rawPath.toString('latin1'), { rawPath: file.rawPath, leaf: { mode: file.mode, type: 'blob', id: ids[i] } }]));
  let addedBytes = 0;
  for (const [i, file] of kept.entries()) {
    const before = old.get(file.rawPath.toString('latin1'))?.leaf;
    addedBytes += before?.id === ids[i] && before.mode === file.mode ? 0 : file.bytes;
  }
  const removed = [...old.keys()].filter((key) => !now.has(key));
  const changed = removed.length > 0 || [...now].some(([key, entry]) => old.get(key)?.leaf.id !== entry.leaf.id || old.get(key)?.leaf.mode !== entry.leaf.mode);
  const indexInfo = Buffer.concat([
    ...removed.map((key) => Buffer.concat([Buffer.from(`0 ${'0'.repeat(head.length)}\t`), old.get(key)?.rawPath ?? Buffer.alloc(0), Buffer.from([0])])),
    ...[...now.values()].map((entry) => Buffer.concat([Buffer.from(`${entry.leaf.mode} ${entry.leaf.id}\t`), entry.rawPath, Buffer.from([0])])),
  ]);
  if (!changed) {
    return { tree: undefined, addedBytes: 0, notes, indexInfo };
  }
  const root = seededFolders(folders, trees, head.length / 2);
  for (const p of paths) {
    folderOf(root, p).entries.delete(lastName(p).toString('latin1'));
  }
  for (const entry of now.values()) {
    const name = lastName(entry.rawPath);
    folderOf(root, entry.rawPath).entries.set(name.toString('latin1'), { name, value: entry.leaf });
  }
  const writer = new TreeWriter(tree.env, store.gitDir);
  try {
    return { tree: await writeFolder(writer, root, true), addedBytes, notes, indexInfo };
  } finally {
    writer.end();
  }
}

function lastName(rawPath: Buffer): Buffer {
  return rawPath.subarray(rawPath.lastIndexOf(0x2f) + 1);
}

/**
 * The root folder and the folders above the touched paths, each seeded with its entries in HEAD
 * (`cat-file --batch` output, one object per folder asked, in order); a folder HEAD does not hold
 * as a tree starts empty.
 */
function seededFolders(folders: readonly Buffer[], output: Buffer, idBytes: number): Folder {
  const seeded = new Map<string, Folder>();
  let at = 0;
  for (const folder of folders) {
    const end = output.indexOf(0x0a, at);
    // `<id> <type> <size>` and the object, or `<name> missing` (a name may hold spaces).
    const header = /^[0-9a-f]+ (\w+) (\d+)$/.exec(output.subarray(at, end).toString('latin1'));
    at = end + 1;
    let entries = new Map<string, { name: Buffer; value: Leaf | Folder }>();
    if (header) {
      if (header[1] === 'tree') {
        entries = treeEntries(output.subarray(at, at + Number(header[2])), idBytes);
      }
      at += Number(header[2]) + 1;
    }
    seeded.set(folder.toString('latin1'), { entries });
  }
  const root = seeded.get('') ?? { entries: new Map() };
  // Each seeded folder hangs in its parent in place of HEAD's entry.
  for (const folder of folders) {
    if (folder.length) {
      const parent = seeded.get(folder.subarray(0, Math.max(0, folder.lastIndexOf(0x2f))).toString('latin1')) ?? root;
      const name = lastName(folder);
      parent.entries.set(name.toString('latin1'), { name, value: seeded.get(folder.toString('latin1')) ?? { entries: new Map() } });
    }
  }
  return root;
}

/** The folder of the new tree that holds `rawPath`, made (empty) where missing or where HEAD had a file. */
function folderOf(root: Folder, rawPath: Buffer): Folder {
  let folder = root;
  for (const part of foldersAbove(rawPath)) {
    const name = lastName(part);
    const key = name.toString('latin1');
    const existing = folder.entries.get(key)?.value;
    if (existing && isFolder(existing)) {
      folder = existing;
      continue;
    }
    const made: Folder = { entries: new Map() };
    folder.entries.set(key, { name, value: made });
    folder = made;
  }
  return folder;
}

/** Writes a rebuilt folder's tree, the folders below it first; a folder left without entries has none (git has no empty trees). */
async function writeFolder(writer: TreeWriter, folder: Folder, root = false): Promise<string | undefined> {
  const lines: Buffer[] = [];
  for (const { name, value } of folder.entries.values()) {
    const leaf = isFolder(value) ? await writeFolder(writer, value).then((id) => (id ? { mode: '040000', type: 'tree', id } : undefined)) : value;
    if (leaf) {
      lines.push(Buffer.concat([Buffer.from(`${leaf.mode} ${leaf.type} ${leaf.id}\t`), name]));
    }
  }
  return lines.length || root ? writer.write(lines) : undefined;
}

/** The blobs of the files (a link's blob is its target), written by one `hash-object`, in order. */
async function hashFiles(store: TreeStore, base: Buffer, files: readonly { rawPath: Buffer; mode: RecordedMode }[]): Promise<string[]> {
  if (files.length === 0) {
    return [];
  }
  const links = path.join(store.gitDir, 'touched-links');
  fs.rmSync(links, { recursive: true, force: true });
  try {
    const input = files.map((file, i) => {
      const absolute = Buffer.concat([base, file.rawPath]);
      if (file.mode !== '120000') {
        return absolute;
      }
      fs.mkdirSync(links, { recursive: true, mode: 0o700 });
      const target = path.join(links, String(i));
      fs.writeFileSync(target, fs.readlinkSync(absolute, { encoding: 'buffer' }));
      return Buffer.from(target);
    });
    const ids = (await store.git(['hash-object', '-w', '--no-filters', '--stdin-paths'], Buffer.concat(input.flatMap((line) => [line, Buffer.from('\n')])))).toString('latin1').split('\n').filter(Boolean);
    if (ids.length !== files.length) {
      throw new Error(`git hash-object gave ${ids.length} ids for ${files.length} files`);
    }
    return ids;
  } finally {
    fs.rmSync(links, { recursive: true, force: true });
  }
}
