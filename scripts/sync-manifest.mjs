// @ts-check
// Writes the tool parts of package.json from the tool specs in code (the single source of truth):
// contributes.languageModelTools, and each tool's palette command with its `when` clause.
// `--check` only compares and exits 1 on drift. Needs `tsc` output in out/.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

// Loads tsc's output; the types come from its sources.
const requireCompiled = createRequire(import.meta.url);
/** @type {typeof import('../src/core/tools/index.js')} */
const { TOOLS } = requireCompiled('../out/src/core/tools/index.js');
/** @type {typeof import('../src/core/tools/manifest.js')} */
const { manifestCommand, manifestEntry, paletteWhen } = requireCompiled('../out/src/core/tools/manifest.js');

/**
 * The parts of package.json read and rewritten here; every other field is written back as read.
 * @typedef {{ command: string }} CommandEntry
 * @typedef {{ languageModelTools: unknown[], commands: CommandEntry[], menus: { commandPalette: CommandEntry[] } }} Contributes
 */

const file = new URL('../package.json', import.meta.url);
/** @type {{ contributes: Contributes }} */
const manifest = JSON.parse(readFileSync(file, 'utf8'));
const contributes = manifest.contributes;
/** @param {CommandEntry} entry */
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
