// Writes the tool parts of package.json from the tool specs in code (the single source of truth):
// contributes.languageModelTools, and each tool's palette command with its `when` clause.
// `--check` only compares and exits 1 on drift. Needs `tsc` output in out/.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
const { TOOLS } = require('../out/src/core/tools/index.js');
const { manifestCommand, manifestEntry, paletteWhen } = require('../out/src/core/tools/manifest.js');

const file = new URL('../package.json', import.meta.url);
const manifest = JSON.parse(readFileSync(file, 'utf8'));
const contributes = manifest.contributes;
const isToolCommand = (entry) => entry.command.startsWith('workspaceAgentTools.tool.');

const expected = structuredClone(contributes);
expected.languageModelTools = TOOLS.map(manifestEntry);
expected.commands = [...contributes.commands.filter((entry) => !isToolCommand(entry)), ...TOOLS.map(manifestCommand)];
expected.menus.commandPalette = [...contributes.menus.commandPalette.filter((entry) => !isToolCommand(entry)), ...TOOLS.map(paletteWhen)];

if (process.argv.includes('--check')) {
  if (!isDeepStrictEqual(contributes, expected)) {
    console.error('package.json differs from the tool specs (languageModelTools or tool commands): run `npm run manifest`.');
    process.exit(1);
  }
} else {
  manifest.contributes = expected;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`Wrote ${TOOLS.length} tools and their palette commands to package.json.`);
}
