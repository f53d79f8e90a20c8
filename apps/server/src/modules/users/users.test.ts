// Over 400 lines: the user API's behaviour on one seeded database (escalation rules, sessions ended, subscriptions), whose cases build on the same people.
import type { SubscriptionRecord, UserItem, UserOption } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../lib/time.ts';
import { call, createUser, fieldOf, loginAs, loginWith, TEST_PASSWORD, type LoggedIn, type TestContext } from '../../test/context.ts';
import { createTestContext } from '../../test/context.ts';
import { avatarUrls } from './users.service.ts';

let ctx: TestContext;
let boss: LoggedIn;
const roleIds: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
  for (const r of await ctx.db.selectFrom('roles').select(['id', 'name']).execute()) roleIds[r.name] = r.id;
});
afterAll(() => ctx.destroy());

let serial = 0;
const shopBody = (overrides: Record<string, unknown> = {}) => ({
  username: `shop_u${process.pid % 1000}_${++serial}`,
  password: 'Secret123',
  nickname: 'Shop',
  roleId: roleIds.shop,
  wechat: 'wx_shop',
  phone: '13900000000',
  defaultPrice: 1000,
  defaultPriceCheat: 2000,
  defaultPriceSuspect: 1500,
  defaultPriceNotPass: 500,
  ...overrides,
});

const create = (body: Record<string, unknown>, as: { headers: Record<string, string> } = boss) =>
  call<UserItem>(ctx, 'POST', '/api/admin/user/create', { as, payload: body });

describe('POST /api/admin/user/create', () => {
  it('creates a user and never answers a password or hash', async () => {
    const body = shopBody({ nickname: '  Shop One  ', ifPublic: 1 });
    const res = await create(body);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      username: body.username,
      nickname: 'Shop One',
      roleName: 'shop',
      roleIsAdmin: false,
      status: 1,
      ifPublic: 1,
      defaultPrice: 1000,
      defaultPriceCheat: 2000,
      defaultPriceSuspect: 1500,
      defaultPriceNotPass: 500,
      serviceEndDate: null,
      subscriptionState: 'none',
      subscriptionType: null,
      loginTime: null,
    });
    expect(JSON.stringify(res.data)).not.toMatch(/password|Secret123|argon2/i);
    // and the new user can sign in with the password given
    await loginWith(ctx, body.username, 'Secret123');
  });

  it.each([
    ['username of 5 characters', { username: 'abcde' }, 'username'],
    ['username of 21 characters', { username: 'a'.repeat(21) }, 'username'],
    ['empty username', { username: '' }, 'username'],
    ['password of 5 characters', { password: '12345' }, 'password'],
    ['password of 21 characters', { password: 'p'.repeat(21) }, 'password'],
    ['empty nickname', { nickname: '' }, 'nickname'],
    ['blank wechat', { wechat: '   ' }, 'wechat'],
    ['price as text', { defaultPrice: 'abc' }, 'defaultPrice'],
    ['negative price', { defaultPriceCheat: -1 }, 'defaultPriceCheat'],
    ['role id as text', { roleId: 'shop' }, 'roleId'],
    ['status out of range', { status: 2 }, 'status'],
  ])('refuses %s (400, naming the field)', async (_name, overrides, field) => {
    const res = await create(shopBody(overrides));
    expect(res.status).toBe(400);
    expect(fieldOf(res.data)).toBe(field);
  });

  it('accepts usernames and passwords of exactly 6 and 20 characters', async () => {
    expect((await create(shopBody({ username: `u${serial++}`.padEnd(6, 'x').slice(0, 6), password: '123456' }))).status).toBe(200);
    expect((await create(shopBody({ username: `v${serial++}`.padEnd(20, 'y'), password: 'p'.repeat(20) }))).status).toBe(200);
  });

  it('refuses a missing price and an unknown role', async () => {
    const { defaultPriceNotPass: _omit, ...noPrice } = shopBody();
    expect(fieldOf((await create(noPrice)).data)).toBe('defaultPriceNotPass');
    const res = await create(shopBody({ roleId: 999_999 }));
    expect(res.status).toBe(400);
    expect(res.msg).toBe('Role #999999 does not exist');
    expect(fieldOf(res.data)).toBe('roleId');
  });

  it('refuses a username already taken, naming it', async () => {
    const body = shopBody();
    expect((await create(body)).status).toBe(200);
    const again = await create({ ...body, nickname: 'Other' });
    expect(again.status).toBe(409);
    expect(again.msg).toBe(`Username "${body.username}" is already taken`);
    expect(fieldOf(again.data)).toBe('username');
  });

  it('stores only enabled values of the dictionaries behind status and ifPublic', async () => {
    await ctx.db.updateTable('dictData').set({ status: 0 }).where('typeCode', '=', 'public_private').where('value', '=', '1').execute();
    try {
      const res = await create(shopBody({ ifPublic: 1 }));
      expect(res.status).toBe(400);
      expect(res.msg).toBe('"1" is not an enabled value of dictionary public_private');
      expect(fieldOf(res.data)).toBe('ifPublic');
    } finally {
      await ctx.db.updateTable('dictData').set({ status: 1 }).where('typeCode', '=', 'public_private').where('value', '=', '1').execute();
    }
    expect((await create(shopBody({ ifPublic: 1 }))).status).toBe(200);
  });

  it('does not let an operator give a role with permissions they lack', async () => {
    // holds what a shop holds, and the user permissions; not everything a super_admin holds
    const hr = await roleWith(['user:view', 'user:create', 'user:update', 'user:status', 'order:view', 'order:export', 'order:download']);
    const res = await create(shopBody({ roleId: roleIds.super_admin }), hr);
    expect(res.status).toBe(403);
    expect(fieldOf(res.data)).toBe('roleId');
    expect((await create(shopBody(), hr)).status).toBe(200);
    // nor an inspector, whose order:create it lacks
    expect((await create(shopBody({ roleId: roleIds.inspector }), hr)).status).toBe(403);
  });
});

let roleSerial = 0;
/** A signed-in user of a new role holding exactly these permissions. */
async function roleWith(permissions: string[], isAdmin = false): Promise<LoggedIn> {
  const name = `r${process.pid % 1000}x${++roleSerial}`;
  await ctx.db
    .insertInto('roles')
    .values({ name, description: name, permissions: JSON.stringify(permissions), isAdmin: isAdmin ? 1 : 0, createdAt: Date.now() })
    .execute();
  return loginAs(ctx, name);
}

describe('GET /api/admin/user/list and /search', () => {
  it('filters by case-insensitive prefix, role, status and created range, newest first, with the total', async () => {
    const tag = `Zq${process.pid % 1000}`;
    const a = await create(shopBody({ username: `${tag}aa1`, nickname: 'Alpha' }));
    const b = await create(shopBody({ username: `${tag.toLowerCase()}ab2`, nickname: 'Beta', status: 0 }));
    await create(shopBody({ username: `${tag}ba3`, roleId: roleIds.inspector }));
    const q = (s: string) => call<{ list: UserItem[]; total: number }>(ctx, 'GET', `/api/admin/user/list?${s}`, { as: boss });

    const prefix = await q(`username=${tag.toUpperCase()}A&pageSize=10`);
    expect(prefix.data.total).toBe(2);
    expect(prefix.data.list.map((u) => u.username)).toEqual([b.data.username, a.data.username]);

    expect((await q(`username=${tag}&roleId=${roleIds.inspector}`)).data.list.map((u) => u.username)).toEqual([`${tag}ba3`]);
    expect((await q(`username=${tag}&status=0`)).data.list.map((u) => u.username)).toEqual([b.data.username]);
    expect((await q(`nickname=alp&username=${tag}`)).data.total).toBe(1);
    expect((await q(`username=${tag}&pageSize=1&page=2`)).data).toMatchObject({ total: 3, list: [{ username: b.data.username }] });

    const after = new Date(Date.parse(a.data.createdTime) + 1).toISOString();
    expect((await q(`username=${tag}&createdEnd=${encodeURIComponent(a.data.createdTime)}`)).data.list.map((u) => u.username)).toContain(
      a.data.username,
    );
    expect((await q(`username=${tag}&createdStart=${encodeURIComponent(after)}`)).data.list.map((u) => u.username)).not.toContain(
      a.data.username,
    );
    expect((await q('username=%25')).data.total).toBe(0); // LIKE wildcards are matched literally
  });

  it('refuses bad filters', async () => {
    expect((await call(ctx, 'GET', '/api/admin/user/list?pageSize=500', { as: boss })).status).toBe(400);
    expect((await call(ctx, 'GET', '/api/admin/user/list?status=3', { as: boss })).status).toBe(400);
    expect((await call(ctx, 'GET', '/api/admin/user/list?createdStart=yesterday', { as: boss })).status).toBe(400);
  });

  it('search answers enabled users by username or nickname prefix, optionally of one role', async () => {
    const tag = `Sr${process.pid % 1000}`;
    await create(shopBody({ username: `${tag}one`, nickname: 'Moon' }));
    await create(shopBody({ username: `${tag}two`, status: 0 }));
    await create(shopBody({ username: `xx${tag}three`, nickname: `${tag} nick`, roleId: roleIds.inspector }));
    const s = (q: string) => call<UserOption[]>(ctx, 'GET', `/api/admin/user/search?${q}`, { as: boss });
    expect((await s(`keyword=${tag.toLowerCase()}`)).data.map((u) => u.username).sort()).toEqual([`${tag}one`, `xx${tag}three`]);
    expect((await s(`keyword=${tag}&roleName=inspector`)).data).toEqual([
      { id: expect.any(Number), username: `xx${tag}three`, nickname: `${tag} nick`, roleName: 'inspector', status: 1 },
    ]);
    expect((await s(`keyword=${tag}&includeDisabled=true`)).data).toHaveLength(3);
    expect((await s(`keyword=${tag}&limit=1`)).data).toHaveLength(1);
  });
});

describe('updates, status, password reset and delete', () => {
  it('updates a user; changing their role ends their sessions', async () => {
    const u = await createUser(ctx, 'shop');
    const s = await loginWith(ctx, u.username, TEST_PASSWORD);
    const res = await call<UserItem>(ctx, 'POST', '/api/admin/user/update', {
      as: boss,
      payload: { ...shopBody(), username: undefined, password: undefined, id: u.id, nickname: 'Renamed', defaultPrice: 1234 },
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: u.id, username: u.username, nickname: 'Renamed', defaultPrice: 1234 });
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: s })).status).toBe(200);

    await call(ctx, 'POST', '/api/admin/user/update', {
      as: boss,
      payload: { ...shopBody(), username: undefined, password: undefined, id: u.id, roleId: roleIds.inspector },
    });
    const after = await call(ctx, 'GET', '/api/admin/user/info', { as: s });
    expect(after.status).toBe(50012);
    expect(after.msg).toBe('Your role was changed, please log in again');
  });

  it("staff keep or remove a user's avatar but never set one: the user uploads their own (decision 0062)", async () => {
    const created = await create(shopBody({ avatar: '/files/avatar/1/elsewhere.png' }));
    expect(created.status).toBe(400);
    expect(fieldOf(created.data)).toBe('avatar');
    expect(created.msg).toContain('staff may only keep or remove it');

    const u = await createUser(ctx, 'shop');
    const picture = `/files/avatar/${u.id}/0123456789abcdef0123456789abcdef`;
    await ctx.db.updateTable('users').set({ avatar: picture }).where('id', '=', u.id).execute();
    const update = (avatar: string | undefined) =>
      call<UserItem>(ctx, 'POST', '/api/admin/user/update', {
        as: boss,
        payload: { ...shopBody(), username: undefined, password: undefined, id: u.id, avatar },
      });
    const other = await update('https://example.com/x.png');
    expect(other.status).toBe(400);
    expect(fieldOf(other.data)).toBe('avatar');
    const avatarNow = async () =>
      (await ctx.db.selectFrom('users').select('avatar').where('id', '=', u.id).executeTakeFirstOrThrow()).avatar;
    expect(await avatarNow()).toBe(picture);
    expect((await update(picture)).status).toBe(200);
    expect((await update(undefined)).status).toBe(200);
    expect(await avatarNow()).toBe(picture);
    expect((await update('')).status).toBe(200);
    expect(await avatarNow()).toBe('');
  });

  it('refuses an unknown user, and to update a user of a higher role', async () => {
    const payload = { ...shopBody(), username: undefined, password: undefined, id: 999_999 };
    expect((await call(ctx, 'POST', '/api/admin/user/update', { as: boss, payload })).status).toBe(404);
    const hr = await roleWith(['user:view', 'user:update', 'user:status', 'user:delete', 'user:password:reset']);
    const other = await createUser(ctx, 'super_admin');
    const res = await call(ctx, 'POST', '/api/admin/user/update', {
      as: hr,
      payload: { ...payload, id: other.id, roleId: roleIds.super_admin },
    });
    expect(res.status).toBe(403);
    expect(res.msg).toContain('their role has permissions you do not have');
    expect((await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: hr, payload: { id: other.id, status: 0 } })).status).toBe(403);
    expect(
      (await call(ctx, 'POST', '/api/admin/user/resetPassword', { as: hr, payload: { id: other.id, newPassword: 'whatever1' } })).status,
    ).toBe(403);
    expect((await call(ctx, 'GET', `/api/admin/user/delete?id=${other.id}`, { as: hr })).status).toBe(403);
  });

  it('nobody changes their own role or disables or deletes themselves', async () => {
    const me = await loginAs(ctx, 'super_admin');
    const base = { ...shopBody(), username: undefined, password: undefined, id: me.id };
    const role = await call(ctx, 'POST', '/api/admin/user/update', { as: me, payload: { ...base, roleId: roleIds.shop } });
    expect(role).toMatchObject({ status: 403, msg: 'You cannot change your own role' });
    const selfOff = await call(ctx, 'POST', '/api/admin/user/update', {
      as: me,
      payload: { ...base, roleId: roleIds.super_admin, status: 0 },
    });
    expect(selfOff).toMatchObject({ status: 403, msg: 'You cannot disable your own account' });
    expect(await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: me, payload: { id: me.id, status: 0 } })).toMatchObject({
      status: 403,
    });
    expect(await call(ctx, 'GET', `/api/admin/user/delete?id=${me.id}`, { as: me })).toMatchObject({
      status: 403,
      msg: 'You cannot delete your own account',
    });
    // editing one's own details (same role, enabled) is fine
    expect(
      (await call(ctx, 'POST', '/api/admin/user/update', { as: me, payload: { ...base, roleId: roleIds.super_admin, nickname: 'Me' } }))
        .status,
    ).toBe(200);
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: me })).status).toBe(200);
  });

  it('disabling ends the sessions at once (50012), enabling lets them sign in again', async () => {
    const u = await createUser(ctx, 'shop');
    const s = await loginWith(ctx, u.username, TEST_PASSWORD);
    expect((await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: boss, payload: { id: u.id, status: 0 } })).status).toBe(200);
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: s })).status).toBe(50012);
    expect((await call(ctx, 'POST', '/api/admin/user/login', { payload: { username: u.username, password: TEST_PASSWORD } })).status).toBe(
      403,
    );
    expect((await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: boss, payload: { id: u.id, status: 1 } })).status).toBe(200);
    await loginWith(ctx, u.username, TEST_PASSWORD);
    expect((await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: boss, payload: { id: u.id, status: 5 } })).status).toBe(400);
  });

  it('resetting the password ends the sessions; only the new password works', async () => {
    const u = await createUser(ctx, 'inspector');
    const s = await loginWith(ctx, u.username, TEST_PASSWORD);
    expect(
      (await call(ctx, 'POST', '/api/admin/user/resetPassword', { as: boss, payload: { id: u.id, newPassword: '12345' } })).status,
    ).toBe(400);
    expect(
      (await call(ctx, 'POST', '/api/admin/user/resetPassword', { as: boss, payload: { id: u.id, newPassword: 'p'.repeat(21) } })).status,
    ).toBe(400);
    expect(
      (await call(ctx, 'POST', '/api/admin/user/resetPassword', { as: boss, payload: { id: u.id, newPassword: 'NewPass#1' } })).status,
    ).toBe(200);
    const info = await call(ctx, 'GET', '/api/admin/user/info', { as: s });
    expect(info).toMatchObject({ status: 50012, msg: 'Your password was reset, please log in again' });
    expect((await call(ctx, 'POST', '/api/admin/user/login', { payload: { username: u.username, password: TEST_PASSWORD } })).status).toBe(
      400,
    );
    await loginWith(ctx, u.username, 'NewPass#1');
  });

  it('deleting ends the sessions; a user with subscription records is kept (disable instead)', async () => {
    const u = await createUser(ctx, 'shop');
    const s = await loginWith(ctx, u.username, TEST_PASSWORD);
    expect((await call(ctx, 'GET', `/api/admin/user/delete?id=${u.id}`, { as: boss })).status).toBe(200);
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: s })).status).toBe(50012);
    expect((await call(ctx, 'GET', `/api/admin/user/delete?id=${u.id}`, { as: boss })).status).toBe(404);
    expect((await call(ctx, 'GET', '/api/admin/user/delete?id=abc', { as: boss })).status).toBe(400);

    const paid = await createUser(ctx, 'shop');
    await call(ctx, 'POST', '/api/admin/setSubscription', { as: boss, payload: { userId: paid.id, type: 'monthly' } });
    const refused = await call(ctx, 'GET', `/api/admin/user/delete?id=${paid.id}`, { as: boss });
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe(
      `${paid.username} has 1 records (subscriptions, orders or ledger entries) and cannot be deleted; disable the account instead`,
    );
  });

  it('never disables, demotes or deletes the last enabled super_admin', async () => {
    // Only someone holding every permission may touch a super_admin, and nobody may touch themselves,
    // so the rule is met by an operator of another all-permission role.
    const all = (await ctx.db.selectFrom('roles').select('permissions').where('name', '=', 'super_admin').executeTakeFirstOrThrow())
      .permissions;
    const owner = await roleWith(JSON.parse(all) as string[], true);
    const supers = await ctx.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('roleId', '=', roleIds.super_admin ?? 0)
      .where('status', '=', 1)
      .execute();
    const [last, ...others] = supers;
    if (last === undefined) throw new Error('no super_admin');
    for (const o of others) await ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', o.id).execute();
    try {
      const off = await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: owner, payload: { id: last.id, status: 0 } });
      expect(off).toMatchObject({ status: 400, msg: `${last.username} is the last enabled super administrator; keep at least one` });
      const base = { ...shopBody(), username: undefined, password: undefined, id: last.id };
      expect((await call(ctx, 'POST', '/api/admin/user/update', { as: owner, payload: { ...base, roleId: roleIds.admin } })).status).toBe(
        400,
      );
      expect(
        (await call(ctx, 'POST', '/api/admin/user/update', { as: owner, payload: { ...base, roleId: roleIds.super_admin, status: 0 } }))
          .status,
      ).toBe(400);
      expect((await call(ctx, 'GET', `/api/admin/user/delete?id=${last.id}`, { as: owner })).status).toBe(400);
      // with a second one enabled, the first may be disabled
      const second = others[0];
      if (second !== undefined) {
        await ctx.db.updateTable('users').set({ status: 1 }).where('id', '=', second.id).execute();
        expect((await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: owner, payload: { id: last.id, status: 0 } })).status).toBe(
          200,
        );
        expect((await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: owner, payload: { id: last.id, status: 1 } })).status).toBe(
          200,
        );
      }
    } finally {
      for (const o of others) await ctx.db.updateTable('users').set({ status: 1 }).where('id', '=', o.id).execute();
    }
  });
});

describe('subscriptions', () => {
  const subscribe = (payload: Record<string, unknown>) => call<UserItem>(ctx, 'POST', '/api/admin/setSubscription', { as: boss, payload });
  const records = async (userId: number) =>
    (await call<SubscriptionRecord[]>(ctx, 'GET', `/api/admin/user/subscriptions?userId=${userId}`, { as: boss })).data;

  it('monthly starts now; a renewal extends from the future end; after expiry it starts now again', async () => {
    const u = await createUser(ctx, 'shop');
    const t0 = Date.now();
    const first = await subscribe({ userId: u.id, type: 'monthly' });
    const t1 = Date.now();
    expect(first.status).toBe(200);
    const end1 = Date.parse(first.data.serviceEndDate ?? '');
    expect(end1).toBeGreaterThanOrEqual(t0 + 30 * DAY_MS);
    expect(end1).toBeLessThanOrEqual(t1 + 30 * DAY_MS);
    expect(first.data).toMatchObject({ subscriptionState: 'active', subscriptionType: 'monthly', durationDays: 30 });

    const second = await subscribe({ userId: u.id, type: 'yearly', remark: 'paid cash' });
    expect(Date.parse(second.data.serviceEndDate ?? '')).toBe(end1 + 365 * DAY_MS);

    const third = await subscribe({ userId: u.id, type: 'custom', durationDays: 10 });
    expect(Date.parse(third.data.serviceEndDate ?? '')).toBe(end1 + 375 * DAY_MS);
    expect(third.data).toMatchObject({ subscriptionType: 'custom', durationDays: 10 });

    const list = await records(u.id);
    expect(list.map((r) => [r.action, r.type, r.durationDays])).toEqual([
      ['renew', 'custom', 10],
      ['renew', 'yearly', 365],
      ['subscribe', 'monthly', 30],
    ]);
    expect(list[1]).toMatchObject({
      startDate: new Date(end1).toISOString(),
      endDate: new Date(end1 + 365 * DAY_MS).toISOString(),
      operator: boss.username,
      remark: 'paid cash',
    });

    // time passes: the period ended yesterday
    await ctx.db
      .updateTable('users')
      .set({ serviceEndAt: Date.now() - DAY_MS })
      .where('id', '=', u.id)
      .execute();
    const expired = await call<{ list: UserItem[] }>(ctx, 'GET', `/api/admin/user/list?username=${u.username}`, { as: boss });
    expect(expired.data.list[0]?.subscriptionState).toBe('expired');
    const t2 = Date.now();
    const again = await subscribe({ userId: u.id, type: 'monthly' });
    expect(Date.parse(again.data.serviceEndDate ?? '')).toBeGreaterThanOrEqual(t2 + 30 * DAY_MS);
    expect((await records(u.id))[0]).toMatchObject({ action: 'subscribe', type: 'monthly' });
  });

  it('a period ending within 7 days is "expiring" and can be filtered', async () => {
    const u = await createUser(ctx, 'shop');
    await subscribe({ userId: u.id, type: 'custom', durationDays: 3 });
    const res = await call<{ list: UserItem[] }>(ctx, 'GET', `/api/admin/user/list?username=${u.username}&subscriptionState=expiring`, {
      as: boss,
    });
    expect(res.data.list.map((x) => x.id)).toEqual([u.id]);
    expect(
      (await call<{ total: number }>(ctx, 'GET', `/api/admin/user/list?username=${u.username}&subscriptionState=active`, { as: boss })).data
        .total,
    ).toBe(0);
  });

  it('cancel ends it now and is recorded; nothing to cancel is refused', async () => {
    const u = await createUser(ctx, 'shop');
    await subscribe({ userId: u.id, type: 'yearly' });
    const t0 = Date.now();
    expect((await call(ctx, 'GET', `/api/admin/cancelSubscription?userId=${u.id}`, { as: boss })).status).toBe(200);
    const [cancel] = await records(u.id);
    expect(cancel).toMatchObject({ action: 'cancel', type: null, durationDays: null, operator: boss.username });
    expect(Date.parse(cancel?.endDate ?? '')).toBeGreaterThanOrEqual(t0);
    const list = await call<{ list: UserItem[] }>(ctx, 'GET', `/api/admin/user/list?username=${u.username}`, { as: boss });
    expect(list.data.list[0]).toMatchObject({ subscriptionState: 'expired', subscriptionType: null });
    const again = await call(ctx, 'GET', `/api/admin/cancelSubscription?userId=${u.id}`, { as: boss });
    expect(again).toMatchObject({ status: 400, msg: `${u.username} has no active subscription` });
  });

  it('refuses administrators, custom without days, unknown types and users', async () => {
    for (const role of ['admin', 'super_admin']) {
      const a = await createUser(ctx, role);
      const res = await subscribe({ userId: a.id, type: 'monthly' });
      expect(res.status).toBe(400);
      expect(res.msg).toBe(`${a.username} has an administrator role (${role}); administrators cannot be subscribed`);
    }
    const u = await createUser(ctx, 'shop');
    const custom = await subscribe({ userId: u.id, type: 'custom' });
    expect(custom).toMatchObject({ status: 400, msg: 'A custom subscription needs its number of days' });
    expect(fieldOf(custom.data)).toBe('durationDays');
    expect((await subscribe({ userId: u.id, type: 'custom', durationDays: 0 })).status).toBe(400);
    expect((await subscribe({ userId: u.id, type: 'custom', durationDays: 3651 })).status).toBe(400);
    expect((await subscribe({ userId: u.id, type: 'weekly' })).status).toBe(400);
    expect((await subscribe({ userId: 999_999, type: 'monthly' })).status).toBe(404);
    expect(await records(u.id)).toEqual([]);
  });
});

describe('the list total for role and status filters', () => {
  it('matches an exact count through creates, updates, status changes and deletes', async () => {
    const exact = async (roleId?: number, status?: number) => {
      let q = ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'));
      if (roleId !== undefined) q = q.where('roleId', '=', roleId);
      if (status !== undefined) q = q.where('status', '=', status);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const check = async () => {
      for (const roleId of [undefined, roleIds.shop, roleIds.inspector]) {
        for (const status of [undefined, 0, 1]) {
          const qs = [roleId === undefined ? '' : `roleId=${roleId}`, status === undefined ? '' : `status=${status}`]
            .filter(Boolean)
            .join('&');
          const res = await call<{ total: number }>(ctx, 'GET', `/api/admin/user/list?${qs}`, { as: boss });
          expect(res.data.total, qs).toBe(await exact(roleId, status));
        }
      }
    };
    await check();
    const a = await create(shopBody());
    const b = await createUser(ctx, 'shop', { status: 0 });
    await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: boss, payload: { id: a.data.id, status: 0 } });
    await call(ctx, 'POST', '/api/admin/user/update', {
      as: boss,
      payload: { ...shopBody(), username: undefined, password: undefined, id: b.id, roleId: roleIds.inspector, status: 1 },
    });
    await check();
    await call(ctx, 'GET', `/api/admin/user/delete?id=${a.data.id}`, { as: boss });
    await call(ctx, 'GET', `/api/admin/user/delete?id=${b.id}`, { as: boss });
    await check();
  });
});

describe('the avatars the users name (the upload retention sweep reads them, decision 0110)', () => {
  it('answers every set avatar, a page of users at a time, in id order', async () => {
    const a = await createUser(ctx, 'shop');
    const b = await createUser(ctx, 'shop');
    const c = await createUser(ctx, 'inspector');
    await ctx.db.updateTable('users').set({ avatar: '/upload/files/avatar/202601/a' }).where('id', '=', a.id).execute();
    await ctx.db.updateTable('users').set({ avatar: 'https://cdn.example/avatar/202601/c?v=1' }).where('id', '=', c.id).execute();
    expect((await ctx.db.selectFrom('users').select('avatar').where('id', '=', b.id).executeTakeFirstOrThrow()).avatar).toBe('');

    const users = await ctx.db.selectFrom('users').select(['id', 'avatar']).orderBy('id').execute();
    const pages: string[][] = [];
    for await (const page of avatarUrls(ctx.db, 2)) pages.push(page);
    expect(pages).toHaveLength(Math.ceil(users.length / 2));
    expect(pages).toEqual(
      Array.from({ length: pages.length }, (_, i) =>
        users
          .slice(2 * i, 2 * i + 2)
          .map((u) => u.avatar)
          .filter((url) => url !== ''),
      ),
    );
    expect(pages.flat().slice(-2)).toEqual(['/upload/files/avatar/202601/a', 'https://cdn.example/avatar/202601/c?v=1']);
  });
});
