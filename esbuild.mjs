// @ts-check
// Bundles the extension into one CommonJS file for the extension host, and the MCP relay into another.
// pdf.js stays out of the bundle: it is an ES module that loads its worker module from its own
// folder at run time, so its two files are copied next to the bundle (dist/pdfjs/).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

mkdirSync('dist/pdfjs', { recursive: true });
copyFileSync('node_modules/pdfjs-dist/legacy/build/pdf.min.mjs', 'dist/pdfjs/pdf.mjs');
copyFileSync('node_modules/pdfjs-dist/legacy/build/pdf.worker.min.mjs', 'dist/pdfjs/pdf.worker.mjs');
copyFileSync('node_modules/pdfjs-dist/LICENSE', 'dist/pdfjs/LICENSE');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @satisfies {esbuild.BuildOptions} */
const options = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  // jsonc-parser's main is a UMD module whose inner require() calls esbuild cannot follow: bundle its ES build.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  // When the bundle began to load, for the activation timings (src/vscode/activationTimings.ts);
  // after the strict directive, which must stay the file's first statement.
  banner: { js: '"use strict";\nvar __watBundleLoadStart = performance.now();' },
};

// The shell parser (web-tree-sitter, bundled) loads its wasm files from the bundle's folder at run
// time, so they ship in dist/ next to extension.js (vsce includes dist/; node_modules is not shipped).
const TREE_SITTER_WASM = ['tree-sitter.wasm', 'tree-sitter-bash.wasm', 'tree-sitter-powershell.wasm'];
for (const file of TREE_SITTER_WASM) {
  copyFileSync(`node_modules/@vscode/tree-sitter-wasm/wasm/${file}`, `dist/${file}`);
}

// The MCP relay an agent starts with `node dist/mcp.js`: its own bundle (the SDK and src/mcp only,
// never vscode), for the oldest Node the SDK supports.
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
/** @satisfies {esbuild.BuildOptions} */
const relayOptions = {
  ...options,
  entryPoints: ['src/mcp/main.ts'],
  outfile: 'dist/mcp.js',
  external: [],
  banner: {},
  target: 'node18',
  define: { MCP_RELAY_VERSION: JSON.stringify(version) },
};

// The network relay a sandboxed command's first process runs (the extension's own Node, in the
// sandbox's network namespace): node built-ins only.
/** @satisfies {esbuild.BuildOptions} */
const proxyRelayOptions = {
  ...options,
  entryPoints: ['src/core/sandbox/node/proxyRelay.ts'],
  outfile: 'dist/proxyRelay.js',
  external: [],
  banner: {},
};

if (watch) {
  for (const each of [options, relayOptions, proxyRelayOptions]) {
    const ctx = await esbuild.context(each);
    await ctx.watch();
  }
} else {
  await Promise.all([esbuild.build(options), esbuild.build(relayOptions), esbuild.build(proxyRelayOptions)]);
}
