// Lint for every TypeScript file in the repository (typescript-eslint's recommended rules on top of
// ESLint's). Import boundaries between layers are dependency-cruiser's job (.dependency-cruiser.cjs).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', 'coverage/**', '.data/**', '.bench/**', '.scratch/**', '**/generated/**', 'sdks/**/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused names fail tsc already (noUnusedLocals/Parameters); `_`-prefixed ones are deliberate.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // zod's named `z` export is one object holding the whole library (every locale, JSON Schema
    // import and export), which esbuild cannot tree-shake: about 350 KB more in every Lambda bundle.
    files: ['functions/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "Use `import * as z from 'zod'`: the named z export defeats tree-shaking.",
        },
      ],
    },
  },
  {
    // Handlers and use cases get non-null values from the route table's types, never by assertion.
    files: ['functions/api/**/*.ts', 'functions/app/**/*.ts', 'functions/connectors/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Browser code of the hosted Link page runs in the user's browser, not in Node.
    files: ['functions/platform/link-ui/browser/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The sample app's page script (examples/) runs in the browser too.
    files: ['examples/*/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
