import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import layers of decision 0020 are enforced by the repository's own eslint.config.js:
 * each case lints a small file at a path inside the server (or the contract) and expects the
 * rule that guards that boundary to refuse it, or to let an allowed import through.
 */
const REPO = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: REPO });

async function ruleIdsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(REPO, filePath) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('import boundaries are enforced by lint', () => {
  it.each([
    ['lib/ importing a module', 'apps/server/src/lib/probe.ts', "export { listUsers } from '../modules/users/users.service.ts';\n", 'import-x/no-restricted-paths'],
    ['db/ importing the route types', 'apps/server/src/db/probe.ts', "export type { RouteDeps } from '../http/route-context.ts';\n", 'import-x/no-restricted-paths'],
    ['a module importing another module’s repository', 'apps/server/src/modules/users/probe.ts', "export { countOrdersOf } from '../orders/orders.repository.ts';\n", 'import-x/no-restricted-paths'],
    ['a module importing routes.ts (even a type)', 'apps/server/src/modules/users/probe.ts', "export type { RouteDeps } from '../../routes.ts';\n", 'import-x/no-restricted-paths'],
    ['a module importing a plugin', 'apps/server/src/modules/orders/probe.ts', "export { DOCS_PREFIX } from '../../plugins/auth.ts';\n", 'import-x/no-restricted-paths'],
    // lib/xlsx-stream.ts imports lib/streams.ts: streams.ts importing it back closes a cycle.
    ['an import cycle', 'apps/server/src/lib/streams.ts', "export { xmlText } from './xlsx-stream.ts';\n", 'import-x/no-cycle'],
    ['the contract importing the server', 'packages/contract/src/probe.ts', "export { buildApp } from '@clearplay/server';\n", 'no-restricted-imports'],
  ])('refuses %s', async (_case, filePath, code, rule) => {
    expect(await ruleIdsOf(filePath, code)).toContain(rule);
  });

  it('lets a module use another module through its service, and a route take its types from http/', async () => {
    const code = "export { countOrdersOf } from '../orders/orders.service.ts';\nexport type { RouteDeps } from '../../http/route-context.ts';\n";
    expect(await ruleIdsOf('apps/server/src/modules/users/probe.ts', code)).toEqual([]);
  });
});
