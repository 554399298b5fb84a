// Loads the tree-sitter bash grammar VS Code itself ships (@vscode/tree-sitter-wasm). The wasm files
// are looked up explicitly (locateFile, and the grammar read as bytes), so it works the same from
// out/ (tests, node_modules beside it) and from the esbuild bundle (dist/, where esbuild.mjs copies
// the two wasm files next to extension.js). The parser is loaded once per process and kept; its use: ../bashParser.ts.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';

const RUNTIME_WASM = 'tree-sitter.wasm';
const BASH_WASM = 'tree-sitter-bash.wasm';

/** The folders that may hold the wasm files: next to this code (the bundle), then the package itself. */
function candidateFolders(): string[] {
  const folders = [__dirname, path.join(__dirname, 'wasm')];
  try {
    folders.push(path.dirname(require.resolve('@vscode/tree-sitter-wasm')));
  } catch {
    // Inside the packaged extension node_modules is absent; the copies next to the bundle are used.
  }
  return folders;
}

function findWasmFolder(): string {
  const folder = candidateFolders().find((candidate) => existsSync(path.join(candidate, BASH_WASM)) && existsSync(path.join(candidate, RUNTIME_WASM)));
  if (!folder) {
    throw new Error(`The shell parser's files (${RUNTIME_WASM}, ${BASH_WASM}) were not found next to the extension; reinstall the extension.`);
  }
  return folder;
}

let loading: Promise<Parser> | undefined;

/** The bash parser, loaded on first use and then kept. A failed load is retried on the next call. */
export function loadBashParser(): Promise<Parser> {
  if (!loading) {
    loading = newBashParser();
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** A new bash parser, its runtime and grammar loaded from the wasm files. */
async function newBashParser(): Promise<Parser> {
  const folder = findWasmFolder();
  await Parser.init({ locateFile: (file: string) => path.join(folder, file) });
  const bash = await Language.load(new Uint8Array(readFileSync(path.join(folder, BASH_WASM))));
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}
