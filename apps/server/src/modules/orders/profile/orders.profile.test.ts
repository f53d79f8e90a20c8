import type { OrderItem, OrderProfile } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../../test/context.ts';
import { editBody, orderBody } from '../../../test/orders.ts';

/**
 * GET /admin/order/profile (decision 0065) on a real database: the order, its
 * verification URL and its ledger entries, each reader seeing what the order list and the
 * shop-balance drawer let them see.
 */

const PRICES = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };

let ctx: TestContext;
let admin: LoggedIn;
let inspector: LoggedIn;
let shopA: LoggedIn;
let shopB: LoggedIn;
/** A's private cheating order, edited to ¥25.00 then moved to B. */
let moved: OrderItem;
/** A's private order that stays A's. */
let mine: OrderItem;
/** A's public order. */
let open: OrderItem;

async function create(shop: LoggedIn, overrides: Record<string, unknown> = {}): Promise<OrderItem> {
  const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: admin,
    payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: 3000 }, overrides),
  });
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

async function update(order: OrderItem, changes: Record<string, unknown>): Promise<OrderItem> {
  const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/update', { as: admin, payload: editBody(order, changes) });
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

const profile = (as: LoggedIn | null, id: number | string, headers: Record<string, string> = {}) =>
  call<OrderProfile>(ctx, 'GET', `/api/admin/order/profile?id=${id}`, { as, headers });

async function profileOk(as: LoggedIn, id: number, headers: Record<string, string> = {}): Promise<OrderProfile> {
  const res = await profile(as, id, headers);
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  shopA = await loginAs(ctx, 'shop');
  shopB = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', 'in', [shopA.id, shopB.id]).execute();
  const first = await create(shopA, { objWechat: 'wx_moved', ifPublic: 0 });
  const edited = await update(first, { amount: 2500 });
  moved = await update(edited, { userId: shopB.id, amount: 3000 });
  mine = await create(shopA, { objWechat: 'wx_mine', ifPublic: 0 });
  open = await create(shopA, { objWechat: 'wx_open', ifPublic: 1 });
});
afterAll(() => ctx.destroy());

describe('GET /admin/order/profile', () => {
  it('gives staff who read ledgers the order, its verification URL and every entry with the balance it left', async () => {
    const data = await profileOk(admin, moved.id, { 'accept-language': 'en-US' });
    expect(data.order).toMatchObject({ id: moved.id, code: moved.code, userId: shopB.id, amount: 3000, view: 'full' });
    expect(data.verifyUrl).toMatch(new RegExp(`^http://[^/]+/verify/${moved.code}$`));
    expect(data.ledger?.map((e) => [e.userId, e.kind, e.amount, e.balanceAfter])).toEqual([
      [shopA.id, 'charge', -3000, -3000],
      [shopA.id, 'adjust', 500, -2500],
      [shopA.id, 'reversal', 2500, 0],
      [shopB.id, 'charge', -3000, -3000],
    ]);
    expect(data.ledger?.map((e) => e.remark)).toEqual([
      `Order ${moved.code}`,
      `Order ${moved.code}: amount ¥30.00 → ¥25.00`,
      `Order ${moved.code}: moved to another client shop`,
      `Order ${moved.code}`,
    ]);
    expect(data.ledger?.[0]?.operator).toBe(admin.username);
  });

  it('tells the remarks in the reader’s language', async () => {
    const data = await profileOk(admin, mine.id, { 'accept-language': 'zh-CN' });
    expect(data.ledger?.map((e) => e.remark)).toEqual([`订单 ${mine.code}`]);
  });

  it('gives an inspector every entry but no shop balance', async () => {
    const data = await profileOk(inspector, moved.id);
    expect(data.ledger?.map((e) => [e.userId, e.kind, e.balanceAfter])).toEqual([
      [shopA.id, 'charge', null],
      [shopA.id, 'adjust', null],
      [shopA.id, 'reversal', null],
      [shopB.id, 'charge', null],
    ]);
  });

  it('gives a shop its own order’s entries on its own ledger only, with its balance', async () => {
    const nowB = await profileOk(shopB, moved.id);
    expect(nowB.order.view).toBe('full');
    expect(nowB.ledger?.map((e) => [e.userId, e.kind, e.amount, e.balanceAfter])).toEqual([[shopB.id, 'charge', -3000, -3000]]);
    const ownA = await profileOk(shopA, mine.id);
    expect(ownA.ledger?.map((e) => [e.kind, e.amount])).toEqual([['charge', -3000]]);
    expect(ownA.ledger?.[0]?.balanceAfter).toEqual(expect.any(Number));
  });

  it('gives another shop’s public order in the reduced view, without a ledger', async () => {
    const data = await profileOk(shopB, open.id);
    expect(data.order).toMatchObject({ id: open.id, view: 'public', amount: null, userId: null });
    expect(data.ledger).toBeNull();
    expect(data.verifyUrl).toMatch(new RegExp(`/verify/${open.code}$`));
  });

  it('answers 404 for another shop’s private order, as the detail call does (nothing of it shows)', async () => {
    // moved left A: A no longer sees it, although its own reversal is on A's ledger
    for (const [as, id] of [
      [shopB, mine.id],
      [shopA, moved.id],
    ] as const) {
      const res = await profile(as, id);
      expect(res.http).toBe(404);
      expect(res.data).toBeNull();
      const detail = await call(ctx, 'GET', `/api/admin/order/detail?id=${id}`, { as });
      expect(detail.http).toBe(404);
    }
    const missing = await profile(admin, 999_999);
    expect(missing.http).toBe(404);
  });

  it('refuses a call without a session and answers 400 to a bad id', async () => {
    const anonymous = await profile(null, mine.id);
    expect(anonymous.http).toBe(401);
    const bad = await profile(admin, 'abc');
    expect(bad.http).toBe(400);
  });
});

describe('GET /admin/order/profile with PUBLIC_URL', () => {
  it('puts the verification URL under the configured base, as the ZIP summary does', async () => {
    const other = await createTestContext({ env: { PUBLIC_URL: 'https://check.example.com/app/' } });
    try {
      const boss = await loginAs(other, 'admin');
      const shop = await loginAs(other, 'shop');
      const insp = await loginAs(other, 'inspector');
      await other.db.updateTable('users').set(PRICES).where('id', '=', shop.id).execute();
      const created = await call<OrderItem>(other, 'POST', '/api/admin/order/create', {
        as: boss,
        payload: orderBody({ userId: shop.id, inspectorId: insp.id, amount: 3000 }),
      });
      expect(created.status, created.msg).toBe(200);
      const res = await call<OrderProfile>(other, 'GET', `/api/admin/order/profile?id=${created.data.id}`, { as: shop });
      expect(res.data.verifyUrl).toBe(`https://check.example.com/app/verify/${created.data.code}`);
    } finally {
      await other.destroy();
    }
  });
});
