// @ts-check
// Writes docs/protected-names.md from the one table of protected names (src/core/guard/protectedNames.ts).
// Needs `tsc` output in out/ (`npm run compile` first). test/unit/docs/protectedNames.test.ts fails
// until the page matches the table.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const requireCompiled = createRequire(import.meta.url);
/** @type {typeof import('../src/core/guard/protectedNames.js')} */
const table = requireCompiled('../out/src/core/guard/protectedNames.js');
/** @type {typeof import('../test/support/docs/protectedNamesDoc.js')} */
const { renderProtectedNames, PROTECTED_NAMES_PAGE } = requireCompiled('../out/test/support/docs/protectedNamesDoc.js');

writeFileSync(new URL(`../${PROTECTED_NAMES_PAGE}`, import.meta.url), renderProtectedNames(table));
console.log(`wrote ${PROTECTED_NAMES_PAGE}`);
