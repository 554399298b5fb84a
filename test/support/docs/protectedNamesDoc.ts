// docs/protected-names.md, written from the one table of protected names (src/core/guard/protectedNames.ts).
// The page is generated, never edited: `node scripts/docs-protected-names.mjs` writes it, and
// test/unit/docs/protectedNames.test.ts fails when the page and the table differ.
import type { ProtectedName } from '../../../src/core/guard/protectedNames';

/** The rows the page is written from: the exports of protectedNames.ts that hold them. */
export interface ProtectedNamesTable {
  readonly WORKSPACE_EXECUTION_CONFIG: readonly ProtectedName[];
  readonly GIT_DIRECTORY_CONFIG: readonly ProtectedName[];
  readonly SECRET_NAMES: { readonly exact: readonly string[]; readonly variantsOf: string; readonly templates: readonly string[] };
  readonly HOME_SECRETS: readonly string[];
  readonly SYSTEM_SECRETS: readonly string[];
}

/** The path of the page inside the repository, and the command that rewrites it. */
export const PROTECTED_NAMES_PAGE = 'docs/protected-names.md';
export const REGENERATE_PROTECTED_NAMES = 'npm run compile && node scripts/docs-protected-names.mjs';

function code(text: string): string {
  return `\`${text}\``;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function rowsTable(rows: readonly ProtectedName[]): string[] {
  return [
    '| name | kind | what it configures |',
    '|---|---|---|',
    ...rows.map((row) => `| ${code(row.name)} | ${row.kind === 'folder' ? 'folder, and all it holds' : 'file'} | ${cell(row.why)} |`),
  ];
}

/** The whole page, ending with a newline. */
export function renderProtectedNames(table: ProtectedNamesTable): string {
  const secrets = table.SECRET_NAMES;
  const lines = [
    '# Protected names',
    '',
    `<!-- Generated from src/core/guard/protectedNames.ts by \`${REGENERATE_PROTECTED_NAMES}\`. Do not edit by hand. -->`,
    '',
    'The names the guard and the command sandbox protect, as the one table in',
    '`src/core/guard/protectedNames.ts` holds them. The guard\'s rules, the sandbox on Linux and macOS,',
    'the `Sandbox:` line of a command\'s result and the run-command tool\'s description all come from',
    'this table. The guard compares each name by the key a case-insensitive file system sees: letter',
    'case folded (`ſ` is `s`), Unicode NFC, HFS+\'s ignored code points (U+200C-U+200F and others)',
    'removed, Windows\' trailing dots and spaces and `:stream` suffixes cut; an 8.3 short name such as',
    '`GIT~1`, `GITMOD~1` or `ENV~1.LOC` counts as every name it may stand for. So `.git.`, `.GIT `,',
    '`.git::$INDEX_ALLOCATION`, `GIT~1` and `.env::$DATA` are `.git` and `.env` on every platform; on Linux',
    'no one\'s real files have these names, and matching more is the safe side. How each is enforced is on',
    '[The security model](security.md) and [The sandbox](sandbox.md).',
    '',
    '## Execution config in any folder of a workspace',
    '',
    'Writes ask (`file.execution_config_write`); inside the sandbox they are read-only, at any depth.',
    '',
    ...rowsTable(table.WORKSPACE_EXECUTION_CONFIG),
    '',
    '## Execution config in every git directory',
    '',
    'A git directory is a `.git` folder, a bare repository (a `*.git` folder, or any folder with',
    '`HEAD`, `objects` and `refs`), or a submodule\'s `.git/modules/<name>`. Writes ask; inside the',
    'sandbox these entries are read-only.',
    '',
    ...rowsTable(table.GIT_DIRECTORY_CONFIG),
    '',
    '## Secret files, wherever they are',
    '',
    'Reads are denied at the low and medium risk levels and ask at high (`file.sensitive_path_read`); writes',
    'are denied (`file.sensitive_path_write`); the sandbox hides them from commands.',
    '',
    ...secrets.exact.map((name) => `- ${code(name)}`),
    `- ${code(`${secrets.variantsOf}.*`)}, except the templates ${secrets.templates.map((template) => code(`${secrets.variantsOf}.${template}`)).join(', ')}`,
    '',
    '## Secrets in the home folder',
    '',
    'Relative to the home folder. Reads and writes are judged as for the secret files above; the sandbox',
    'hides them from commands.',
    '',
    ...table.HOME_SECRETS.map((entry) => `- ${code(`~/${entry}`)}`),
    '',
    '## System secret files',
    '',
    ...table.SYSTEM_SECRETS.map((entry) => `- ${code(entry)}`),
    '',
  ];
  return lines.join('\n');
}
