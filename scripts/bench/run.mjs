// @ts-check
// `npm run bench`: every benchmark case side by side with its reference, printed as ratios.
// Large inputs are generated once into .cache/bench and reused.
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchActivation } from './activation.mjs';
import { benchHost } from './host.mjs';
import { benchMcpRelay } from './mcpRelay.mjs';
import { benchCheckpoint } from './checkpoint.mjs';
import { benchInputWatch } from './inputWatch.mjs';
import { benchPorts } from './ports.mjs';
import { benchReadFile } from './readFile.mjs';
import { benchReduction } from './reduction.mjs';
import { benchSandbox, benchStaged } from './sandbox.mjs';
import { benchSearch } from './search.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratchDir = process.env.WAT_BENCH_DIR ?? path.join(repo, '.cache/bench');
mkdirSync(scratchDir, { recursive: true });
const only = process.argv.slice(2);
/** @param {string} line */
const log = (line) => console.log(line);

/** @type {[name: string, run: (context: import('./measure.mjs').BenchContext) => Promise<unknown>][]} */
const cases = [['read', benchReadFile], ['search', benchSearch], ['sandbox', benchSandbox], ['staged', benchStaged], ['ports', benchPorts], ['checkpoint', benchCheckpoint], ['mcp', benchMcpRelay], ['reduction', benchReduction], ['input', benchInputWatch], ['activation', benchActivation], ['host', benchHost]];

for (const [name, run] of cases) {
  if (only.length && !only.includes(name)) continue;
  log(`\n=== ${name} ===`);
  await run({ log, scratchDir });
}
