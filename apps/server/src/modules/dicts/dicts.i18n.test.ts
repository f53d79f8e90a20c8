import type { DictDataItem, DictStore, DictTypeItem, PublicLinkGroup, PublicPrice } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as m0013 from '../../db/migrations/0013_dict_label_en.ts';
import { DICTIONARIES } from '../../db/seed.ts';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';

/**
 * Dictionaries in both languages (decision 0066): migration 0013's English text for
 * the entries seeded before it, the seed in both languages, both labels through the admin
 * calls, and the public pages' labels in the caller's language.
 */
let ctx: TestContext;
let boss: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
});
afterAll(() => ctx.destroy());

const newData = (payload: Record<string, unknown>) => call<DictDataItem>(ctx, 'POST', '/api/admin/dict/data', { as: boss, payload });
const putData = (payload: Record<string, unknown>) => call<DictDataItem>(ctx, 'PUT', '/api/admin/dict/data', { as: boss, payload });
const dataOf = async (type: string, q = '') =>
  (await call<{ list: DictDataItem[]; total: number }>(ctx, 'GET', `/api/admin/dict/data/${type}?pageSize=100${q}`, { as: boss })).data;

describe('the seed and migration 0013', () => {
  it('seeds every built-in entry and type in both languages', async () => {
    for (const type of DICTIONARIES) {
      expect(type.nameEn, type.code).not.toBe('');
      for (const item of type.data) expect(item.labelEn, `${type.code} ${item.value}`).toMatch(/^[\x20-\x7e]+$/);
    }
    const store = (await call<DictStore>(ctx, 'GET', '/api/admin/dict/all', { as: boss })).data;
    expect(store.dictData.order_result?.map((d) => [d.value, d.label, d.labelEn])).toEqual([
      ['0', '正常', 'Normal'],
      ['1', '作弊', 'Cheating'],
      ['2', '未通过', 'Not passed'],
      ['3', '可疑', 'Suspicious'],
    ]);
    expect(store.dictData.public_private?.map((d) => d.labelEn)).toEqual(['Public', 'Private']);
    expect(store.dictDataTree.common_status?.map((d) => d.labelEn)).toEqual(['Enabled', 'Disabled']);
    const types = (await call<{ list: DictTypeItem[] }>(ctx, 'GET', '/api/admin/dict/type/list?pageSize=100', { as: boss })).data;
    expect(types.list.find((t) => t.code === 'order_result')).toMatchObject({ name: '检测结果', nameEn: 'Result' });
  });

  it('gives the entries of a database seeded before it their English text, and leaves other entries empty', async () => {
    // The database as it was before 0013: no English columns (the seed's rows stay).
    const raw = ctx.db.withoutPlugins();
    await m0013.down(raw);
    await raw
      .insertInto('dict_data' as never)
      .values({
        type_code: 'order_result',
        label: '待定',
        value: '9',
        sort: 9,
        css_class: '',
        list_class: 'default',
        is_default: 0,
        parent_id: null,
        status: 0,
        remark: '',
        created_at: Date.now(),
      } as never)
      .execute();
    await m0013.up(raw);

    const rows = await ctx.db.selectFrom('dictData').select(['typeCode', 'value', 'labelEn']).orderBy('id').execute();
    const en = (type: string, value: string) => rows.find((r) => r.typeCode === type && r.value === value)?.labelEn;
    expect(en('order_result', '1')).toBe('Cheating');
    expect(en('changed_mac', '0')).toBe('Not changed');
    expect(en('game', '王者荣耀')).toBe('Honor of Kings');
    expect(en('announcement_type', 'activity')).toBe('Event');
    expect(en('order_result', '9')).toBe('');
    const type = await ctx.db.selectFrom('dictTypes').select('nameEn').where('code', '=', 'public_private').executeTakeFirstOrThrow();
    expect(type.nameEn).toBe('Visibility');
    await ctx.db.deleteFrom('dictData').where('typeCode', '=', 'order_result').where('value', '=', '9').execute();
  });
});

describe('both labels through the admin calls', () => {
  it('creates, lists, finds, updates, keeps and clears the English label', async () => {
    const made = await newData({ typeCode: 'yes_no', label: '不确定', labelEn: ' Unsure ', value: '2' });
    expect(made.status).toBe(200);
    expect(made.data).toMatchObject({ label: '不确定', labelEn: 'Unsure' });
    // The label filter finds either language.
    expect((await dataOf('yes_no', '&label=unsu')).list.map((d) => d.value)).toEqual(['2']);
    expect((await dataOf('yes_no', `&label=${encodeURIComponent('不确')}`)).list.map((d) => d.value)).toEqual(['2']);

    const renamed = await putData({ id: made.data.id, typeCode: 'yes_no', label: '不确定', labelEn: 'Not sure', value: '2' });
    expect(renamed.data.labelEn).toBe('Not sure');
    // Left out: kept (a status toggle sends what it has).
    const kept = await putData({ id: made.data.id, typeCode: 'yes_no', label: '不清楚', value: '2', status: 0 });
    expect(kept.data).toMatchObject({ label: '不清楚', labelEn: 'Not sure', status: 0 });
    // '' clears it: readers then show the Chinese label.
    const cleared = await putData({ id: made.data.id, typeCode: 'yes_no', label: '不清楚', labelEn: '', value: '2' });
    expect(cleared.data.labelEn).toBe('');

    const tooLong = await newData({ typeCode: 'yes_no', label: '长', labelEn: 'x'.repeat(101), value: '3' });
    expect(tooLong.http).toBe(400);
    const all = (await call<{ code: string; data: DictDataItem[] }[]>(ctx, 'GET', '/api/admin/dict/type-data/all', { as: boss })).data;
    expect(all.find((t) => t.code === 'yes_no')?.data.map((d) => [d.value, d.labelEn])).toEqual([
      ['1', 'Yes'],
      ['2', ''],
      ['0', 'No'],
    ]);
    await call(ctx, 'DELETE', `/api/admin/dict/data/${made.data.id}`, { as: boss });
  });

  it('creates and updates a type’s English name, found by the name filter', async () => {
    const made = await call<DictTypeItem>(ctx, 'POST', '/api/admin/dict/type', {
      as: boss,
      payload: { code: 'region', name: '地区', nameEn: 'Region' },
    });
    expect(made.data).toMatchObject({ name: '地区', nameEn: 'Region' });
    const found = await call<{ list: DictTypeItem[] }>(ctx, 'GET', '/api/admin/dict/type/list?name=REGI', { as: boss });
    expect(found.data.list.map((t) => t.code)).toEqual(['region']);
    const updated = await call<DictTypeItem>(ctx, 'PUT', '/api/admin/dict/type', {
      as: boss,
      payload: { id: made.data.id, code: 'region', name: '区域' },
    });
    expect(updated.data).toMatchObject({ name: '区域', nameEn: 'Region' });
    const tree = await call<{ labelEn: string }[]>(ctx, 'GET', '/api/admin/dict/data/tree/order_result', { as: boss });
    expect(tree.data.map((n) => n.labelEn)).toEqual(['Normal', 'Cheating', 'Not passed', 'Suspicious']);
  });
});

describe('public pages in the caller’s language', () => {
  it('answers prices and links with English labels to an English caller, Chinese ones otherwise', async () => {
    await newData({ typeCode: 'public_price', label: '作弊', labelEn: 'Cheating', value: '5000' });
    await newData({ typeCode: 'public_price', label: '复检', value: '1000' });
    const prices = async (lang: string) =>
      (await call<{ list: PublicPrice[] }>(ctx, 'GET', '/api/public/prices', { headers: { 'accept-language': lang } })).data.list;
    expect((await prices('en-US')).map((p) => p.label)).toEqual(['Cheating', '复检']);
    expect((await prices('zh-CN')).map((p) => p.label)).toEqual(['作弊', '复检']);
    const links = async (lang: string) =>
      (await call<{ groups: PublicLinkGroup[] }>(ctx, 'GET', '/api/public/links', { headers: { 'accept-language': lang } })).data.groups;
    expect((await links('en-US')).map((g) => g.title)).toContain('Honor of Kings official site');
    expect((await links('zh-CN')).map((g) => g.title)).toContain('王者荣耀官网');
  });
});
