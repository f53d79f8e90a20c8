// Over 400 lines: the order API's behaviour on one seeded database (visibility, checks, prices, ledger postings), whose cases build on the same people.
import type { LedgerPage, OrderItem, OrderPrices } from '@clearplay/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/index.ts';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { CODE_LENGTH, newVerificationCode } from './codes.ts';
import { editBody, orderBody as baseOrderBody } from '../../test/orders.ts';

/**
 * Orders through the HTTP boundary: list filters, sorting, paging and the time range (with
 * the totals that come from order_daily), who sees what, prices, the checks of an order,
 * edits and deletes with their ledger postings, and verification codes. Import, export and
 * download are tested elsewhere.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

type ListPage = { list: OrderItem[]; total: number };
type Query = Record<string, string | number | undefined>;

const PRICES_A = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };
const PRICES_B = { defaultPrice: 1100, defaultPriceCheat: 3300, defaultPriceNotPass: 550, defaultPriceSuspect: 1650 };
const PRICES_C = { defaultPrice: 1200, defaultPriceCheat: 3600, defaultPriceNotPass: 600, defaultPriceSuspect: 1800 };
const priceOf = (prices: typeof PRICES_A, result: number) =>
  [prices.defaultPrice, prices.defaultPriceCheat, prices.defaultPriceNotPass, prices.defaultPriceSuspect][result] as number;

interface World {
  ctx: TestContext;
  admin: LoggedIn;
  inspector: LoggedIn;
  inspector2: LoggedIn;
  shopA: LoggedIn;
  shopB: LoggedIn;
  shopC: LoggedIn;
}

/** A freshly migrated database with staff and three priced shops, for the enclosing describe. */
function world(): World {
  const w = {} as World;
  beforeAll(async () => {
    w.ctx = await createTestContext();
    w.admin = await loginAs(w.ctx, 'admin');
    w.inspector = await loginAs(w.ctx, 'inspector');
    w.inspector2 = await loginAs(w.ctx, 'inspector');
    w.shopA = await loginAs(w.ctx, 'shop');
    w.shopB = await loginAs(w.ctx, 'shop');
    w.shopC = await loginAs(w.ctx, 'shop');
    await w.ctx.db.updateTable('users').set(PRICES_A).where('id', '=', w.shopA.id).execute();
    await w.ctx.db.updateTable('users').set(PRICES_B).where('id', '=', w.shopB.id).execute();
    await w.ctx.db.updateTable('users').set(PRICES_C).where('id', '=', w.shopC.id).execute();
  });
  afterAll(() => w.ctx?.destroy());
  return w;
}

/** One call; whatever it answers, it is never a 5xx. */
async function api<T = unknown>(
  w: World,
  method: 'GET' | 'POST',
  url: string,
  as: LoggedIn | null,
  payload?: unknown,
  headers?: Record<string, string>,
) {
  const res = await call<T>(w.ctx, method, url, { as, payload, headers });
  expect(res.http, `${method} ${url} answered ${res.http} ${res.msg}`).toBeLessThan(500);
  expect(res.status, `${method} ${url}: envelope status and HTTP status agree`).toBe(res.http);
  return res;
}

const qs = (q: Query) =>
  new URLSearchParams(Object.entries(q).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();

const iso = (ms: number) => new Date(ms).toISOString();

const orderBody = (w: World, o: Record<string, unknown> = {}) =>
  baseOrderBody({ userId: w.shopA.id, inspectorId: w.inspector.id, amount: PRICES_A.defaultPriceCheat }, o);

async function create(w: World, as: LoggedIn, o: Record<string, unknown> = {}): Promise<OrderItem> {
  const res = await api<OrderItem>(w, 'POST', '/api/admin/order/create', as, orderBody(w, o));
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

async function list(w: World, as: LoggedIn, q: Query = {}): Promise<ListPage> {
  const res = await api<ListPage>(w, 'GET', `/api/admin/order/list?${qs({ pageSize: 200, ...q })}`, as);
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

const idsOf = (page: ListPage) => page.list.map((o) => o.id);

// ── direct database helpers (arranging and checking, never the code under test) ──

const DAY_OF_CREATED = sql<number>`created_at - created_at % ${sql.lit(DAY)}`;

/** order_daily recomputed from the orders table: one row per (UTC day, result, if_public). */
async function recomputeDaily(db: Db): Promise<void> {
  await db.deleteFrom('orderDaily').execute();
  await db
    .insertInto('orderDaily')
    .columns(['day', 'result', 'ifPublic', 'n', 'amount'])
    .expression(
      db
        .selectFrom('orders')
        .select((eb) => [
          DAY_OF_CREATED.as('day'),
          'result',
          'ifPublic',
          eb.fn.countAll<number>().as('n'),
          eb.fn.sum<number>('amount').as('amount'),
        ])
        .groupBy([DAY_OF_CREATED, 'result', 'ifPublic']),
    )
    .execute();
}

/** Moves orders in time (created_at) and keeps order_daily consistent with them. */
async function moveOrders(db: Db, moves: ReadonlyArray<readonly [number, number]>): Promise<void> {
  for (const [id, at] of moves) await db.updateTable('orders').set({ createdAt: at }).where('id', '=', id).execute();
  await recomputeDaily(db);
}

/** order_daily equals a GROUP BY over orders (rows counted down to zero are ignored). */
async function expectDailyConsistent(db: Db): Promise<void> {
  const grouped = await db
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
  const daily = await db.selectFrom('orderDaily').selectAll().execute();
  const key = (r: { day: number | string; result: number; ifPublic: number }) => `${Number(r.day)}|${r.result}|${r.ifPublic}`;
  const want = Object.fromEntries(grouped.map((r) => [key(r), [Number(r.n), Number(r.amount)]]));
  const got = Object.fromEntries(
    daily.filter((r) => Number(r.n) !== 0 || Number(r.amount) !== 0).map((r) => [key(r), [Number(r.n), Number(r.amount)]]),
  );
  expect(got).toEqual(want);
}

const balanceOf = async (db: Db, userId: number) =>
  Number((await db.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirstOrThrow()).balance);

const entriesOf = async (db: Db, userId: number) =>
  (await db.selectFrom('ledgerEntries').selectAll().where('userId', '=', userId).orderBy('id').execute()).map((e) => ({
    kind: e.kind,
    amount: Number(e.amount),
    balanceAfter: Number(e.balanceAfter),
    orderId: e.orderId === null ? null : Number(e.orderId),
  }));

const orderCount = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

// ── orderings of the model ──

const createdMs = (o: OrderItem) => Date.parse(o.createdTime);
const byCreatedDesc = (a: OrderItem, b: OrderItem) => createdMs(b) - createdMs(a) || b.id - a.id;
const byCreatedAsc = (a: OrderItem, b: OrderItem) => createdMs(a) - createdMs(b) || a.id - b.id;
const byAmountAsc = (a: OrderItem, b: OrderItem) => (a.amount ?? 0) - (b.amount ?? 0) || a.id - b.id;
const byAmountDesc = (a: OrderItem, b: OrderItem) => (b.amount ?? 0) - (a.amount ?? 0) || b.id - a.id;
const startsWithCi = (value: string, prefix: string) => value.toLowerCase().startsWith(prefix.toLowerCase());

describe('order list: filters, sorting, paging and the time range', () => {
  const w = world();
  /** Every order of this database as an admin sees it, with its (moved) createdTime. */
  const known = new Map<number, OrderItem>();
  const F: OrderItem[] = [];
  const T: Record<string, OrderItem> = {};

  // Time fixture: D0..D3 are whole UTC days; the range [START, END] has a partial first day
  // (D0 from 12:00), two whole days (D1, D2) and a partial last day (D3 until 06:00).
  const D0 = Date.UTC(2021, 2, 10);
  const D = (k: number) => D0 + k * DAY;
  const START = D0 + 12 * HOUR;
  const END = D(3) + 6 * HOUR;
  const TIMES: Record<string, number> = {
    dayBefore: D(-1) + 5 * HOUR,
    startMinus1: START - 1,
    start: START,
    d0Last: D(1) - 1,
    d1First: D(1),
    d1Mid: D(1) + 10 * HOUR,
    d2Last: D(3) - 1,
    d3First: D(3),
    end: END,
    endPlus1: END + 1,
    d3Late: D(3) + 20 * HOUR,
    after: D(5),
  };
  const inRange = (o: OrderItem, start?: number, end?: number) =>
    (start === undefined || createdMs(o) >= start) && (end === undefined || createdMs(o) <= end);

  /** The answer to the query equals the model filtered by pred in the expected order, and total is its size. */
  async function expectQuery(q: Query, pred: (o: OrderItem) => boolean, as: LoggedIn = w.admin, order = byCreatedDesc) {
    const page = await list(w, as, q);
    const want = [...known.values()]
      .filter(pred)
      .sort(order)
      .map((o) => o.id);
    expect(idsOf(page), JSON.stringify(q)).toEqual(want);
    expect(page.total, `total of ${JSON.stringify(q)}`).toBe(want.length);
    return page;
  }

  beforeAll(async () => {
    const A = w.shopA.id;
    const B = w.shopB.id;
    const C = w.shopC.id;
    const i1 = w.inspector.id;
    const i2 = w.inspector2.id;
    const specs = [
      {
        objWechat: 'FltAlpha_1',
        objWechatName: 'Zhang San',
        gameName: 'CS2',
        mac: 'aa:bb:cc:00:00:01',
        result: 0,
        userId: A,
        objClientName: 'Red Dragon',
        inspectorId: i1,
        ifPublic: 0,
        ifChangedMac: 0,
        amount: 1000,
      },
      {
        objWechat: 'fltalpha_2',
        objWechatName: 'zhang si',
        gameName: '王者荣耀',
        mac: 'AA-BB-CC-00-00-02',
        result: 1,
        userId: B,
        objClientName: 'red tiger',
        inspectorId: i2,
        ifPublic: 1,
        ifChangedMac: 1,
        amount: 3300,
      },
      {
        objWechat: 'FltBeta',
        objWechatName: 'Li Si',
        gameName: 'CS2',
        mac: 'aabbcc000103',
        result: 2,
        userId: A,
        objClientName: 'Blue Sky',
        inspectorId: i1,
        ifPublic: 1,
        ifChangedMac: 0,
        amount: 500,
      },
      {
        objWechat: 'fltbeta_x',
        objWechatName: 'LI WU',
        gameName: '英雄联盟',
        mac: 'aabb.cc00.0104',
        result: 3,
        userId: C,
        objClientName: 'blue sea',
        inspectorId: i2,
        ifPublic: 0,
        ifChangedMac: 1,
        amount: 1800,
      },
      {
        objWechat: 'Flt_100%',
        objWechatName: 'Wang_Wu',
        gameName: 'CS2',
        mac: 'DD-EE-FF-00-00-05',
        result: 1,
        userId: B,
        objClientName: 'Green%',
        inspectorId: i1,
        ifPublic: 0,
        ifChangedMac: 0,
        amount: 3300,
      },
      {
        objWechat: 'other_wx',
        objWechatName: 'Zhao Liu',
        gameName: '无畏契约',
        mac: 'dd:ee:ff:00:00:06',
        result: 1,
        userId: C,
        objClientName: 'Red Dragon Two',
        inspectorId: i1,
        ifPublic: 1,
        ifChangedMac: 1,
        amount: 0,
      },
      {
        objWechat: 'FLT%x',
        objWechatName: 'zhang%',
        gameName: 'CS2',
        mac: '0011.2233.4455',
        result: 0,
        userId: A,
        objClientName: 'red',
        inspectorId: i2,
        ifPublic: 0,
        ifChangedMac: 0,
        amount: 1000,
      },
    ];
    for (const spec of specs) F.push(await create(w, w.admin, spec));
    // Creation order differs from time order, so sorting by time is not sorting by id.
    const hours = [5, 1, 6, 2, 0, 4, 3];
    const moves: [number, number][] = F.map((o, i) => [o.id, Date.UTC(2022, 4, 1) + (hours[i] as number) * HOUR]);

    const shops = [A, B, C];
    const prices = [PRICES_A, PRICES_B, PRICES_C];
    let i = 0;
    for (const [name, at] of Object.entries(TIMES)) {
      const result = i % 4;
      const order = await create(w, w.admin, {
        objWechat: `time_${name}`,
        result,
        userId: shops[i % 3],
        amount: priceOf(prices[i % 3] as typeof PRICES_A, result),
        ifPublic: Math.floor(i / 2) % 2,
        mac: `00:00:00:00:00:${String(10 + i)}`,
      });
      T[name] = order;
      moves.push([order.id, at]);
      i++;
    }
    await moveOrders(w.ctx.db, moves);
    for (const o of [...F, ...Object.values(T)]) {
      const fresh = await api<OrderItem>(w, 'GET', `/api/admin/order/detail?id=${o.id}`, w.admin);
      known.set(o.id, fresh.data);
    }
    F.splice(0, F.length, ...F.map((o) => known.get(o.id) as OrderItem));
    for (const name of Object.keys(T)) T[name] = known.get((T[name] as OrderItem).id) as OrderItem;
  });

  it('stores the moved times and a normalised MAC', () => {
    expect(createdMs(T.start as OrderItem)).toBe(START);
    expect(F.map((o) => o.mac)).toEqual([
      'AA-BB-CC-00-00-01',
      'AA-BB-CC-00-00-02',
      'AA-BB-CC-00-01-03',
      'AA-BB-CC-00-01-04',
      'DD-EE-FF-00-00-05',
      'DD-EE-FF-00-00-06',
      '00-11-22-33-44-55',
    ]);
  });

  it('answers every order newest first without filters', async () => {
    await expectQuery({}, () => true);
  });

  it('filters chat ID, target name and target shop by case-insensitive prefix, taking % and _ literally', async () => {
    for (const prefix of ['flt', 'FLTALPHA', 'fltalpha_', 'Flt_', 'flt%', '%', '_', 'fltbeta_x', 'nothing']) {
      await expectQuery({ objWechat: prefix }, (o) => startsWithCi(o.objWechat, prefix));
    }
    await expectQuery({ objWechat: '  fltbeta  ' }, (o) => startsWithCi(o.objWechat, 'fltbeta'));
    for (const prefix of ['ZHANG', 'zhang s', 'li', 'Wang_', 'zhang%', 'Wang%']) {
      await expectQuery({ objWechatName: prefix }, (o) => startsWithCi(o.objWechatName, prefix));
    }
    for (const prefix of ['RED', 'red dragon', 'Blue', 'green%', 'gre%', 'Red Dragon Two']) {
      await expectQuery({ objClientName: prefix }, (o) => startsWithCi(o.objClientName, prefix));
    }
    // sanity: the prefixes above do match something
    expect((await list(w, w.admin, { objWechat: 'flt_' })).total).toBe(1);
    expect((await list(w, w.admin, { objClientName: 'red' })).total).toBe(4);
    // a blank filter is no filter
    await expectQuery({ objWechat: '   ', objWechatName: '', objClientName: ' ' }, () => true);
  });

  it('filters the game exactly', async () => {
    for (const game of ['CS2', '王者荣耀', '无畏契约', '三角洲行动']) await expectQuery({ gameName: game }, (o) => o.gameName === game);
    expect((await list(w, w.admin, { gameName: 'CS2' })).total).toBeGreaterThan(3);
  });

  it('filters the MAC in any spelling, whole or as a beginning', async () => {
    const cases: [string, string][] = [
      ['aa:bb:cc:00:00:01', 'AA-BB-CC-00-00-01'],
      ['AABBCC000001', 'AA-BB-CC-00-00-01'],
      ['aabb.cc00.0001', 'AA-BB-CC-00-00-01'],
      ['AA-BB-CC-00-00-0', 'AA-BB-CC-00-00-0'],
      ['aabbcc0000', 'AA-BB-CC-00-00'],
      ['aa-bb-cc', 'AA-BB-CC'],
      ['aabb.cc00.01', 'AA-BB-CC-00-01'],
      ['a', 'A'],
      [' dd:ee ', 'DD-EE'],
      ['0011.2233.4455', '00-11-22-33-44-55'],
      ['00:00:00:00:00:1', '00-00-00-00-00-1'],
    ];
    for (const [filter, prefix] of cases) {
      const page = await expectQuery({ mac: filter }, (o) => o.mac.startsWith(prefix));
      expect(page.total, filter).toBeGreaterThan(0);
    }
    expect(idsOf(await list(w, w.admin, { mac: 'aa:bb:cc:00:00:01' }))).toEqual([F[0]?.id]);
    for (const bad of ['zz', 'aa%', 'aa_bb', '---']) {
      const res = await api<{ errors: { field: string }[] }>(w, 'GET', `/api/admin/order/list?${qs({ mac: bad })}`, w.admin);
      expect(res.status, bad).toBe(400);
      expect(res.data.errors[0]?.field).toBe('mac');
      expect(res.msg).toContain(bad);
    }
  });

  it('filters result, client, inspector, public and changed-MAC flags, alone and together', async () => {
    for (const result of [0, 1, 2, 3]) await expectQuery({ result }, (o) => o.result === result);
    for (const shop of [w.shopA, w.shopB, w.shopC]) await expectQuery({ userId: shop.id }, (o) => o.userId === shop.id);
    for (const insp of [w.inspector, w.inspector2]) await expectQuery({ inspectorId: insp.id }, (o) => o.inspectorId === insp.id);
    await expectQuery({ inspectorId: w.admin.id }, () => false);
    await expectQuery({ userId: 999_999 }, () => false);
    for (const flag of [0, 1]) {
      await expectQuery({ ifPublic: flag }, (o) => o.ifPublic === flag);
      await expectQuery({ ifChangedMac: flag }, (o) => o.ifChangedMac === flag);
    }
    await expectQuery({ result: 1, ifPublic: 0 }, (o) => o.result === 1 && o.ifPublic === 0);
    await expectQuery(
      { objWechat: 'flt', result: 1, ifChangedMac: 0 },
      (o) => startsWithCi(o.objWechat, 'flt') && o.result === 1 && o.ifChangedMac === 0,
    );
    await expectQuery(
      { userId: w.shopA.id, inspectorId: w.inspector2.id, gameName: 'CS2' },
      (o) => o.userId === w.shopA.id && o.inspectorId === w.inspector2.id && o.gameName === 'CS2',
    );
  });

  it('filters the verification code exactly, in any case', async () => {
    const target = F[3] as OrderItem;
    expect(idsOf(await list(w, w.admin, { code: target.code }))).toEqual([target.id]);
    expect(idsOf(await list(w, w.admin, { code: ` ${target.code.toLowerCase()} ` }))).toEqual([target.id]);
    expect((await list(w, w.admin, { code: 'ZZZZZZZZ' })).total).toBe(0);
    expect((await list(w, w.admin, { code: '%' })).total).toBe(0);
  });

  it('refuses bad filter values with a message naming the field', async () => {
    const bad: [Query, string][] = [
      [{ result: 4 }, 'result'],
      [{ ifPublic: 2 }, 'ifPublic'],
      [{ ifChangedMac: 'yes' }, 'ifChangedMac'],
      [{ userId: 0 }, 'userId'],
      [{ inspectorId: 'abc' }, 'inspectorId'],
      [{ orderStartTime: 'yesterday' }, 'orderStartTime'],
      [{ orderEndTime: '2021-02-30' }, 'orderEndTime'],
      [{ sortField: 'objWechat' }, 'sortField'],
      [{ sortOrder: 'up' }, 'sortOrder'],
      [{ page: 0 }, 'page'],
      [{ pageSize: 201 }, 'pageSize'],
      [{ pageSize: 0 }, 'pageSize'],
      [{ objWechat: 'x'.repeat(101) }, 'objWechat'],
    ];
    for (const [q, field] of bad) {
      const res = await api<{ errors: { field: string }[] }>(w, 'GET', `/api/admin/order/list?${qs(q)}`, w.admin);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.data.errors[0]?.field, JSON.stringify(q)).toBe(field);
      expect(res.msg).toContain(field);
    }
  });

  it('sorts by order time and by amount in both directions (ties by id)', async () => {
    await expectQuery({ sortField: 'createdTime', sortOrder: 'descend' }, () => true, w.admin, byCreatedDesc);
    await expectQuery({ sortField: 'createdTime', sortOrder: 'ascend' }, () => true, w.admin, byCreatedAsc);
    await expectQuery({ sortOrder: 'ascend' }, () => true, w.admin, byCreatedAsc);
    await expectQuery({ sortField: 'amount', sortOrder: 'ascend' }, () => true, w.admin, byAmountAsc);
    await expectQuery({ sortField: 'amount', sortOrder: 'descend' }, () => true, w.admin, byAmountDesc);
    await expectQuery({ sortField: 'amount' }, () => true, w.admin, byAmountDesc);
    await expectQuery(
      { objWechat: 'flt', sortField: 'amount', sortOrder: 'ascend' },
      (o) => startsWithCi(o.objWechat, 'flt'),
      w.admin,
      byAmountAsc,
    );
    // the fixture has equal amounts, so the tie-break is exercised
    const amounts = F.map((o) => o.amount);
    expect(new Set(amounts).size).toBeLessThan(amounts.length);
  });

  it('pages through the whole list without gaps or repeats, with a constant total', async () => {
    for (const [q, order] of [
      [{}, byCreatedDesc],
      [{ sortField: 'amount', sortOrder: 'ascend' }, byAmountAsc],
      [{ sortField: 'createdTime', sortOrder: 'ascend', result: 1 }, byCreatedAsc],
    ] as [Query, (a: OrderItem, b: OrderItem) => number][]) {
      const want = [...known.values()]
        .filter((o) => q.result === undefined || o.result === q.result)
        .sort(order)
        .map((o) => o.id);
      const seen: number[] = [];
      for (let page = 1; ; page++) {
        const res = await list(w, w.admin, { ...q, page, pageSize: 3 });
        expect(res.total).toBe(want.length);
        if (res.list.length === 0) break;
        expect(res.list.length).toBeLessThanOrEqual(3);
        seen.push(...idsOf(res));
        expect(page).toBeLessThan(50);
      }
      expect(seen).toEqual(want);
    }
    const beyond = await list(w, w.admin, { page: 1000, pageSize: 10 });
    expect(beyond).toEqual({ list: [], total: known.size });
    const defaults = await api<ListPage>(w, 'GET', '/api/admin/order/list', w.admin);
    expect(defaults.data.list).toHaveLength(Math.min(20, known.size));
  });

  it('includes an order exactly on either edge of the time range and excludes one a millisecond outside', async () => {
    const names = (page: ListPage) => page.list.map((o) => o.objWechat.replace('time_', '')).sort();
    const whole = await expectQuery({ orderStartTime: iso(START), orderEndTime: iso(END) }, (o) => inRange(o, START, END));
    expect(names(whole)).toEqual(['d0Last', 'd1First', 'd1Mid', 'd2Last', 'd3First', 'end', 'start']);
    expect(whole.total).toBe(7);
    // the same instants written with a +08:00 offset
    const offset = await list(w, w.admin, { orderStartTime: '2021-03-10T20:00:00.000+08:00', orderEndTime: '2021-03-13T14:00:00+08:00' });
    expect(idsOf(offset)).toEqual(idsOf(whole));
    expect(offset.total).toBe(7);

    const one = async (at: number) => list(w, w.admin, { orderStartTime: iso(at), orderEndTime: iso(at) });
    expect(idsOf(await one(START))).toEqual([T.start?.id]);
    expect(idsOf(await one(START - 1))).toEqual([T.startMinus1?.id]);
    expect((await one(START + 1)).total).toBe(0);
    expect(idsOf(await one(END + 1))).toEqual([T.endPlus1?.id]);
    expect((await list(w, w.admin, { orderStartTime: iso(START + 1), orderEndTime: iso(END - 1) })).total).toBe(5);
  });

  it('counts a range of whole days plus partial edge days right for every counter split', async () => {
    const ranges: [number | undefined, number | undefined][] = [
      [START, END], // partial, whole, whole, partial
      [D(1), D(3) - 1], // exactly two whole days
      [D(1), END], // whole days and a partial last day
      [START, D(3) - 1], // a partial first day and whole days
      [D(3), END], // inside one day
      [START - 1, END + 1],
      [D(-1), D(6) - 1],
      [START, undefined],
      [undefined, END],
      [D(1) + 1, D(2)], // one ms into D1 to the first ms of D2
    ];
    for (const [start, end] of ranges) {
      const q = { orderStartTime: start === undefined ? undefined : iso(start), orderEndTime: end === undefined ? undefined : iso(end) };
      await expectQuery(q, (o) => inRange(o, start, end));
      for (const result of [0, 1, 2, 3]) await expectQuery({ ...q, result }, (o) => inRange(o, start, end) && o.result === result);
      for (const flag of [0, 1]) await expectQuery({ ...q, ifPublic: flag }, (o) => inRange(o, start, end) && o.ifPublic === flag);
      await expectQuery({ ...q, result: 2, ifPublic: 1 }, (o) => inRange(o, start, end) && o.result === 2 && o.ifPublic === 1);
      await expectQuery({ ...q, userId: w.shopB.id }, (o) => inRange(o, start, end) && o.userId === w.shopB.id);
      await expectQuery({ ...q, objWechat: 'time_d' }, (o) => inRange(o, start, end) && startsWithCi(o.objWechat, 'time_d'));
      // a shop: its own orders plus every public one
      await expectQuery(q, (o) => inRange(o, start, end) && (o.userId === w.shopA.id || o.ifPublic === 1), w.shopA);
      await expectQuery(
        { ...q, result: 1 },
        (o) => inRange(o, start, end) && o.result === 1 && (o.userId === w.shopA.id || o.ifPublic === 1),
        w.shopA,
      );
    }
    // the real count, straight from the table
    const real = await w.ctx.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('createdAt', '>=', START)
      .where('createdAt', '<=', END)
      .executeTakeFirstOrThrow();
    expect((await list(w, w.admin, { orderStartTime: iso(START), orderEndTime: iso(END) })).total).toBe(Number(real.n));
  });

  it('refuses a range that ends before it starts', async () => {
    const res = await api<{ errors: { field: string }[] }>(
      w,
      'GET',
      `/api/admin/order/list?${qs({ orderStartTime: iso(END), orderEndTime: iso(START) })}`,
      w.admin,
    );
    expect(res.status).toBe(400);
    expect(res.data.errors[0]?.field).toBe('orderEndTime');
    expect(res.msg).toBe('The order time range ends before it starts');
  });

  it('keeps the counters of an old day right when its orders are edited and deleted', async () => {
    const q = { orderStartTime: iso(START), orderEndTime: iso(END) };
    const mid = T.d1Mid as OrderItem;
    const last = T.d2Last as OrderItem;
    const newResult = (last.result + 1) % 4;
    const edited = await api<OrderItem>(
      w,
      'POST',
      '/api/admin/order/update',
      w.admin,
      editBody(last, { result: newResult, amount: 4321, ifPublic: 1 - last.ifPublic }),
    );
    expect(edited.status, edited.msg).toBe(200);
    expect(edited.data.createdTime).toBe(last.createdTime);
    known.set(last.id, edited.data);
    const deleted = await api(w, 'POST', '/api/admin/order/delete', w.admin, { ids: [mid.id] });
    expect(deleted.status, deleted.msg).toBe(200);
    known.delete(mid.id);
    await expectDailyConsistent(w.ctx.db);
    await expectQuery(q, (o) => inRange(o, START, END));
    for (const result of [0, 1, 2, 3]) await expectQuery({ ...q, result }, (o) => inRange(o, START, END) && o.result === result);
    for (const flag of [0, 1]) await expectQuery({ ...q, ifPublic: flag }, (o) => inRange(o, START, END) && o.ifPublic === flag);
    await expectQuery(
      { orderStartTime: iso(D(1)), orderEndTime: iso(D(3) - 1) },
      (o) => inRange(o, D(1), D(3) - 1) && (o.userId === w.shopC.id || o.ifPublic === 1),
      w.shopC,
    );
  });
});

describe('who sees which orders', () => {
  const w = world();
  const o: Record<string, OrderItem> = {};
  const D0 = Date.UTC(2023, 6, 1);

  beforeAll(async () => {
    const plan: [string, LoggedIn, number, number][] = [
      ['a1', w.shopA, 0, 1],
      ['a2', w.shopA, 1, 0],
      ['b1', w.shopB, 0, 1],
      ['b2', w.shopB, 1, 2],
      ['c1', w.shopC, 1, 3],
      ['c2', w.shopC, 0, 3],
    ];
    const prices = new Map([
      [w.shopA.id, PRICES_A],
      [w.shopB.id, PRICES_B],
      [w.shopC.id, PRICES_C],
    ]);
    for (const [name, shop, ifPublic, result] of plan) {
      o[name] = await create(w, w.inspector, {
        objWechat: `vis_${name}`,
        userId: shop.id,
        ifPublic,
        result,
        amount: priceOf(prices.get(shop.id) as typeof PRICES_A, result),
      });
    }
    const at: Record<string, number> = {
      a1: D0 + 3 * HOUR,
      a2: D0 + DAY + 5 * HOUR,
      b1: D0 + DAY + 6 * HOUR,
      b2: D0 + 2 * DAY + HOUR,
      c2: D0 + 2 * DAY + 4 * HOUR,
      c1: D0 + 3 * DAY + 23 * HOUR,
    };
    await moveOrders(
      w.ctx.db,
      Object.entries(at).map(([name, ms]) => [(o[name] as OrderItem).id, ms] as const),
    );
  });

  const id = (name: string) => (o[name] as OrderItem).id;

  it('a shop sees its own orders in full and other shops’ public orders reduced', async () => {
    const page = await list(w, w.shopA);
    expect(idsOf(page).sort((x, y) => x - y)).toEqual([id('a1'), id('a2'), id('b2'), id('c1')]);
    expect(page.total).toBe(4);
    for (const item of page.list) {
      if (item.id === id('a1') || item.id === id('a2')) {
        expect(item).toMatchObject({ view: 'full', userId: w.shopA.id, userName: 'Test shop' });
        expect(item.amount).toBe(priceOf(PRICES_A, item.result));
      } else {
        expect(item).toMatchObject({
          view: 'public',
          amount: null,
          userId: null,
          userName: null,
          inspectorId: null,
          inspectorName: null,
          ifPublic: 1,
        });
        expect(item.objWechat).toMatch(/^vis_/);
      }
    }
    const shopB = await list(w, w.shopB);
    expect(idsOf(shopB).sort((x, y) => x - y)).toEqual([id('a2'), id('b1'), id('b2'), id('c1')]);
    expect(shopB.total).toBe(4);
  });

  it('a shop never sees another shop’s private order: 404 on detail', async () => {
    for (const name of ['b1', 'c2']) {
      const res = await api(w, 'GET', `/api/admin/order/detail?id=${id(name)}`, w.shopA);
      expect(res.status).toBe(404);
      expect(res.msg).toBe(`Order #${id(name)} does not exist`);
      expect(res.data).toBeNull();
    }
    const pub = await api<OrderItem>(w, 'GET', `/api/admin/order/detail?id=${id('b2')}`, w.shopA);
    expect(pub.status).toBe(200);
    expect(pub.data).toMatchObject({
      view: 'public',
      amount: null,
      userId: null,
      userName: null,
      inspectorId: null,
      inspectorName: null,
      code: o.b2?.code,
      objWechat: 'vis_b2',
    });
    const own = await api<OrderItem>(w, 'GET', `/api/admin/order/detail?id=${id('a1')}`, w.shopA);
    expect(own.data).toMatchObject({ view: 'full', userId: w.shopA.id, amount: PRICES_A.defaultPriceCheat });
    expect((await api(w, 'GET', '/api/admin/order/detail?id=999999', w.shopA)).status).toBe(404);
  });

  it('a shop filtering by another shop gets nothing; by itself, its own', async () => {
    expect(await list(w, w.shopA, { userId: w.shopB.id })).toEqual({ list: [], total: 0 });
    expect(await list(w, w.shopA, { userId: w.shopC.id, ifPublic: 1 })).toEqual({ list: [], total: 0 });
    const own = await list(w, w.shopA, { userId: w.shopA.id });
    expect(idsOf(own).sort((x, y) => x - y)).toEqual([id('a1'), id('a2')]);
    expect(own.total).toBe(2);
  });

  it('the shop’s totals are its own private orders plus every public one, under each filter', async () => {
    const cases: [Query, string[]][] = [
      [{ result: 1 }, ['a1']],
      [{ result: 3 }, ['c1']],
      [{ result: 0 }, ['a2']],
      [{ result: 2 }, ['b2']],
      [{ ifPublic: 0 }, ['a1']],
      [{ ifPublic: 1 }, ['a2', 'b2', 'c1']],
      [{ objWechat: 'vis_b' }, ['b2']],
      [{ inspectorId: w.inspector.id }, ['a1', 'a2', 'b2', 'c1']],
      // partial first day, whole days D0+1 and D0+2, partial last day ending on c1
      [{ orderStartTime: iso(D0 + 2 * HOUR), orderEndTime: iso(D0 + 3 * DAY + 23 * HOUR) }, ['a1', 'a2', 'b2', 'c1']],
      [{ orderStartTime: iso(D0 + 2 * HOUR), orderEndTime: iso(D0 + 3 * DAY + 23 * HOUR - 1) }, ['a1', 'a2', 'b2']],
      [{ orderStartTime: iso(D0 + 3 * HOUR + 1), orderEndTime: iso(D0 + 4 * DAY) }, ['a2', 'b2', 'c1']],
      [{ orderStartTime: iso(D0 + DAY), orderEndTime: iso(D0 + 3 * DAY - 1), result: 2 }, ['b2']],
      [{ orderStartTime: iso(D0), orderEndTime: iso(D0 + 4 * DAY - 1), ifPublic: 0 }, ['a1']],
    ];
    for (const [q, names] of cases) {
      const page = await list(w, w.shopA, q);
      expect(
        idsOf(page).sort((x, y) => x - y),
        JSON.stringify(q),
      ).toEqual(names.map(id).sort((x, y) => x - y));
      expect(page.total, JSON.stringify(q)).toBe(names.length);
    }
    // paging a shop's view
    const first = await list(w, w.shopA, { pageSize: 3 });
    const second = await list(w, w.shopA, { pageSize: 3, page: 2 });
    expect(first.total).toBe(4);
    expect(second.total).toBe(4);
    expect([...idsOf(first), ...idsOf(second)]).toEqual(idsOf(await list(w, w.shopA)));
  });

  it('inspectors and admins see every order in full', async () => {
    for (const who of [w.inspector, w.inspector2, w.admin]) {
      const page = await list(w, who);
      expect(page.total).toBe(6);
      expect(idsOf(page).sort((x, y) => x - y)).toEqual(['a1', 'a2', 'b1', 'b2', 'c1', 'c2'].map(id));
      for (const item of page.list) {
        expect(item.view).toBe('full');
        expect(item.amount).not.toBeNull();
        expect(item.userId).not.toBeNull();
      }
      const detail = await api<OrderItem>(w, 'GET', `/api/admin/order/detail?id=${id('b1')}`, who);
      expect(detail.data).toMatchObject({
        view: 'full',
        userId: w.shopB.id,
        amount: PRICES_B.defaultPriceCheat,
        userName: 'Test shop',
        inspectorName: 'Test inspector',
      });
      expect((await list(w, who, { userId: w.shopB.id })).total).toBe(2);
      expect((await list(w, who, { result: 3 })).total).toBe(2);
      expect((await list(w, who, { orderStartTime: iso(D0 + 2 * HOUR), orderEndTime: iso(D0 + 3 * DAY + 23 * HOUR - 1) })).total).toBe(5);
    }
  });

  it('needs a session and order:view', async () => {
    expect((await api(w, 'GET', '/api/admin/order/list', null)).status).toBe(401);
    expect((await api(w, 'GET', `/api/admin/order/detail?id=${id('a1')}`, null)).status).toBe(401);
    const nobody = await loginAs(w.ctx, 'shop');
    const { permissions } = await w.ctx.db.selectFrom('roles').select('permissions').where('name', '=', 'shop').executeTakeFirstOrThrow();
    await w.ctx.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(['order:export']) })
      .where('name', '=', 'shop')
      .execute();
    try {
      const res = await api(w, 'GET', '/api/admin/order/list', nobody);
      expect(res.status).toBe(403);
      expect(res.msg).toBe('You do not have permission to do this (order:view)');
      expect((await api(w, 'GET', `/api/admin/order/detail?id=${id('a2')}`, nobody)).status).toBe(403);
    } finally {
      await w.ctx.db.updateTable('roles').set({ permissions }).where('name', '=', 'shop').execute();
    }
  });
});

describe('orders: prices, the checks, edits, deletes and codes', () => {
  const w = world();
  type Err = { errors: { field: string; message: string }[] };

  async function refused(as: LoggedIn, o: Record<string, unknown>, field: string, status = 400, headers?: Record<string, string>) {
    const before = await orderCount(w.ctx.db);
    const res = await api<Err>(w, 'POST', '/api/admin/order/create', as, orderBody(w, o), headers);
    expect(res.status, `${JSON.stringify(o)} → ${res.msg}`).toBe(status);
    expect(res.data?.errors?.[0]?.field, `${JSON.stringify(o)} → ${res.msg}`).toBe(field);
    expect(res.msg).not.toBe('');
    expect(await orderCount(w.ctx.db)).toBe(before);
    return res;
  }

  describe('prices', () => {
    it('an inspector’s amount must be the client’s price for the result', async () => {
      for (const result of [0, 1, 2, 3]) {
        const price = priceOf(PRICES_A, result);
        const before = await balanceOf(w.ctx.db, w.shopA.id);
        const res = await refused(w.inspector, { result, amount: price + 1 }, 'amount');
        expect(res.msg).toBe(
          `Amount must be the client shop's price for this result (¥${(price / 100).toFixed(2)}); you may not change it`,
        );
        const item = await create(w, w.inspector, { result, amount: price });
        expect(item.amount).toBe(price);
        expect(item.result).toBe(result);
        expect(await balanceOf(w.ctx.db, w.shopA.id)).toBe(before - price);
        // another client, another price
        const forB = await create(w, w.inspector, { result, userId: w.shopB.id, amount: priceOf(PRICES_B, result) });
        expect(forB.amount).toBe(priceOf(PRICES_B, result));
        await refused(w.inspector, { result, userId: w.shopB.id, amount: price }, 'amount');
      }
    });

    it('an admin may set any amount, zero included (no ledger entry then)', async () => {
      const before = await entriesOf(w.ctx.db, w.shopC.id);
      const item = await create(w, w.admin, { userId: w.shopC.id, result: 2, amount: 12345 });
      expect(item.amount).toBe(12345);
      const free = await create(w, w.admin, { userId: w.shopC.id, result: 0, amount: 0 });
      expect(free.amount).toBe(0);
      const after = await entriesOf(w.ctx.db, w.shopC.id);
      expect(after.slice(before.length)).toEqual([
        { kind: 'charge', amount: -12345, balanceAfter: (before.at(-1)?.balanceAfter ?? 0) - 12345, orderId: item.id },
      ]);
      expect((await refused(w.admin, { amount: 100_000_001 }, 'amount')).msg).toContain('amount');
      await refused(w.admin, { amount: -1 }, 'amount');
      await refused(w.admin, { amount: 10.5 }, 'amount');
    });

    it('GET /api/admin/order/price answers the client’s price per result and its public default', async () => {
      const res = await api<OrderPrices>(w, 'GET', `/api/admin/order/price?userId=${w.shopB.id}`, w.inspector);
      expect(res.status).toBe(200);
      expect(res.data).toEqual({ userId: w.shopB.id, prices: { '0': 1100, '1': 3300, '2': 550, '3': 1650 }, ifPublic: 0 });
      expect((await api<OrderPrices>(w, 'GET', `/api/admin/order/price?userId=${w.shopA.id}`, w.admin)).data.prices).toEqual({
        '0': 1000,
        '1': 3000,
        '2': 500,
        '3': 1500,
      });

      const admin = await api<Err>(w, 'GET', `/api/admin/order/price?userId=${w.admin.id}`, w.admin);
      expect(admin.status).toBe(400);
      expect(admin.data.errors[0]?.field).toBe('userId');
      expect(admin.msg).toBe(`${w.admin.username} is an administrator and cannot be a client shop`);
      const missing = await api<Err>(w, 'GET', '/api/admin/order/price?userId=999999', w.admin);
      expect(missing.status).toBe(404);
      expect(missing.data.errors[0]?.field).toBe('userId');
      expect((await api(w, 'GET', '/api/admin/order/price', w.admin)).status).toBe(400);
      expect((await api(w, 'GET', `/api/admin/order/price?userId=${w.shopA.id}`, w.shopA)).status).toBe(403);
      expect((await api(w, 'GET', `/api/admin/order/price?userId=${w.shopA.id}`, null)).status).toBe(401);
    });

    it('a new order without ifPublic takes the client’s default', async () => {
      const pub = await loginAs(w.ctx, 'shop');
      await w.ctx.db
        .updateTable('users')
        .set({ ...PRICES_A, ifPublic: 1 })
        .where('id', '=', pub.id)
        .execute();
      expect((await api<OrderPrices>(w, 'GET', `/api/admin/order/price?userId=${pub.id}`, w.inspector)).data.ifPublic).toBe(1);
      expect((await create(w, w.inspector, { userId: pub.id })).ifPublic).toBe(1);
      expect((await create(w, w.inspector, { userId: pub.id, ifPublic: 0 })).ifPublic).toBe(0);
      expect((await create(w, w.inspector, { userId: w.shopA.id })).ifPublic).toBe(0);
    });

    it('an inspector may keep an order’s amount when neither result nor client changes, even after the price moved', async () => {
      const shop = await loginAs(w.ctx, 'shop');
      await w.ctx.db.updateTable('users').set(PRICES_A).where('id', '=', shop.id).execute();
      const item = await create(w, w.inspector, { userId: shop.id, result: 1, amount: PRICES_A.defaultPriceCheat });
      const overridden = await api<OrderItem>(w, 'POST', '/api/admin/order/update', w.admin, editBody(item, { amount: 2222 }));
      expect(overridden.data.amount).toBe(2222);
      await w.ctx.db.updateTable('users').set({ defaultPriceCheat: 3500, defaultPrice: 1700 }).where('id', '=', shop.id).execute();
      const kept = await api<OrderItem>(
        w,
        'POST',
        '/api/admin/order/update',
        w.inspector,
        editBody(overridden.data, { description: 'rechecked' }),
      );
      expect(kept.status, kept.msg).toBe(200);
      expect(kept.data).toMatchObject({ amount: 2222, description: 'rechecked' });
      // changing it to the old price or anything else is refused; the new price is accepted
      for (const amount of [3000, 9999]) {
        const res = await api<Err>(w, 'POST', '/api/admin/order/update', w.inspector, editBody(kept.data, { amount }));
        expect(res.status).toBe(400);
        expect(res.data.errors[0]?.field).toBe('amount');
      }
      expect(
        (await api<OrderItem>(w, 'POST', '/api/admin/order/update', w.inspector, editBody(kept.data, { amount: 3500 }))).data.amount,
      ).toBe(3500);
      // a new result must take the new price
      const wrong = await api<Err>(w, 'POST', '/api/admin/order/update', w.inspector, editBody(kept.data, { result: 0, amount: 3500 }));
      expect(wrong.status).toBe(400);
      expect(wrong.msg).toContain('¥17.00');
      expect(
        (await api<OrderItem>(w, 'POST', '/api/admin/order/update', w.inspector, editBody(kept.data, { result: 0, amount: 1700 }))).data
          .amount,
      ).toBe(1700);
      expect(await balanceOf(w.ctx.db, shop.id)).toBe(-1700);
    });
  });

  describe('the checks of an order', () => {
    const REQUIRED = [
      'objWechat',
      'objWechatName',
      'gameName',
      'mac',
      'installationTime',
      'result',
      'userId',
      'objClientName',
      'inspectorId',
      'amount',
    ] as const;
    const TEXT = ['objWechat', 'objWechatName', 'gameName', 'mac', 'objClientName', 'installationTime'] as const;

    it('names each missing required field', async () => {
      for (const field of REQUIRED) {
        const body: Record<string, unknown> = orderBody(w);
        delete body[field];
        const before = await orderCount(w.ctx.db);
        const res = await api<Err>(w, 'POST', '/api/admin/order/create', w.admin, body);
        expect(res.status, field).toBe(400);
        expect(res.data.errors[0]?.field).toBe(field);
        expect(res.msg).toBe(`${field}: is required`);
        expect(await orderCount(w.ctx.db)).toBe(before);
      }
    });

    it('names each blank text field', async () => {
      for (const field of TEXT) {
        for (const blank of ['', '   ']) await refused(w.admin, { [field]: blank }, field);
      }
      expect((await refused(w.admin, { objWechat: '' }, 'objWechat')).msg).toBe('objWechat: cannot be empty');
    });

    for (const field of ['result', 'userId', 'inspectorId', 'amount']) {
      it(`names a blank (null or empty) ${field} instead of reading it as 0`, async () => {
        await refused(w.admin, { [field]: '' }, field);
        await refused(w.admin, { [field]: null }, field);
      });
    }

    it('refuses a bad MAC, an unknown or disabled game and result 4', async () => {
      for (const mac of ['AA-BB-CC-DD-EE', 'gg:bb:cc:dd:ee:ff', 'aabbccddeeff00', 'aa bb cc dd ee ff']) {
        const res = await refused(w.inspector, { mac }, 'mac');
        expect(res.msg).toBe(`MAC address "${mac}" is not valid: use AA-BB-CC-DD-EE-FF, aa:bb:cc:dd:ee:ff or aabbccddeeff`);
      }
      expect((await create(w, w.inspector, { mac: ' aabb.ccdd.eeff ' })).mac).toBe('AA-BB-CC-DD-EE-FF');

      expect((await refused(w.inspector, { gameName: 'Minecraft' }, 'gameName')).msg).toBe(
        'Game "Minecraft" is not an enabled value of the game dictionary',
      );
      await w.ctx.db.updateTable('dictData').set({ status: 0 }).where('typeCode', '=', 'game').where('value', '=', '永劫无间').execute();
      try {
        await refused(w.inspector, { gameName: '永劫无间' }, 'gameName');
      } finally {
        await w.ctx.db.updateTable('dictData').set({ status: 1 }).where('typeCode', '=', 'game').where('value', '=', '永劫无间').execute();
      }
      const old = await create(w, w.inspector, { gameName: '永劫无间' });
      await w.ctx.db.updateTable('dictData').set({ status: 0 }).where('typeCode', '=', 'game').where('value', '=', '永劫无间').execute();
      try {
        // an order keeps the game it was recorded with
        const kept = await api<OrderItem>(
          w,
          'POST',
          '/api/admin/order/update',
          w.inspector,
          editBody(old, { description: 'game since retired' }),
        );
        expect(kept.status, kept.msg).toBe(200);
      } finally {
        await w.ctx.db.updateTable('dictData').set({ status: 1 }).where('typeCode', '=', 'game').where('value', '=', '永劫无间').execute();
      }

      for (const result of [4, -1, 1.5, 'cheating']) await refused(w.inspector, { result }, 'result');
    });

    it('refuses a client that is an administrator, disabled or missing', async () => {
      const asAdmin = await refused(w.admin, { userId: w.admin.id, amount: 0 }, 'userId');
      expect(asAdmin.msg).toBe(`${w.admin.username} is an administrator and cannot be a client shop`);
      const zh = await refused(w.admin, { userId: w.admin.id, amount: 0 }, 'userId', 400, { 'accept-language': 'zh-CN' });
      expect(zh.msg).toBe(`${w.admin.username} 是管理员，不能作为客户店铺`);
      const off = await loginAs(w.ctx, 'shop');
      await w.ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', off.id).execute();
      expect((await refused(w.admin, { userId: off.id }, 'userId')).msg).toBe(`Client shop ${off.username} is disabled`);
      expect((await refused(w.admin, { userId: 999_999 }, 'userId', 404)).msg).toBe('Client shop #999999 does not exist');
      await refused(w.admin, { userId: 0 }, 'userId');
    });

    it('an inspector records orders only under their own name; an admin names any enabled inspector', async () => {
      expect((await refused(w.inspector, { inspectorId: w.inspector2.id }, 'inspectorId')).msg).toBe(
        'You can record orders only under your own name as inspector',
      );
      expect((await create(w, w.admin, { inspectorId: w.inspector2.id })).inspectorId).toBe(w.inspector2.id);
      expect((await refused(w.admin, { inspectorId: 999_999 }, 'inspectorId', 404)).msg).toBe('Inspector #999999 does not exist');
      const off = await loginAs(w.ctx, 'inspector');
      await w.ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', off.id).execute();
      expect((await refused(w.admin, { inspectorId: off.id }, 'inspectorId')).msg).toBe(`Inspector ${off.username} is disabled`);
    });

    it('refuses an install time in the future or before 2000', async () => {
      const msg = 'Install time must be a date and time between 2000 and today';
      expect((await refused(w.inspector, { installationTime: iso(Date.now() + 2 * DAY) }, 'installationTime')).msg).toBe(msg);
      expect((await refused(w.inspector, { installationTime: '1999-12-31T23:59:59.999Z' }, 'installationTime')).msg).toBe(msg);
      await refused(w.inspector, { installationTime: '2025-02-30T00:00:00Z' }, 'installationTime');
      await refused(w.inspector, { installationTime: '2025-06-01' }, 'installationTime');
      const soon = await create(w, w.inspector, { installationTime: iso(Date.now() + HOUR) });
      expect(Date.parse(soon.installationTime)).toBeGreaterThan(Date.now());
      expect((await create(w, w.inspector, { installationTime: '2025-06-01T08:00:00+08:00' })).installationTime).toBe(
        '2025-06-01T00:00:00.000Z',
      );
    });

    it('counts a text’s length in characters, as the schema does: 64 emoji fit a 64-character field, 65 do not', async () => {
      // An emoji outside the BMP is one character but two UTF-16 units (decision 0115).
      const made = await create(w, w.inspector, { objWechatName: '😀'.repeat(64), description: '𠀀'.repeat(1000) });
      expect(made.objWechatName).toBe('😀'.repeat(64));
      expect(made.description).toBe('𠀀'.repeat(1000));
      await refused(w.inspector, { objClientName: `${'👍🏽'.repeat(50)}x` }, 'objClientName');
    });

    it('refuses too many images and bad image URLs, and tidies good lists', async () => {
      const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://cdn.example.com/o/${i}.png`).join(',');
      expect((await refused(w.inspector, { certImages: urls(21) }, 'certImages')).msg).toBe('At most 20 images per kind');
      const ok = await create(w, w.inspector, {
        certImages: urls(20),
        proofImages: ' /uploads/a.png , https://cdn.example.com/b.jpg ,',
        personCertImages: '',
      });
      expect(ok.certImages.split(',')).toHaveLength(20);
      expect(ok.proofImages).toBe('/uploads/a.png,https://cdn.example.com/b.jpg');
      for (const [field, bad] of [
        ['proofImages', 'ftp://cdn.example.com/a.png'],
        ['proofImages', 'javascript:alert(1)'],
        ['personCertImages', 'https://cdn.example.com/a b.png'],
        ['certImages', 'a.png'],
      ] as const) {
        const res = await refused(w.inspector, { [field]: bad }, field);
        expect(res.msg).toMatch(/^Image address ".*" is not a valid URL$/);
      }
    });

    it('refuses text over its length and strips unknown fields', async () => {
      await refused(w.inspector, { objWechat: 'x'.repeat(65) }, 'objWechat');
      await refused(w.inspector, { objClientName: 'x'.repeat(101) }, 'objClientName');
      await refused(w.inspector, { description: 'x'.repeat(1001) }, 'description');
      const before = Date.now();
      const res = await api<OrderItem>(w, 'POST', '/api/admin/order/create', w.inspector, {
        ...orderBody(w, { objWechat: '  wx_trim  ', description: '  note  ' }),
        id: 1,
        code: 'AAAAAAAA',
        createdTime: '2001-01-01T00:00:00.000Z',
        createdBy: w.admin.id,
        view: 'public',
        balance: 1_000_000,
      });
      expect(res.status, res.msg).toBe(200);
      expect(res.data.code).not.toBe('AAAAAAAA');
      expect(res.data.code).toMatch(CODE);
      expect(res.data.view).toBe('full');
      expect(Date.parse(res.data.createdTime)).toBeGreaterThanOrEqual(before - 1000);
      expect(res.data).toMatchObject({ objWechat: 'wx_trim', description: 'note' });
      const row = await w.ctx.db.selectFrom('orders').select(['createdBy']).where('id', '=', res.data.id).executeTakeFirstOrThrow();
      expect(row.createdBy).toBe(w.inspector.id);
    });

    it('refuses malformed bodies and ids with a clear message', async () => {
      const notJson = await w.ctx.app.inject({
        method: 'POST',
        url: '/api/admin/order/create',
        headers: { ...w.admin.headers, 'content-type': 'application/json' },
        payload: '{"objWechat":',
      });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json<{ msg: string }>().msg).toBe('The request body is not valid JSON');
      for (const url of [
        '/api/admin/order/detail',
        '/api/admin/order/detail?id=abc',
        '/api/admin/order/detail?id=0',
        '/api/admin/order/detail?id=-3',
      ]) {
        const res = await api<Err>(w, 'GET', url, w.admin);
        expect(res.status, url).toBe(400);
        expect(res.data.errors[0]?.field).toBe('id');
      }
      for (const payload of [{}, { ids: [] }, { ids: ['x'] }, { ids: [0] }, { ids: [1.5] }, { ids: 'all' }]) {
        const res = await api(w, 'POST', '/api/admin/order/delete', w.admin, payload);
        expect(res.status, JSON.stringify(payload)).toBe(400);
      }
    });

    it('answers unknown large ids with 404 (or 400 naming the field), never an error of the database', async () => {
      const before = await orderCount(w.ctx.db);
      /** 404, or 400 naming the field; a list may also answer nothing. */
      const clear = (res: { status: number; msg: string; data: unknown }, field: string, emptyList = false) => {
        if (emptyList && res.status === 200) return expect(res.data).toEqual({ list: [], total: 0 });
        expect([400, 404], `${field}: ${res.msg}`).toContain(res.status);
        if (res.status === 400) expect((res.data as Err).errors[0]?.field).toBe(field);
      };
      for (const big of ['2147483648', '99999999999', '99999999999999999999']) {
        clear(await api(w, 'GET', `/api/admin/order/detail?id=${big}`, w.admin), 'id');
        clear(await api(w, 'GET', `/api/admin/order/list?userId=${big}`, w.admin), 'userId', true);
        clear(await api(w, 'GET', `/api/admin/order/list?inspectorId=${big}`, w.admin), 'inspectorId', true);
        clear(await api(w, 'GET', `/api/admin/order/price?userId=${big}`, w.admin), 'userId');
        clear(await api(w, 'POST', '/api/admin/order/create', w.admin, orderBody(w, { userId: Number(big) })), 'userId');
        clear(await api(w, 'POST', '/api/admin/order/create', w.admin, orderBody(w, { inspectorId: Number(big) })), 'inspectorId');
        clear(await api(w, 'POST', '/api/admin/order/delete', w.admin, { ids: [Number(big)] }), 'ids[0]');
      }
      expect(await orderCount(w.ctx.db)).toBe(before);
    });
  });

  describe('edits and deletes', () => {
    it('shops may not create, edit or delete; inspectors may not delete', async () => {
      const item = await create(w, w.inspector);
      for (const [url, payload] of [
        ['/api/admin/order/create', orderBody(w)],
        ['/api/admin/order/update', editBody(item, { description: 'shop was here' })],
        ['/api/admin/order/delete', { ids: [item.id] }],
      ] as const) {
        const res = await api(w, 'POST', url, w.shopA, payload);
        expect(res.status, url).toBe(403);
        expect(res.msg).toMatch(/^You do not have permission to do this \(order:/);
      }
      const del = await api(w, 'POST', '/api/admin/order/delete', w.inspector, { ids: [item.id] });
      expect(del.status).toBe(403);
      expect(del.msg).toBe('You do not have permission to do this (order:delete)');
      expect((await api<OrderItem>(w, 'GET', `/api/admin/order/detail?id=${item.id}`, w.admin)).data).toEqual(item);
    });

    it('an inspector edits only the orders they inspected', async () => {
      const theirs = await create(w, w.admin, { inspectorId: w.inspector2.id });
      const res = await api(w, 'POST', '/api/admin/order/update', w.inspector, editBody(theirs, { description: 'not mine' }));
      expect(res.status).toBe(403);
      expect(res.msg).toBe(`Order ${theirs.code} was inspected by someone else; you can edit only the orders you inspected`);
      expect((await api<OrderItem>(w, 'GET', `/api/admin/order/detail?id=${theirs.id}`, w.admin)).data.description).toBe('');
      // taking it over is no way around the rule
      expect((await api(w, 'POST', '/api/admin/order/update', w.inspector, editBody(theirs, { inspectorId: w.inspector.id }))).status).toBe(
        403,
      );

      const mine = await create(w, w.inspector);
      const edited = await api<OrderItem>(
        w,
        'POST',
        '/api/admin/order/update',
        w.inspector,
        editBody(mine, { description: 'mine', objWechat: 'wx_new', mac: 'a1b2c3d4e5f6' }),
      );
      expect(edited.status, edited.msg).toBe(200);
      expect(edited.data).toMatchObject({
        description: 'mine',
        objWechat: 'wx_new',
        mac: 'A1-B2-C3-D4-E5-F6',
        code: mine.code,
        createdTime: mine.createdTime,
      });
      // handing their order to someone else is refused
      const handOff = await api<Err>(
        w,
        'POST',
        '/api/admin/order/update',
        w.inspector,
        editBody(edited.data, { inspectorId: w.inspector2.id }),
      );
      expect(handOff.status).toBe(400);
      expect(handOff.data.errors[0]?.field).toBe('inspectorId');
      // an admin edits any order
      expect(
        (await api<OrderItem>(w, 'POST', '/api/admin/order/update', w.admin, editBody(theirs, { inspectorId: w.inspector.id }))).data
          .inspectorId,
      ).toBe(w.inspector.id);
      const missing = await api(w, 'POST', '/api/admin/order/update', w.admin, { ...editBody(theirs), id: 999_999 });
      expect(missing.status).toBe(404);
      expect(missing.msg).toBe('Order #999999 does not exist');
    });

    it('editing the result posts the difference to the client’s ledger', async () => {
      const shop = await loginAs(w.ctx, 'shop');
      await w.ctx.db.updateTable('users').set(PRICES_A).where('id', '=', shop.id).execute();
      const item = await create(w, w.inspector, { userId: shop.id, result: 1, amount: 3000 });
      const toNormal = await api<OrderItem>(w, 'POST', '/api/admin/order/update', w.inspector, editBody(item, { result: 0, amount: 1000 }));
      expect(toNormal.status, toNormal.msg).toBe(200);
      const toSuspect = await api<OrderItem>(
        w,
        'POST',
        '/api/admin/order/update',
        w.inspector,
        editBody(toNormal.data, { result: 3, amount: 1500 }),
      );
      expect(toSuspect.data).toMatchObject({ result: 3, amount: 1500 });
      const same = await api<OrderItem>(
        w,
        'POST',
        '/api/admin/order/update',
        w.inspector,
        editBody(toSuspect.data, { description: 'no money moves' }),
      );
      expect(same.status).toBe(200);
      expect(await entriesOf(w.ctx.db, shop.id)).toEqual([
        { kind: 'charge', amount: -3000, balanceAfter: -3000, orderId: item.id },
        { kind: 'adjust', amount: 2000, balanceAfter: -1000, orderId: item.id },
        { kind: 'adjust', amount: -500, balanceAfter: -1500, orderId: item.id },
      ]);
      expect(await balanceOf(w.ctx.db, shop.id)).toBe(-1500);
      const ledger = await api<LedgerPage>(w, 'GET', `/api/admin/user/ledger?userId=${shop.id}`, w.admin);
      expect(ledger.data.balance).toBe(-1500);
      expect(ledger.data.list[0]?.remark).toBe(`Order ${item.code}: amount ¥10.00 → ¥15.00`);
      await expectDailyConsistent(w.ctx.db);
    });

    it('changing the client reverses the old shop’s charge and charges the new one', async () => {
      const from = await loginAs(w.ctx, 'shop');
      const to = await loginAs(w.ctx, 'shop');
      await w.ctx.db.updateTable('users').set(PRICES_A).where('id', '=', from.id).execute();
      await w.ctx.db.updateTable('users').set(PRICES_B).where('id', '=', to.id).execute();
      const item = await create(w, w.inspector, { userId: from.id, result: 2, amount: 500 });
      // an inspector moving it must take the new client's price
      const wrong = await api<Err>(w, 'POST', '/api/admin/order/update', w.inspector, editBody(item, { userId: to.id }));
      expect(wrong.status).toBe(400);
      expect(wrong.data.errors[0]?.field).toBe('amount');
      const moved = await api<OrderItem>(w, 'POST', '/api/admin/order/update', w.inspector, editBody(item, { userId: to.id, amount: 550 }));
      expect(moved.status, moved.msg).toBe(200);
      expect(moved.data).toMatchObject({ userId: to.id, amount: 550 });
      expect(await entriesOf(w.ctx.db, from.id)).toEqual([
        { kind: 'charge', amount: -500, balanceAfter: -500, orderId: item.id },
        { kind: 'reversal', amount: 500, balanceAfter: 0, orderId: item.id },
      ]);
      expect(await entriesOf(w.ctx.db, to.id)).toEqual([{ kind: 'charge', amount: -550, balanceAfter: -550, orderId: item.id }]);
      // the old client no longer sees it (it was private); the new one does
      expect((await api(w, 'GET', `/api/admin/order/detail?id=${item.id}`, from)).status).toBe(404);
      expect((await api<OrderItem>(w, 'GET', `/api/admin/order/detail?id=${item.id}`, to)).data.view).toBe('full');
      // an admin moves it back with a changed result and amount at once
      const back = await api<OrderItem>(
        w,
        'POST',
        '/api/admin/order/update',
        w.admin,
        editBody(moved.data, { userId: from.id, result: 1, amount: 777 }),
      );
      expect(back.status, back.msg).toBe(200);
      expect(await balanceOf(w.ctx.db, from.id)).toBe(-777);
      expect(await balanceOf(w.ctx.db, to.id)).toBe(0);
      // a free order moving client posts nothing for the zero amounts
      const free = await create(w, w.admin, { userId: to.id, amount: 0 });
      const entries = (await entriesOf(w.ctx.db, to.id)).length;
      expect((await api(w, 'POST', '/api/admin/order/update', w.admin, editBody(free, { userId: from.id, amount: 0 }))).status).toBe(200);
      expect((await entriesOf(w.ctx.db, to.id)).length).toBe(entries);
      await expectDailyConsistent(w.ctx.db);
    });

    it('deleting many reverses each charge; a missing id changes nothing', async () => {
      const s1 = await loginAs(w.ctx, 'shop');
      const s2 = await loginAs(w.ctx, 'shop');
      await w.ctx.db.updateTable('users').set(PRICES_A).where('id', '=', s1.id).execute();
      await w.ctx.db.updateTable('users').set(PRICES_B).where('id', '=', s2.id).execute();
      const x = await create(w, w.inspector, { userId: s1.id, result: 1, amount: 3000 });
      const y = await create(w, w.inspector, { userId: s1.id, result: 3, amount: 1500 });
      const z = await create(w, w.inspector, { userId: s2.id, result: 0, amount: 1100 });
      const keep = await create(w, w.inspector, { userId: s2.id, result: 2, amount: 550 });
      expect(await balanceOf(w.ctx.db, s1.id)).toBe(-4500);
      expect(await balanceOf(w.ctx.db, s2.id)).toBe(-1650);

      const before = { s1: await entriesOf(w.ctx.db, s1.id), s2: await entriesOf(w.ctx.db, s2.id), n: await orderCount(w.ctx.db) };
      const dailyBefore = await w.ctx.db.selectFrom('orderDaily').selectAll().orderBy(['day', 'result', 'ifPublic']).execute();
      const partial = await api(w, 'POST', '/api/admin/order/delete', w.admin, { ids: [x.id, 999_999, y.id] });
      expect(partial.status).toBe(404);
      expect(partial.msg).toBe('Order #999999 does not exist');
      expect(await entriesOf(w.ctx.db, s1.id)).toEqual(before.s1);
      expect(await entriesOf(w.ctx.db, s2.id)).toEqual(before.s2);
      expect(await orderCount(w.ctx.db)).toBe(before.n);
      expect(await w.ctx.db.selectFrom('orderDaily').selectAll().orderBy(['day', 'result', 'ifPublic']).execute()).toEqual(dailyBefore);
      expect((await api(w, 'GET', `/api/admin/order/detail?id=${x.id}`, w.admin)).status).toBe(200);

      const res = await api<{ deleted: number }>(w, 'POST', '/api/admin/order/delete', w.admin, { ids: [x.id, y.id, z.id, x.id] });
      expect(res.status, res.msg).toBe(200);
      expect(res.data).toEqual({ deleted: 3 });
      for (const gone of [x, y, z]) expect((await api(w, 'GET', `/api/admin/order/detail?id=${gone.id}`, w.admin)).status).toBe(404);
      expect((await api(w, 'GET', `/api/admin/order/detail?id=${keep.id}`, w.admin)).status).toBe(200);
      expect(await balanceOf(w.ctx.db, s1.id)).toBe(0);
      expect(await balanceOf(w.ctx.db, s2.id)).toBe(-550);
      const reversals = (await entriesOf(w.ctx.db, s1.id)).slice(before.s1.length);
      expect(reversals.map((e) => [e.kind, e.amount, e.orderId]).sort((a, b) => Number(a[2]) - Number(b[2]))).toEqual([
        ['reversal', 3000, x.id],
        ['reversal', 1500, y.id],
      ]);
      expect((await entriesOf(w.ctx.db, s2.id)).slice(before.s2.length)).toEqual([
        { kind: 'reversal', amount: 1100, balanceAfter: -550, orderId: z.id },
      ]);
      expect((await api(w, 'POST', '/api/admin/order/delete', w.admin, { ids: [x.id] })).status).toBe(404);
      await expectDailyConsistent(w.ctx.db);
    });
  });

  describe('verification codes', () => {
    it('every order gets a unique 8-character code from the unambiguous alphabet', async () => {
      const items = [];
      for (let i = 0; i < 25; i++) items.push(await create(w, w.inspector, { objWechat: `code_${i}` }));
      const all = await w.ctx.db.selectFrom('orders').select('code').execute();
      for (const { code } of all) expect(code).toMatch(CODE);
      expect(new Set(all.map((r) => r.code)).size).toBe(all.length);
      for (const item of items.slice(0, 3)) expect(idsOf(await list(w, w.admin, { code: item.code }))).toEqual([item.id]);
    });

    it('draws codes of the right length and alphabet', () => {
      const seen = new Set<string>();
      for (let i = 0; i < 5000; i++) seen.add(newVerificationCode());
      expect(seen.size).toBe(5000);
      expect([...seen].filter((code) => code.length !== CODE_LENGTH || !CODE.test(code))).toEqual([]);
      // every letter of the alphabet turns up, and nothing else
      expect(new Set([...seen].join('')).size).toBe(31);
    });
  });
});
