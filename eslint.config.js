import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The web app's layers (apps/web/README.md): app/ -> features/ -> components/, lib/, config/
// -> @clearplay/contract. A feature reaches another only through that feature's index.ts.
const webSrc = `${import.meta.dirname}/apps/web/src`;
const webFeatures = readdirSync(`${webSrc}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webLayerZones = [
  {
    target: [`${webSrc}/components`, `${webSrc}/lib`, `${webSrc}/config`],
    from: [`${webSrc}/app`, `${webSrc}/features`],
    message: 'components/, lib/ and config/ are below app/ and features/: move the shared piece down instead.',
  },
  {
    target: [`${webSrc}/lib`, `${webSrc}/config`],
    from: [`${webSrc}/components`],
    message: 'lib/ and config/ hold no React components: move the shared piece into lib/ or config/.',
  },
  {
    target: `${webSrc}/features`,
    from: `${webSrc}/app`,
    message: 'features/ are below app/: pass what the feature needs in, or move it down to lib/.',
  },
  ...webFeatures.map((feature) => ({
    target: `${webSrc}/features/${feature}`,
    from: [`${webSrc}/features/!(${feature})/**`],
    except: [`${webSrc}/features/*/index.ts`],
    message: `features/${feature} may use another feature only through its index.ts.`,
  })),
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.bench/**', 'apps/web/e2e/.tmp/**', 'docs/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The dependency arrow: web -> contract, never web -> server. From the contract, values
      // come from its plain part (no TypeBox in the browser); the schemas' types are erased.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: ['**/apps/server/**', '@clearplay/server'],
          paths: [
            {
              name: '@clearplay/contract',
              allowTypeImports: true,
              message: 'The web imports values from @clearplay/contract/constants (no TypeBox); `import type` from here.',
            },
          ],
        },
      ],
    },
  },
  {
    // Web layers and cycles (eslint-plugin-import-x): see webLayerZones above.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: webLayerZones }],
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/apps/**', '@clearplay/server', '@clearplay/web', 'node:*'] }],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/apps/web/**', '@clearplay/web'] }],
    },
  },
);
