// docs/protected-names.md is generated from the one table of protected names: the page must say
// exactly what the table holds, so a row added to the table without regenerating the page fails here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as table from '../../../src/core/guard/protectedNames';
import { PROTECTED_NAMES_PAGE, REGENERATE_PROTECTED_NAMES, renderProtectedNames } from '../../support/docs/protectedNamesDoc';

const root = path.resolve(__dirname, '../../../..');

describe('docs/protected-names.md', () => {
  it('is what the table of protected names generates', () => {
    const page = path.join(root, PROTECTED_NAMES_PAGE);
    const written = fs.existsSync(page) ? fs.readFileSync(page, 'utf8') : '';
    const expected = renderProtectedNames(table);
    if (written !== expected) {
      const writtenLines = written.split('\n');
      const firstDiff = expected.split('\n').findIndex((line, index) => line !== writtenLines[index]);
      assert.fail(`${PROTECTED_NAMES_PAGE} differs from src/core/guard/protectedNames.ts (first at line ${firstDiff + 1}): run \`${REGENERATE_PROTECTED_NAMES}\``);
    }
  });

  it('names every row of the table', () => {
    const rendered = renderProtectedNames(table);
    const names = [
      ...table.WORKSPACE_EXECUTION_CONFIG.map((row) => row.name),
      ...table.GIT_DIRECTORY_CONFIG.map((row) => row.name),
      ...table.SECRET_NAMES.exact,
      ...table.HOME_SECRETS.map((entry) => `~/${entry}`),
      ...table.SYSTEM_SECRETS,
    ];
    for (const name of names) {
      assert.ok(rendered.includes(`\`${name}\``), `${name} is missing from the generated page`);
    }
  });
});
