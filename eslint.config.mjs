// Type-aware lint rules shared by every part of the project (see ../shared/STYLE.md, "Tooling").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { LAYER_RULES } from './eslint.layers.mjs';
import { LARGE_COLLECTION_RULES } from './eslint.collections.mjs';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'schemas/',
      'test/fixtures/',
      'examples/',
      '**/*.mjs',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test awaits the promises test() and describe() return; everything else must be handled.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after'],
            },
          ],
        },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-console': 'error',
      ...LARGE_COLLECTION_RULES,
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'server/src/cli.ts', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  ...LAYER_RULES,
);
