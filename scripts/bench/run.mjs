// `npm run bench`: every benchmark case side by side with its reference, printed as ratios.
// Large inputs are generated once into .cache/bench and reused.
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchReadFile } from './readFile.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratchDir = process.env.WAT_BENCH_DIR ?? path.join(repo, '.cache/bench');
mkdirSync(scratchDir, { recursive: true });
const only = process.argv.slice(2);
const log = (line) => console.log(line);

const cases = [['read', benchReadFile]];
try {
  const search = await import('./search.mjs');
  cases.push(['search', search.benchSearch]);
} catch (error) {
  if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
}

for (const [name, run] of cases) {
  if (only.length && !only.includes(name)) continue;
  log(`\n=== ${name} ===`);
  await run({ log, scratchDir });
}
