// Bundles the extension into one CommonJS file for the extension host.
// pdfjs-dist stays external: it loads its worker module from its own folder at run time.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const options = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/extension.js',
  external: ['vscode', 'pdfjs-dist', 'pdfjs-dist/*'],
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

// The shell parser (web-tree-sitter, bundled) loads its wasm files from the bundle's folder at run
// time, so they ship in dist/ next to extension.js (vsce includes dist/; node_modules is not shipped).
const TREE_SITTER_WASM = ['tree-sitter.wasm', 'tree-sitter-bash.wasm'];
mkdirSync('dist', { recursive: true });
for (const file of TREE_SITTER_WASM) {
  copyFileSync(`node_modules/@vscode/tree-sitter-wasm/wasm/${file}`, `dist/${file}`);
}

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
