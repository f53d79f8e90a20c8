import { ALL_PERMISSIONS, type RoleItem } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, fieldOf, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
let boss: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
});
afterAll(() => ctx.destroy());

const createRole = (payload: Record<string, unknown>, as: LoggedIn = boss) =>
  call<RoleItem>(ctx, 'POST', '/api/admin/role/create', { as, payload });
const all = async () => (await call<RoleItem[]>(ctx, 'GET', '/api/admin/role/all', { as: boss })).data;

describe('roles', () => {
  it('lists the seeded roles as built in, with user counts', async () => {
    await createUser(ctx, 'shop');
    await createUser(ctx, 'shop');
    const roles = await all();
    const byName = new Map(roles.map((r) => [r.name, r]));
    expect([...byName.keys()].slice(0, 4)).toEqual(['super_admin', 'admin', 'inspector', 'shop']);
    expect(byName.get('super_admin')).toMatchObject({ isAdmin: true, builtIn: true, permissions: [...ALL_PERMISSIONS] });
    expect(byName.get('shop')).toMatchObject({ isAdmin: false, builtIn: true, userCount: 2 });
    const page = await call<{ list: RoleItem[]; total: number }>(ctx, 'GET', '/api/admin/role/list?pageSize=2&isAdmin=true', { as: boss });
    expect(page.data).toMatchObject({ total: 2, list: [{ name: 'super_admin' }, { name: 'admin', userCount: 0 }] });
    expect((await call<{ total: number }>(ctx, 'GET', '/api/admin/role/list?name=SPEC', { as: boss })).data.total).toBe(1);
  });

  it('creates, updates and deletes a role', async () => {
    const created = await createRole({
      name: 'auditor',
      description: ' Reads logs ',
      permissions: ['log:view', 'user:view'],
      isAdmin: false,
    });
    expect(created.status).toBe(200);
    // stored in catalogue order
    expect(created.data).toMatchObject({
      name: 'auditor',
      description: 'Reads logs',
      permissions: ['user:view', 'log:view'],
      builtIn: false,
      userCount: 0,
    });
    const updated = await call<RoleItem>(ctx, 'POST', '/api/admin/role/update', {
      as: boss,
      payload: { id: created.data.id, name: 'auditor2', description: 'Reads', permissions: ['log:view'], isAdmin: true },
    });
    expect(updated.data).toMatchObject({ name: 'auditor2', permissions: ['log:view'], isAdmin: true });
    expect((await call(ctx, 'GET', `/api/admin/role/delete?id=${created.data.id}`, { as: boss })).status).toBe(200);
    expect((await all()).some((r) => r.name === 'auditor2')).toBe(false);
    expect((await call(ctx, 'GET', `/api/admin/role/delete?id=${created.data.id}`, { as: boss })).status).toBe(404);
  });

  it.each([
    ['name of 1 character', { name: 'a' }, 'name'],
    ['name of 33 characters', { name: 'a'.repeat(33) }, 'name'],
    ['name with spaces', { name: 'my role' }, 'name'],
    ['empty description', { description: '' }, 'description'],
    ['isAdmin not chosen', { isAdmin: undefined }, 'isAdmin'],
    ['permissions as an object', { permissions: { log: 'view' } }, 'permissions'],
    ['an unknown permission', { permissions: ['log:view', 'log:erase'] }, 'permissions'],
  ])('refuses %s', async (_name, overrides, field) => {
    const res = await createRole({ name: 'valid_name', description: 'd', permissions: [], isAdmin: false, ...overrides });
    expect(res.status).toBe(400);
    expect(fieldOf(res.data)).toBe(field);
  });

  it('names the unknown permission and a taken name', async () => {
    expect((await createRole({ name: 'x_role', description: 'd', permissions: ['order:fly'], isAdmin: false })).msg).toBe(
      'Unknown permission: order:fly',
    );
    const taken = await createRole({ name: 'inspector', description: 'd', permissions: [], isAdmin: false });
    expect(taken).toMatchObject({ status: 409, msg: 'Role name "inspector" is already taken' });
    expect(fieldOf(taken.data)).toBe('name');
  });

  it('keeps built-in roles: no rename, no delete; super_admin keeps every permission', async () => {
    const roles = await all();
    const shop = roles.find((r) => r.name === 'shop');
    const sa = roles.find((r) => r.name === 'super_admin');
    if (shop === undefined || sa === undefined) throw new Error('seed missing');
    const rename = await call(ctx, 'POST', '/api/admin/role/update', {
      as: boss,
      payload: { id: shop.id, name: 'store', description: 'x', permissions: shop.permissions, isAdmin: false },
    });
    expect(rename).toMatchObject({ status: 400, msg: 'Built-in role shop cannot be renamed' });
    // the description and permissions of a built-in role may change
    const edit = await call<RoleItem>(ctx, 'POST', '/api/admin/role/update', {
      as: boss,
      payload: { id: shop.id, name: 'shop', description: 'Shops', permissions: [...shop.permissions, 'user:ledger'], isAdmin: false },
    });
    expect(edit.data.permissions).toContain('user:ledger');
    expect(await call(ctx, 'GET', `/api/admin/role/delete?id=${shop.id}`, { as: boss })).toMatchObject({
      status: 400,
      msg: 'Built-in role shop cannot be deleted',
    });
    const strip = await call(ctx, 'POST', '/api/admin/role/update', {
      as: boss,
      payload: { id: sa.id, name: 'super_admin', description: 'x', permissions: ['log:view'], isAdmin: true },
    });
    expect(strip).toMatchObject({ status: 400, msg: 'super_admin keeps every permission and stays an administrator role' });
    const notAdmin = await call(ctx, 'POST', '/api/admin/role/update', {
      as: boss,
      payload: { id: sa.id, name: 'super_admin', description: 'x', permissions: [...ALL_PERMISSIONS], isAdmin: false },
    });
    expect(notAdmin.status).toBe(400);
  });

  it('refuses to delete a role users hold, and to grant what the operator lacks', async () => {
    const role = await createRole({ name: 'held_role', description: 'd', permissions: ['order:view'], isAdmin: false });
    await createUser(ctx, 'held_role');
    expect(await call(ctx, 'GET', `/api/admin/role/delete?id=${role.data.id}`, { as: boss })).toMatchObject({
      status: 400,
      msg: 'Role held_role is held by 1 users and cannot be deleted',
    });

    await ctx.db
      .insertInto('roles')
      .values({
        name: 'role_keeper',
        description: 'd',
        permissions: JSON.stringify(['role:view', 'role:create', 'role:update']),
        isAdmin: 0,
        createdAt: Date.now(),
      })
      .execute();
    const keeper = await loginAs(ctx, 'role_keeper');
    const grab = await createRole({ name: 'grabber', description: 'd', permissions: ['user:delete'], isAdmin: false }, keeper);
    expect(grab).toMatchObject({ status: 403, msg: 'You cannot grant a permission you do not have: user:delete' });
    const own = (await all()).find((r) => r.name === 'role_keeper');
    const raise = await call(ctx, 'POST', '/api/admin/role/update', {
      as: keeper,
      payload: {
        id: own?.id,
        name: 'role_keeper',
        description: 'd',
        permissions: ['role:view', 'role:create', 'role:update', 'role:delete'],
        isAdmin: false,
      },
    });
    expect(raise.status).toBe(403);
  });
});
