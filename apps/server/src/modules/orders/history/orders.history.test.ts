import type { OrderHistory, OrderImportResult, OrderItem } from '@clearplay/contract';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../../test/context.ts';
import { orderBody } from '../../../test/orders.ts';

/**
 * GET /admin/order/history (decision 0059) on a real database: the records of a chat
 * ID and of a machine for each role under the order list's visibility rules (nothing of
 * another shop's private record, not even a count), every MAC spelling the list filter
 * accepts, the "changed MAC" proposal, and the answers to bad input.
 */

const PRICES = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };
const PRICE_OF = [1000, 3000, 500, 1500];

const M1 = 'AA-BB-CC-00-00-01';
const M2 = 'AA-BB-CC-00-00-02';
const M3 = 'AA-BB-CC-00-00-03';

let ctx: TestContext;
let admin: LoggedIn;
let inspector: LoggedIn;
let shopA: LoggedIn;
let shopB: LoggedIn;
let shopC: LoggedIn;
/** o1 A private cheat M1 · o2 B public suspicious M1 · o3 B private cheat M2 (all "WX_Rep"); o4 C private normal M2 "wx_other"; o5 A public failed M1 "wx_alt". */
const o: Record<string, OrderItem> = {};

async function create(shop: LoggedIn, values: { objWechat: string; mac: string; result: number; ifPublic: 0 | 1 }): Promise<OrderItem> {
  const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: admin,
    payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: PRICE_OF[values.result]! }, values),
  });
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

async function history(as: LoggedIn | null, q: Record<string, string | number>) {
  const res = await call<OrderHistory>(
    ctx,
    'GET',
    `/api/admin/order/history?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString()}`,
    { as },
  );
  expect(res.http).toBeLessThan(500);
  return res;
}

async function ok(as: LoggedIn, q: Record<string, string | number>): Promise<OrderHistory> {
  const res = await history(as, q);
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

const ids = (list: { id: number }[]) => list.map((r) => r.id);

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  shopA = await loginAs(ctx, 'shop');
  shopB = await loginAs(ctx, 'shop');
  shopC = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', 'in', [shopA.id, shopB.id, shopC.id]).execute();
  o.o1 = await create(shopA, { objWechat: 'WX_Rep', mac: M1, result: 1, ifPublic: 0 });
  o.o2 = await create(shopB, { objWechat: 'wx_rep', mac: M1, result: 3, ifPublic: 1 });
  o.o3 = await create(shopB, { objWechat: 'Wx_Rep', mac: M2, result: 1, ifPublic: 0 });
  o.o4 = await create(shopC, { objWechat: 'wx_other', mac: M2, result: 0, ifPublic: 0 });
  o.o5 = await create(shopA, { objWechat: 'wx_alt', mac: M1, result: 2, ifPublic: 1 });
  // One minute apart, in creation order (two calls may fall in the same millisecond).
  const t0 = Date.now() - 3_600_000;
  for (const [i, key] of ['o1', 'o2', 'o3', 'o4', 'o5'].entries()) {
    await ctx.db
      .updateTable('orders')
      .set({ createdAt: t0 + i * 60_000 })
      .where('id', '=', o[key]!.id)
      .execute();
  }
});
afterAll(() => ctx?.destroy());

describe('history of a chat ID, per role', () => {
  it('staff see every record, newest first, with shop and inspector, and the counts of all', async () => {
    for (const as of [admin, inspector]) {
      const h = await ok(as, { objWechat: ' wx_REP ', mac: M3 });
      expect(ids(h.sameTarget)).toEqual([o.o3!.id, o.o2!.id, o.o1!.id]);
      expect(h.summary.byResult).toEqual({ '0': 0, '1': 2, '2': 0, '3': 1 });
      expect(h.summary.latestFlagged?.id).toBe(o.o3!.id);
      expect(h.summary.previousMac).toBe(M2);
      expect(h.summary.macChanged).toBe(true);
      expect(h.proposedChangedMac).toBe(1);
      expect(h.sameTarget[0]!.userName).not.toBeNull();
      expect(h.sameTarget[0]!.inspectorName).not.toBeNull();
      expect(h.objWechat).toBe('wx_REP');
      expect(h.mac).toBe(M3);
    }
  });

  it('a shop sees its own records and public ones only: no other private record in the lists, the counts or the proposal', async () => {
    const a = await ok(shopA, { objWechat: 'wx_rep', mac: M3 });
    expect(ids(a.sameTarget)).toEqual([o.o2!.id, o.o1!.id]);
    expect(a.summary.byResult).toEqual({ '0': 0, '1': 1, '2': 0, '3': 1 });
    expect(a.summary.latestFlagged?.id).toBe(o.o2!.id);
    expect(a.summary.previousMac).toBe(M1); // o3 (M2) is shop B's private record
    expect(a.sameTarget.every((r) => r.userName === null && r.inspectorName === null)).toBe(true);

    const b = await ok(shopB, { objWechat: 'wx_rep', mac: M3 });
    expect(ids(b.sameTarget)).toEqual([o.o3!.id, o.o2!.id]);
    expect(b.summary.byResult).toEqual({ '0': 0, '1': 1, '2': 0, '3': 1 });

    const c = await ok(shopC, { objWechat: 'wx_rep', mac: M1 });
    expect(ids(c.sameTarget)).toEqual([o.o2!.id]);
    expect(c.summary.byResult).toEqual({ '0': 0, '1': 0, '2': 0, '3': 1 });
    expect(c.summary.latestFlagged?.id).toBe(o.o2!.id);
    expect(c.proposedChangedMac).toBe(0); // o2 was on M1 too
    expect(JSON.stringify(c)).not.toContain(M2);
  });
});

describe('the same machine under other chat IDs', () => {
  it('staff see every other chat ID of the machine; the chat ID looked up is left out', async () => {
    const h = await ok(admin, { objWechat: 'wx_rep', mac: M2 });
    expect(ids(h.sameMachine)).toEqual([o.o4!.id]);
    expect(h.summary.otherChatIds).toEqual(['wx_other']);
    const m1 = await ok(admin, { objWechat: 'wx_rep', mac: M1 });
    expect(ids(m1.sameMachine)).toEqual([o.o5!.id]);
    expect(m1.summary.otherChatIds).toEqual(['wx_alt']);
  });

  it("a shop never learns of another shop's private record on the machine", async () => {
    const a = await ok(shopA, { objWechat: 'wx_rep', mac: M2 });
    expect(a.sameMachine).toEqual([]);
    expect(a.summary.otherChatIds).toEqual([]);
    const c = await ok(shopC, { objWechat: 'wx_rep', mac: M2 });
    expect(ids(c.sameMachine)).toEqual([o.o4!.id]);
    expect(c.summary.otherChatIds).toEqual(['wx_other']);
    // A MAC alone: every visible record of the machine.
    const byMac = await ok(shopA, { mac: M1 });
    expect(ids(byMac.sameMachine)).toEqual([o.o5!.id, o.o2!.id, o.o1!.id]);
    expect(byMac.sameTarget).toEqual([]);
    expect(byMac.proposedChangedMac).toBeNull();
    const byMacC = await ok(shopC, { mac: M1 });
    expect(ids(byMacC.sameMachine)).toEqual([o.o5!.id, o.o2!.id]);
    expect(byMacC.summary.otherChatIds.map((s) => s.toLowerCase()).sort()).toEqual(['wx_alt', 'wx_rep']);
  });
});

describe('a chat ID alone: the machines it was recorded on', () => {
  it('an inspector who typed only the chat ID sees the other chat IDs seen on its machines', async () => {
    const h = await ok(inspector, { objWechat: 'wx_rep' });
    expect(h.mac).toBeNull();
    expect(ids(h.sameMachine)).toEqual([o.o5!.id, o.o4!.id]); // M1's wx_alt, M2's wx_other
    expect(h.summary.otherChatIds).toEqual(['wx_alt', 'wx_other']);
    expect(h.proposedChangedMac).toBeNull();
  });

  it("a shop learns the machines only from the records it may see: nothing of another shop's private record", async () => {
    // Shop A sees o1 (its own) and o2 (public), both on M1: M2 is known only from B's private o3.
    const a = await ok(shopA, { objWechat: 'wx_rep' });
    expect(ids(a.sameMachine)).toEqual([o.o5!.id]);
    expect(a.summary.otherChatIds).toEqual(['wx_alt']);
    // Shop C's own wx_other record is on M2, but only B's private o3 puts wx_rep on M2.
    const c = await ok(shopC, { objWechat: 'wx_rep' });
    expect(ids(c.sameMachine)).toEqual([o.o5!.id]);
    expect(c.summary.otherChatIds).toEqual(['wx_alt']);
    expect(JSON.stringify(c)).not.toContain(M2);
    // Shop B sees M1 and M2 through its own records, but not C's private record on M2.
    const b = await ok(shopB, { objWechat: 'wx_rep' });
    expect(ids(b.sameMachine)).toEqual([o.o5!.id]);
    expect(b.summary.otherChatIds).toEqual(['wx_alt']);
  });
});

describe('MAC spellings', () => {
  it('every spelling the list filter accepts finds the same records', async () => {
    const spellings = [
      'AA-BB-CC-00-00-02',
      'aa-bb-cc-00-00-02',
      'aa:bb:cc:00:00:02',
      'AA:BB:CC:00:00:02',
      'aabbcc000002',
      'AABBCC000002',
      'aabb.cc00.0002',
      ' aabb.CC00.0002 ',
    ];
    for (const mac of spellings) {
      const h = await ok(admin, { mac });
      expect(h.mac, mac).toBe(M2);
      expect(ids(h.sameMachine), mac).toEqual([o.o4!.id, o.o3!.id]);
    }
  });

  it('a MAC that is not one answers 400 naming the field (a list-filter prefix is not enough)', async () => {
    for (const mac of ['aa:bb:cc', 'zz-bb-cc-00-00-02', 'aabbcc0000021']) {
      const res = await history(admin, { mac });
      expect(res.status, mac).toBe(400);
      expect(JSON.stringify(res.data ?? res)).toContain('mac');
    }
  });
});

describe('the changed-MAC proposal', () => {
  it('is on when the latest earlier record of the chat ID has another MAC, off otherwise, unknown without a MAC', async () => {
    expect((await ok(admin, { objWechat: 'wx_rep', mac: M2 })).proposedChangedMac).toBe(0); // latest (o3) on M2
    expect((await ok(admin, { objWechat: 'wx_rep', mac: M1 })).proposedChangedMac).toBe(1);
    expect((await ok(shopA, { objWechat: 'wx_rep', mac: M1 })).proposedChangedMac).toBe(0); // shop A's latest visible (o2) on M1
    expect((await ok(admin, { objWechat: 'nobody_here', mac: M1 })).proposedChangedMac).toBe(0);
    const noMac = await ok(admin, { objWechat: 'wx_rep' });
    expect(noMac.proposedChangedMac).toBeNull();
    expect(noMac.summary.macChanged).toBeNull();
    expect(noMac.summary.previousMac).toBe(M2);
  });

  it('as of an existing order: only the records before it, and its own chat ID and MAC', async () => {
    const h = await ok(admin, { orderId: o.o3!.id });
    expect(ids(h.sameTarget)).toEqual([o.o2!.id, o.o1!.id]);
    expect(h.mac).toBe(M2);
    expect(h.proposedChangedMac).toBe(1);
    expect(ids(h.sameMachine)).toEqual([]); // o4 came after o3
    const first = await ok(admin, { orderId: o.o1!.id });
    expect(first.sameTarget).toEqual([]);
    expect(first.proposedChangedMac).toBe(0);
  });
});

describe('repeat targets in the list', () => {
  const list = async (as: LoggedIn, q = '') => {
    const res = await call<{ list: OrderItem[]; total: number }>(ctx, 'GET', `/api/admin/order/list?pageSize=200${q}`, { as });
    expect(res.status, res.msg).toBe(200);
    return res.data;
  };
  const repeatIds = (page: { list: OrderItem[] }) => page.list.filter((r) => r.repeatTarget === true).map((r) => r.id);

  it('marks the orders whose chat ID was caught cheating earlier, as each reader sees it', async () => {
    expect(repeatIds(await list(admin)).sort()).toEqual([o.o2!.id, o.o3!.id].sort());
    expect(repeatIds(await list(shopA))).toEqual([o.o2!.id]); // after its own o1
    expect(repeatIds(await list(shopB))).toEqual([]); // o1 is shop A's private record
    expect(repeatIds(await list(shopC))).toEqual([]);
  });

  it('"repeat targets only" filters the same way, total included', async () => {
    const staff = await list(admin, '&repeatOnly=1');
    expect(ids(staff.list).sort()).toEqual([o.o2!.id, o.o3!.id].sort());
    expect(staff.total).toBe(2);
    const a = await list(shopA, '&repeatOnly=1');
    expect(ids(a.list)).toEqual([o.o2!.id]);
    expect(a.total).toBe(1);
    // Filtering by its own shop drops the list's visibility clause: the repeat check keeps the shop's.
    const b = await list(shopB, `&repeatOnly=1&userId=${shopB.id}`);
    expect(b.list).toEqual([]);
    expect(b.total).toBe(0);
    expect((await list(shopC, '&repeatOnly=1')).total).toBe(0);
  });

  it('has the chat-ID index for the EXISTS: in the plan on SQLite and MariaDB, defined on lower(obj_wechat) on PostgreSQL', async () => {
    const { listPage } = await import('../orders.repository.ts');
    const q = listPage(
      ctx.db,
      { repeatOnly: { visibleTo: shopA.id }, visibleTo: shopA.id },
      { field: 'createdAt', dir: 'desc' },
      0,
      20,
    ).compile();
    const kind = process.env.TEST_DB ?? 'sqlite';
    if (kind === 'pg') {
      // A five-row table is planned as a semi-join on anything; the bench reads the plan at scale.
      const defs = await ctx.db.executeQuery<{ indexdef: string }>(
        CompiledQuery.raw("select indexdef from pg_indexes where indexname = 'orders_wechat_key_result_idx'"),
      );
      expect(defs.rows[0]?.indexdef).toMatch(/lower\(\(?obj_wechat\)?(::text)?\)\)?, result, created_at, id/);
      return;
    }
    const prefix = kind === 'sqlite' ? 'explain query plan ' : 'explain ';
    const plan = await ctx.db.executeQuery(CompiledQuery.raw(`${prefix}${q.sql}`, [...q.parameters]));
    expect(JSON.stringify(plan.rows)).toContain('orders_wechat_key_result_idx');
  });
});

describe('bad input and access', () => {
  it('answers 400 without a chat ID or MAC, 404 for an order the caller cannot see, 401 signed out', async () => {
    expect((await history(admin, {})).status).toBe(400);
    expect((await history(admin, { objWechat: '  ' })).status).toBe(400);
    expect((await history(shopC, { orderId: o.o1!.id })).status).toBe(404);
    expect((await history(admin, { orderId: 999_999 })).status).toBe(404);
    expect((await history(null, { objWechat: 'wx_rep' })).status).toBe(401);
  });
});

describe('the override in the operation log', () => {
  /** The log line of a call, once written (the operation log is written as the answer goes out). */
  const logOf = (code: string, updated: boolean) =>
    vi.waitFor(
      async () =>
        (
          await ctx.db
            .selectFrom('operationLogs')
            .select('content')
            .where('content', 'like', `Order ${code} %${updated ? 'updated' : ''}%`)
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow()
        ).content,
      { timeout: 5000, interval: 20 },
    );

  it('notes a saved flag that differs from the proposal, and nothing when it follows it', async () => {
    const base = orderBody({ userId: shopA.id, inspectorId: inspector.id, amount: PRICE_OF[1]! }, { objWechat: 'wx_log', mac: M1 });
    const followed = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: admin,
      payload: { ...base, ifChangedMac: 1, changedMacProposed: 1 },
    });
    expect(followed.status, followed.msg).toBe(200);
    expect(await logOf(followed.data.code, false)).not.toContain('override');
    const overridden = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: admin,
      payload: { ...base, ifChangedMac: 0, changedMacProposed: 1 },
    });
    expect(overridden.status, overridden.msg).toBe(200);
    expect(await logOf(overridden.data.code, false)).toContain('MAC change proposed 1, set 0 (override)');
    const { code: _c, userName: _u, inspectorName: _i, createdTime: _ct, updatedTime: _ut, view: _v, ...fields } = overridden.data;
    const updated = await call<OrderItem>(ctx, 'POST', '/api/admin/order/update', {
      as: admin,
      payload: { ...fields, ifChangedMac: 1, changedMacProposed: 0 },
    });
    expect(updated.status, updated.msg).toBe(200);
    expect(await logOf(overridden.data.code, true)).toContain('MAC change proposed 0, set 1 (override)');
  });
});

describe('the import', () => {
  const HEADERS = [
    'Target WeChat ID',
    'Target name',
    'Game',
    'MAC address',
    'Install time',
    'Result',
    'Client shop',
    "Target's shop",
    'Inspector',
    'Amount',
    'Public',
    'MAC changed',
  ];
  const row = (objWechat: string, mac: string, changed: string) => [
    objWechat,
    'Name',
    'CS2',
    mac,
    '2026-01-02 15:04',
    '1',
    shopA.username,
    'Their shop',
    inspector.username,
    '30.00',
    '0',
    changed,
  ];

  async function importCsv(rows: string[][]) {
    const body = `${[HEADERS, ...rows].map((r) => r.join(',')).join('\r\n')}\r\n`;
    const form = new FormData();
    form.append('file', new Blob([body]), 'orders.csv');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/order/import',
      headers: { ...admin.headers, 'content-type': request.headers.get('content-type') ?? '', 'accept-language': 'en-US' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: OrderImportResult }>().data;
  }

  it('proposes "changed MAC" for rows whose cell is empty, keeps a given value, and counts MAC changes and known machines', async () => {
    const result = await importCsv([
      row('wx_rep', 'aa:bb:cc:00:00:03', ''), // latest earlier record (o3) on M2: proposed on
      row('WX_REP', 'aabbcc000003', ''), // the row above is now the latest, on this machine: off
      row('wx_imp_new', M2, ''), // no earlier record: off; machine known under wx_rep and wx_other
      row('wx_rep', M1, 'no'), // given: stays off; machine known under other chat IDs
    ]);
    expect(result.rejected).toEqual([]);
    expect(result.imported).toBe(4);
    expect(result.history).toEqual({ macChanged: 1, knownMachine: 2 });
    const rows = await ctx.db
      .selectFrom('orders')
      .select(['objWechat', 'mac', 'ifChangedMac'])
      .where('id', '>', o.o5!.id)
      .where('objWechat', '<>', 'wx_log')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.ifChangedMac)).toEqual([1, 0, 0, 0]);
  });
});
