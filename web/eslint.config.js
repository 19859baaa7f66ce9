import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// Import boundaries (bulletproof-react): a feature never imports another
// feature, and shared code (components, lib) never imports a feature.
// no-restricted-imports sees `import … from` and `export … from` but not
// import(), so the same paths are refused in a dynamic import (a lazily loaded
// page) by a syntax rule: `source` is the regular expression of the paths.
const noDynamicImports = (source, message) => ({
  'no-restricted-syntax': [
    'error',
    { selector: `ImportExpression[source.value=${source}]`, message },
    { selector: `ImportExpression[source.quasis.0.value.cooked=${source}]`, message },
  ],
})
const sharedMessage = 'Shared code must not depend on a feature.'
const featureMessage = 'Features do not import each other; move shared code to components or lib.'
const noFeatureImports = (message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: ['@/features/*', '../features/*', '../../features/*'], message }] }],
  ...noDynamicImports('/^(@|(\\.\\.)(\\/\\.\\.)*)\\/features\\//', message),
})
const noOtherFeatureDynamicImports = noDynamicImports('/^(@|\\.\\.\\/\\.\\.)\\/features\\//', featureMessage)

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/lib/api/schema.d.ts', 'test-results', 'playwright-report'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  { files: ['src/components/**', 'src/lib/**'], rules: noFeatureImports(sharedMessage) },
  {
    files: ['src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@/features/*', '../../features/*'], message: featureMessage }],
          // Pages and components talk to the server only through hooks (docs/architecture.md, "Web: where things go").
          paths: [{ name: '@/lib/api/client', importNames: ['request', 'api'], message: 'Call the server from features/<feature>/api/<endpoint>.ts and use its hook.' }],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Call the server from features/<feature>/api/<endpoint>.ts and use its hook.' }],
      ...noOtherFeatureDynamicImports,
    },
  },
  {
    // The endpoint modules are where the client is called.
    files: ['src/features/*/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/features/*', '../../features/*'], message: featureMessage }] },
      ],
      'no-restricted-globals': 'off',
      ...noOtherFeatureDynamicImports,
    },
  },
)
