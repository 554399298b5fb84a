import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A workspace folder next to a folder outside it, with the entries the guard's link rows are about. */
export interface LinkTree {
  /** The workspace folder: plain.txt, escape.txt (a link to a file outside), dangling.txt (a link to a missing file outside), linked.txt and hard.txt (two names of one file), fifo (not on Windows: FIFO_PLATFORMS). */
  readonly root: string;
  /** The folder outside the workspace: target.txt. */
  readonly outside: string;
  remove(): void;
}

/** Where the tree has its FIFO: mkfifo is POSIX's; Windows' named pipes are no entries of a folder. */
export const FIFO_PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'darwin'];
/** The mechanism a test of the tree's FIFO needs, for test/unit/support/platforms.ts. */
export const FIFO_MECHANISM = 'a FIFO in a folder (mkfifo)';

/** What a test of the tree's links needs that wine 8 does not do (measured: fs.symlinkSync succeeds, and no entry is there). */
export const WINE_SYMLINKS = 'symbolic links (CreateSymbolicLinkW reports success and makes no entry)';

export function makeLinkTree(): LinkTree {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-links-'));
  const root = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'plain.txt'), 'x\n');
  fs.writeFileSync(path.join(outside, 'target.txt'), 'outside\n');
  fs.symlinkSync(path.join(outside, 'target.txt'), path.join(root, 'escape.txt'));
  fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(root, 'dangling.txt'));
  fs.writeFileSync(path.join(root, 'linked.txt'), 'linked\n');
  fs.linkSync(path.join(root, 'linked.txt'), path.join(root, 'hard.txt'));
  if (FIFO_PLATFORMS.includes(process.platform)) {
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
  }
  return { root, outside, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}

/**
 * For the calling suite: a fresh link tree before each test, removed after it. Read `root` and
 * `outside` inside a test or hook (they name the current test's tree).
 */
export function linkTreePerTest(): Pick<LinkTree, 'root' | 'outside'> {
  let tree: LinkTree | undefined;
  beforeEach(() => {
    tree = makeLinkTree();
  });
  afterEach(() => {
    tree?.remove();
    tree = undefined;
  });
  const current = (): LinkTree => {
    if (!tree) {
      throw new Error('the link tree exists only while a test runs');
    }
    return tree;
  };
  return {
    get root() {
      return current().root;
    },
    get outside() {
      return current().outside;
    },
  };
}
