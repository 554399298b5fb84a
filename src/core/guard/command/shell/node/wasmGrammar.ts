// Loads the tree-sitter bash and PowerShell grammars VS Code itself ships (@vscode/tree-sitter-wasm). The wasm files
// are looked up explicitly (locateFile, and the grammar read as bytes), so it works the same from
// out/ (tests, node_modules beside it) and from the esbuild bundle (dist/, where esbuild.mjs copies
// the wasm files next to extension.js). Each parser is loaded once per process and kept; their use:
// ../bashParser.ts and ../../powershell/parser.ts.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';

const RUNTIME_WASM = 'tree-sitter.wasm';
const BASH_WASM = 'tree-sitter-bash.wasm';
const POWERSHELL_WASM = 'tree-sitter-powershell.wasm';

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

function findWasmFolder(grammar: string): string {
  const folder = candidateFolders().find((candidate) => existsSync(path.join(candidate, grammar)) && existsSync(path.join(candidate, RUNTIME_WASM)));
  if (!folder) {
    throw new Error(`The shell parser's files (${RUNTIME_WASM}, ${grammar}) were not found next to the extension; reinstall the extension.`);
  }
  return folder;
}

const loading = new Map<string, Promise<Parser>>();
let runtime: Promise<void> | undefined;

/** One parser per grammar, loaded on first use and then kept. A failed load is retried on the next call. */
function loadParser(grammar: string): Promise<Parser> {
  let parser = loading.get(grammar);
  if (!parser) {
    parser = newParser(grammar);
    loading.set(grammar, parser);
    parser.catch(() => {
      loading.delete(grammar);
    });
  }
  return parser;
}

/** The bash parser, loaded on first use and then kept. A failed load is retried on the next call. */
export function loadBashParser(): Promise<Parser> {
  return loadParser(BASH_WASM);
}

/** The PowerShell parser (tree-sitter-powershell), loaded on first use and then kept. */
export function loadPowerShellParser(): Promise<Parser> {
  return loadParser(POWERSHELL_WASM);
}

/** A new parser, the runtime (once per process) and the grammar loaded from the wasm files. */
async function newParser(grammar: string): Promise<Parser> {
  const folder = findWasmFolder(grammar);
  if (!runtime) {
    runtime = Parser.init({ locateFile: (file: string) => path.join(folder, file) });
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  await runtime;
  const language = await Language.load(new Uint8Array(readFileSync(path.join(folder, grammar))));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
