import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpointList } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import { trimDeclarations } from '../../endpoints-trim.ts';

/** The contract's declaration files as the build trims them (decision 0098). */
const dir = join(import.meta.dirname, '../../../../packages/contract/src/constants/endpoints');
const trimmed = readdirSync(dir)
  .filter((name) => name.endsWith('.ts') && name !== 'endpoint.ts' && name !== 'index.ts')
  .map((name) => ({ name, code: trimDeclarations(readFileSync(join(dir, name), 'utf8'), name) }));

describe('the declarations the browser gets', () => {
  it('keeps the method and path of every declared endpoint', () => {
    const kept = trimmed.flatMap(({ code }) =>
      [...code.matchAll(/method: '(\w+)',\n\s+path: '([^']+)'/g)].map((match) => `${match[1]} ${match[2]}`),
    );
    expect(kept.sort()).toEqual(
      endpointList()
        .map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`)
        .sort(),
    );
  });

  it('keeps nothing else of them: no access rule, summary or schemas, and no endpoint() call', () => {
    for (const { name, code } of trimmed) expect(code, name).not.toMatch(/^ {4}(access|summary|schemas|log|tag)[:,]|endpoint\(/m);
  });

  it('fails the build on a declaration it cannot read', () => {
    const noPath = "export const x = {\n  a: endpoint({\n    method: 'GET',\n    summary: 'no path',\n  }),\n};";
    expect(() => trimDeclarations(noPath, 'x.ts')).toThrow(/without its method and path/);
    const odd = "export const x = {\n  a: endpoint({\n    method: 'GET',\n  path: '/x',\n  }),\n};";
    expect(() => trimDeclarations(odd, 'x.ts')).toThrow(/unexpected line/);
  });
});
