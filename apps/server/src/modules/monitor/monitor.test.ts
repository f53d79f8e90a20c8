import type { MonitorData, OrderItem } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContextWithUsers, flushLogs, importFile, type LoggedIn, type TestContext } from '../../test/context.ts';
import { orderBody } from '../../test/orders.ts';
import { HOUR_MS, MINUTE_MS, nowMs } from '../../lib/time.ts';
import type { NewOperationLog } from '../../db/schema.ts';
import { recordOperation } from '../logs/logs.service.ts';
import { recordEvent, recordPageView } from '../tracking/tracking.service.ts';
import { monitorData } from './monitor.service.ts';

/**
 * The monitor on the configured database (TEST_DB): today's orders per Shanghai hour against
 * hand-computed data (including the day edge), staff online in the last 15 minutes, the
 * latest imports, and who may call it.
 */

let ctx: TestContext;
let superAdmin: LoggedIn;
let inspector: LoggedIn;
let admin: LoggedIn;
let shop: LoggedIn;
beforeAll(async () => {
  ({
    ctx,
    users: { superAdmin, inspector, admin, shop },
  } = await createTestContextWithUsers({
    superAdmin: 'super_admin',
    inspector: 'inspector',
    admin: 'admin',
    shop: 'shop',
  }));
});
afterAll(() => ctx.destroy());

// 2026-05-20 00:00 in Shanghai is 2026-05-19T16:00:00Z; "now" is 15:30 Shanghai that day.
const DAY = Date.UTC(2026, 4, 19, 16);
const NOW = DAY + 15 * HOUR_MS + 30 * MINUTE_MS;

async function orderAt(createdAt: number, amount: number): Promise<void> {
  const created = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: superAdmin,
    payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount }),
  });
  expect(created.status, created.msg).toBe(200);
  await ctx.db.updateTable('orders').set({ createdAt }).where('id', '=', created.data.id).execute();
}

/** An order import's operation-log row by inspector01, as the import route writes one; `fields` on top. */
const recordImport = (fields: Pick<NewOperationLog, 'content' | 'status' | 'createdAt'> & Partial<NewOperationLog>) =>
  recordOperation(ctx.db, {
    module: 'order',
    action: 'import',
    operator: 'inspector01',
    operatorId: inspector.id,
    ip: '',
    method: 'POST',
    path: '/api/admin/order/import',
    userAgent: '',
    errorMsg: '',
    payload: '',
    durationMs: 12,
    ...fields,
  });

describe('monitorData', () => {
  it('counts today’s orders per Shanghai hour, from 00:00 exactly', async () => {
    await orderAt(DAY, 1000); // 00:00:00.000 → hour 0
    await orderAt(DAY + 9 * HOUR_MS + 30 * MINUTE_MS, 2050); // 09:30 → hour 9
    await orderAt(DAY + 9 * HOUR_MS + 59 * MINUTE_MS, 333); // 09:59 → hour 9
    await orderAt(DAY + 15 * HOUR_MS + 10 * MINUTE_MS, 777); // 15:10 → hour 15
    await orderAt(DAY - 1, 5000); // 23:59:59.999 the day before: not today
    await orderAt(DAY + 24 * HOUR_MS, 6000); // tomorrow 00:00: not today
    const data = await monitorData(ctx.db, NOW);
    expect(data.timeZone).toBe('Asia/Shanghai');
    expect(data.date).toBe('2026-05-20');
    expect(data.hours).toHaveLength(24);
    expect(data.hours.filter((h) => h.count > 0)).toEqual([
      { hour: 0, count: 1, amount: 1000 },
      { hour: 9, count: 2, amount: 2383 },
      { hour: 15, count: 1, amount: 777 },
    ]);
    expect([data.todayCount, data.todayAmount]).toEqual([4, 4160]);
  });

  it('lists staff seen in the last 15 minutes, newest first; shops and older visits are not', async () => {
    const visitor = (u: LoggedIn) => ({ userId: u.id, ip: '10.0.0.1', userAgent: 'test' });
    await recordPageView(ctx.db, { path: '/dashboard/monitor' }, visitor(superAdmin), NOW - MINUTE_MS);
    await recordPageView(ctx.db, { path: '/order/inspect' }, visitor(inspector), NOW - 20 * MINUTE_MS);
    await recordEvent(ctx.db, { event: 'order.create' }, visitor(inspector), NOW - 14 * MINUTE_MS);
    await recordPageView(ctx.db, { path: '/order/inspect' }, visitor(admin), NOW - 16 * MINUTE_MS);
    await recordPageView(ctx.db, { path: '/order/inspect' }, visitor(shop), NOW - MINUTE_MS);
    await recordPageView(ctx.db, { path: '/home' }, { userId: null, ip: '10.0.0.2', userAgent: 'x' }, NOW - MINUTE_MS);
    const data = await monitorData(ctx.db, NOW);
    expect(data.onlineWindowMinutes).toBe(15);
    expect(data.onlineStaff).toEqual([
      {
        id: superAdmin.id,
        username: superAdmin.username,
        nickname: 'Test super_admin',
        roleName: 'super_admin',
        lastSeenAt: new Date(NOW - MINUTE_MS).toISOString(),
      },
      {
        id: inspector.id,
        username: inspector.username,
        nickname: 'Test inspector',
        roleName: 'inspector',
        lastSeenAt: new Date(NOW - 14 * MINUTE_MS).toISOString(),
      },
    ]);
  });

  it('lists the latest five order imports from the operation log, newest first', async () => {
    for (let i = 0; i < 7; i += 1) {
      await recordImport({ content: `order import "f${i}.xlsx"`, status: i === 6 ? 0 : 1, createdAt: NOW - (10 - i) * MINUTE_MS });
    }
    await recordImport({ action: 'export', content: 'order export', status: 1, createdAt: NOW });
    const data = await monitorData(ctx.db, NOW);
    expect(data.latestImports.map((l) => [l.content, l.status, l.outcome])).toEqual([
      ['order import "f6.xlsx"', 'failed', 'failed'],
      ['order import "f5.xlsx"', 'success', 'succeeded'],
      ['order import "f4.xlsx"', 'success', 'succeeded'],
      ['order import "f3.xlsx"', 'success', 'succeeded'],
      ['order import "f2.xlsx"', 'success', 'succeeded'],
    ]);
  });

  it('reads an import’s outcome from the counts recorded on its row, and an older row’s (no counts recorded) from its text', async () => {
    const row = (name: string, minutes: number, content: string, details: object | null) =>
      recordImport({
        content: `order import "${name}"${content}`,
        status: 1,
        details: details === null ? null : JSON.stringify(details),
        createdAt: NOW + minutes * MINUTE_MS,
      });
    // The text carries no counts: only the recorded ones tell a refused or partial import.
    await row('refused.csv', 1, '', { rows: 3, written: 0, rejected: 1, keepValid: false });
    await row('kept.csv', 2, '', { rows: 3, written: 2, rejected: 1, keepValid: true });
    // The recorded counts win over the text.
    await row('recorded.csv', 3, ': 3 rows, 0 imported, 3 rejected', { rows: 3, written: 3, rejected: 0, keepValid: false });
    // Written before the counts were recorded: the text's counts, or none.
    await row('old-refused.csv', 4, ': 2 rows, 0 imported, 1 rejected', null);
    await row('old-plain.csv', 5, '', null);
    const data = await monitorData(ctx.db, NOW + 10 * MINUTE_MS);
    expect(data.latestImports.map((l) => [l.content.split('"')[1], l.outcome])).toEqual([
      ['old-plain.csv', 'succeeded'],
      ['old-refused.csv', 'failed'],
      ['recorded.csv', 'succeeded'],
      ['kept.csv', 'partial'],
      ['refused.csv', 'failed'],
    ]);
  });
});

/** A csv import through the real route, as the browser sends it. */
async function importCsv(rows: string[][], name: string, keepValid: boolean): Promise<void> {
  const header = ['Target WeChat ID', 'Target name', 'Game', 'MAC address', 'Install time', 'Result', 'Client shop', "Target's shop"];
  const body = [header, ...rows].map((r) => r.join(',')).join('\r\n');
  const res = await importFile(ctx, superAdmin, body, name, { keepValid });
  expect(res.statusCode, res.body).toBe(200);
}

describe('latest imports', () => {
  it('shows an all-or-nothing import that wrote 0 rows as failed, not success; one that kept the valid rows as partial', async () => {
    const good = (n: number) => [
      `imp_${n}`,
      'Target',
      'CS2',
      `aa:bb:cc:00:00:0${n}`,
      '2026-01-02 08:00',
      'normal',
      shop.username,
      'Their shop',
    ];
    const bad = ['imp_bad', 'Target', 'CS2', 'aa:bb:cc:00:00:09', '2026-01-02 08:00', 'maybe', shop.username, 'Their shop'];
    await importCsv([good(1), good(2)], 'all-good.csv', false);
    await importCsv([good(3), bad], 'refused.csv', false);
    await importCsv([good(4), bad], 'kept.csv', true);
    await flushLogs(ctx);
    const answer = await call<MonitorData>(ctx, 'GET', '/api/admin/monitor', { as: superAdmin });
    expect(answer.status).toBe(200);
    const outcomes = answer.data.latestImports.slice(0, 3).map((l) => [l.content.split('"')[1], l.outcome]);
    expect(outcomes).toEqual([
      ['kept.csv', 'partial'],
      ['refused.csv', 'failed'],
      ['all-good.csv', 'succeeded'],
    ]);
    // The import recorded its counts on its log row, as data.
    const rows = await ctx.db
      .selectFrom('operationLogs')
      .select(['content', 'details'])
      .where('module', '=', 'order')
      .where('action', '=', 'import')
      .where(
        'id',
        'in',
        answer.data.latestImports.slice(0, 3).map((l) => l.id),
      )
      .execute();
    const recorded = Object.fromEntries(rows.map((r) => [r.content.split('"')[1], JSON.parse(r.details ?? 'null') as unknown]));
    expect(recorded).toEqual({
      'all-good.csv': { rows: 2, written: 2, rejected: 0, keepValid: false },
      'refused.csv': { rows: 2, written: 0, rejected: 1, keepValid: false },
      'kept.csv': { rows: 2, written: 1, rejected: 1, keepValid: true },
    });
  });
});

describe('GET /api/admin/monitor', () => {
  it('answers the super admin today’s figures, including an order just created', async () => {
    const before = await call<MonitorData>(ctx, 'GET', '/api/admin/monitor', { as: superAdmin });
    expect(before.status).toBe(200);
    const created = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: superAdmin,
      payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: 4321 }),
    });
    expect(created.status, created.msg).toBe(200);
    const after = await call<MonitorData>(ctx, 'GET', '/api/admin/monitor', { as: superAdmin });
    expect(after.data.todayCount).toBe(before.data.todayCount + 1);
    expect(after.data.todayAmount).toBe(before.data.todayAmount + 4321);
    const hour = new Date(nowMs() + 8 * HOUR_MS).getUTCHours();
    expect(after.data.hours[hour]!.count).toBe(before.data.hours[hour]!.count + 1);
  });

  it('is refused to every other seeded role and to the anonymous', async () => {
    for (const someone of [admin, inspector, shop]) {
      expect((await call(ctx, 'GET', '/api/admin/monitor', { as: someone })).http).toBe(403);
    }
    expect((await call(ctx, 'GET', '/api/admin/monitor')).http).toBe(401);
  });
});
