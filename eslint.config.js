import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const layers = ['web-core', 'web-ui', 'web-engine', 'web-feature', 'web-app'];
// What each part of the code may import besides itself (docs/architecture.md). In src/web a layer imports only the
// layers below it, core < ui < engine < features < app, and a feature imports no other feature.
const mayImport = {
  shared: ['shared', 'schemas'],
  server: ['server', 'shared', 'schemas', 'i18n'],
  'web-core': ['web-core', 'shared', 'schemas', 'i18n'],
  'web-ui': ['web-ui', 'web-core', 'shared', 'schemas', 'i18n'],
  'web-engine': ['web-engine', 'web-ui', 'web-core', 'shared', 'schemas', 'i18n'],
  'web-feature': ['web-engine', 'web-ui', 'web-core', 'shared', 'schemas', 'i18n'],
  'web-app': ['web-app', 'web-feature', 'web-engine', 'web-ui', 'web-core', 'shared', 'schemas', 'i18n'],
  // The rest of src/web: the entry point, the build plugins and the test helpers.
  web: ['web', ...layers, 'shared', 'schemas', 'i18n', 'mocks'],
  // The mock API serves the schemas the app lists (engine/schemas.ts).
  mocks: ['mocks', 'web-engine', 'web-ui', 'web-core', 'shared', 'schemas', 'i18n'],
};

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'test-results/', '.tmp/', '.prof/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      // The app is not built with React Compiler: a memo the compiler could not keep is no defect here.
      'react-hooks/preserve-manual-memoization': 'off',
    },
  },
  {
    files: ['src/web/**/*.tsx'],
    extends: [jsxA11y.flatConfigs.recommended],
    rules: {
      // Focus moves on purpose into the dialog, popup or step that just opened (and RJSF's ui:autofocus passes through).
      'jsx-a11y/no-autofocus': 'off',
    },
  },
  {
    files: ['src/web/engine/form/templates/**'],
    rules: {
      // RJSF templates look their parts up in the registry (getTemplate), which the rule mistakes for new components.
      'react-hooks/static-components': 'off',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The schema-driven engine and the frozen migrations query tables known only at run time (or of their day), and
    // tests read answers loosely; the rest of the server is typed by the generated Database.
    files: ['src/server/engine/**', 'src/server/db/migrations/**', 'scripts/**', 'test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Globals: the browser in the app, Node on the server and in the tools, both where code runs in both.
  { ignores: ['src/web/**', 'src/shared/**'], languageOptions: { globals: globals.node } },
  { files: ['src/web/**'], languageOptions: { globals: globals.browser } },
  { files: ['src/shared/**'], languageOptions: { globals: globals['shared-node-browser'] } },
  {
    files: ['src/web/build/**', 'src/web/engine/form/validatorsPlugin.ts', 'src/**/*.test.{ts,tsx}', 'src/web/test/**'],
    languageOptions: { globals: globals.node },
  },
  { files: ['mocks/**', 'test/e2e/**'], languageOptions: { globals: globals.browser } },
  // Layers, by folder. Imports through the tsconfig.json aliases (@web/*, …) resolve with eslint.resolver.cjs.
  {
    plugins: { boundaries },
    settings: {
      'import/resolver': { './eslint.resolver.cjs': {} },
      'boundaries/elements-single-match': true,
      'boundaries/elements': [
        { type: 'shared', pattern: 'src/shared' },
        { type: 'server', pattern: 'src/server' },
        { type: 'web-core', pattern: 'src/web/core' },
        { type: 'web-ui', pattern: 'src/web/ui' },
        { type: 'web-engine', pattern: 'src/web/engine' },
        { type: 'web-feature', pattern: 'src/web/features/*', capture: ['feature'] },
        { type: 'web-app', pattern: 'src/web/app' },
        { type: 'web', pattern: 'src/web' },
        { type: 'schemas', pattern: 'schemas' },
        { type: 'i18n', pattern: 'i18n' },
        { type: 'mocks', pattern: 'mocks' },
        { type: 'tests', pattern: 'test' },
        { type: 'scripts', pattern: 'scripts' },
      ].map((element) => ({ ...element, partialMatch: false })),
      'boundaries/files': [{ category: 'test', pattern: '**/*.test.{ts,tsx}' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            ...Object.entries(mayImport).map(([type, allowed]) => ({
              from: { element: { type } },
              allow: { to: { element: { types: { anyOf: allowed } } } },
            })),
            // A test renders with the app's test helpers (the whole app where a screen needs its store) and serves the mock API.
            {
              from: { element: { types: { anyOf: layers } }, file: { categories: 'test' } },
              allow: { to: { element: { types: { anyOf: ['web', 'web-app', 'mocks', 'scripts'] } } } },
            },
            { from: { element: { types: { anyOf: ['tests', 'scripts'] } } }, allow: { to: { element: { type: '*' } } } },
          ],
        },
      ],
    },
  },
);
