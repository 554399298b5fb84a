// The PowerShell parser: tree-sitter-powershell (shipped in @vscode/tree-sitter-wasm beside the bash
// grammar), from the loader the caller passes in (the extension's is shell/node/wasmGrammar.ts).
import type { Parser, Tree } from '@vscode/tree-sitter-wasm';

/** Parses one PowerShell command line; undefined when the parser gives up. */
export async function parsePowerShell(source: string, powerShellParser: () => Promise<Parser>): Promise<Tree | undefined> {
  const parser = await powerShellParser();
  return parser.parse(source) ?? undefined;
}
