import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/api/schema.d.ts'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // `const { dropped: _dropped, ...kept } = x` is how a key is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_' }],
    },
  },
  // Server calls live in one module per resource under src/api/ (flows, runs, approvals, audit, people,
  // me, events), with their cache keys: a page asks them, never the client, fetch or an EventSource.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['src/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'openapi-fetch', message: 'Call the API through a module of src/api/.' }],
          patterns: [
            {
              group: ['**/api/client'],
              importNames: ['api', 'unwrap'],
              message: 'Call the API through a module of src/api/ (flows, runs, approvals, ...).',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the API through a module of src/api/.' },
        { name: 'EventSource', message: 'The runs event stream is src/api/events.ts.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Call the API through a module of src/api/.' },
        { object: 'globalThis', property: 'fetch', message: 'Call the API through a module of src/api/.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: 'A cache key comes from its resource module in src/api/ (flowKeys, runKeys, ...).',
        },
        {
          selector: 'Literal[value=/^\\/api\\//]',
          message: 'An API address belongs to its resource module in src/api/.',
        },
        {
          selector: 'TemplateElement[value.raw=/^\\/api\\//]',
          message: 'An API address belongs to its resource module in src/api/.',
        },
      ],
    },
  },
);
