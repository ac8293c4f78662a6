// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Folders a layer must not reach (DESIGN §3.3: arrows point down only). */
const layer = (
  /** @type {string[]} */ forbidden,
  /** @type {string[]} */ packages = [],
  allowTypeImports = false,
  /** Further restricted-import patterns of this layer. */
  extra = [],
) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...forbidden.map((folder) => ({
          group: [`**/${folder}/*`, `**/${folder}`],
          message: `this layer may not import from src/${folder} (see DESIGN §3.3)`,
          allowTypeImports,
        })),
        ...packages.map((pkg) => ({ group: [pkg, `${pkg}/*`], message: `${pkg} belongs to another layer` })),
        ...extra,
      ],
    },
  ],
});

const sdk = '@modelcontextprotocol/sdk';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'examples/**',
      'bench/workspaces/**',
      'coverage/**',
      'test/fixtures/**',
      // Golden case folders hold extractor inputs (any language) and generated expected.json.
      'test/golden/*/*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      'no-console': ['error', { allow: ['error', 'warn'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true } }],
    },
  },
  {
    // A function over 80 lines does several things: split it by concept, or say why not in a disable comment.
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: layer(['trust', 'index', 'store', 'ops', 'render', 'server', 'cli'], [sdk]),
  },
  { files: ['src/trust/**/*.ts'], rules: layer(['index', 'store', 'ops', 'render', 'server', 'cli'], [sdk]) },
  { files: ['src/index/**/*.ts'], rules: layer(['store', 'ops', 'render', 'server', 'cli'], [sdk]) },
  { files: ['src/store/**/*.ts'], rules: layer(['ops', 'render', 'server', 'cli'], [sdk]) },
  {
    files: ['src/ops/**/*.ts'],
    rules: layer(['index', 'store', 'server', 'cli'], [sdk], true, [
      {
        group: ['**/index/**', '!**/index/reader.js'],
        message: 'operations read the index through the types of src/index/reader.ts only',
      },
    ]),
  },
  { files: ['src/render/**/*.ts'], rules: layer(['index', 'store', 'ops', 'server', 'cli'], [sdk]) },
  { files: ['src/server/**/*.ts'], rules: layer(['index', 'store', 'cli']) },
  { files: ['eslint.config.js', 'scripts/**/*.mjs'], rules: { 'no-restricted-exports': 'off' } },
  { files: ['vitest.config.ts'], rules: { 'no-restricted-exports': 'off' } },
);
