import type { LedgerEntry, LedgerPage, OrderItem, RechargeResult } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { orderBody } from '../../test/orders.ts';

/**
 * Shop balances through the HTTP boundary (docs/product.md "Money"): recharges, the ledger page
 * with its running balance, and the user delete that a ledger or an order forbids.
 */

let ctx: TestContext;
let admin: LoggedIn;
let boss: LoggedIn;
let inspector: LoggedIn;
let shop: LoggedIn;

const PRICES = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  boss = await loginAs(ctx, 'super_admin');
  inspector = await loginAs(ctx, 'inspector');
  shop = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', '=', shop.id).execute();
});
afterAll(() => ctx?.destroy());

type Err = { errors?: { field: string }[] } | null;

/** One call; whatever it answers, it is never a 5xx. */
async function api<T = unknown>(
  method: 'GET' | 'POST',
  url: string,
  as: LoggedIn | null,
  payload?: unknown,
  headers?: Record<string, string>,
) {
  const res = await call<T>(ctx, method, url, { as, payload, headers });
  expect(res.http, `${method} ${url} answered ${res.http} ${res.msg}`).toBeLessThan(500);
  expect(res.status).toBe(res.http);
  return res;
}

const recharge = (as: LoggedIn | null, payload: Record<string, unknown>, headers?: Record<string, string>) =>
  api<RechargeResult & Err>('POST', '/api/admin/user/recharge', as, payload, headers);

const orderBodyOf = (o: Record<string, unknown> = {}) =>
  orderBody({ userId: shop.id, inspectorId: inspector.id, amount: PRICES.defaultPriceCheat }, o);

const ledger = (userId: number | string, as: LoggedIn = admin, extra = '') =>
  api<LedgerPage & Err>('GET', `/api/admin/user/ledger?userId=${userId}${extra}`, as);

async function newShop(): Promise<LoggedIn> {
  const s = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', '=', s.id).execute();
  return s;
}

/** Every entry of the user, oldest first, through the API (pages of 2, so paging is exercised). */
async function allEntries(userId: number): Promise<{ entries: LedgerEntry[]; total: number; balance: number }> {
  const newestFirst: LedgerEntry[] = [];
  let total = -1;
  let balance = 0;
  for (let page = 1; page < 100; page++) {
    const res = await ledger(userId, admin, `&page=${page}&pageSize=2`);
    expect(res.status, res.msg).toBe(200);
    if (total === -1) total = res.data.total;
    expect(res.data.total).toBe(total);
    balance = res.data.balance;
    if (res.data.list.length === 0) break;
    newestFirst.push(...res.data.list);
  }
  expect(newestFirst.length).toBe(total);
  return { entries: [...newestFirst].reverse(), total, balance };
}

describe('POST /api/admin/user/recharge', () => {
  it('records money received and answers the entry and the new balance', async () => {
    const s = await newShop();
    const before = Date.now();
    const res = await recharge(admin, { userId: s.id, amount: 5000, remark: '  bank transfer 123  ' });
    expect(res.status, res.msg).toBe(200);
    expect(res.data.balance).toBe(5000);
    expect(res.data.entry).toMatchObject({
      userId: s.id,
      kind: 'recharge',
      amount: 5000,
      balanceAfter: 5000,
      orderId: null,
      remark: 'bank transfer 123',
      operator: admin.username,
    });
    expect(Date.parse(res.data.entry.createdTime)).toBeGreaterThanOrEqual(before - 1000);
    const again = await recharge(boss, { userId: s.id, amount: 1 });
    expect(again.data).toMatchObject({ balance: 5001, entry: { amount: 1, balanceAfter: 5001, remark: '', operator: boss.username } });
    const row = await ctx.db.selectFrom('users').select('balance').where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(Number(row.balance)).toBe(5001);
  });

  it('needs user:recharge', async () => {
    const s = await newShop();
    for (const who of [inspector, shop, s]) {
      const res = await recharge(who, { userId: s.id, amount: 100 });
      expect(res.status).toBe(403);
      expect(res.msg).toBe('You do not have permission to do this (user:recharge)');
    }
    expect((await recharge(null, { userId: s.id, amount: 100 })).status).toBe(401);
    expect((await ledger(s.id)).data.balance).toBe(0);
  });

  it('refuses an amount below 1 fen or not whole, and names the field', async () => {
    const s = await newShop();
    for (const amount of [0, -1, -5000, 1.5, '', 'ten', null, 100_000_001]) {
      const res = await recharge(admin, { userId: s.id, amount });
      expect(res.status, JSON.stringify(amount)).toBe(400);
      expect(res.data?.errors?.[0]?.field, JSON.stringify(amount)).toBe('amount');
      expect(res.msg).toMatch(/^amount: /);
    }
    const missing = await recharge(admin, { userId: s.id });
    expect(missing.data?.errors?.[0]?.field).toBe('amount');
    const noUser = await recharge(admin, { amount: 5 });
    expect(noUser.status).toBe(400);
    expect(noUser.data?.errors?.[0]?.field).toBe('userId');
    const longRemark = await recharge(admin, { userId: s.id, amount: 5, remark: 'x'.repeat(201) });
    expect(longRemark.data?.errors?.[0]?.field).toBe('remark');
    expect((await recharge(admin, { userId: s.id, amount: 100_000_000, unknown: 'stripped' })).status).toBe(200);
    expect((await ledger(s.id)).data).toMatchObject({ total: 1, balance: 100_000_000 });
  });

  it('refuses an administrator account and an unknown user', async () => {
    for (const who of [admin, boss]) {
      const res = await recharge(admin, { userId: who.id, amount: 100 });
      expect(res.status).toBe(400);
      expect(res.msg).toBe(`${who.username} is an administrator and has no shop balance`);
    }
    const zh = await recharge(admin, { userId: boss.id, amount: 100 }, { 'accept-language': 'zh-CN' });
    expect(zh.msg).toBe(`${boss.username} 是管理员，没有店铺余额`);
    const missing = await recharge(admin, { userId: 999_999, amount: 100 });
    expect(missing.status).toBe(404);
    expect(missing.msg).toBe('User #999999 does not exist');
    const entries = await ctx.db.selectFrom('ledgerEntries').select('id').where('userId', 'in', [admin.id, boss.id, 999_999]).execute();
    expect(entries).toEqual([]);
  });
});

describe('GET /api/admin/user/ledger', () => {
  it('lists the entries newest first with the running balance after each', async () => {
    const s = await newShop();
    expect((await recharge(admin, { userId: s.id, amount: 500 })).status).toBe(200);
    const order = await api<OrderItem>('POST', '/api/admin/order/create', inspector, orderBodyOf({ userId: s.id }));
    expect(order.status, order.msg).toBe(200);
    expect((await recharge(admin, { userId: s.id, amount: 200, remark: 'cash' })).status).toBe(200);
    const edited = await api<OrderItem>('POST', '/api/admin/order/update', admin, {
      ...orderBodyOf({ userId: s.id, result: 0, amount: 1000 }),
      id: order.data.id,
    });
    expect(edited.status, edited.msg).toBe(200);
    const second = await api<OrderItem>('POST', '/api/admin/order/create', admin, orderBodyOf({ userId: s.id, amount: 4321 }));
    expect((await api('POST', '/api/admin/order/delete', admin, { ids: [order.data.id] })).status).toBe(200);

    const first = await ledger(s.id);
    expect(first.status).toBe(200);
    expect(first.data.total).toBe(6);
    expect(first.data.balance).toBe(500 - 3000 + 200 + 2000 - 4321 + 1000);
    expect(first.data.list.map((e) => [e.kind, e.amount, e.balanceAfter, e.orderId])).toEqual([
      ['reversal', 1000, -3621, order.data.id],
      ['charge', -4321, -4621, second.data.id],
      ['adjust', 2000, -300, order.data.id],
      ['recharge', 200, -2300, null],
      ['charge', -3000, -2500, order.data.id],
      ['recharge', 500, 500, null],
    ]);
    const ids = first.data.list.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(first.data.list.map((e) => e.operator)).toEqual([
      admin.username,
      admin.username,
      admin.username,
      admin.username,
      inspector.username,
      admin.username,
    ]);
    expect(first.data.list.every((e) => e.userId === s.id)).toBe(true);

    const { entries, balance } = await allEntries(s.id);
    let running = 0;
    for (const e of entries) {
      running += e.amount;
      expect(e.balanceAfter).toBe(running);
    }
    expect(balance).toBe(running);
    expect(entries.map((e) => e.id)).toEqual([...ids].reverse());
    expect((await ledger(s.id, admin, '&page=4&pageSize=2')).data).toEqual({ list: [], total: 6, balance: running });
  });

  it('tells the remarks of order entries in the reader’s language, and a recharge remark as typed', async () => {
    const s = await newShop();
    const other = await newShop();
    // Typed by staff: it looks like the server's own remark but is shown as typed.
    expect((await recharge(admin, { userId: s.id, amount: 100, remark: 'order X1: deleted' })).status).toBe(200);
    const moved = await api<OrderItem>('POST', '/api/admin/order/create', admin, orderBodyOf({ userId: s.id }));
    const edited = await api<OrderItem>('POST', '/api/admin/order/update', admin, {
      ...orderBodyOf({ userId: s.id, amount: 1000 }),
      id: moved.data.id,
    });
    expect(edited.status, edited.msg).toBe(200);
    const away = await api<OrderItem>('POST', '/api/admin/order/update', admin, {
      ...orderBodyOf({ userId: other.id, amount: 1000 }),
      id: moved.data.id,
    });
    expect(away.status, away.msg).toBe(200);
    const doomed = await api<OrderItem>('POST', '/api/admin/order/create', admin, orderBodyOf({ userId: s.id }));
    expect((await api('POST', '/api/admin/order/delete', admin, { ids: [doomed.data.id] })).status).toBe(200);

    const remarks = async (userId: number, locale: string) =>
      (
        await api<LedgerPage>('GET', `/api/admin/user/ledger?userId=${userId}`, admin, undefined, { 'accept-language': locale })
      ).data.list.map((e) => e.remark);
    const [a, b] = [moved.data.code, doomed.data.code];
    expect(await remarks(s.id, 'en-US')).toEqual([
      `Order ${b}: deleted`,
      `Order ${b}`,
      `Order ${a}: moved to another client shop`,
      `Order ${a}: amount ¥30.00 → ¥10.00`,
      `Order ${a}`,
      'order X1: deleted',
    ]);
    expect(await remarks(s.id, 'zh-CN')).toEqual([
      `订单 ${b}：已删除`,
      `订单 ${b}`,
      `订单 ${a}：已改为其他客户店铺`,
      `订单 ${a}：金额 ¥30.00 → ¥10.00`,
      `订单 ${a}`,
      'order X1: deleted',
    ]);
    expect(await remarks(other.id, 'zh-CN')).toEqual([`订单 ${a}`]);
  });

  it('answers an empty ledger for a shop without entries', async () => {
    const s = await newShop();
    expect((await ledger(s.id)).data).toEqual({ list: [], total: 0, balance: 0 });
  });

  it('needs user:ledger, even for a shop’s own ledger', async () => {
    for (const who of [inspector, shop]) {
      const res = await ledger(shop.id, who);
      expect(res.status).toBe(403);
      expect(res.msg).toBe('You do not have permission to do this (user:ledger)');
    }
    expect((await api('GET', `/api/admin/user/ledger?userId=${shop.id}`, null)).status).toBe(401);
    expect((await ledger(shop.id, boss)).status).toBe(200);
  });

  it('refuses bad queries and unknown users with a clear message', async () => {
    for (const [url, field] of [
      ['/api/admin/user/ledger', 'userId'],
      ['/api/admin/user/ledger?userId=abc', 'userId'],
      ['/api/admin/user/ledger?userId=0', 'userId'],
      [`/api/admin/user/ledger?userId=${shop.id}&page=0`, 'page'],
      [`/api/admin/user/ledger?userId=${shop.id}&pageSize=201`, 'pageSize'],
    ] as const) {
      const res = await api<Err>('GET', url, admin);
      expect(res.status, url).toBe(400);
      expect(res.data?.errors?.[0]?.field, url).toBe(field);
    }
    const missing = await ledger(999_999);
    expect(missing.status).toBe(404);
    expect(missing.msg).toBe('User #999999 does not exist');
  });

  it('answers unknown large user ids with 404 (or 400 naming the field), never an error of the database', async () => {
    for (const big of [2_147_483_648, 99_999_999_999]) {
      for (const res of [await ledger(big), await recharge(admin, { userId: big, amount: 100 })]) {
        expect([400, 404], res.msg).toContain(res.status);
        if (res.status === 400) expect(res.data?.errors?.[0]?.field).toBe('userId');
      }
    }
  });
});

describe('concurrent writes on one order', () => {
  it('two deletes of one order reverse it once; two edits leave the ledger equal to the order', async () => {
    const s = await newShop();
    const deletes: number[][] = [];
    for (let round = 0; round < 3; round++) {
      const doomed = await api<OrderItem>('POST', '/api/admin/order/create', admin, orderBodyOf({ userId: s.id }));
      const twice = await Promise.all(
        [0, 1].map(() => call(ctx, 'POST', '/api/admin/order/delete', { as: admin, payload: { ids: [doomed.data.id] } })),
      );
      for (const res of twice) expect(res.http).toBeLessThan(500);
      deletes.push(twice.map((res) => res.status).sort());

      const edited = await api<OrderItem>('POST', '/api/admin/order/create', admin, orderBodyOf({ userId: s.id }));
      const both = await Promise.all(
        [1000, 1500].map((amount) =>
          call(ctx, 'POST', '/api/admin/order/update', {
            as: admin,
            payload: { ...orderBodyOf({ userId: s.id, amount }), id: edited.data.id },
          }),
        ),
      );
      for (const res of both) expect(res.http).toBeLessThan(500);
      await Promise.all([
        call(ctx, 'POST', '/api/admin/user/recharge', { as: admin, payload: { userId: s.id, amount: 700 } }),
        call(ctx, 'POST', '/api/admin/order/create', { as: inspector, payload: orderBodyOf({ userId: s.id }) }),
      ]);
    }
    const orders = await ctx.db.selectFrom('orders').select('amount').where('userId', '=', s.id).execute();
    const owed = orders.reduce((sum, o) => sum + Number(o.amount), 0);
    const { entries, balance } = await allEntries(s.id);
    expect.soft(balance, 'balance = recharges − amounts of the live orders').toBe(3 * 700 - owed);
    expect.soft(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(balance);
    expect.soft(entries.filter((e) => e.kind === 'reversal').length, 'one reversal per deleted order').toBe(3);
    let running = 0;
    for (const e of entries) {
      running += e.amount;
      expect.soft(e.balanceAfter).toBe(running);
    }
    // one delete wins, the other finds nothing
    expect.soft(deletes).toEqual([
      [200, 404],
      [200, 404],
      [200, 404],
    ]);
  });
});

describe('deleting a user with money history', () => {
  const del = (id: number) => api('GET', `/api/admin/user/delete?id=${id}`, boss);

  it('is refused while the user is the client of an order, even a free one', async () => {
    const s = await newShop();
    const free = await api<OrderItem>('POST', '/api/admin/order/create', admin, orderBodyOf({ userId: s.id, amount: 0 }));
    expect(free.status, free.msg).toBe(200);
    expect((await ledger(s.id)).data.total).toBe(0);
    const res = await del(s.id);
    expect(res.status).toBe(409);
    expect(res.msg).toBe(
      `${s.username} has 1 records (subscriptions, orders or ledger entries) and cannot be deleted; disable the account instead`,
    );
    expect(await ctx.db.selectFrom('users').select('id').where('id', '=', s.id).executeTakeFirst()).toEqual({ id: s.id });
  });

  it('is refused while the user has ledger entries, also after their orders are deleted', async () => {
    const s = await newShop();
    const order = await api<OrderItem>('POST', '/api/admin/order/create', inspector, orderBodyOf({ userId: s.id }));
    expect((await del(s.id)).status).toBe(409);
    expect((await api('POST', '/api/admin/order/delete', admin, { ids: [order.data.id] })).status).toBe(200);
    const res = await del(s.id);
    expect(res.status).toBe(409);
    expect(res.msg).toContain(`${s.username} has 2 records`);

    const paid = await newShop();
    expect((await recharge(admin, { userId: paid.id, amount: 100 })).status).toBe(200);
    expect((await del(paid.id)).status).toBe(409);
  });

  it('is refused while the user inspected an order', async () => {
    const insp = await loginAs(ctx, 'inspector');
    expect((await api('POST', '/api/admin/order/create', insp, orderBodyOf({ inspectorId: insp.id }))).status).toBe(200);
    const res = await del(insp.id);
    expect(res.status).toBe(409);
    expect(res.msg).toContain(`${insp.username} has 1 records`);
  });

  it('goes through for a user without orders or entries', async () => {
    const clean = await createUser(ctx, 'shop');
    expect((await del(clean.id)).status).toBe(200);
    expect((await del(clean.id)).status).toBe(404);
  });
});
