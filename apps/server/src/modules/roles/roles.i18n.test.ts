import type { AccountProfile, RoleItem } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as m0015 from '../../db/migrations/0015_role_description_en.ts';
import { ROLE_DESCRIPTIONS_EN } from '../../db/seed.ts';
import { call, createTestContext, fieldOf, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';

/**
 * Roles in both languages (decision 0080): the seed's English descriptions, migration 0015's
 * English text for the built-in roles of a database seeded before it, and the English
 * description through the role calls.
 */
let ctx: TestContext;
let boss: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
});
afterAll(() => ctx.destroy());

const createRole = (payload: Record<string, unknown>) => call<RoleItem>(ctx, 'POST', '/api/admin/role/create', { as: boss, payload });
const updateRole = (payload: Record<string, unknown>) => call<RoleItem>(ctx, 'POST', '/api/admin/role/update', { as: boss, payload });
const all = async () => (await call<RoleItem[]>(ctx, 'GET', '/api/admin/role/all', { as: boss })).data;
const englishOf = async () => new Map((await all()).map((r) => [r.name, r.descriptionEn] as const));

describe('the seed and migration 0015', () => {
  it('seeds the built-in roles in both languages', async () => {
    const en = await englishOf();
    expect(Object.fromEntries(['super_admin', 'admin', 'inspector', 'shop'].map((n) => [n, en.get(n)]))).toEqual(ROLE_DESCRIPTIONS_EN);
    for (const text of Object.values(ROLE_DESCRIPTIONS_EN)) expect(text).toMatch(/^[\x20-\x7e]{1,100}$/);
    // The account screen's role line too.
    const profile = await call<AccountProfile>(ctx, 'GET', '/api/admin/account/profile', { as: boss });
    expect(profile.data).toMatchObject({ roleName: 'super_admin', roleDescriptionEn: ROLE_DESCRIPTIONS_EN.super_admin });
  });

  it('gives the built-in roles of a database seeded before it the same English text, and no other role', async () => {
    const custom = await createRole({ name: 'migr_custom', description: '自定义', permissions: [], isAdmin: false });
    expect(custom.status).toBe(200);
    // The database as it was before 0015: no English column (the seed's rows stay). The admin
    // role's description was rewritten by an administrator: no guessed translation for it.
    await ctx.db.updateTable('roles').set({ description: '管理员（本店改写）' }).where('name', '=', 'admin').execute();
    const raw = ctx.db.withoutPlugins();
    await m0015.down(raw);
    await m0015.up(raw);

    const en = await englishOf();
    expect(en.get('super_admin')).toBe(ROLE_DESCRIPTIONS_EN.super_admin);
    expect(en.get('inspector')).toBe(ROLE_DESCRIPTIONS_EN.inspector);
    expect(en.get('shop')).toBe(ROLE_DESCRIPTIONS_EN.shop);
    expect(en.get('admin')).toBe('');
    expect(en.get('migr_custom')).toBe('');
    const stored = await ctx.db.selectFrom('roles').select('descriptionEn').where('name', '=', 'migr_custom').executeTakeFirstOrThrow();
    expect(stored.descriptionEn).toBeNull();

    // Back to the seeded state (a fresh database and a migrated one end the same).
    await ctx.db
      .updateTable('roles')
      .set({ description: '管理员：订单的全部操作', descriptionEn: ROLE_DESCRIPTIONS_EN.admin })
      .where('name', '=', 'admin')
      .execute();
    expect((await call(ctx, 'GET', `/api/admin/role/delete?id=${custom.data.id}`, { as: boss })).status).toBe(200);
  });
});

describe('the English description through the role calls', () => {
  it('creates, lists, finds, updates, keeps and clears it', async () => {
    const made = await createRole({
      name: 'auditor_en',
      description: '审计',
      descriptionEn: ' Reads the logs ',
      permissions: ['log:view'],
      isAdmin: false,
    });
    expect(made.status).toBe(200);
    expect(made.data).toMatchObject({ description: '审计', descriptionEn: 'Reads the logs' });
    const page = await call<{ list: RoleItem[] }>(ctx, 'GET', '/api/admin/role/list?name=auditor_en', { as: boss });
    expect(page.data.list.map((r) => [r.name, r.descriptionEn])).toEqual([['auditor_en', 'Reads the logs']]);

    const base = { id: made.data.id, name: 'auditor_en', description: '审计', permissions: ['log:view'], isAdmin: false };
    expect((await updateRole({ ...base, descriptionEn: 'Audits' })).data.descriptionEn).toBe('Audits');
    // Left out: kept.
    const kept = await updateRole({ ...base, description: '审计员' });
    expect(kept.data).toMatchObject({ description: '审计员', descriptionEn: 'Audits' });
    // Blank clears it: readers then show the Chinese description.
    expect((await updateRole({ ...base, descriptionEn: '   ' })).data.descriptionEn).toBe('');
    expect((await all()).find((r) => r.name === 'auditor_en')?.descriptionEn).toBe('');
    expect((await call(ctx, 'GET', `/api/admin/role/delete?id=${made.data.id}`, { as: boss })).status).toBe(200);
  });

  it('creates a role without one, and refuses one longer than 100 characters or not a string', async () => {
    const plain = await createRole({ name: 'plain_role', description: '普通', permissions: [], isAdmin: false });
    expect(plain.data.descriptionEn).toBe('');
    expect((await call(ctx, 'GET', `/api/admin/role/delete?id=${plain.data.id}`, { as: boss })).status).toBe(200);
    for (const descriptionEn of ['x'.repeat(101), 42]) {
      const res = await createRole({ name: 'long_en', description: '长', descriptionEn, permissions: [], isAdmin: false });
      expect(res.status).toBe(400);
      expect(fieldOf(res.data)).toBe('descriptionEn');
    }
    const exact = await createRole({ name: 'long_en', description: '长', descriptionEn: 'x'.repeat(100), permissions: [], isAdmin: false });
    expect(exact.data.descriptionEn).toHaveLength(100);
    expect((await call(ctx, 'GET', `/api/admin/role/delete?id=${exact.data.id}`, { as: boss })).status).toBe(200);
  });
});
