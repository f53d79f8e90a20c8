import type { DictStore } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertReturningId } from '../../db/dialect.ts';
import { createTestContext, loginAs, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

const entry = (typeCode: string, label: string, value: string, extra: { status?: number; parentId?: number | null; sort?: number } = {}) =>
  insertReturningId(ctx.db, 'dictData', {
    typeCode,
    label,
    value,
    sort: extra.sort ?? 0,
    cssClass: '',
    listClass: 'default',
    isDefault: 0,
    parentId: extra.parentId ?? null,
    status: extra.status ?? 1,
    remark: '',
    createdAt: Date.now(),
  });

describe('GET /api/admin/dict/all', () => {
  it('needs a session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/dict/all' });
    expect(res.statusCode).toBe(401);
  });

  it('answers the seeded dictionaries, flat and as trees, in sort order', async () => {
    const me = await loginAs(ctx, 'shop');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/dict/all', headers: me.headers });
    const body = res.json<{ status: number; data: DictStore }>();
    expect(body.status).toBe(200);
    expect(Object.keys(body.data.dictData).sort()).toEqual([
      'announcement_type',
      'changed_mac',
      'common_status',
      'game',
      'linkstore',
      'order_result',
      'public_private',
      'yes_no',
    ]);
    expect(body.data.dictData.order_result?.map((d) => [d.value, d.label, d.listClass])).toEqual([
      ['0', '正常', 'success'],
      ['1', '作弊', 'danger'],
      ['2', '未通过', 'info'],
      ['3', '可疑', 'warning'],
    ]);
    expect(body.data.dictData.order_result?.[0]).toMatchObject({ typeCode: 'order_result', isDefault: true, parentId: null, status: 1 });
    expect(body.data.dictDataTree.order_result).toHaveLength(4);
  });

  it('leaves out disabled entries and disabled types, and nests children under parents', async () => {
    await ctx.db.insertInto('dictTypes').values({ code: 'region', name: 'Region', status: 1, remark: '', createdAt: Date.now() }).execute();
    await ctx.db.insertInto('dictTypes').values({ code: 'hidden', name: 'Hidden', status: 0, remark: '', createdAt: Date.now() }).execute();
    const asia = await entry('region', 'Asia', 'asia', { sort: 1 });
    await entry('region', 'China', 'cn', { parentId: asia, sort: 2 });
    await entry('region', 'Japan', 'jp', { parentId: asia, sort: 1 });
    await entry('region', 'Atlantis', 'atl', { status: 0 });
    await entry('hidden', 'Secret', 's');

    const me = await loginAs(ctx, 'inspector');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/dict/all', headers: me.headers });
    const { data } = res.json<{ data: DictStore }>();
    expect(data.dictData.region?.map((d) => d.value)).toEqual(['asia', 'jp', 'cn']);
    expect(data.dictData.hidden).toBeUndefined();
    const tree = data.dictDataTree.region as { value: string; children?: { value: string }[] }[];
    expect(tree.map((n) => n.value)).toEqual(['asia']);
    expect(tree[0]?.children?.map((n) => n.value)).toEqual(['jp', 'cn']);
  });
});
