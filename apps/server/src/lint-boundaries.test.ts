import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import layers of decision 0020 are enforced by the repository's own eslint.config.js:
 * each case lints a small file at a path inside the server (or the contract) and expects the
 * rule that guards that boundary to refuse it, or to let an allowed import through.
 */
const REPO = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({
  // The cases lint files that are not on disk; the repository's ESLint rules need no types
  // (the type-aware ones run in oxlint, decision 0125).
  cwd: REPO,
});

async function ruleIdsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(REPO, filePath) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

// The first lint loads the config and walks the import graph for no-cycle: seconds, more on a busy machine.
describe('import boundaries are enforced by lint', { timeout: 120_000 }, () => {
  it.each([
    {
      case: 'lib/ importing a module',
      file: 'apps/server/src/lib/probe.ts',
      code: "export { listUsers } from '../modules/users/users.service.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    {
      case: 'db/ importing the route types',
      file: 'apps/server/src/db/probe.ts',
      code: "export type { RouteDeps } from '../http/route-context.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    {
      case: 'a module importing another module’s repository',
      file: 'apps/server/src/modules/users/probe.ts',
      code: "export { countOrdersOf } from '../orders/orders.repository.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    {
      case: 'a module importing routes.ts (even a type)',
      file: 'apps/server/src/modules/users/probe.ts',
      code: "export type { RouteDeps } from '../../routes.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    {
      case: 'a module importing a plugin',
      file: 'apps/server/src/modules/orders/probe.ts',
      code: "export { DOCS_PREFIX } from '../../plugins/auth.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    {
      case: 'a plugin importing a repository in a module’s sub-folder',
      file: 'apps/server/src/plugins/probe.ts',
      code: "export { sameTargetQuery } from '../modules/orders/history/orders.history.repository.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    {
      case: 'a module importing a service inside another module’s sub-folder',
      file: 'apps/server/src/modules/users/probe.ts',
      code: "export { orderHistory } from '../orders/history/orders.history.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    {
      // The uploads helpers other modules may read (keys, image type, configuration) are its top-level files only (decision 0106).
      case: 'a module importing a file in a sub-folder of the uploads module',
      file: 'apps/server/src/modules/orders/probe.ts',
      code: "export { LocalBlobStore } from '../uploads/stores/local-blob-store.ts';",
      rule: 'import-x/no-restricted-paths',
    },
    // lib/xlsx-stream.ts imports lib/streams.ts: streams.ts importing it back closes a cycle.
    {
      case: 'an import cycle',
      file: 'apps/server/src/lib/streams.ts',
      code: "export { xmlText } from './xlsx-stream.ts';",
      rule: 'import-x/no-cycle',
    },
    {
      case: 'the contract importing the server',
      file: 'packages/contract/src/probe.ts',
      code: "export { buildApp } from '@clearplay/server';",
      rule: 'no-restricted-imports',
    },
  ])('refuses $case', async ({ file, code, rule }) => {
    expect(await ruleIdsOf(file, `${code}\n`)).toContain(rule);
  });

  it('lets a module read the uploads module’s top-level helpers (decision 0106)', async () => {
    const code = "export { pathForKey } from '../uploads/keys.ts';\nexport { detectImageType } from '../uploads/image-type.ts';\n";
    expect(await ruleIdsOf('apps/server/src/modules/jobs/probe.ts', code)).toEqual([]);
  });

  it('lets a module use another module through its service, and a route take its types from http/', async () => {
    const code =
      "export { countOrdersOf } from '../orders/orders.service.ts';\nexport type { RouteDeps } from '../../http/route-context.ts';\n";
    expect(await ruleIdsOf('apps/server/src/modules/users/probe.ts', code)).toEqual([]);
  });
});
