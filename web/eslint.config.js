import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// Import boundaries (bulletproof-react): a feature never imports another
// feature, and shared code (components, lib) never imports a feature.
const noFeatureImports = (message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: ['@/features/*', '../features/*', '../../features/*'], message }] }],
})

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
  { files: ['src/components/**', 'src/lib/**'], rules: noFeatureImports('Shared code must not depend on a feature.') },
  {
    files: ['src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@/features/*', '../../features/*'], message: 'Features do not import each other; move shared code to components or lib.' }],
          // Pages and components talk to the server only through hooks (docs/architecture.md, "Web: where things go").
          paths: [{ name: '@/lib/api/client', importNames: ['request', 'api'], message: 'Call the server from features/<feature>/api/<endpoint>.ts and use its hook.' }],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Call the server from features/<feature>/api/<endpoint>.ts and use its hook.' }],
    },
  },
  {
    // The endpoint modules are where the client is called.
    files: ['src/features/*/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/features/*', '../../features/*'], message: 'Features do not import each other; move shared code to components or lib.' }] },
      ],
      'no-restricted-globals': 'off',
    },
  },
)
