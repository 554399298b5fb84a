import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import { layeringPlugin } from './eslint/layering.mjs';

/** src/core must not load the vscode module at run time; the vscode layer adapts it. */
const vscodeBan = { name: 'vscode', message: 'src/core must not import vscode; add a port in src/core/ports/.' };
/**
 * The Node built-ins pure core code may load: computation only, no I/O, no processes, no network,
 * no machine state. `crypto` is here for hashing (`text/bytes.ts`: sha256 of bytes in memory).
 */
const PURE_NODE_MODULES = new Set(['path', 'path/posix', 'path/win32', 'string_decoder', 'url', 'util', 'util/types', 'crypto']);
/** Built-ins that exist only with the `node:` prefix, which builtinModules leaves out on some Node versions. */
const NODE_PREFIX_ONLY = ['node:sea', 'node:sqlite', 'node:test', 'node:test/reporters'];
/** Every other Node built-in, both spellings (`os`, `node:os`): Node I/O lives in `node/` folders. */
const nodeIoBans = [...builtinModules, ...NODE_PREFIX_ONLY]
  .filter((name) => !name.startsWith('_') && !PURE_NODE_MODULES.has(name.replace(/^node:/, '')))
  .flatMap((name) => (name.startsWith('node:') ? [name] : [name, `node:${name}`]))
  .filter((name, index, names) => names.indexOf(name) === index)
  .map((name) => ({
    name,
    message: 'Node I/O in src/core lives in a node/ folder beside what it adapts (src/core/**/node/**); elsewhere read files through the FileSystem port and run processes through the ProcessRunner port (ARCHITECTURE.md).',
  }));
/** The adapters of src/core: files that implement a port, or load their own assets, with Node's I/O. */
const CORE_NODE_FOLDERS = ['src/core/**/node/**/*.ts'];
/** Node's globals that reach the machine: pure core gets what they give through a port. */
const nodeGlobalBans = [
  { name: 'process', message: 'Pure core does not read the process (its pid, environment, signals): take what is needed through a port (e.g. CommandHost) or a parameter, or move the code into a node/ folder.' },
  { name: 'fetch', message: 'Pure core does not reach the network: the network is Node I/O, in a node/ folder behind a port.' },
  { name: 'require', message: 'Pure core loads no module at run time by name: import it (the lint then checks it), or load it in a node/ folder.' },
  { name: '__dirname', message: 'Pure core does not know where its files lie on disk: assets are found and loaded in a node/ folder (e.g. read/node/pdfJs.ts) and passed in.' },
  { name: '__filename', message: 'Pure core does not know where its files lie on disk: assets are found and loaded in a node/ folder (e.g. read/node/pdfJs.ts) and passed in.' },
];

export default tseslint.config(
  // No inline configuration: a rule is turned off only here, in the open, never by a comment in a
  // file. ESLint ignores such a comment and warns about it, and `npm run lint` fails on a warning.
  { linterOptions: { noInlineConfig: true } },
  { ignores: ['out/**', 'dist/**', '.cache/**', 'node_modules/**', 'test/fixtures/**', 'demo/**', '**/*.mjs', '**/*.js', '!scripts/**/*.mjs', '!esbuild.mjs', '!eslint.config.mjs', '!eslint/*.mjs', '!test/ui/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // src in floors (eslint/layering.mjs): core and mcp, then vscode, then extension.ts; inside
    // src/core and src/vscode, their own floors. No import runs up one, and every relative import
    // in src lands on a file.
    files: ['src/**/*.ts'],
    plugins: { layering: layeringPlugin },
    rules: { 'layering/layers': 'error', 'layering/cycles': 'error' },
  },
  {
    // Core is plain TypeScript: no vscode, and Node I/O only in node/ folders, by import or import().
    files: ['src/core/**/*.ts'],
    rules: {
      'layering/modules': ['error', { paths: [vscodeBan, ...nodeIoBans] }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // The MCP relay and endpoint run in a plain Node process too (dist/mcp.js): never vscode, never the tools.
    files: ['src/mcp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/mcp runs outside VS Code (dist/mcp.js); the endpoint\'s VS Code side is src/vscode/mcp.' }], patterns: [{ group: ['../core/*', '../vscode/*'], message: 'src/mcp stays small and standalone: it relays MCP, the tools live behind the endpoint.' }] },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: CORE_NODE_FOLDERS,
    rules: { 'layering/modules': ['error', { paths: [vscodeBan] }] },
  },
  {
    // Pure core, fenced from its node/ folders both ways: it takes only types from them, and none of
    // Node's machine-reaching globals (copilot's `common` may not import `node`).
    files: ['src/core/**/*.ts'],
    ignores: CORE_NODE_FOLDERS,
    rules: {
      'layering/node-zone': 'error',
      'no-restricted-globals': ['error', ...nodeGlobalBans],
      'no-restricted-properties': ['error', ...nodeGlobalBans.map(({ name, message }) => ({ object: 'globalThis', property: name, message }))],
    },
  },
  // scripts/ and test/ui: linted and type-checked like src/
  {
    // The files tsconfig.scripts.json type-checks (plain JavaScript with JSDoc types), the same set
    // the ignores entry above lets through.
    files: ['scripts/**/*.mjs', 'esbuild.mjs', 'eslint.config.mjs', 'eslint/*.mjs', 'test/ui/*.mjs'],
    languageOptions: { parserOptions: { project: './tsconfig.scripts.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
);
