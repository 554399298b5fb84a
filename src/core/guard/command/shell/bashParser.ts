// The bash parser: tree-sitter's bash grammar, from the loader the caller passes in (the extension's
// is node/wasmGrammar.ts, which finds and reads the wasm files and keeps the parser once loaded).
import type { Node, Parser, Tree } from '@vscode/tree-sitter-wasm';

export type { Node as SyntaxNode, Tree as SyntaxTree };

/** Parses one command line; undefined when the parser gives up (it never should for bash text). */
export async function parseBash(source: string, bashParser: () => Promise<Parser>): Promise<Tree | undefined> {
  const parser = await bashParser();
  return parser.parse(source) ?? undefined;
}
