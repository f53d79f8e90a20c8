import type { OrderAnalysis, OrderItem, WorkplaceData } from '@clearplay/contract';
import fc from 'fast-check';
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
import { editBody } from '../../test/orders.ts';

/**
 * The workplace's figures come from counters kept with every order write (order_daily,
 * order_hourly, order_game_daily, order_user_daily). Over long random sequences of real HTTP
 * calls (creates, edits of result / amount / client / game / public flag, deletes, csv
 * imports, recharges) with the clock moving forward across Shanghai days and months, every
 * figure of GET /admin/workplace and GET /admin/analysis/orders equals a recount from the raw
 * tables, with days and months computed independently (Intl, Asia/Shanghai).
 */

const NUM_RUNS = 8;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GAMES = ['CS2', '王者荣耀', '和平精英'] as const;
const PRICES: [number, number, number, number][] = [
  [3000, 5000, 2000, 4000],
  [100, 0, 250, 999],
  [0, 0, 0, 0],
];

let ctx: TestContext;
let boss: LoggedIn;
let inspector: LoggedIn;
let shops: { id: number; username: string; prices: [number, number, number, number] }[];

beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
  inspector = await loginAs(ctx, 'inspector');
  shops = [];
  for (const [i, p] of PRICES.entries()) {
    const u = await createUser(ctx, 'shop');
    await ctx.db
      .updateTable('users')
      .set({ defaultPrice: p[0], defaultPriceCheat: p[1], defaultPriceNotPass: p[2], defaultPriceSuspect: p[3], ifPublic: i % 2 })
      .where('id', '=', u.id)
      .execute();
    shops.push({ id: u.id, username: u.username, prices: p });
  }
});
afterAll(() => ctx?.destroy());
afterEach(() => vi.useRealTimers());

type Result = 0 | 1 | 2 | 3;
type Step = { wait: number } & (
  | { kind: 'create'; shop: number; result: Result; game: number; ifPublic: 0 | 1; amount: number | null }
  | { kind: 'edit'; pick: number; shop: number | null; result: Result; game: number; ifPublic: 0 | 1; amount: number | null }
  | { kind: 'delete'; picks: number[] }
  | { kind: 'import'; rows: { shop: number; result: Result; game: number }[] }
  | { kind: 'recharge'; shop: number; amount: number }
);

const result = fc.constantFrom<Result>(0, 1, 2, 3);
const shop = fc.integer({ min: 0, max: PRICES.length - 1 });
const game = fc.integer({ min: 0, max: GAMES.length - 1 });
const flag = fc.constantFrom<0 | 1>(0, 1);
const amount = fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null, freq: 2 });
/** The clock moves on by minutes to days between steps (so orders cross hours, Shanghai days and months). */
const wait = fc.oneof(fc.integer({ min: 0, max: 90 * 60_000 }), fc.integer({ min: 0, max: 4 * DAY }));

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ wait, kind: fc.constant('create' as const), shop, result, game, ifPublic: flag, amount }) },
  {
    weight: 4,
    arbitrary: fc.record({
      wait,
      kind: fc.constant('edit' as const),
      pick: fc.nat(),
      shop: fc.option(shop, { nil: null }),
      result,
      game,
      ifPublic: flag,
      amount,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ wait, kind: fc.constant('delete' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      wait,
      kind: fc.constant('import' as const),
      rows: fc.array(fc.record({ shop, result, game }), { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ wait, kind: fc.constant('recharge' as const), shop, amount: fc.integer({ min: 1, max: 100_000 }) }) },
);

const scenario = fc.record({
  /** Start somewhere in 2026, at any minute (month ends included). */
  start: fc.integer({ min: Date.parse('2026-01-25T00:00:00Z'), max: Date.parse('2026-12-20T00:00:00Z') }),
  steps: fc.array(step, { minLength: 15, maxLength: 35 }),
  /** When the workplace is read: shortly after the last step, or days later. */
  after: fc.integer({ min: 0, max: 20 * DAY }),
});

async function api<T = unknown>(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await call<T>(ctx, method, url, { as: boss, payload });
  if (res.http >= 500) throw new Error(`${method} ${url} answered ${res.http} ${res.msg}`);
  return res;
}

function ok(res: { status: number; msg: string }, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.msg}`);
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const HEADERS = ['Target WeChat ID', 'Target name', 'Game', 'MAC address', 'Install time', 'Result', 'Client shop', "Target's shop"];

async function importRows(rows: { shop: number; result: Result; game: number }[]): Promise<void> {
  const lines = [
    HEADERS,
    ...rows.map((r, i) => [
      `imp_${i}`,
      'x',
      GAMES[r.game]!,
      '02:00:00:00:00:02',
      '2026-01-02 03:04',
      String(r.result),
      shops[r.shop]!.username,
      'y',
    ]),
  ];
  const form = new FormData();
  form.append('file', new Blob([lines.map((l) => l.map(csvCell).join(',')).join('\r\n') + '\r\n']), 'orders.csv');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/admin/order/import',
    headers: { ...inspector.headers, 'content-type': request.headers.get('content-type') ?? '', 'accept-language': 'en-US' },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  const body = res.json<{ status: number; msg: string; data: { imported: number; rejected: unknown[] } }>();
  if (body.status !== 200 || body.data.imported !== rows.length) throw new Error(`import: ${res.body}`);
}

/** Sessions live by the (fake) clock: sign in again when it has moved on by more than an hour. */
let signedInAt = -Infinity;
async function signIn(now: number): Promise<void> {
  if (Math.abs(now - signedInAt) < HOUR) return;
  signedInAt = now;
  boss = { ...boss, ...(await loginWith(ctx, boss.username, TEST_PASSWORD)) };
  inspector = { ...inspector, ...(await loginWith(ctx, inspector.username, TEST_PASSWORD)) };
}

async function run(start: number, steps: readonly Step[], after: number): Promise<void> {
  let now = start;
  vi.setSystemTime(now);
  await signIn(now);
  const live: OrderItem[] = [];
  const pick = (n: number) => live[n % live.length]!;
  for (const s of steps) {
    now += s.wait;
    vi.setSystemTime(now);
    await signIn(now);
    if (s.kind === 'create') {
      const client = shops[s.shop]!;
      const res = await api<OrderItem>('POST', '/api/admin/order/create', {
        objWechat: `wp_${live.length}`,
        objWechatName: 'Target',
        gameName: GAMES[s.game],
        mac: '02:00:00:00:00:01',
        installationTime: '2026-01-02T03:04:05.000Z',
        result: s.result,
        userId: client.id,
        objClientName: 'Their shop',
        inspectorId: inspector.id,
        amount: s.amount ?? client.prices[s.result],
        ifPublic: s.ifPublic,
      });
      ok(res, 'create');
      live.push(res.data);
    } else if (s.kind === 'edit') {
      if (live.length === 0) continue;
      const order = pick(s.pick);
      const client = s.shop === null ? shops.find((x) => x.id === order.userId)! : shops[s.shop]!;
      const res = await api<OrderItem>(
        'POST',
        '/api/admin/order/update',
        editBody(order, {
          userId: client.id,
          result: s.result,
          gameName: GAMES[s.game],
          ifPublic: s.ifPublic,
          amount: s.amount ?? client.prices[s.result],
        }),
      );
      ok(res, 'edit');
      live[live.indexOf(order)] = res.data;
    } else if (s.kind === 'delete') {
      if (live.length === 0) continue;
      const ids = [...new Set(s.picks.map((n) => pick(n).id))];
      ok(await api('POST', '/api/admin/order/delete', { ids }), 'delete');
      for (const id of ids)
        live.splice(
          live.findIndex((o) => o.id === id),
          1,
        );
    } else if (s.kind === 'import') {
      await importRows(s.rows);
    } else {
      ok(await api('POST', '/api/admin/user/recharge', { userId: shops[s.shop]!.id, amount: s.amount }), 'recharge');
    }
  }
  now += after;
  vi.setSystemTime(now);
  await signIn(now);
  await checkFigures(now);
}

// ── the recount: raw rows, Shanghai calendar from Intl ──

const shanghaiDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' });
const dateOf = (ms: number) => shanghaiDate.format(new Date(ms));
const monthOf = (ms: number) => dateOf(ms).slice(0, 7);
const shiftMonth = (ym: string, by: number) => {
  const d = new Date(Date.UTC(Number(ym.slice(0, 4)), Number(ym.slice(5, 7)) - 1 + by, 1));
  return d.toISOString().slice(0, 7);
};
const tally = (rows: readonly { amount: number }[]) => ({ count: rows.length, amount: rows.reduce((s, r) => s + r.amount, 0) });
const change = (c: number, p: number) => (p === 0 ? null : Math.round(((c - p) / p) * 10_000) / 10_000);

async function checkFigures(now: number): Promise<void> {
  const orders = (await ctx.db.selectFrom('orders').select(['id', 'createdAt', 'result', 'amount', 'gameName', 'userId']).execute()).map(
    (o) => ({ id: Number(o.id), at: Number(o.createdAt), result: o.result, amount: Number(o.amount), game: o.gameName, userId: o.userId }),
  );
  const ledger = await ctx.db.selectFrom('ledgerEntries').select('amount').execute();
  const users = await ctx.db.selectFrom('users').select(['id', 'serviceEndAt']).execute();

  const res = await api<WorkplaceData>('GET', '/api/admin/workplace');
  ok(res, 'workplace');
  const w = res.data;

  expect(w.balance, 'balance = Σ ledger').toBe(ledger.reduce((s, e) => s + Number(e.amount), 0));
  expect(w.total, 'total').toEqual(tally(orders));
  expect(w.results, 'results').toEqual([0, 1, 2, 3].map((r) => ({ result: r, ...tally(orders.filter((o) => o.result === r)) })));

  const thisMonth = monthOf(now);
  const current = tally(orders.filter((o) => monthOf(o.at) === thisMonth));
  const previous = tally(orders.filter((o) => monthOf(o.at) === shiftMonth(thisMonth, -1)));
  expect(w.month.current, 'this month').toEqual(current);
  expect(w.month.previous, 'last month').toEqual(previous);
  expect(w.month.countChange).toBe(change(current.count, previous.count));
  expect(w.month.amountChange).toBe(change(current.amount, previous.amount));
  expect(dateOf(Date.parse(w.month.start))).toBe(`${thisMonth}-01`);
  expect(dateOf(Date.parse(w.month.start) - 1)).not.toBe(`${thisMonth}-01`);

  const days = Array.from({ length: 30 }, (_, i) => dateOf(now - (29 - i) * DAY));
  expect(w.daily, 'daily series').toEqual(days.map((date) => ({ date, ...tally(orders.filter((o) => dateOf(o.at) === date)) })));

  const byNewest = [...orders].sort((a, b) => b.at - a.at || b.id - a.id);
  const suspicious = byNewest.filter((o) => o.result === 3);
  expect(w.pending.count, 'pending').toBe(suspicious.length);
  expect(w.pending.list.map((o) => o.id)).toEqual(suspicious.slice(0, 5).map((o) => o.id));
  expect(w.latestOrders.map((o) => o.id)).toEqual(byNewest.slice(0, 8).map((o) => o.id));
  const renewing = users.filter((u) => u.serviceEndAt !== null && u.serviceEndAt >= now - 30 * DAY && u.serviceEndAt <= now + 7 * DAY);
  expect(w.renewals.count).toBe(renewing.length);

  // The analysis over the last 40 Shanghai days by day, and the year by month.
  for (const [from, bucket] of [
    [dateOf(now - 39 * DAY), 'day'],
    [dateOf(now - 120 * DAY), 'month'],
  ] as const) {
    const to = dateOf(now);
    const a = await api<OrderAnalysis>('GET', `/api/admin/analysis/orders?from=${from}&to=${to}&bucket=${bucket}`);
    ok(a, 'analysis');
    const inRange = orders.filter((o) => dateOf(o.at) >= from && dateOf(o.at) <= to);
    const keyOf = (ms: number) => (bucket === 'day' ? dateOf(ms) : `${monthOf(ms)}-01`);
    expect(a.data.total, `analysis total by ${bucket}`).toEqual(tally(inRange));
    for (const r of a.data.byResult) {
      expect(r.count, `result ${r.result} by ${bucket}`).toEqual(
        a.data.buckets.map((b) => inRange.filter((o) => o.result === r.result && keyOf(o.at) === b).length),
      );
    }
    for (const g of a.data.byGame) expect(g.total).toEqual(tally(inRange.filter((o) => o.game === g.gameName)));
    expect(a.data.byGame.reduce((n, g) => n + g.total.count, 0)).toBe(inRange.length);
    for (const s of a.data.byShop) expect(s.total, `shop #${s.userId}`).toEqual(tally(inRange.filter((o) => o.userId === s.userId)));
  }
}

describe('workplace figures', () => {
  it('equal a recount from the raw tables after random sequences of writes', { timeout: 600_000 }, async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ start, steps, after }) => {
        await ctx.db.deleteFrom('orders').execute();
        for (const t of ['orderDaily', 'orderHourly', 'orderGameDaily', 'orderUserDaily'] as const) await ctx.db.deleteFrom(t).execute();
        await run(start, steps, after);
      }),
      { numRuns: NUM_RUNS, interruptAfterTimeLimit: 400_000, markInterruptAsFailure: true },
    );
  });
});
