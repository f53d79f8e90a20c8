import { SEEDED_ROLE_PERMISSIONS, serverMenuFor, type CurrentUser, type LogItem, type MenuList } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_DESCRIPTIONS_EN } from '../../db/seed.ts';
import { call, createTestContext, createUser, flushLogs, loginAs, loginWith, type LoggedIn, type TestContext } from '../../test/context.ts';

/**
 * Switch roles (decision 0060): a super admin viewing as a role is allowed and refused
 * exactly what a real user of that role is, on every route the app registers, and never more.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const VIEW_AS = '/api/admin/account/view-as';
const VIEW_AS_END = '/api/admin/account/view-as/end';
const INFO = '/api/admin/user/info';

/** A new super admin's session viewing as `role` (for a shop, as the account `userId`). */
async function viewer(role: string, userId?: number): Promise<LoggedIn> {
  const superAdmin = await loginAs(ctx, 'super_admin');
  const res = await call<CurrentUser>(ctx, 'POST', VIEW_AS, {
    as: superAdmin,
    payload: { role, ...(userId === undefined ? {} : { userId }) },
  });
  expect(res.status, res.msg).toBe(200);
  expect(res.data.role.name).toBe(role);
  return superAdmin;
}

const refused = (status: number) => status === 401 || status === 403;

/** The answer's status: the envelope's, or the HTTP status of a file (exports, templates). */
async function statusOf(method: Method, url: string, as: LoggedIn): Promise<{ status: number; msg: string }> {
  const res = await ctx.app.inject({ method, url, headers: as.headers, ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}) });
  if (!(res.headers['content-type'] ?? '').toString().startsWith('application/json')) return { status: res.statusCode, msg: '' };
  const body = res.json<{ status: number; msg: string }>();
  return { status: body.status, msg: body.msg };
}

/** Every API route the app registers (its OpenAPI document lists each one), path parameters filled. */
function registeredRoutes(): [Method, string][] {
  const spec = ctx.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const out: [Method, string][] = [];
  for (const [path, operations] of Object.entries(spec.paths)) {
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const method of Object.keys(operations)) {
      const upper = method.toUpperCase();
      if (upper === 'GET' || upper === 'POST' || upper === 'PUT' || upper === 'DELETE')
        out.push([upper, path.replace(/\{[^}]+\}/g, '999999')]);
    }
  }
  return out;
}

/**
 * Tested on their own below: logging out and switching back would end the very session the
 * loop is comparing with.
 */
const SESSION_ROUTES = new Set(['GET /api/admin/user/logout', `POST ${VIEW_AS}`, `POST ${VIEW_AS_END}`]);
/**
 * Narrower on purpose while viewing as a shop account: that account's own profile, password,
 * sessions and second factor are not the super admin's to change (refused, where the shop
 * itself may).
 */
const ACCOUNT_OWN = new Set([
  'POST /api/admin/account/profile',
  'POST /api/admin/account/password',
  'POST /api/admin/account/sessions/end-others',
  'POST /api/admin/account/second-factor/enrol',
  'POST /api/admin/account/second-factor/confirm',
  'POST /api/admin/account/second-factor/disable',
]);

describe('viewing as a role: the same allow/deny as that role on every registered route, never more', () => {
  it('covers the whole route table (the OpenAPI document lists the routes of every module)', () => {
    const routes = registeredRoutes().map(([m, p]) => `${m} ${p}`);
    expect(routes.length).toBeGreaterThan(60);
    for (const known of [
      'GET /api/admin/user/list',
      'POST /api/admin/order/create',
      'GET /api/admin/log/list',
      'POST /api/menu',
      `POST ${VIEW_AS}`,
    ]) {
      expect(routes).toContain(known);
    }
  });

  it.each(['admin', 'inspector', 'shop'])('as %s', async (role) => {
    const real = await loginAs(ctx, role);
    const view = await viewer(role, role === 'shop' ? real.id : undefined);
    const superAdmin = await loginAs(ctx, 'super_admin');
    const mismatches: string[] = [];
    let narrowedFromSuperAdmin = 0;
    for (const [method, url] of registeredRoutes()) {
      const key = `${method} ${url}`;
      if (SESSION_ROUTES.has(key)) continue;
      const asReal = await statusOf(method, url, real);
      const asView = await statusOf(method, url, view);
      // Never wider: whatever the real role is refused, the view is refused too.
      if (refused(asReal.status) && !refused(asView.status)) mismatches.push(`${key}: widened (${asReal.status} → ${asView.status})`);
      if (!refused(asReal.status) && refused(asView.status) && !(role === 'shop' && ACCOUNT_OWN.has(key))) {
        mismatches.push(`${key}: narrowed beyond the role (${asView.status} ${asView.msg})`);
      }
      if (refused(asView.status)) {
        const asSuper = await statusOf(method, url, superAdmin);
        if (!refused(asSuper.status)) narrowedFromSuperAdmin++;
      }
    }
    expect(mismatches).toEqual([]);
    // The comparison meant something: the view refused calls the super admin's own session may make.
    expect(narrowedFromSuperAdmin).toBeGreaterThan(10);
    // And the session was viewing all along.
    const info = await call<CurrentUser>(ctx, 'GET', INFO, { as: view });
    expect(info.data.viewAs?.role).toBe(role);
    // The viewed role's descriptions, English included.
    expect(info.data.role.descriptionEn).toBe(ROLE_DESCRIPTIONS_EN[role as keyof typeof ROLE_DESCRIPTIONS_EN]);
  });

  it("refuses a shop account's own profile, password and sessions to the super admin viewing as it", async () => {
    const shop = await loginAs(ctx, 'shop');
    const view = await viewer('shop', shop.id);
    const profile = { nickname: 'changed', wechat: 'wx_changed', phone: '13900000000' };
    const edit = await call(ctx, 'POST', '/api/admin/account/profile', { as: view, payload: profile });
    expect(edit.status).toBe(403);
    const password = await call(ctx, 'POST', '/api/admin/account/password', {
      as: view,
      payload: { oldPassword: shop.password, newPassword: 'Another#2026' },
    });
    expect(password.status).toBe(403);
    const endOthers = await call(ctx, 'POST', '/api/admin/account/sessions/end-others', { as: view });
    expect(endOthers.status).toBe(403);
    // The shop's own session is untouched and the shop still signs in with its password.
    expect((await call(ctx, 'GET', INFO, { as: shop })).status).toBe(200);
    await loginWith(ctx, shop.username, shop.password);
  });
});

describe('switching roles', () => {
  it('is refused to every role but super admin', async () => {
    const shop = await createUser(ctx, 'shop');
    for (const role of ['admin', 'inspector', 'shop']) {
      const user = await loginAs(ctx, role);
      const res = await call(ctx, 'POST', VIEW_AS, { as: user, payload: { role: 'shop', userId: shop.id } });
      expect(res.status, role).toBe(403);
      expect((await call<CurrentUser>(ctx, 'GET', INFO, { as: user })).data.viewAs).toBeUndefined();
    }
    const anonymous = await call(ctx, 'POST', VIEW_AS, { payload: { role: 'shop', userId: shop.id } });
    expect(anonymous.status).toBe(401);
  });

  it('checks the target: a role it may view, and for a shop one enabled shop account', async () => {
    const superAdmin = await loginAs(ctx, 'super_admin');
    const admin = await createUser(ctx, 'admin');
    const disabled = await createUser(ctx, 'shop', { status: 0 });
    const shop = await createUser(ctx, 'shop');
    const tries: [object, number][] = [
      [{ role: 'super_admin' }, 400],
      [{ role: 'shop' }, 400],
      [{ role: 'shop', userId: admin.id }, 400],
      [{ role: 'shop', userId: 99_999_999 }, 400],
      [{ role: 'shop', userId: disabled.id }, 400],
      [{ role: 'admin', userId: shop.id }, 400],
    ];
    for (const [payload, status] of tries) {
      const res = await call(ctx, 'POST', VIEW_AS, { as: superAdmin, payload });
      expect(res.status, JSON.stringify(payload)).toBe(status);
      expect(res.msg).not.toBe('');
    }
    expect((await call<CurrentUser>(ctx, 'GET', INFO, { as: superAdmin })).data.viewAs).toBeUndefined();
  });

  it('answers the viewed account and menu, refuses a second switch, and switches back', async () => {
    const shop = await createUser(ctx, 'shop');
    const superAdmin = await loginAs(ctx, 'super_admin');
    const started = await call<CurrentUser>(ctx, 'POST', VIEW_AS, { as: superAdmin, payload: { role: 'shop', userId: shop.id } });
    expect(started.data).toMatchObject({
      id: shop.id,
      username: shop.username,
      role: { name: 'shop', isAdmin: false, permissions: [...SEEDED_ROLE_PERMISSIONS.shop] },
      viewAs: { role: 'shop', userId: shop.id, username: shop.username, by: { id: superAdmin.id, username: superAdmin.username } },
    });
    expect((await call<CurrentUser>(ctx, 'GET', INFO, { as: superAdmin })).data).toEqual(started.data);
    // Data scoped by the caller acts as the shop: its own profile, with its balance.
    const profile = await call<{ username: string; shop: unknown }>(ctx, 'GET', '/api/admin/account/profile', { as: superAdmin });
    expect(profile.data.username).toBe(shop.username);
    expect(profile.data.shop).not.toBeNull();
    // The menu is the viewed role's.
    const menu = await call<MenuList>(ctx, 'POST', '/api/menu', { as: superAdmin });
    expect(menu.data).toEqual(serverMenuFor('shop'));
    // An admin call is refused although the session is a super admin's.
    expect((await call(ctx, 'GET', '/api/admin/user/list', { as: superAdmin })).status).toBe(403);
    // No switching from a view to another: switch back first.
    const again = await call(ctx, 'POST', VIEW_AS, { as: superAdmin, payload: { role: 'admin' } });
    expect(again.status).toBe(403);

    const end = await call<{ ended: boolean }>(ctx, 'POST', VIEW_AS_END, { as: superAdmin });
    expect(end.data).toEqual({ ended: true });
    const back = await call<CurrentUser>(ctx, 'GET', INFO, { as: superAdmin });
    expect(back.data).toMatchObject({ id: superAdmin.id, role: { name: 'super_admin' } });
    expect(back.data.viewAs).toBeUndefined();
    expect((await call<MenuList>(ctx, 'POST', '/api/menu', { as: superAdmin })).data).toEqual(serverMenuFor('super_admin'));
    expect((await call(ctx, 'GET', '/api/admin/user/list', { as: superAdmin })).status).toBe(200);
    // Switching back when not viewing changes nothing.
    expect((await call<{ ended: boolean }>(ctx, 'POST', VIEW_AS_END, { as: superAdmin })).data).toEqual({ ended: false });
  });

  it.each(['admin', 'inspector', 'shop'])('answers the %s menu while viewing as it', async (role) => {
    const shop = role === 'shop' ? await createUser(ctx, 'shop') : undefined;
    const view = await viewer(role, shop?.id);
    const real = await loginAs(ctx, role);
    const viewed = await call<MenuList>(ctx, 'POST', '/api/menu', { as: view });
    const own = await call<MenuList>(ctx, 'POST', '/api/menu', { as: real });
    expect(viewed.data).toEqual(own.data);
    expect(viewed.data).toEqual(serverMenuFor(role));
  });

  it('keeps the view to what the super admin may do: the viewed permissions are cut to their own', async () => {
    const view = await viewer('admin');
    const row = await ctx.db.selectFrom('roles').select('permissions').where('name', '=', 'super_admin').executeTakeFirstOrThrow();
    const without = (JSON.parse(row.permissions) as string[]).filter((p) => p !== 'order:export');
    await ctx.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(without) })
      .where('name', '=', 'super_admin')
      .execute();
    try {
      const info = await call<CurrentUser>(ctx, 'GET', INFO, { as: view });
      expect(info.data.role.name).toBe('admin');
      expect(info.data.role.permissions).not.toContain('order:export');
      expect(info.data.role.permissions).toContain('order:view');
      expect((await call(ctx, 'GET', '/api/admin/order/export', { as: view })).status).toBe(403);
    } finally {
      await ctx.db.updateTable('roles').set({ permissions: row.permissions }).where('name', '=', 'super_admin').execute();
    }
  });

  it('ends when the viewed shop is disabled: that call is refused, the next is the super admin again', async () => {
    const shop = await createUser(ctx, 'shop');
    const view = await viewer('shop', shop.id);
    await ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', shop.id).execute();
    const refusedCall = await call(ctx, 'GET', INFO, { as: view });
    expect(refusedCall.status).toBe(403);
    const after = await call<CurrentUser>(ctx, 'GET', INFO, { as: view });
    expect(after.data.role.name).toBe('super_admin');
    expect(after.data.viewAs).toBeUndefined();
  });

  it('ends at logout: the session is gone, and the next sign-in is the super admin', async () => {
    const shop = await createUser(ctx, 'shop');
    const view = await viewer('shop', shop.id);
    const info = await call<CurrentUser>(ctx, 'GET', INFO, { as: view });
    expect((await call(ctx, 'GET', '/api/admin/user/logout', { as: view })).status).toBe(200);
    expect((await call(ctx, 'GET', INFO, { as: view })).status).toBe(401);
    const again = await loginWith(ctx, info.data.viewAs?.by.username ?? '', view.password);
    const fresh = await call<CurrentUser>(ctx, 'GET', INFO, { as: again });
    expect(fresh.data.role.name).toBe('super_admin');
    expect(fresh.data.viewAs).toBeUndefined();
  });

  it('records the switch, the calls made while viewing (refused ones too) and the switch back in the operation log', async () => {
    const shop = await createUser(ctx, 'shop');
    const superAdmin = await loginAs(ctx, 'super_admin');
    const reader = await loginAs(ctx, 'super_admin');
    await call(ctx, 'POST', VIEW_AS, { as: superAdmin, payload: { role: 'shop', userId: shop.id } });
    expect((await call(ctx, 'POST', '/api/admin/user/create', { as: superAdmin, payload: {} })).status).toBe(403);
    await call(ctx, 'POST', VIEW_AS_END, { as: superAdmin });
    await flushLogs(ctx);

    const list = async (locale: string) =>
      (
        await call<{ list: LogItem[] }>(ctx, 'GET', `/api/admin/log/list?operator=${superAdmin.username}&pageSize=10`, {
          as: reader,
          headers: { 'accept-language': locale },
        })
      ).data.list;
    const rows = (await list('en-US')).reverse();
    expect(rows.map((r) => [r.module, r.action, r.status, r.operatorId])).toEqual([
      ['auth', 'login', 'success', null],
      ['account', 'viewAs', 'success', superAdmin.id],
      ['user', 'create', 'failed', superAdmin.id],
      ['account', 'viewAsEnd', 'success', superAdmin.id],
    ]);
    expect(rows[1]?.content).toBe(`User ${superAdmin.username} (#${superAdmin.id}): viewing as shop ${shop.username} (#${shop.id})`);
    expect(rows[2]?.content).toMatch(new RegExp(`^\\[viewing as shop ${shop.username}\\] `));
    expect(rows[3]?.content).toBe(`[viewing as shop ${shop.username}] User ${superAdmin.username} (#${superAdmin.id}): switched back`);
    const zh = (await list('zh-CN')).reverse();
    expect(zh[3]?.content).toBe(`[以 shop ${shop.username} 身份查看] 用户 ${superAdmin.username}（#${superAdmin.id}）：已切换回来`);
    // Stored in one form.
    const stored = await ctx.db
      .selectFrom('operationLogs')
      .select('content')
      .where('action', '=', 'viewAsEnd')
      .where('operatorId', '=', superAdmin.id)
      .executeTakeFirstOrThrow();
    expect(stored.content).toMatch(/^\[view-as shop /);
  });

  it("counts page views made while viewing as the super admin's, not the shop's", async () => {
    const shop = await createUser(ctx, 'shop');
    const view = await viewer('shop', shop.id);
    const path = `/order/inspect?viewing=${shop.id}`;
    const res = await call(ctx, 'POST', '/api/visit-stats/create', { as: view, payload: { path } });
    expect(res.status).toBe(200);
    const info = await call<CurrentUser>(ctx, 'GET', INFO, { as: view });
    const row = await ctx.db.selectFrom('pageViews').select('userId').where('path', '=', path).executeTakeFirstOrThrow();
    expect(row.userId).toBe(info.data.viewAs?.by.id);
    expect(row.userId).not.toBe(shop.id);
  });
});
