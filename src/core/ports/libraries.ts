// Libraries core computes with whose code is loaded from files beside the extension (a wasm grammar,
// an ES module). Finding and reading those files is Node I/O, done by node/ adapters
// (guard/command/shell/node/wasmGrammar.ts, read/node/pdfJs.ts) that the extension passes in here.
import type { Parser } from '@vscode/tree-sitter-wasm';

export interface Libraries {
  /** tree-sitter's bash parser, loaded on first use and then kept; a failed load is tried again on the next call. */
  bashParser(): Promise<Parser>;
  /** tree-sitter's PowerShell parser, loaded and kept like bashParser. */
  powerShellParser(): Promise<Parser>;
  /** Mozilla's pdf.js module, loaded on first use (the part of its API used: read/pdfText.ts). */
  pdfJs(): Promise<unknown>;
}
