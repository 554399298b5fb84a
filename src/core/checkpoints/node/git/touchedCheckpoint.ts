// A checkpoint of the paths a change touched (a staged command's "after") without the private
// index: O(changed files), where the index costs O(tree) to read and write. Which files a whole
// record would take there is git's answer (`check-ignore` of the files, with the folder's excludes
// and no index; `ls-files` against an index that does not exist where a path is a folder now; what
// HEAD holds there, recorded files staying recorded while they are there) and statusPaths.ts's
// verdicts (size cap, kind, mode). One `git fast-import` first says what HEAD holds at the paths
// (its `ls`; `ls-tree` only below a path that is a folder in HEAD), then writes their blobs, the
// commit of HEAD's tree with the touched paths replaced (it rebuilds only the trees along them),
// HEAD and the checkpoint's ref, and says the ids. Each process start blocks the extension host
// for milliseconds, so the store starts fast-import and check-ignore ahead (folderStore.ts), and
// fast-import keeps its pack rather than starting `unpack-objects` (storePacks.ts rolls such packs
// up, off the path). The index then lags HEAD at those paths: `indexInfo` brings it up to date at
// the next record (folderStore.ts).
import * as fs from 'node:fs';
import type { CheckpointLimits } from '../../../ports/checkpoints';
import { splitNul, treeEntryOf, type GitConversation } from './gitRunner';
import type { RecordedTree, WorkTree } from './nestedRepositories';
import { isBelow, outermostPaths, StatusPaths, type RecordedMode } from './statusPaths';

/** Above this many bytes to record, the touched paths go through the index (fast-import takes them on its input). */
const MAX_TOUCHED_BYTES = 64 * 1024 * 1024;

/** The folder store as the touched tree uses it: its folder, its private repository, git run one call at a time. */
interface TreeStore {
  readonly folder: string;
  git(args: readonly string[], input?: Buffer, okCodes?: readonly number[], env?: Record<string, string>): Promise<Buffer>;
  /** A fast-import for the checkpoint, run with importArgs(keepPack): one started ahead, or started now. */
  importer(keepPack: boolean): GitConversation;
  /** A `check-ignore` of the work tree, run with checkIgnoreArgs and noIndexEnv: one started ahead, or started now. */
  ignoreChecker(): GitConversation;
}

/** fast-import as the touched checkpoint runs it: its pack kept, never unpacked (storePacks.ts), or unpacked as git does by default. */
export function importArgs(keepPack: boolean): string[] {
  return [...(keepPack ? ['-c', 'fastimport.unpackLimit=0'] : []), 'fast-import', '--quiet', '--force'];
}

/** The checkpoint of the touched paths: written, HEAD and its ref moved. */
export interface TouchedCheckpoint {
  readonly state: string;
  /** The state's tree (the next touched checkpoint starts from it). */
  readonly tree: string;
  /** Bytes of the files recorded anew. */
  readonly addedBytes: number;
  readonly notes: string[];
  /** `update-index -z --index-info` input that makes the private index hold the state's entries at the touched paths. */
  readonly indexInfo: Buffer;
}

/** What HEAD holds at one path. */
interface Recorded {
  readonly mode: string;
  readonly type: string;
  readonly id: string;
}

/** True when `rawPath` is `root` or lies below it (both relative, without a trailing slash). */
function atOrBelow(rawPath: Buffer, root: Buffer): boolean {
  return rawPath.equals(root) || isBelow(rawPath, root);
}

/** A path as fast-import reads one: C-style quoted, so any byte (a newline, a name that is not UTF-8) is given exactly. */
function quoted(rawPath: Buffer): string {
  let text = '"';
  for (const byte of rawPath) {
    text += byte === 0x22 ? '\\"' : byte === 0x5c ? '\\\\' : byte < 0x20 || byte >= 0x7f ? `\\${byte.toString(8).padStart(3, '0')}` : String.fromCharCode(byte);
  }
  return `${text}"`;
}

/** A file's bytes, or a link's target; never through a link at its last component (it was a file when looked at). */
function contentOf(absolute: Buffer, mode: RecordedMode): Buffer {
  if (mode === '120000') {
    return fs.readlinkSync(absolute, { encoding: 'buffer' });
  }
  const fd = fs.openSync(absolute, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    if (!fs.fstatSync(fd).isFile()) {
      throw new Error('no longer a file');
    }
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Fields check-ignore says per path (`-v -n -z`): source, line, pattern, path. */
const CHECK_IGNORE_FIELDS = 4;

/** Arguments of the `check-ignore` that says which files a touched checkpoint leaves out (started ahead by the store). */
export function checkIgnoreArgs(tree: WorkTree): string[] {
  // No --literal-pathspecs (check-ignore refuses pathspec magic): each path is given as `./path`, so a
  // leading `:` is never read as magic, and it takes no path as a pattern.
  return ['-c', `core.excludesFile=${tree.excludesFile}`, 'check-ignore', '--no-index', '-z', '--stdin', '-v', '-n'];
}

/** The environment of a run against an index that does not exist (every file untracked, as for a folder never recorded). */
export function noIndexEnv(tree: WorkTree): Record<string, string> {
  return { ...tree.env, GIT_INDEX_FILE: `${tree.env.GIT_INDEX_FILE}-none` };
}

/**
 * The files at and below `paths` a whole record's `git status` would name untracked: there, not
 * ignored by git's own rules (the folder's .gitignore files and excludes, an ignored folder along
 * the way), never in a `.git` folder. Where a path is a folder now, `ls-files` against an index that
 * does not exist walks it; files alone are asked of `check-ignore`, started ahead, so no process
 * starts on the command's path. Undefined when one lies in a repository of its own (a new one: the
 * index way records it).
 */
async function untrackedAt(store: TreeStore, tree: WorkTree, paths: readonly Buffer[], base: Buffer): Promise<Buffer[] | undefined> {
  const files: Buffer[] = [];
  for (const rawPath of paths) {
    const stat = fs.lstatSync(Buffer.concat([base, rawPath]), { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      const listed = splitNul(await store.git(['--literal-pathspecs', '-c', `core.excludesFile=${tree.excludesFile}`, 'ls-files', '-o', '-z', '--exclude-standard', '--', ...paths.map((p) => p.toString('utf8'))], undefined, [0], noIndexEnv(tree)));
      // A nested repository: git names it with a trailing slash.
      return listed.some((p) => p[p.length - 1] === 0x2f) ? undefined : listed;
    }
    // git's walk never enters a `.git`, the folder's own repository included.
    if (stat && !rawPath.toString('latin1').split('/').includes('.git')) {
      files.push(rawPath);
    }
  }
  if (files.some((rawPath) => inRepositoryOfItsOwn(base, rawPath))) {
    return undefined;
  }
  if (files.length === 0) {
    return [];
  }
  const asked = files.map((rawPath) => Buffer.concat([Buffer.from('./'), rawPath]));
  const checker = store.ignoreChecker();
  checker.write(Buffer.concat(asked.flatMap((rawPath) => [rawPath, Buffer.from([0])])));
  const said = await checker.lines(files.length * CHECK_IGNORE_FIELDS, 0);
  void checker.end().catch(() => undefined);
  return files.filter((rawPath, i) => {
    const [pattern, named] = said.slice(i * CHECK_IGNORE_FIELDS + 2, (i + 1) * CHECK_IGNORE_FIELDS);
    if (!named.equals(asked[i])) {
      throw new Error(`git check-ignore answered for ${named.toString('utf8')} where ${rawPath.toString('utf8')} was asked`);
    }
    // No pattern: not ignored; a pattern with `!`: ignored, then taken back.
    return pattern.length === 0 || pattern[0] === 0x21;
  });
}

/** True when a folder along `rawPath` (below the work tree's root) holds a `.git`: git would take it as a repository of its own. */
function inRepositoryOfItsOwn(base: Buffer, rawPath: Buffer): boolean {
  for (let slash = rawPath.indexOf(0x2f); slash >= 0; slash = rawPath.indexOf(0x2f, slash + 1)) {
    if (fs.existsSync(Buffer.concat([base, rawPath.subarray(0, slash), Buffer.from('/.git')]))) {
      return true;
    }
  }
  return false;
}

/**
 * What HEAD holds at and below the paths, from fast-import's answers to `ls` (one per path, in
 * order): a file there as it says; below a folder, `ls-tree`'s listing. Undefined when something
 * there is neither a file nor a folder (a submodule's commit): the index way records it then.
 */
async function recordedAt(store: TreeStore, commit: string, paths: readonly Buffer[], answers: readonly Buffer[]): Promise<Map<string, { rawPath: Buffer; recorded: Recorded }> | undefined> {
  const old = new Map<string, { rawPath: Buffer; recorded: Recorded }>();
  const folders: Buffer[] = [];
  for (const [i, answer] of answers.entries()) {
    if (answer.subarray(0, 8).equals(Buffer.from('missing '))) {
      continue;
    }
    // The path in an answer is quoted: the one asked is used.
    const entry = treeEntryOf(answer);
    if (entry?.type === 'tree') {
      folders.push(paths[i]);
    } else if (entry?.type === 'blob' && /^[0-9a-f]{40,64}$/.test(entry.id)) {
      old.set(paths[i].toString('latin1'), { rawPath: paths[i], recorded: { mode: entry.mode, type: entry.type, id: entry.id } });
    } else {
      return undefined;
    }
  }
  if (folders.length === 0) {
    return old;
  }
  const listed = await store.git(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', commit, '--', ...folders.map((p) => p.toString('utf8'))]);
  for (const entry of splitNul(listed).map(treeEntryOf)) {
    if (entry && folders.some((p) => isBelow(entry.rawPath, p))) {
      if (entry.type !== 'blob') {
        return undefined;
      }
      old.set(entry.rawPath.toString('latin1'), { rawPath: entry.rawPath, recorded: { mode: entry.mode, type: entry.type, id: entry.id } });
    }
  }
  return old;
}

/**
 * Records the `touched` paths (outermost, relative to the work tree) on top of `head` (a commit and
 * its tree) as a new state, HEAD and `ref` moved to it. A folder along one that is no longer a real
 * folder (a link, a file, gone) is recorded in its place. Undefined when this way cannot record
 * them exactly as a whole record would, having written nothing (a nested repository at, above or
 * below one, too many bytes): the caller records them through the index then.
 */
export async function touchedCheckpoint(store: TreeStore, tree: WorkTree, head: { readonly commit: string; readonly tree: string }, touched: readonly Buffer[], last: RecordedTree, limits: CheckpointLimits, ref: string, message: string, keepPack = true): Promise<TouchedCheckpoint | undefined> {
  if (process.platform === 'win32' || touched.length === 0) {
    return undefined;
  }
  const verdicts = new StatusPaths(store.folder, limits.maxFileBytes, tree.prefix);
  // A folder along a touched path that is now a link or a file (or gone): that folder is the touched path, as a whole record sees it.
  const paths = outermostPaths(touched.map((p) => verdicts.outermostUnreal(p) ?? p));
  if (paths.some((p) => last.children.some((child) => atOrBelow(p, child.root) || atOrBelow(child.root, p)))) {
    return undefined;
  }
  fs.rmSync(noIndexEnv(tree).GIT_INDEX_FILE, { force: true });
  // --force: the new commit has no parent (a pruned checkpoint frees its objects), so it never fast-forwards HEAD.
  const importer = store.importer(keepPack);
  importer.write(Buffer.from(`feature done\n${paths.map((p) => `ls ${head.tree} ${quoted(p)}\n`).join('')}`));
  let taken: TouchedCheckpoint | undefined;
  try {
    taken = await importTouched(store, importer, tree, head, paths, verdicts, limits, ref, message);
    return taken;
  } finally {
    if (!taken) {
      // Nothing written (a fast-import told `done` before any commit moves no ref), or its input already ended.
      await importer.end(Buffer.from('done\n')).catch(() => undefined);
    }
  }
}

/** touchedCheckpoint once fast-import was started and asked what HEAD holds at `paths`; undefined as there, fast-import's input left open. */
async function importTouched(store: TreeStore, importer: GitConversation, tree: WorkTree, head: { readonly commit: string; readonly tree: string }, paths: readonly Buffer[], verdicts: StatusPaths, limits: CheckpointLimits, ref: string, message: string): Promise<TouchedCheckpoint | undefined> {
  const base = Buffer.from(store.folder.endsWith('/') ? store.folder : `${store.folder}/`);
  const [listed, old] = await Promise.all([untrackedAt(store, tree, paths, base), importer.lines(paths.length).then((answers) => recordedAt(store, head.commit, paths, answers))]);
  if (!listed || !old) {
    return undefined;
  }
  // What a whole record takes there now: the files git names untracked, and the files HEAD holds while they are there (ignored or not).
  const candidates = new Map<string, Buffer>();
  for (const rawPath of listed) {
    candidates.set(rawPath.toString('latin1'), rawPath);
  }
  for (const [key, entry] of old) {
    candidates.set(key, entry.rawPath);
  }
  const files: { rawPath: Buffer; mode: RecordedMode; content: Buffer }[] = [];
  const notes: string[] = [];
  let bytes = 0;
  for (const rawPath of candidates.values()) {
    const verdict = verdicts.verdict(rawPath);
    if (verdict.record === 'nested') {
      return undefined;
    }
    if (verdict.record === false) {
      if (verdict.note) {
        notes.push(verdict.note);
      }
      continue;
    }
    bytes += verdict.bytes;
    if (bytes > MAX_TOUCHED_BYTES || bytes > limits.maxTotalBytes) {
      return undefined;
    }
    files.push({ rawPath, mode: verdict.mode, content: contentOf(Buffer.concat([base, rawPath]), verdict.mode) });
  }
  const env = tree.env;
  const input: Buffer[] = [];
  for (const [i, file] of files.entries()) {
    input.push(Buffer.from(`blob\nmark :${i + 2}\ndata ${file.content.length}\n`), file.content, Buffer.from('\n'));
  }
  const text = Buffer.from(`${message}\n`);
  input.push(
    Buffer.from(`commit HEAD\nmark :1\ncommitter ${env.GIT_COMMITTER_NAME} <${env.GIT_COMMITTER_EMAIL}> ${Math.floor(Date.now() / 1000)} +0000\ndata ${text.length}\n`),
    text,
    Buffer.from(`M 040000 ${head.tree} ""\n`),
    ...paths.map((p) => Buffer.from(`D ${quoted(p)}\n`)),
    ...files.map((file, i) => Buffer.from(`M ${file.mode} :${i + 2} ${quoted(file.rawPath)}\n`)),
    // `checkpoint` writes the pack, HEAD and the ref before the answers that follow it: once they are
    // read the checkpoint is on disk, and fast-import's exit (its teardown is milliseconds) is not waited for.
    Buffer.from(`\nreset ${ref}\nfrom :1\n\ncheckpoint\n\nget-mark :1\nls :1 ""\n`),
    ...files.map((_, i) => Buffer.from(`get-mark :${i + 2}\n`)),
    Buffer.from('done\n'),
  );
  const ended = importer.end(Buffer.concat(input));
  const said = (
    await importer.lines(2 + files.length).catch(async (error: unknown) => {
    const run = await ended.catch(() => undefined);
      throw new Error(`git fast-import failed in the checkpoint store of ${store.folder}${run ? ` (exit ${run.code}): ${run.stderr.trim()}` : `: ${String(error)}`}`);
    })
  ).map((line) => line.toString('latin1'));
  const state = said[0];
  const newTree = /^040000 tree ([0-9a-f]+)\t/.exec(said[1] ?? '')?.[1];
  const ids = said.slice(2, 2 + files.length);
  if (!/^[0-9a-f]{40,64}$/.test(state) || !newTree || ids.length !== files.length || !ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) {
    throw new Error(`git fast-import answered unexpectedly in the checkpoint store of ${store.folder}: ${said.slice(0, 3).join(' | ')}`);
  }
  let addedBytes = 0;
  const now = new Set<string>();
  const info: Buffer[] = [];
  for (const [i, file] of files.entries()) {
    const key = file.rawPath.toString('latin1');
    now.add(key);
    const before = old.get(key)?.recorded;
    addedBytes += before?.id === ids[i] && before.mode === file.mode ? 0 : file.content.length;
    info.push(Buffer.concat([Buffer.from(`${file.mode} ${ids[i]}\t`), file.rawPath, Buffer.from([0])]));
  }
  const removed = [...old].filter(([key]) => !now.has(key)).map(([, entry]) => Buffer.concat([Buffer.from(`0 ${'0'.repeat(state.length)}\t`), entry.rawPath, Buffer.from([0])]));
  return { state, tree: newTree, addedBytes, notes, indexInfo: Buffer.concat([...removed, ...info]) };
}
