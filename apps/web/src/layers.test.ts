import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web layers (apps/web/README.md) are enforced by lint (eslint.config.js, import-x
 * `no-restricted-paths` and `no-cycle`). These cases lint a line of code as if it were in
 * a given file, with the repository's own config, and check the verdict.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({
  // The cases lint files that are not on disk; the repository's ESLint rules need no types
  // (the type-aware ones run in oxlint, decision 0125).
  cwd: root,
});

async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, 'apps/web/src', file) });
  return (result?.messages ?? [])
    .filter((m) => m.fatal || m.ruleId?.startsWith('import-x/'))
    .map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

// The first lint loads the parser and walks the import graph: seconds on a busy machine.
describe('web import layers', { timeout: 60_000 }, () => {
  it('refuses a house component importing a feature', async () => {
    const errors = await importErrors('components/Example.tsx', "export { default } from '../features/users/UsersPage.tsx';\n");
    expect(errors).toEqual([expect.stringContaining('import-x/no-restricted-paths')]);
  });

  it('refuses lib/ importing app/', async () => {
    const errors = await importErrors('lib/example.ts', "export { router } from '../app/router.tsx';\n");
    expect(errors).toEqual([expect.stringContaining('import-x/no-restricted-paths')]);
  });

  it("refuses a feature reaching into another feature's files, and allows its index.ts", async () => {
    const deep = await importErrors(
      'features/orders/Example.tsx',
      "export { LedgerButton } from '../ledger/components/LedgerButton.tsx';\n",
    );
    expect(deep).toEqual([expect.stringContaining('features/orders may use another feature only through its index.ts')]);
    const viaIndex = await importErrors('features/orders/Example.tsx', "export { LedgerButton } from '../ledger/index.ts';\n");
    expect(viaIndex).toEqual([]);
  });

  it('allows the downward arrows', async () => {
    expect(await importErrors('features/orders/Example.tsx', "export { Money } from '../../components/Money.tsx';\n")).toEqual([]);
    expect(await importErrors('app/Example.tsx', "export { default } from '../features/users/UsersPage.tsx';\n")).toEqual([]);
  });

  it('refuses an import cycle, even inside one layer', async () => {
    // lib/dicts.ts imports lib/storage.ts; storage.ts importing dicts.ts back closes a loop.
    const errors = await importErrors('lib/storage.ts', "export { loadDicts } from './dicts.ts';\n");
    expect(errors).toEqual([expect.stringContaining('import-x/no-cycle')]);
  });
});
