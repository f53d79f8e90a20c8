import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { ECHARTS_STUBS } from '../../../echarts-trim.ts';

// Resolved as the build resolves them (apps/web's dependencies, hoisted or not).
const require = createRequire(import.meta.url);
const echartsRoot = require.resolve('echarts/package.json').replace(/package\.json$/, '');
const zrenderRoot = require.resolve('zrender/package.json', { paths: [echartsRoot] }).replace(/package\.json$/, '');
const fileOf = (target: string) =>
  target.startsWith('echarts/') ? echartsRoot + target.slice('echarts/'.length) : zrenderRoot + target.slice('zrender/'.length);

/** The names a module exports (`default` included), read from its syntax tree. */
function exportNames(code: string): string[] {
  const names: string[] = [];
  for (const node of parseAst(code).body) {
    if (node.type === 'ExportDefaultDeclaration') names.push('default');
    if (node.type !== 'ExportNamedDeclaration') continue;
    for (const spec of node.specifiers) names.push(spec.exported.type === 'Identifier' ? spec.exported.name : String(spec.exported.value));
    const decl = node.declaration;
    if (!decl) continue;
    if (decl.type === 'VariableDeclaration') {
      for (const d of decl.declarations) if (d.id.type === 'Identifier') names.push(d.id.name);
    } else if ('id' in decl && decl.id?.type === 'Identifier') names.push(decl.id.name);
  }
  return names.sort();
}

describe('echarts-trim stubs (decision 0073)', () => {
  it('replace modules that exist in the installed ECharts / zrender', () => {
    for (const stub of ECHARTS_STUBS) expect(() => readFileSync(fileOf(stub.target)), stub.target).not.toThrow();
  });

  it.each(ECHARTS_STUBS.map((s) => [s.target, s] as const))('%s keeps the real module’s exports', (_target, stub) => {
    const real = exportNames(readFileSync(fileOf(stub.target), 'utf8'));
    expect(real.length).toBeGreaterThan(0);
    expect(exportNames(stub.code)).toEqual(real);
  });

  it('the timsort stand-in sorts stably, whole or a slice', async () => {
    const timsort = ECHARTS_STUBS.find((s) => s.target === 'zrender/lib/core/timsort.js')!;
    const url = `data:text/javascript,${encodeURIComponent(timsort.code)}`;
    const { default: sort } = (await import(/* @vite-ignore */ url)) as {
      default: (a: { k: number; i: number }[], c: (x: { k: number }, y: { k: number }) => number, lo?: number, hi?: number) => void;
    };
    const items = [3, 1, 2, 1, 3, 2, 1].map((k, i) => ({ k, i }));
    const whole = items.slice();
    sort(whole, (x, y) => x.k - y.k);
    expect(whole.map((x) => x.i)).toEqual([1, 3, 6, 2, 5, 0, 4]);
    const part = items.slice();
    sort(part, (x, y) => x.k - y.k, 2, 5);
    expect(part.map((x) => x.i)).toEqual([0, 1, 3, 2, 4, 5, 6]);
  });
});
