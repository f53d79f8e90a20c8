import type { OrderImportResult, OrderItem, RechargeResult, UserItem } from '@clearplay/contract';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, nowMs } from '../../lib/time.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { createTestContext, flushLogs, importFile, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { orderBody } from '../../test/orders.ts';
import { answerIn, claimIn, fingerprintOf, once, onceApart, sweepIdempotencyKeys, type Claim } from './idempotency.service.ts';

/**
 * Idempotency keys on the creates that move money (decision 0109): an order (its charge) and a
 * recharge sent again with the same Idempotency-Key are answered again, not recorded twice.
 */

let ctx: TestContext;
let admin: LoggedIn;
let inspector: LoggedIn;
let otherInspector: LoggedIn;
let boss: LoggedIn;

const PRICES = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  otherInspector = await loginAs(ctx, 'inspector');
  boss = await loginAs(ctx, 'super_admin');
});
afterAll(() => ctx?.destroy());

/** A new shop with prices, so each test counts its own orders and ledger. */
async function newShop(): Promise<LoggedIn> {
  const shop = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', '=', shop.id).execute();
  return shop;
}

interface Answer<T> {
  http: number;
  status: number;
  msg: string;
  data: T;
  replayed: boolean;
}

async function post<T>(url: string, as: LoggedIn, payload: object, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const res = await ctx.app.inject({ method: 'POST', url, headers: { ...as.headers, ...headers }, payload });
  const body = res.json<{ status: number; msg: string; data: T }>();
  expect(res.statusCode, `${url} answered ${res.statusCode} ${body.msg}`).toBeLessThan(500);
  return { http: res.statusCode, ...body, replayed: res.headers['idempotent-replayed'] === 'true' };
}

const createOrder = (as: LoggedIn, shop: LoggedIn, key?: string, overrides: Record<string, unknown> = {}) =>
  post<OrderItem>(
    '/api/admin/order/create',
    as,
    orderBody({ userId: shop.id, inspectorId: as.id, amount: PRICES.defaultPriceCheat }, overrides),
    key === undefined ? {} : { 'idempotency-key': key },
  );

const recharge = (shop: LoggedIn, amount: number, key?: string, as: LoggedIn = admin) =>
  post<RechargeResult>('/api/admin/user/recharge', as, { userId: shop.id, amount }, key === undefined ? {} : { 'Idempotency-Key': key });

/** What the shop's orders and ledger hold. */
async function booksOf(shop: LoggedIn) {
  const orders = await ctx.db.selectFrom('orders').select('id').where('userId', '=', shop.id).execute();
  const entries = await ctx.db.selectFrom('ledgerEntries').select(['kind', 'amount']).where('userId', '=', shop.id).orderBy('id').execute();
  const user = await ctx.db.selectFrom('users').select('balance').where('id', '=', shop.id).executeTakeFirstOrThrow();
  return {
    orders: orders.length,
    entries: entries.map((e) => [e.kind, Number(e.amount)]),
    balance: Number(user.balance),
  };
}

const keyRows = (userId: number) => ctx.db.selectFrom('idempotencyKeys').selectAll().where('userId', '=', userId).execute();

describe('an order create with an Idempotency-Key', () => {
  it('sent twice records one order and one charge, and answers the same both times', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const first = await createOrder(inspector, shop, key);
    expect(first.http, first.msg).toBe(200);
    expect(first.replayed).toBe(false);
    const again = await createOrder(inspector, shop, key);
    expect(again.http, again.msg).toBe(200);
    expect(again.replayed).toBe(true);
    expect(again.data).toEqual(first.data);
    expect(again.msg).toBe(first.msg);
    expect(await booksOf(shop)).toEqual({ orders: 1, entries: [['charge', -3000]], balance: -3000 });
    // The operation log says the second was answered again, nothing recorded.
    await flushLogs(ctx);
    const lines = await ctx.db
      .selectFrom('operationLogs')
      .select(['event', 'status'])
      .where('operatorId', '=', inspector.id)
      .where('action', '=', 'create')
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(lines.map((l) => l.event)).toEqual(['log.text.idempotency.replayed', 'log.text.order.created']);
  });

  it('sent again with another body is refused (422) and writes nothing', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const first = await createOrder(inspector, shop, key);
    expect(first.http, first.msg).toBe(200);
    const before = await booksOf(shop);
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/order/create',
        headers: { ...inspector.headers, 'idempotency-key': key, 'accept-language': lang },
        payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: 3000 }, { objWechat: 'someone_else' }),
      });
      expect(res.statusCode).toBe(422);
      const body = res.json<{ status: number; msg: string }>();
      expect(body.status).toBe(422);
      expect(body.msg).toMatch(lang === 'en-US' ? /Idempotency-Key was already used for a different request/ : /已用于另一个不同的请求/);
    }
    expect(await booksOf(shop)).toEqual(before);
    expect(await keyRows(inspector.id).then((rows) => rows.filter((r) => r.idemKey === key).length)).toBe(1);
  });

  it('sent twice at once records exactly one order', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const answers = await Promise.all([createOrder(inspector, shop, key), createOrder(inspector, shop, key)]);
    // The second waits for the first's transaction on the key, then answers the first's answer.
    expect(answers.map((a) => a.http)).toEqual([200, 200]);
    expect(answers.map((a) => a.replayed).sort()).toEqual([false, true]);
    expect(answers[1]?.data).toEqual(answers[0]?.data);
    expect(await booksOf(shop)).toEqual({ orders: 1, entries: [['charge', -3000]], balance: -3000 });
    expect((await keyRows(inspector.id)).filter((r) => r.idemKey === key)).toHaveLength(1);
  });

  it('without the header records each request, as before', async () => {
    const shop = await newShop();
    expect((await createOrder(inspector, shop)).http).toBe(200);
    expect((await createOrder(inspector, shop)).http).toBe(200);
    expect(await booksOf(shop)).toEqual({
      orders: 2,
      entries: [
        ['charge', -3000],
        ['charge', -3000],
      ],
      balance: -6000,
    });
  });

  it("is one user's: another user's same key is another request", async () => {
    const shop = await newShop();
    const key = randomUUID();
    const mine = await createOrder(inspector, shop, key);
    const theirs = await createOrder(otherInspector, shop, key);
    expect([mine.http, theirs.http]).toEqual([200, 200]);
    expect(theirs.replayed).toBe(false);
    expect(theirs.data.id).not.toBe(mine.data.id);
    expect((await booksOf(shop)).orders).toBe(2);
  });

  it('refuses a malformed key with a clear message in the caller’s language, and writes nothing', async () => {
    const shop = await newShop();
    for (const bad of ['short', 'x'.repeat(129), 'has space in it', 'ключ-не-ascii', '']) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/admin/order/create',
          headers: { ...inspector.headers, 'idempotency-key': bad, 'accept-language': lang },
          payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: 3000 }),
        });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json<{ msg: string }>().msg).toMatch(
          lang === 'en-US' ? /Idempotency-Key header must be 8 to 128/ : /Idempotency-Key 请求头须为/,
        );
      }
    }
    expect((await booksOf(shop)).orders).toBe(0);
  });

  it('keeps no answer of a refused request: the same key runs again once the body is right', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const refused = await createOrder(inspector, shop, key, { amount: 1 });
    expect(refused.http).toBe(400);
    expect((await keyRows(inspector.id)).filter((r) => r.idemKey === key)).toHaveLength(0);
    const fixed = await createOrder(inspector, shop, key);
    expect(fixed.http, fixed.msg).toBe(200);
    expect(fixed.replayed).toBe(false);
    expect((await booksOf(shop)).orders).toBe(1);
  });

  it('expires: a key past its 24 h is a new request, and the retention sweep removes it', async () => {
    const shop = await newShop();
    const key = randomUUID();
    expect((await createOrder(inspector, shop, key)).http).toBe(200);
    const past = nowMs() - 1;
    await ctx.db
      .updateTable('idempotencyKeys')
      .set({ expiresAt: past })
      .where('userId', '=', inspector.id)
      .where('idemKey', '=', key)
      .execute();
    const later = await createOrder(inspector, shop, key);
    expect(later.http, later.msg).toBe(200);
    expect(later.replayed).toBe(false);
    expect((await booksOf(shop)).orders).toBe(2);
    const [row] = (await keyRows(inspector.id)).filter((r) => r.idemKey === key);
    expect(Number(row?.expiresAt)).toBeGreaterThan(nowMs() + DAY_MS - 60_000);

    await ctx.db
      .updateTable('idempotencyKeys')
      .set({ expiresAt: past })
      .where('userId', '=', inspector.id)
      .where('idemKey', '=', key)
      .execute();
    const swept = await sweepIdempotencyKeys(ctx.db, nowMs(), 1);
    expect(swept).toBeGreaterThanOrEqual(1);
    expect((await keyRows(inspector.id)).filter((r) => r.idemKey === key)).toHaveLength(0);
    expect(await ctx.db.selectFrom('idempotencyKeys').select('idemKey').where('expiresAt', '<', nowMs()).execute()).toEqual([]);
  });
});

describe('a recharge with an Idempotency-Key', () => {
  it('sent twice credits once and answers the same both times', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const first = await recharge(shop, 5000, key);
    expect(first.http, first.msg).toBe(200);
    const again = await recharge(shop, 5000, key);
    expect(again.http, again.msg).toBe(200);
    expect(again.replayed).toBe(true);
    expect(again.data).toEqual(first.data);
    expect(await booksOf(shop)).toEqual({ orders: 0, entries: [['recharge', 5000]], balance: 5000 });
  });

  it('sent twice at once credits once', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const answers = await Promise.all([recharge(shop, 700, key), recharge(shop, 700, key)]);
    expect(answers.map((a) => a.http)).toEqual([200, 200]);
    expect(answers[1]?.data).toEqual(answers[0]?.data);
    expect(await booksOf(shop)).toEqual({ orders: 0, entries: [['recharge', 700]], balance: 700 });
  });

  it('with another amount under the same key is refused and credits nothing', async () => {
    const shop = await newShop();
    const key = randomUUID();
    expect((await recharge(shop, 100, key)).http).toBe(200);
    const other = await recharge(shop, 200, key);
    expect(other.http).toBe(422);
    expect(await booksOf(shop)).toEqual({ orders: 0, entries: [['recharge', 100]], balance: 100 });
  });

  it('is scoped to its call: the same key on an order create is another request', async () => {
    const shop = await newShop();
    const key = randomUUID();
    expect((await recharge(shop, 100, key, admin)).http).toBe(200);
    const order = await createOrder(admin, shop, key, { inspectorId: inspector.id });
    expect(order.http, order.msg).toBe(200);
    expect(order.replayed).toBe(false);
  });

  it('without the header credits each request, as before', async () => {
    const shop = await newShop();
    expect((await recharge(shop, 100)).http).toBe(200);
    expect((await recharge(shop, 100)).http).toBe(200);
    expect((await booksOf(shop)).balance).toBe(200);
  });
});

describe('a subscription with an Idempotency-Key', () => {
  const subscribe = (shop: LoggedIn, key?: string, type = 'monthly') =>
    post<UserItem>('/api/admin/setSubscription', boss, { userId: shop.id, type }, key === undefined ? {} : { 'idempotency-key': key });
  const periodsOf = async (shop: LoggedIn) => {
    const rows = await ctx.db.selectFrom('subscriptions').select(['action', 'startAt', 'endAt']).where('userId', '=', shop.id).execute();
    const user = await ctx.db.selectFrom('users').select('serviceEndAt').where('id', '=', shop.id).executeTakeFirstOrThrow();
    return {
      rows: rows.length,
      end: Number(user.serviceEndAt),
      lengths: rows.map((r) => Math.round((Number(r.endAt) - Number(r.startAt)) / DAY_MS)),
    };
  };

  it('sent twice extends once (a renewal starts at the current end, so a second one would add 30 more days)', async () => {
    const shop = await newShop();
    expect((await subscribe(shop)).http).toBe(200);
    const key = randomUUID();
    const first = await subscribe(shop, key);
    expect(first.http, first.msg).toBe(200);
    const after = await periodsOf(shop);
    const again = await subscribe(shop, key);
    expect(again.http, again.msg).toBe(200);
    expect(again.replayed).toBe(true);
    expect(again.data).toEqual(first.data);
    expect(await periodsOf(shop)).toEqual(after);
    expect(after.rows).toBe(2);
    expect(after.lengths).toEqual([30, 30]);
    expect((await subscribe(shop, key, 'yearly')).http).toBe(422);
    expect(await periodsOf(shop)).toEqual(after);
  });
});

describe('an order import with an Idempotency-Key (decision 0118)', () => {
  const HEADERS = ['Target WeChat ID', 'Target name', 'Game', 'MAC address', 'Install time', 'Result', 'Client shop', "Target's shop"];
  /** A csv of `n` valid orders for `shop` (result "cheating"), or with its first row's result not valid. */
  const sheet = (shop: LoggedIn, prefix: string, n: number, broken = false) =>
    Buffer.from(
      [
        HEADERS.join(','),
        ...Array.from({ length: n }, (_, i) =>
          [
            `${prefix}${i}`,
            'x',
            'CS2',
            `aa-bb-cc-00-${String(i % 100).padStart(2, '0')}-01`,
            '2026-01-02 03:04',
            broken && i === 0 ? 'maybe' : '1',
            shop.username,
            'y',
          ].join(','),
        ),
      ].join('\r\n'),
      'utf8',
    );

  async function upload(as: LoggedIn, file: Buffer, key?: string, options: { keepValid?: boolean; lang?: string } = {}) {
    const res = await importFile(ctx, as, file, 'orders.csv', { ...options, headers: key === undefined ? {} : { 'idempotency-key': key } });
    const body = res.json<{ status: number; msg: string; data: OrderImportResult }>();
    expect(res.statusCode, body.msg).toBeLessThan(500);
    return { http: res.statusCode, ...body, replayed: res.headers['idempotent-replayed'] === 'true' };
  }

  it('sent twice imports the rows once, charges once, and answers the first import’s result again', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const file = sheet(shop, 'idem_imp_', 3);
    const first = await upload(inspector, file, key);
    expect(first, first.msg).toMatchObject({ http: 200, status: 200, replayed: false, data: { total: 3, imported: 3, rejected: [] } });
    const after = await booksOf(shop);
    expect(after).toMatchObject({ orders: 3, balance: -3 * PRICES.defaultPriceCheat });

    const again = await upload(inspector, file, key);
    expect(again).toMatchObject({ http: 200, status: 200, replayed: true });
    expect(again.data).toEqual(first.data);
    expect(await booksOf(shop)).toEqual(after);
    await flushLogs(ctx);
    const lines = await ctx.db
      .selectFrom('operationLogs')
      .select(['event', 'details'])
      .where('operatorId', '=', inspector.id)
      .where('action', '=', 'import')
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    // The second is logged as answered again, with no import figures for the monitor to count.
    expect(lines.map((l) => l.event)).toEqual(['log.text.idempotency.replayed', 'log.text.order.imported']);
    expect(lines.map((l) => l.details === null)).toEqual([true, false]);
  });

  it('sent with another key imports again: another key is another import', async () => {
    const shop = await newShop();
    const file = sheet(shop, 'idem_imp2_', 2);
    expect((await upload(inspector, file, randomUUID())).data.imported).toBe(2);
    const second = await upload(inspector, file, randomUUID());
    expect(second).toMatchObject({ replayed: false, data: { imported: 2 } });
    expect((await booksOf(shop)).orders).toBe(4);
  });

  it('with another file or option under the same key is refused (422), and imports nothing', async () => {
    const shop = await newShop();
    const key = randomUUID();
    expect((await upload(inspector, sheet(shop, 'idem_imp3_', 1), key)).data.imported).toBe(1);
    const otherFile = await upload(inspector, sheet(shop, 'idem_imp3b_', 1), key, { lang: 'zh-CN' });
    expect(otherFile).toMatchObject({ http: 422, msg: '此 Idempotency-Key 已用于另一个不同的请求；新的请求需要新的键' });
    expect((await upload(inspector, sheet(shop, 'idem_imp3_', 1), key, { keepValid: true })).http).toBe(422);
    expect((await booksOf(shop)).orders).toBe(1);
  });

  it('keeps no answer of an import that wrote nothing: the corrected file under the same key imports', async () => {
    const shop = await newShop();
    const key = randomUUID();
    const refused = await upload(inspector, sheet(shop, 'idem_imp4_', 2, true), key);
    expect(refused.data).toMatchObject({ imported: 0, rejected: [{ row: 2 }] });
    expect(await keyRows(inspector.id).then((rows) => rows.filter((r) => r.idemKey === key))).toEqual([]);
    const corrected = await upload(inspector, sheet(shop, 'idem_imp4_', 2), key);
    expect(corrected).toMatchObject({ replayed: false, data: { imported: 2 } });
    expect((await booksOf(shop)).orders).toBe(2);
  });

  it('refuses a malformed key before importing anything, in the caller’s language', async () => {
    const shop = await newShop();
    const bad = await upload(inspector, sheet(shop, 'idem_imp5_', 1), 'short', { lang: 'zh-CN' });
    expect(bad).toMatchObject({ http: 400, msg: 'Idempotency-Key 请求头须为 8 到 128 个字符：字母、数字、“-”、“_”、“.”或“:”' });
    expect((await booksOf(shop)).orders).toBe(0);
  });
});

describe('the OpenAPI document', () => {
  it('lists the header on the guarded calls, and only there', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json<{ paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> }>();
    const guarded = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))
      .filter(({ op }) => op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'))
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
      .sort();
    expect(guarded).toEqual([
      'POST /api/admin/order/create',
      'POST /api/admin/order/import',
      'POST /api/admin/setSubscription',
      'POST /api/admin/user/recharge',
    ]);
  });
});

describe('once', () => {
  const claim = (key: string, body: unknown = { a: 1, b: [1, 2] }): Claim => ({
    userId: admin.id,
    scope: 'ledger.recharge',
    key,
    fingerprint: fingerprintOf(body),
  });

  it('runs the write once when a second request with the key comes while the first is still writing', async () => {
    const key = randomUUID();
    let runs = 0;
    const slowWrite = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { run: runs };
    };
    const first = once(ctx.db, claim(key), slowWrite);
    // The second starts while the first holds its transaction: it found no key before it began.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = once(ctx.db, claim(key), slowWrite);
    const answers = await Promise.all([first, second]);
    expect(runs).toBe(1);
    expect(answers).toEqual([
      { data: { run: 1 }, replayed: false },
      { data: { run: 1 }, replayed: true },
    ]);
  });

  it('refuses the loser of a race whose body differs (422)', async () => {
    const key = randomUUID();
    const slowWrite = async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { ok: true };
    };
    const first = once(ctx.db, claim(key), slowWrite);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = once(ctx.db, claim(key, { a: 2 }), slowWrite);
    // Both watched from now on: the loser may be refused before the winner's answer is read.
    await Promise.all([
      expect(first).resolves.toEqual({ data: { ok: true }, replayed: false }),
      expect(second).rejects.toMatchObject({ status: 422, key: 'idempotency.keyReused' }),
    ]);
  });

  it('onceApart: a second request while the first still runs in this process is answered 409 at once', async () => {
    const key = randomUUID();
    let runs = 0;
    const slowRun = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { run: runs };
    };
    const first = onceApart(ctx.db, claim(key), slowRun);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await expect(onceApart(ctx.db, claim(key), slowRun)).rejects.toMatchObject({ status: 409, key: 'idempotency.inProgress' });
    expect(Date.now() - started).toBeLessThan(250);
    await first;
    expect(runs).toBe(1);
  });

  it('an answer too large to store is never run again: its key answers 409 "already done"', async () => {
    const key = randomUUID();
    const guard = { claim: claim(key), expired: false };
    await writeTransaction(ctx.db, async (trx) => {
      await claimIn(trx, guard, nowMs());
      await answerIn(trx, guard, { rejected: 'x'.repeat(100) }, 64);
    });
    let runs = 0;
    await expect(onceApart(ctx.db, claim(key), async () => ++runs)).rejects.toMatchObject({
      status: 409,
      key: 'idempotency.answerTooLarge',
    });
    expect(runs).toBe(0);
  });

  it('fingerprints a body whatever the order of its keys', () => {
    expect(fingerprintOf({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(fingerprintOf({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
  });
});
