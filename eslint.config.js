// Type-aware lint with the project's import boundaries (docs/ARCHITECTURE.md).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const driverImports = ['pg', '@electric-sql/pglite', 'ioredis', 'socket.io', 'socket.io-client'];

export default tseslint.config(
  {
    ignores: ['node_modules', 'dist', 'data', 'coverage', 'tmp', '**/*.js', '**/*.cjs', '**/*.mjs'],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './client/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // Short files and functions a reader takes in whole (docs/DECISIONS.md, Readable code by
    // name): a longer one is split into named parts. Every line counts, blank and comment lines
    // too (a reader scrolls through them). Tests are exempt (a journey reads in order).
    files: [
      'server/src/**/*.{ts,tsx}',
      'client/src/**/*.{ts,tsx}',
      'market-sim/src/**/*.ts',
      'shared/src/**/*.ts',
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // Domain code and shared code depend on interfaces, never on drivers.
    files: ['server/src/modules/**/*.ts', 'shared/src/**/*.ts', 'market-sim/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: driverImports.map((name) => ({
            name,
            message: 'Domain code talks to platform interfaces, not drivers.',
          })),
        },
      ],
    },
  },
  {
    // One config module per process: only server/src/config.ts reads the environment.
    files: ['infra/src/**/*.ts', 'server/src/**/*.ts', 'market-sim/src/**/*.ts'],
    ignores: ['server/src/config.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through server/src/config.ts.',
        },
      ],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'jotai', message: 'Only client/src/state imports jotai.' },
            { name: 'jotai/utils', message: 'Only client/src/state imports jotai.' },
            {
              name: 'socket.io-client',
              message: 'Only client/src/streams imports socket.io-client.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/src/state/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'socket.io-client',
              message: 'Only client/src/streams imports socket.io-client.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/src/streams/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'jotai', message: 'Only client/src/state imports jotai.' },
            { name: 'jotai/utils', message: 'Only client/src/state imports jotai.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // supertest answers are untyped JSON; the assertions are the type check.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);
