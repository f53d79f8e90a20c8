import type { LedgerPage, OrderItem } from '@clearplay/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/index.ts';
import { call, createUser, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { editBody } from '../../test/orders.ts';

/**
 * The ledger invariant (docs/product.md "Money"), checked over long random sequences of real HTTP
 * calls: creates, edits (result, amount, client, public flag), deletes of one or several
 * orders (some with a missing id, which must change nothing), recharges, and orders moved to
 * older days. After every sequence, for every shop of the run:
 *   users.balance = Σ ledger_entries.amount = Σ recharges − Σ amounts of its live orders,
 * each entry's balanceAfter is the running sum in id order, and order_daily equals a
 * GROUP BY over orders.
 */

const DAY = 86_400_000;
const NUM_RUNS = 12;

let ctx: TestContext;
let admin: LoggedIn;
let inspectors: LoggedIn[];

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  inspectors = [await loginAs(ctx, 'inspector'), await loginAs(ctx, 'inspector')];
});
afterAll(() => ctx?.destroy());

type Prices = [number, number, number, number];
type Result = 0 | 1 | 2 | 3;

type Step =
  | { kind: 'create'; by: number; shop: number; result: Result; amount: number | null; ifPublic: 0 | 1 }
  | { kind: 'edit'; by: number; pick: number; shop: number | null; result: Result; amount: number | null; ifPublic: 0 | 1 }
  | { kind: 'delete'; picks: number[]; withMissing: boolean }
  | { kind: 'recharge'; shop: number; amount: number }
  | { kind: 'age'; pick: number; days: number };

/** `by`: 0 is the admin (may override the amount), 1 and 2 the two inspectors. */
const by = fc.integer({ min: 0, max: 2 });
const shop = fc.integer({ min: 0, max: 2 });
const result = fc.constantFrom<Result>(0, 1, 2, 3);
const flag = fc.constantFrom<0 | 1>(0, 1);
const override = fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: null, freq: 2 });

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), by, shop, result, amount: override, ifPublic: flag }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      by,
      pick: fc.nat(),
      shop: fc.option(shop, { nil: null }),
      result,
      amount: override,
      ifPublic: flag,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      withMissing: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('recharge' as const), shop, amount: fc.integer({ min: 1, max: 100_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('age' as const), pick: fc.nat(), days: fc.integer({ min: 1, max: 40 }) }) },
);

const price = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5000 }));
const scenario = fc.record({
  prices: fc.array(fc.tuple(price, price, price, price), { minLength: 2, maxLength: 3 }),
  steps: fc.array(step, { minLength: 30, maxLength: 60 }),
});

interface Shop {
  id: number;
  prices: Prices;
  recharged: number;
}

/** One call; whatever it answers, it is never a 5xx. */
async function api<T = unknown>(method: 'GET' | 'POST', url: string, as: { headers: Record<string, string> }, payload?: unknown) {
  const res = await call<T>(ctx, method, url, { as, payload });
  if (res.http >= 500) throw new Error(`${method} ${url} answered ${res.http} ${res.msg}`);
  return res;
}

const expectStatus = (res: { status: number; msg: string }, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.msg}`);
};

const dayOf = (ms: number) => ms - (ms % DAY);

/** Adds to one order_daily row (test upkeep when a test moves an order in time). */
async function addDaily(db: Db, key: { day: number; result: number; ifPublic: number }, n: number, amount: number): Promise<void> {
  const where = db
    .updateTable('orderDaily')
    .where('day', '=', key.day)
    .where('result', '=', key.result)
    .where('ifPublic', '=', key.ifPublic);
  const found = await db
    .selectFrom('orderDaily')
    .select('n')
    .where('day', '=', key.day)
    .where('result', '=', key.result)
    .where('ifPublic', '=', key.ifPublic)
    .executeTakeFirst();
  if (found === undefined)
    await db
      .insertInto('orderDaily')
      .values({ ...key, n, amount })
      .execute();
  else await where.set({ n: sql<number>`n + ${n}`, amount: sql<number>`amount + ${amount}` }).execute();
}

/** Moves an order `days` earlier and moves its count and amount to that day's counter. */
async function ageOrder(db: Db, id: number, days: number): Promise<void> {
  const row = await db
    .selectFrom('orders')
    .select(['createdAt', 'result', 'ifPublic', 'amount'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const from = Number(row.createdAt);
  const to = from - days * DAY;
  await db.updateTable('orders').set({ createdAt: to }).where('id', '=', id).execute();
  await addDaily(db, { day: dayOf(from), result: row.result, ifPublic: row.ifPublic }, -1, -Number(row.amount));
  await addDaily(db, { day: dayOf(to), result: row.result, ifPublic: row.ifPublic }, 1, Number(row.amount));
}

const DAY_OF_CREATED = sql<number>`created_at - created_at % ${sql.lit(DAY)}`;

async function checkInvariants(shops: readonly Shop[], live: ReadonlyMap<number, OrderItem>): Promise<void> {
  for (const s of shops) {
    const user = await ctx.db.selectFrom('users').select('balance').where('id', '=', s.id).executeTakeFirstOrThrow();
    const entries = await ctx.db
      .selectFrom('ledgerEntries')
      .select(['id', 'amount', 'balanceAfter', 'kind'])
      .where('userId', '=', s.id)
      .orderBy('id')
      .execute();
    const orders = await ctx.db.selectFrom('orders').select(['id', 'amount']).where('userId', '=', s.id).orderBy('id').execute();
    const liveOfShop = [...live.values()].filter((o) => o.userId === s.id);

    // the orders table holds exactly the live orders of the model, with their amounts
    expect(orders.map((o) => [Number(o.id), Number(o.amount)])).toEqual(
      liveOfShop.sort((a, b) => a.id - b.id).map((o) => [o.id, o.amount]),
    );

    const sumEntries = entries.reduce((sum, e) => sum + Number(e.amount), 0);
    const expected = s.recharged - liveOfShop.reduce((sum, o) => sum + (o.amount ?? 0), 0);
    expect(Number(user.balance), `balance of shop #${s.id}`).toBe(sumEntries);
    expect(sumEntries, `ledger of shop #${s.id}`).toBe(expected);
    expect(entries.filter((e) => e.kind === 'recharge').reduce((sum, e) => sum + Number(e.amount), 0)).toBe(s.recharged);
    let running = 0;
    for (const e of entries) {
      running += Number(e.amount);
      expect(Number(e.balanceAfter), `balanceAfter of entry #${e.id}`).toBe(running);
      expect(Number(e.amount)).not.toBe(0);
    }
    const page = await api<LedgerPage>('GET', `/api/admin/user/ledger?userId=${s.id}&pageSize=1`, admin);
    expect(page.data.balance).toBe(expected);
    expect(page.data.total).toBe(entries.length);
  }

  const grouped = await ctx.db
    .selectFrom('orders')
    .select((eb) => [
      DAY_OF_CREATED.as('day'),
      'result',
      'ifPublic',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('amount').as('amount'),
    ])
    .groupBy([DAY_OF_CREATED, 'result', 'ifPublic'])
    .execute();
  const daily = await ctx.db.selectFrom('orderDaily').selectAll().execute();
  const key = (r: { day: number | string; result: number; ifPublic: number }) => `${Number(r.day)}|${r.result}|${r.ifPublic}`;
  const want = Object.fromEntries(grouped.map((r) => [key(r), [Number(r.n), Number(r.amount)]]));
  const got = Object.fromEntries(
    daily.filter((r) => Number(r.n) !== 0 || Number(r.amount) !== 0).map((r) => [key(r), [Number(r.n), Number(r.amount)]]),
  );
  expect(got, 'order_daily equals a GROUP BY over orders').toEqual(want);
}

async function run(prices: readonly Prices[], steps: readonly Step[]): Promise<void> {
  const shops: Shop[] = [];
  for (const p of prices) {
    const user = await createUser(ctx, 'shop');
    await ctx.db
      .updateTable('users')
      .set({
        defaultPrice: p[0],
        defaultPriceCheat: p[1],
        defaultPriceNotPass: p[2],
        defaultPriceSuspect: p[3],
        ifPublic: shops.length % 2,
      })
      .where('id', '=', user.id)
      .execute();
    shops.push({ id: user.id, prices: [...p], recharged: 0 });
  }
  const shopAt = (i: number) => shops[i % shops.length] as Shop;
  const shopOf = (id: number | null) => shops.find((s) => s.id === id) as Shop;
  const actor = (i: number) => (i === 0 ? admin : (inspectors[i - 1] as LoggedIn));
  /** Live orders of this run, as an admin sees them. */
  const live = new Map<number, OrderItem>();
  const pick = (n: number) => [...live.values()][n % live.size] as OrderItem;

  for (const s of steps) {
    if (s.kind === 'create') {
      const as = actor(s.by);
      const client = shopAt(s.shop);
      const amount = s.by === 0 && s.amount !== null ? s.amount : client.prices[s.result];
      const res = await api<OrderItem>('POST', '/api/admin/order/create', as, {
        objWechat: `prop_${live.size}`,
        objWechatName: 'Target',
        gameName: 'CS2',
        mac: '02:00:00:00:00:01',
        installationTime: '2026-01-02T03:04:05.000Z',
        result: s.result,
        userId: client.id,
        objClientName: 'Their shop',
        inspectorId: (s.by === 0 ? (inspectors[s.shop % 2] as LoggedIn) : as).id,
        amount,
        ifPublic: s.ifPublic,
      });
      expectStatus(res, 200, 'create');
      expect(res.data).toMatchObject({ amount, userId: client.id, result: s.result, ifPublic: s.ifPublic });
      live.set(res.data.id, res.data);
    } else if (s.kind === 'edit') {
      if (live.size === 0) continue;
      const order = pick(s.pick);
      const as = actor(s.by);
      const client = s.shop === null ? shopOf(order.userId) : shopAt(s.shop);
      const unchanged = client.id === order.userId && s.result === order.result;
      const amount = s.by === 0 && s.amount !== null ? s.amount : unchanged ? (order.amount as number) : client.prices[s.result];
      const res = await api<OrderItem>(
        'POST',
        '/api/admin/order/update',
        as,
        editBody(order, { userId: client.id, result: s.result, amount, ifPublic: s.ifPublic }),
      );
      if (s.by !== 0 && order.inspectorId !== as.id) {
        expectStatus(res, 403, 'edit of another inspector’s order');
        continue;
      }
      expectStatus(res, 200, 'edit');
      expect(res.data).toMatchObject({ id: order.id, amount, userId: client.id, result: s.result, ifPublic: s.ifPublic });
      live.set(order.id, res.data);
    } else if (s.kind === 'delete') {
      if (live.size === 0) continue;
      const ids = [...new Set(s.picks.map((n) => pick(n).id))];
      const missing = Math.max(...ids) + 1_000_000;
      const res = await api<{ deleted: number }>('POST', '/api/admin/order/delete', admin, {
        ids: s.withMissing ? [...ids, missing] : ids,
      });
      if (s.withMissing) {
        expectStatus(res, 404, 'delete with a missing id');
        continue;
      }
      expectStatus(res, 200, 'delete');
      expect(res.data.deleted).toBe(ids.length);
      for (const id of ids) live.delete(id);
    } else if (s.kind === 'recharge') {
      const target = shopAt(s.shop);
      const res = await api('POST', '/api/admin/user/recharge', admin, { userId: target.id, amount: s.amount });
      expectStatus(res, 200, 'recharge');
      target.recharged += s.amount;
    } else {
      if (live.size === 0) continue;
      const order = pick(s.pick);
      await ageOrder(ctx.db, order.id, s.days);
      const moved = await api<OrderItem>('GET', `/api/admin/order/detail?id=${order.id}`, admin);
      live.set(order.id, moved.data);
    }
  }
  await checkInvariants(shops, live);
}

describe('ledger invariant', () => {
  it('holds after long random sequences of orders, edits, deletes and recharges', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ prices, steps }) => {
        await run(prices as Prices[], steps);
      }),
      { numRuns: NUM_RUNS, interruptAfterTimeLimit: 150_000, markInterruptAsFailure: true },
    );
  });
});
