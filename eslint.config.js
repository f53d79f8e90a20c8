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

// ── Server layers (decision 0020; docs/architecture.md "Server") ──
// server.ts, app.ts, routes.ts, plugins/ → modules/* → http/ (route types), db/, lib/.
// A module uses another module only through its `*.service.ts`. Type-only imports count:
// no-restricted-paths sees them, while import-x/no-cycle skips them.
const SERVER = `${import.meta.dirname}/apps/server/src`;
const SERVER_MODULES = readdirSync(`${SERVER}/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// demo/ and cli/ sit beside server.ts: they drive the modules and nothing below imports them.
const APP_LAYER = [`${SERVER}/server.ts`, `${SERVER}/app.ts`, `${SERVER}/routes.ts`, `${SERVER}/demo`, `${SERVER}/cli`];
/**
 * Pure helpers of the uploads module that other modules read (orders/files/orders.download.ts its evidence, account
 * its keys; not services yet; the retention job no longer does, decision 0110). They stay at the module's top, its
 * jobs in sub-folders (decision 0106).
 */
const UPLOADS_HELPERS = `${SERVER}/modules/uploads/{image-type,keys,uploads.config}.ts`;

function serverZones() {
  return [
    {
      target: `${SERVER}/lib`,
      from: [...APP_LAYER, `${SERVER}/plugins`, `${SERVER}/modules`, `${SERVER}/http`, `${SERVER}/db`, `${SERVER}/config.ts`],
      message: 'lib/ is the bottom layer: it imports nothing else of the server.',
    },
    {
      target: `${SERVER}/db`,
      from: [...APP_LAYER, `${SERVER}/plugins`, `${SERVER}/modules`, `${SERVER}/http`],
      message: 'db/ sits below the modules.',
    },
    {
      target: `${SERVER}/http`,
      from: [...APP_LAYER, `${SERVER}/plugins`, `${SERVER}/modules`],
      message: 'http/ holds the route types every module imports: it must not import a module back.',
    },
    {
      target: `${SERVER}/modules`,
      from: APP_LAYER,
      message: 'Modules take RouteDeps, Operator and localeOf from http/route-context.ts, never from the app layer.',
    },
    {
      target: `${SERVER}/modules`,
      from: [`${SERVER}/plugins`],
      message: 'Plugins sit above the modules; what a route needs of them lives in http/route-context.ts.',
    },
    { target: `${SERVER}/plugins`, from: APP_LAYER, message: 'Plugins are registered by app.ts; they do not import it.' },
    {
      target: `${SERVER}/plugins`,
      // `**`: a module split into sub-folders (orders/history/, orders/files/) keeps them covered (decision 0105).
      from: `${SERVER}/modules/**/*.{repository,routes}.ts`,
      message: 'Plugins use a module through its service.',
    },
    ...SERVER_MODULES.map((name) => ({
      target: `${SERVER}/modules/${name}`,
      from: `${SERVER}/modules/!(${name})/**`,
      except: [`${SERVER}/modules/*/*.service.ts`, UPLOADS_HELPERS],
      message: 'A module uses another module only through its *.service.ts (never its repository or routes).',
    })),
  ];
}

const serverLayers = (zones) => ({
  'import-x/no-restricted-paths': ['error', { zones }],
});

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
      // A text limit counts characters as the server does (code points), not the UTF-16 units
      // of the browser's maxLength: 64 emoji fit a 64-character field (lib/char-limit.ts).
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='maxLength']",
          message: 'maxLength counts UTF-16 units; use count={charLimit(max)} from lib/char-limit.ts (or cutToChars on a plain input).',
        },
      ],
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
  {
    // Layers of the server: a block of its own (the web's layers get theirs).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/test/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      // Without these, import-x reads no .ts dependency and no-cycle finds nothing.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      ...serverLayers(serverZones()),
    },
  },
  // The type-aware promise rules (no-floating-promises, no-misused-promises) run in oxlint on
  // TypeScript 7 (.oxlintrc.json, decision 0125): every rule here needs no type information.
);
