import tseslint from 'typescript-eslint';
import { layeringPlugin } from './eslint/layering.mjs';

/** src/core must not load the vscode module at run time; the vscode layer adapts it. */
const vscodeBan = { name: 'vscode', message: 'src/core must not import vscode; add a port in src/core/ports/.' };
/** Node's file system and processes are reached only through the adapters ARCHITECTURE.md names. */
const nodeIoBans = ['fs', 'fs/promises', 'child_process'].flatMap((name) => [name, `node:${name}`]).map((name) => ({
  name,
  message: 'Read files through the FileSystem port and run processes through the ProcessRunner port; only the adapters in ARCHITECTURE.md use Node directly.',
}));
/** The files of src/core that implement a port (or load their own assets) with Node's fs and child_process. */
const CORE_NODE_ADAPTERS = [
  'src/core/fs/nodeFileSystem.ts',
  'src/core/process/processRunner.ts',
  'src/core/process/processGroup.ts',
  'src/core/process/commandLogs.ts',
  'src/core/process/groupRecords.ts',
  'src/core/search/ripgrep/run.ts',
  'src/core/read/pdfText.ts',
  'src/core/guard/command/shell/bashParser.ts',
  'src/core/sandbox/machineSandbox.ts',
  // The checkpoint store drives git on a private repository and reads modes and sizes of the files it records.
  'src/core/checkpoints/gitCheckpointStore.ts',
];

export default tseslint.config(
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
    rules: { 'layering/layers': 'error' },
  },
  {
    // Core is plain TypeScript: no vscode, and Node I/O only in the adapters, by import or import().
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
    files: CORE_NODE_ADAPTERS,
    rules: { 'layering/modules': ['error', { paths: [vscodeBan] }] },
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
