// Writes contributes.languageModelTools of package.json from the tool specs in code (the single
// source of truth). `--check` only compares and exits 1 on drift. Needs `tsc` output in out/.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
const { TOOL_SPECS } = require('../out/src/core/tools/index.js');
const { manifestEntry } = require('../out/src/core/tools/manifest.js');

const file = new URL('../package.json', import.meta.url);
const manifest = JSON.parse(readFileSync(file, 'utf8'));
const entries = TOOL_SPECS.map(manifestEntry);
if (process.argv.includes('--check')) {
  if (!isDeepStrictEqual(manifest.contributes.languageModelTools, entries)) {
    console.error('package.json languageModelTools differs from the tool specs: run `npm run manifest`.');
    process.exit(1);
  }
} else {
  manifest.contributes.languageModelTools = entries;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`Wrote ${entries.length} tools to package.json.`);
}
