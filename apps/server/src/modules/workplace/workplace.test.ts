import type { OrderAnalysis, OrderItem, WorkplaceData } from '@clearplay/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  call,
  createUser,
  createTestContext,
  loginAs,
  loginWith,
  TEST_PASSWORD,
  type LoggedIn,
  type TestContext,
} from '../../test/context.ts';
import { orderBody, editBody } from '../../test/orders.ts';
import { todayByHour } from './workplace.service.ts';

/**
 * Every workplace figure against hand-computed data: orders recorded at chosen
 * instants around the Asia/Shanghai day and month edges, then edited and deleted; renewals;
 * the caller's visits; who may call it. Time is moved with a fake Date only (no timers).
 */

let ctx: TestContext;
let boss: LoggedIn;
let inspector: LoggedIn;
let shop: { id: number };

const at = (iso: string) => vi.setSystemTime(new Date(iso));

beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
  inspector = await loginAs(ctx, 'inspector');
  shop = await createUser(ctx, 'shop');
  // ¥30 normal, ¥50 cheat, ¥20 not pass, ¥40 suspicious.
  await ctx.db
    .updateTable('users')
    .set({ defaultPrice: 3000, defaultPriceCheat: 5000, defaultPriceNotPass: 2000, defaultPriceSuspect: 4000 })
    .where('id', '=', shop.id)
    .execute();
});
afterAll(() => ctx?.destroy());
afterEach(() => vi.useRealTimers());

async function create(iso: string, result: number, gameName = 'CS2'): Promise<OrderItem> {
  at(iso);
  const prices = [3000, 5000, 2000, 4000];
  const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: inspector,
    payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: prices[result]! }, { result, gameName }),
  });
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

const workplaceAt = async (iso: string, as: LoggedIn = boss) => {
  at(iso);
  const res = await call<WorkplaceData>(ctx, 'GET', '/api/admin/workplace', { as });
  expect(res.status, res.msg).toBe(200);
  return res.data;
};

describe('GET /admin/workplace', () => {
  const orders: OrderItem[] = [];

  it('counts days and months in Asia/Shanghai: 23:30 and 00:30 fall on different days and months', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    orders.push(await create('2026-01-31T15:30:00Z', 1, 'CS2')); // Shanghai 2026-01-31 23:30, January
    orders.push(await create('2026-01-31T16:30:00Z', 3, 'CS2')); // Shanghai 2026-02-01 00:30, February
    orders.push(await create('2026-02-10T02:00:00Z', 0, '王者荣耀'));
    orders.push(await create('2026-02-28T15:59:00Z', 3, 'CS2')); // Shanghai 02-28 23:59
    orders.push(await create('2026-02-28T16:00:00Z', 2, '王者荣耀')); // Shanghai 03-01 00:00, March
    at('2026-03-01T04:00:00Z');
    const rc = await call(ctx, 'POST', '/api/admin/user/recharge', { as: boss, payload: { userId: shop.id, amount: 100_000 } });
    expect(rc.status, rc.msg).toBe(200);

    const w = await workplaceAt('2026-03-01T04:00:00Z'); // Shanghai 03-01 12:00
    expect(w.timeZone).toBe('Asia/Shanghai');
    expect(w.month.start).toBe('2026-02-28T16:00:00.000Z');
    expect(w.month.current).toEqual({ count: 1, amount: 2000 });
    expect(w.month.previous).toEqual({ count: 3, amount: 4000 + 3000 + 4000 });
    expect(w.month.countChange).toBe(-0.6667);
    expect(w.month.amountChange).toBe(-0.8182);
    expect(w.total).toEqual({ count: 5, amount: 5000 + 4000 + 3000 + 4000 + 2000 });
    expect(w.results).toEqual([
      { result: 0, count: 1, amount: 3000 },
      { result: 1, count: 1, amount: 5000 },
      { result: 2, count: 1, amount: 2000 },
      { result: 3, count: 2, amount: 8000 },
    ]);
    expect(w.pending.count).toBe(2);
    expect(w.pending.list.map((o) => o.id)).toEqual([orders[3]!.id, orders[1]!.id]);
    expect(w.latestOrders.map((o) => o.id)).toEqual([...orders].reverse().map((o) => o.id));
    expect(w.balance).toBe(100_000 - 18_000);

    // 30 business days ending today: 2026-01-31 … 2026-03-01 (February has 28).
    expect(w.daily).toHaveLength(30);
    expect(w.daily[0]).toEqual({ date: '2026-01-31', count: 1, amount: 5000 });
    expect(w.daily[1]).toEqual({ date: '2026-02-01', count: 1, amount: 4000 });
    expect(w.daily.find((d) => d.date === '2026-02-10')).toEqual({ date: '2026-02-10', count: 1, amount: 3000 });
    expect(w.daily[28]).toEqual({ date: '2026-02-28', count: 1, amount: 4000 });
    expect(w.daily[29]).toEqual({ date: '2026-03-01', count: 1, amount: 2000 });
    expect(w.daily.reduce((n, d) => n + d.count, 0)).toBe(5);

    // A day later the series moves on: 01-31 drops out.
    const next = await workplaceAt('2026-03-01T16:00:00Z'); // Shanghai 03-02 00:00
    expect(next.daily[0]!.date).toBe('2026-02-01');
    expect(next.daily[29]).toEqual({ date: '2026-03-02', count: 0, amount: 0 });
  });

  it('follows edits (result, amount, client) and deletes into the day and month the order was recorded', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const other = await createUser(ctx, 'shop');
    at('2026-03-01T05:00:00Z');
    // February's 00:30 order: suspicious → normal at an overridden amount by the boss.
    const edit = await call(ctx, 'POST', '/api/admin/order/update', {
      as: boss,
      payload: editBody(orders[1]!, { result: 0, amount: 1234 }),
    });
    expect(edit.status, edit.msg).toBe(200);
    // March's order moves to another shop (price 0).
    const move = await call(ctx, 'POST', '/api/admin/order/update', {
      as: boss,
      payload: editBody(orders[4]!, { userId: other.id, amount: 0 }),
    });
    expect(move.status, move.msg).toBe(200);
    const del = await call(ctx, 'POST', '/api/admin/order/delete', { as: boss, payload: { ids: [orders[0]!.id] } });
    expect(del.status, del.msg).toBe(200);

    const w = await workplaceAt('2026-03-01T06:00:00Z');
    expect(w.month.current).toEqual({ count: 1, amount: 0 });
    expect(w.month.previous).toEqual({ count: 3, amount: 1234 + 3000 + 4000 });
    expect(w.month.amountChange).toBe(-1);
    expect(w.pending.count).toBe(1);
    expect(w.total).toEqual({ count: 4, amount: 1234 + 3000 + 4000 });
    expect(w.daily[0]).toEqual({ date: '2026-01-31', count: 0, amount: 0 });
    expect(w.daily[1]).toEqual({ date: '2026-02-01', count: 1, amount: 1234 });
    expect(w.balance).toBe(100_000 - 1234 - 3000 - 4000);

    const hours = await todayByHour(ctx.db, Date.parse('2026-03-01T06:00:00Z'));
    expect(hours).toHaveLength(24);
    expect(hours[0]).toEqual({ hour: '2026-02-28T16:00:00.000Z', count: 1, amount: 0 });
    expect(hours.slice(1).every((h) => h.count === 0)).toBe(true);
  });

  it('lists shops to renew: ending within 7 days or ended within 30, soonest first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.parse('2026-03-01T04:00:00Z');
    const day = 86_400_000;
    const shops = await Promise.all([1, 2, 3, 4].map(() => createUser(ctx, 'shop')));
    const ends = [now + 3 * day, now - 10 * day, now - 40 * day, now + 20 * day];
    for (const [i, s] of shops.entries())
      await ctx.db.updateTable('users').set({ serviceEndAt: ends[i]! }).where('id', '=', s.id).execute();
    const w = await workplaceAt('2026-03-01T04:00:00Z');
    expect(w.renewals.count).toBe(2);
    expect(w.renewals.list.map((r) => [r.id, r.state])).toEqual([
      [shops[1]!.id, 'expired'],
      [shops[0]!.id, 'expiring'],
    ]);
  });

  it('shows the caller their own recently visited pages, latest visit per path, newest first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const [i, path] of ['/order/inspect', '/system/user', '/order/inspect', '/system/role'].entries()) {
      at(`2026-03-01T07:0${i}:00Z`);
      const res = await call(ctx, 'POST', '/api/visit-stats/create', { as: boss, payload: { path } });
      expect(res.status, res.msg).toBe(200);
    }
    at('2026-03-01T07:09:00Z');
    await call(ctx, 'POST', '/api/visit-stats/create', { as: inspector, payload: { path: '/secret/of/inspector' } });
    const w = await workplaceAt('2026-03-01T07:10:00Z');
    expect(w.recentlyVisited).toEqual([
      { path: '/system/role', visitedAt: '2026-03-01T07:03:00.000Z' },
      { path: '/order/inspect', visitedAt: '2026-03-01T07:02:00.000Z' },
      { path: '/system/user', visitedAt: '2026-03-01T07:01:00.000Z' },
    ]);
  });

  it('is for workplace:view only, and the quick operations follow the caller’s permissions', async () => {
    expect((await call(ctx, 'GET', '/api/admin/workplace')).http).toBe(401);
    for (const role of ['admin', 'inspector', 'shop']) {
      const res = await call(ctx, 'GET', '/api/admin/workplace', { as: await loginAs(ctx, role) });
      expect(res.http, role).toBe(403);
    }
    const all = await call<WorkplaceData>(ctx, 'GET', '/api/admin/workplace', { as: boss });
    expect(all.data.quickOperations.map((q) => q.key)).toEqual(['order', 'user', 'role', 'dict', 'log', 'announcement']);

    await ctx.db
      .insertInto('roles')
      .values({
        name: 'wp_viewer',
        description: 'd',
        permissions: JSON.stringify(['workplace:view', 'order:view', 'dict:view']),
        isAdmin: 0,
        createdAt: Date.now(),
      })
      .execute();
    const viewer = await createUser(ctx, 'wp_viewer');
    const session = await loginWith(ctx, viewer.username, TEST_PASSWORD);
    const narrow = await call<WorkplaceData>(ctx, 'GET', '/api/admin/workplace', { as: session });
    expect(narrow.status, narrow.msg).toBe(200);
    expect(narrow.data.quickOperations).toEqual([
      { key: 'order', path: '/order/inspect' },
      { key: 'dict', path: '/system/dict' },
    ]);
    // Without order:view:all the order rows are only what the role may see (none of another shop's private orders).
    expect(narrow.data.latestOrders.every((o) => o.view === 'public' || o.userId === viewer.id)).toBe(true);
  });
});

describe('GET /admin/analysis/orders', () => {
  it('answers orders by result, game and shop in month buckets of Shanghai days', async () => {
    const res = await call<OrderAnalysis>(ctx, 'GET', '/api/admin/analysis/orders?from=2026-01-31&to=2026-03-01&bucket=month', {
      as: boss,
    });
    expect(res.status, res.msg).toBe(200);
    const a = res.data;
    expect(a.buckets).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    // After the edits above: Feb: 00:30 normal 1234, 02-10 normal 3000, 02-28 suspicious 4000; Mar: not pass 0 (other shop).
    expect(a.total).toEqual({ count: 4, amount: 8234 });
    expect(a.byResult.find((r) => r.result === 0)).toEqual({ result: 0, count: [0, 2, 0], amount: [0, 4234, 0] });
    expect(a.byResult.find((r) => r.result === 2)).toEqual({ result: 2, count: [0, 0, 1], amount: [0, 0, 0] });
    expect(a.byGame).toEqual([
      { gameName: 'CS2', total: { count: 2, amount: 5234 }, count: [0, 2, 0] },
      { gameName: '王者荣耀', total: { count: 2, amount: 3000 }, count: [0, 1, 1] },
    ]);
    expect(a.byShop[0]).toMatchObject({ userId: shop.id, total: { count: 3, amount: 8234 } });

    const week = await call<OrderAnalysis>(ctx, 'GET', '/api/admin/analysis/orders?from=2026-02-01&to=2026-02-10&bucket=week', {
      as: boss,
    });
    expect(week.data.buckets).toEqual(['2026-01-26', '2026-02-02', '2026-02-09']);
    expect(week.data.total).toEqual({ count: 2, amount: 4234 });
  });

  it('refuses a bad range with a 400 naming it', async () => {
    const bad = await call(ctx, 'GET', '/api/admin/analysis/orders?from=2026-02-30&to=2026-03-01', { as: boss });
    expect(bad.http).toBe(400);
    expect(bad.msg).toContain('2026-02-30');
    const reversed = await call(ctx, 'GET', '/api/admin/analysis/orders?from=2026-03-01&to=2026-02-01', { as: boss });
    expect(reversed.http).toBe(400);
    const long = await call(ctx, 'GET', '/api/admin/analysis/orders?from=2020-01-01&to=2026-02-01', { as: boss });
    expect(long.http).toBe(400);
    expect((await call(ctx, 'GET', '/api/admin/analysis/orders?from=2026-01-01&to=2026-02-01', { as: inspector })).http).toBe(403);
  });
});
