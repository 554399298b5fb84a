import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixturePath, REPO_ROOT } from './paths';

/** The ripgrep binary the @vscode/ripgrep dependency ships for this platform (on Windows under wine: the package the wine pass fetches, found through NODE_PATH). */
export const RIPGREP = ripgrepOfThisPlatform();

function ripgrepOfThisPlatform(): string {
  const binary = `@vscode/ripgrep-${process.platform}-${process.arch}/bin/${process.platform === 'win32' ? 'rg.exe' : 'rg'}`;
  try {
    return require.resolve(binary);
  } catch {
    // Missing: the tests that run it fail naming this path.
    return path.join(REPO_ROOT, 'node_modules', binary);
  }
}

/** The committed search fixture tree (the integration workspace serves the same files). */
export const SEARCH_TREE_FIXTURE = fixturePath('workspace/search-tree');

/** Modification times, newest last, so glob's newest-first order is known. */
export const MTIME_ORDER = ['src/nested/deep.ts', 'src/util.ts', 'src/main.ts'];

export interface SearchTree {
  /** The workspace folder: a copy of the fixture tree. */
  readonly root: string;
  /** A sibling folder outside the workspace that a symlink inside points to. */
  readonly outside: string;
  remove(): void;
}

/**
 * Copies the fixture tree into a fresh temp folder and adds what git cannot hold portably: a
 * symlink to a folder outside the workspace, a symlink loop, and a symlinked file.
 */
export function makeSearchTree(): SearchTree {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-search-'));
  const root = path.join(parent, 'workspace');
  const outside = path.join(parent, 'outside');
  fs.cpSync(SEARCH_TREE_FIXTURE, root, { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret-outside.ts'), 'export const TODO_OUTSIDE = 1;\n');
  fs.symlinkSync(outside, path.join(root, 'link-outside'));
  fs.symlinkSync('.', path.join(root, 'src', 'loop'));
  fs.symlinkSync('main.ts', path.join(root, 'src', 'main-link.ts'));
  const base = Date.UTC(2024, 0, 1) / 1000;
  MTIME_ORDER.forEach((file, index) => fs.utimesSync(path.join(root, file), base + index * 60, base + index * 60));
  return { root, outside, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}
