// The bash parser, tree-sitter's bash grammar loaded once per process (the wasm files are found and
// read by node/wasmGrammar.ts).
import type { Node, Parser, Tree } from '@vscode/tree-sitter-wasm';
import { loadBashParser } from './node/wasmGrammar';

export type { Node as SyntaxNode, Tree as SyntaxTree };

let loading: Promise<Parser> | undefined;

/** The bash parser, loaded on first use. A failed load is retried on the next call. */
export function bashParser(): Promise<Parser> {
  if (!loading) {
    loading = loadBashParser();
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** Parses one command line; undefined when the parser gives up (it never should for bash text). */
export async function parseBash(source: string): Promise<Tree | undefined> {
  const parser = await bashParser();
  return parser.parse(source) ?? undefined;
}
