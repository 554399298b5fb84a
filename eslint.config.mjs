import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', '.cache/**', 'node_modules/**', 'test/fixtures/**', 'demo/**', '**/*.mjs', '**/*.js', '!scripts/**/*.mjs', '!esbuild.mjs', '!eslint.config.mjs', '!test/ui/*.mjs'] },
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
    // Core is plain TypeScript: it must never load the vscode module at run time.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core must not import vscode; add a port in src/core/ports.ts.' }] }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // scripts/ and test/ui: linted and type-checked like src/
  {
    // The files tsconfig.scripts.json type-checks (plain JavaScript with JSDoc types), the same set
    // the ignores entry above lets through.
    files: ['scripts/**/*.mjs', 'esbuild.mjs', 'eslint.config.mjs', 'test/ui/*.mjs'],
    languageOptions: { parserOptions: { project: './tsconfig.scripts.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
);
