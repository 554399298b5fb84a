// A checkpoint of the paths a change touched (a staged command's "after") without the private
// index: O(changed files), where the index costs O(tree) to read and write. Which files a whole
// record would take there is git's answer (`ls-files` of the files not ignored, with the folder's
// excludes, against an index that does not exist; `ls-tree` of what HEAD holds there, recorded
// files staying recorded while they are there) and statusPaths.ts's verdicts (size cap, kind,
// mode). Then one `git fast-import` writes their blobs, the commit of HEAD's tree with the touched
// paths replaced (it rebuilds only the trees along them), HEAD and the checkpoint's ref, and says
// the ids. The index then lags HEAD at those paths: `indexInfo` brings it up to date later, off the
// command's path (folderStore.ts).
import * as fs from 'node:fs';
import type { CheckpointLimits } from '../../../ports/checkpoints';
import { splitNul } from './gitRunner';
import type { RecordedTree, WorkTree } from './nestedRepositories';
import { isBelow, outermostPaths, StatusPaths, type RecordedMode } from './statusPaths';

/** Above this many bytes to record, the touched paths go through the index (fast-import takes them on its input). */
const MAX_TOUCHED_BYTES = 64 * 1024 * 1024;

/** The folder store as the touched tree uses it: its folder, its private repository, git run one call at a time. */
interface TreeStore {
  readonly folder: string;
  git(args: readonly string[], input?: Buffer, okCodes?: readonly number[], env?: Record<string, string>): Promise<Buffer>;
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

/**
 * Records the `touched` paths (outermost, relative to the work tree) on top of `head` (a commit and
 * its tree) as a new state, HEAD and `ref` moved to it. A folder along one that is no longer a real
 * folder (a link, a file, gone) is recorded in its place. Undefined when this way cannot record
 * them exactly as a whole record would, having written nothing (a nested repository at, above or
 * below one, too many bytes): the caller records them through the index then.
 */
export async function touchedCheckpoint(store: TreeStore, tree: WorkTree, head: { readonly commit: string; readonly tree: string }, touched: readonly Buffer[], last: RecordedTree, limits: CheckpointLimits, ref: string, message: string): Promise<TouchedCheckpoint | undefined> {
  if (process.platform === 'win32' || touched.length === 0) {
    return undefined;
  }
  const base = Buffer.from(store.folder.endsWith('/') ? store.folder : `${store.folder}/`);
  const verdicts = new StatusPaths(store.folder, limits.maxFileBytes, tree.prefix);
  // A folder along a touched path that is now a link or a file (or gone): that folder is the touched path, as a whole record sees it.
  const paths = outermostPaths(touched.map((p) => verdicts.outermostUnreal(p) ?? p));
  if (paths.some((p) => last.children.some((child) => atOrBelow(p, child.root) || atOrBelow(child.root, p)))) {
    return undefined;
  }
  const literal = paths.map((p) => p.toString('utf8'));
  const noIndex = `${tree.env.GIT_INDEX_FILE}-none`;
  fs.rmSync(noIndex, { force: true });
  const [listed, recorded] = await Promise.all([
    // An index that does not exist: every file at the paths that is not ignored, as a whole record's status names an untracked one.
    store.git(['--literal-pathspecs', '-c', `core.excludesFile=${tree.excludesFile}`, 'ls-files', '-o', '-z', '--exclude-standard', '--', ...literal], undefined, [0], { ...tree.env, GIT_INDEX_FILE: noIndex }),
    store.git(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', head.commit, '--', ...literal]),
  ]);
  const old = new Map<string, { rawPath: Buffer; recorded: Recorded }>();
  for (const line of splitNul(recorded)) {
    const tab = line.indexOf(0x09);
    const rawPath = line.subarray(tab + 1);
    const [mode, type, id] = line.subarray(0, tab).toString('latin1').split(' ');
    if (paths.some((p) => atOrBelow(rawPath, p))) {
      old.set(rawPath.toString('latin1'), { rawPath, recorded: { mode, type, id } });
    }
  }
  // What a whole record takes there now: the files git lists, and the files HEAD holds while they are there (ignored or not).
  const candidates = new Map<string, Buffer>();
  for (const rawPath of splitNul(listed)) {
    // A nested repository: git names it with a trailing slash.
    if (rawPath[rawPath.length - 1] === 0x2f) {
      return undefined;
    }
    candidates.set(rawPath.toString('latin1'), rawPath);
  }
  for (const [key, entry] of old) {
    if (entry.recorded.type !== 'blob') {
      return undefined;
    }
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
  const input: Buffer[] = [Buffer.from('feature done\n')];
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
    Buffer.from(`\nreset ${ref}\nfrom :1\n\nget-mark :1\nls :1 ""\n`),
    ...files.map((_, i) => Buffer.from(`get-mark :${i + 2}\n`)),
    Buffer.from('done\n'),
  );
  // --force: the new commit has no parent (a pruned checkpoint frees its objects), so it never fast-forwards HEAD.
  const said = (await store.git(['fast-import', '--quiet', '--force'], Buffer.concat(input))).toString('latin1').split('\n');
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
