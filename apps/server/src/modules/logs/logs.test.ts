import type { LogDetail, LogItem } from '@clearplay/contract';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../lib/time.ts';
import authPlugin from '../../plugins/auth.ts';
import errorsPlugin from '../../plugins/errors.ts';
import operationLogPlugin, { UnloggedRouteError } from '../../plugins/operation-log.ts';
import { call, createTestContext, flushLogs, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { countLogs, recordOperation, removeOldOperationLogs } from './logs.service.ts';

let ctx: TestContext;
let boss: LoggedIn;
let roleShop: number;
beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
  roleShop = (await ctx.db.selectFrom('roles').select('id').where('name', '=', 'shop').executeTakeFirstOrThrow()).id;
});
afterAll(() => ctx.destroy());

let serial = 0;
const user = (extra: Record<string, unknown> = {}) => ({
  username: `logged${process.pid % 1000}${++serial}`,
  password: 'TopSecret9',
  nickname: 'Logged',
  roleId: roleShop,
  wechat: 'wx',
  phone: '123',
  defaultPrice: 1,
  defaultPriceCheat: 2,
  defaultPriceSuspect: 3,
  defaultPriceNotPass: 4,
  ...extra,
});

/** The newest log row of a path, in full. */
async function lastLog(path: string): Promise<LogDetail> {
  await flushLogs(ctx);
  const row = await ctx.db
    .selectFrom('operationLogs')
    .select('id')
    .where('path', '=', path)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const res = await call<LogDetail>(ctx, 'GET', `/api/admin/log/detail?id=${row.id}`, { as: boss });
  expect(res.status).toBe(200);
  return res.data;
}

describe('recording', () => {
  it('records a successful change with every field, the password masked', async () => {
    const body = user();
    const created = await call<{ id: number }>(ctx, 'POST', '/api/admin/user/create', {
      as: boss,
      payload: body,
      headers: { 'user-agent': 'vitest-agent' },
    });
    expect(created.status).toBe(200);
    const log = await lastLog('/api/admin/user/create');
    expect(log).toMatchObject({
      module: 'user',
      action: 'create',
      content: `User ${body.username} (#${created.data.id}): created with role shop`,
      operator: boss.username,
      operatorId: boss.id,
      status: 'success',
      ip: '127.0.0.1',
      method: 'POST',
      path: '/api/admin/user/create',
      errorMsg: '',
      userAgent: 'vitest-agent',
    });
    expect(log.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.now() - Date.parse(log.createTime)).toBeLessThan(60_000);
    expect(JSON.parse(log.payload)).toMatchObject({ username: body.username, password: '***', defaultPrice: 1 });
    expect(log.payload).not.toContain('TopSecret9');
  });

  it('records failures with the answer message: a rule, a validation error, no session', async () => {
    const body = user();
    await call(ctx, 'POST', '/api/admin/user/create', { as: boss, payload: body });
    await call(ctx, 'POST', '/api/admin/user/create', { as: boss, payload: body });
    expect(await lastLog('/api/admin/user/create')).toMatchObject({
      status: 'failed',
      errorMsg: `Username "${body.username}" is already taken`,
      operator: boss.username,
      content: `Record: ${body.username}`, // failed before the handler named it: the record the call named (decision 0097)
    });

    await call(ctx, 'POST', '/api/admin/user/create', { as: boss, payload: user({ username: 'abc' }) });
    expect((await lastLog('/api/admin/user/create')).errorMsg).toBe('username: must NOT have fewer than 6 characters');

    await call(ctx, 'POST', '/api/admin/user/setUserStatus', { payload: { id: 1, status: 0 } });
    expect(await lastLog('/api/admin/user/setUserStatus')).toMatchObject({
      status: 'failed',
      operator: '',
      operatorId: null,
      errorMsg: 'Please log in first',
    });
  });

  it('records logins under the attempted username, success or not, and never the password', async () => {
    await call(ctx, 'POST', '/api/admin/user/login', { payload: { username: 'nobody_here', password: 'Guess#12345' } });
    const failed = await lastLog('/api/admin/user/login');
    expect(failed).toMatchObject({
      module: 'auth',
      action: 'login',
      operator: 'nobody_here',
      operatorId: null,
      status: 'failed',
      errorMsg: 'Incorrect username or password',
    });
    expect(failed.payload).not.toContain('Guess#12345');

    const logout = await loginAs(ctx, 'shop');
    const ok = await lastLog('/api/admin/user/login');
    expect(ok).toMatchObject({ operator: logout.username, status: 'success' });
    await call(ctx, 'GET', '/api/admin/user/logout', { as: logout });
    expect(await lastLog('/api/admin/user/logout')).toMatchObject({
      action: 'logout',
      operator: logout.username,
      content: `User ${logout.username} (#${logout.id}): signed out`,
    });
  });

  it('records data-changing GETs (delete, cancel) with their query, not plain reads', async () => {
    const before = await ctx.db
      .selectFrom('operationLogs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    await call(ctx, 'GET', '/api/admin/user/list', { as: boss });
    await call(ctx, 'GET', '/api/admin/dict/all', { as: boss });
    await flushLogs(ctx);
    const after = await ctx.db
      .selectFrom('operationLogs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    await call(ctx, 'GET', '/api/admin/user/delete?id=987654', { as: boss });
    expect(await lastLog('/api/admin/user/delete')).toMatchObject({
      action: 'delete',
      status: 'failed',
      payload: '{"id":987654}',
      content: 'Record: #987654',
      errorMsg: 'User #987654 does not exist',
    });
    await call(ctx, 'GET', '/api/admin/cancelSubscription?userId=987654', { as: boss });
    expect(await lastLog('/api/admin/cancelSubscription')).toMatchObject({ action: 'cancelSubscription', status: 'failed' });
  });

  it('masks every secret-looking key at any depth and cuts long payloads at 4 KB', async () => {
    await call(ctx, 'POST', '/api/admin/user/resetPassword', { as: boss, payload: { id: boss.id + 100_000, newPassword: 'Another#99' } });
    const reset = await lastLog('/api/admin/user/resetPassword');
    expect(JSON.parse(reset.payload)).toEqual({ id: boss.id + 100_000, newPassword: '***' });

    // 200 permission strings of 60 characters: far over 4 KB (refused, but still recorded)
    const permissions = Array.from({ length: 200 }, (_, i) => `p${i}`.padEnd(60, 'x'));
    await call(ctx, 'POST', '/api/admin/role/create', {
      as: boss,
      payload: { name: 'bigrole', description: '长'.repeat(100), permissions, isAdmin: false },
    });
    const big = await lastLog('/api/admin/role/create');
    expect(big.status).toBe('failed');
    expect(Buffer.byteLength(big.payload)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(big.payload)).toBeGreaterThan(4000);
    expect(big.payload.endsWith('…')).toBe(true);
    expect(big.payload.startsWith('{"name":"bigrole"')).toBe(true);
  });
});

describe('GET /api/admin/log/list', () => {
  it('filters by module, action, operator, status and time, newest first', async () => {
    const shop = await loginAs(ctx, 'shop');
    await call(ctx, 'POST', '/api/admin/dict/type', { as: shop, payload: { code: 'denied', name: 'x' } });
    await call(ctx, 'POST', '/api/admin/dict/type', { as: boss, payload: { code: 'allowed_t', name: 'x' } });
    await flushLogs(ctx);
    const q = async (s: string) =>
      (await call<{ list: LogItem[]; total: number }>(ctx, 'GET', `/api/admin/log/list?${s}`, { as: boss })).data;

    const dict = await q('module=dict');
    expect(dict.total).toBe(2);
    expect(dict.list.map((l) => [l.operator, l.status, l.content])).toEqual([
      [boss.username, 'success', expect.stringMatching(/^Dictionary allowed_t \(#\d+\): created$/)],
      // refused before the body was read: no record named (the module and action columns name the call)
      [shop.username, 'failed', 'No record named'],
    ]);
    expect(dict.list[1]?.errorMsg).toBe('You do not have permission to do this (dict:create)');
    expect((await q('module=dict&status=failed')).list.map((l) => l.operator)).toEqual([shop.username]);
    expect((await q(`operator=${shop.username}`)).total).toBe(2); // login + the refused call
    expect((await q(`operator=${shop.username}&action=createType`)).total).toBe(1);
    const all = await q('pageSize=200');
    expect(all.total).toBe(all.list.length);
    const newest = all.list[0];
    if (newest === undefined) throw new Error('no logs');
    expect((await q(`startTime=${encodeURIComponent(newest.createTime)}`)).list.map((l) => l.id)).toContain(newest.id);
    expect(
      (await q(`endTime=${encodeURIComponent(new Date(Date.parse(newest.createTime) - 1).toISOString())}`)).list.map((l) => l.id),
    ).not.toContain(newest.id);
    expect((await call(ctx, 'GET', '/api/admin/log/list?status=maybe', { as: boss })).status).toBe(400);
    expect((await call(ctx, 'GET', '/api/admin/log/detail?id=99999999', { as: boss })).status).toBe(404);
  });

  it('the total from daily counters matches an exact count for ranges cutting through days', async () => {
    const base = Date.UTC(2020, 0, 10);
    const times: number[] = [];
    for (let day = 0; day < 5; day++) for (let h = 0; h < 24; h += 5) times.push(base + day * DAY_MS + h * HOUR_MS + 123);
    for (const [i, t] of times.entries()) {
      await recordOperation(ctx.db, {
        module: 'bench',
        action: i % 2 === 0 ? 'a' : 'b',
        content: '',
        operator: 'op',
        operatorId: null,
        status: i % 3 === 0 ? 0 : 1,
        ip: '',
        method: 'POST',
        path: '/x',
        durationMs: 1,
        errorMsg: '',
        userAgent: '',
        payload: '',
        createdAt: t,
      });
    }
    const exact = async (f: { module: string; action?: string; status?: number; start?: number; end?: number }) => {
      let q = ctx.db
        .selectFrom('operationLogs')
        .select(sql<number>`count(*)`.as('n'))
        .where('module', '=', f.module);
      if (f.action !== undefined) q = q.where('action', '=', f.action);
      if (f.status !== undefined) q = q.where('status', '=', f.status);
      if (f.start !== undefined) q = q.where('createdAt', '>=', f.start);
      if (f.end !== undefined) q = q.where('createdAt', '<=', f.end);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const ranges: [number | undefined, number | undefined][] = [
      [undefined, undefined],
      [base + 7 * HOUR_MS, base + 3 * DAY_MS + 2 * HOUR_MS],
      [base, base + 2 * DAY_MS - 1],
      [base + DAY_MS + 1, undefined],
      [undefined, base + 2 * DAY_MS + 11 * HOUR_MS],
      [base + 3 * HOUR_MS, base + 9 * HOUR_MS],
    ];
    for (const [start, end] of ranges) {
      for (const extra of [{}, { status: 0 }, { action: 'b', status: 1 }]) {
        const f = { module: 'bench', start, end, ...extra };
        expect(await countLogs(ctx.db, f), JSON.stringify(f)).toBe(await exact(f));
      }
    }
    expect(await exact({ module: 'bench' })).toBe(times.length);
  });
});

describe('the log rule at registration, and a log that cannot be written', () => {
  async function appWith(register: (app: ReturnType<typeof Fastify>) => void) {
    const app = Fastify({ logger: false });
    await app.register(errorsPlugin);
    await app.register(authPlugin, { db: ctx.db });
    await app.register(operationLogPlugin, { db: ctx.db });
    register(app);
    await app.ready();
    return app;
  }

  it('refuses an API route that changes data without saying how it is logged', async () => {
    await expect(appWith((a) => a.post('/api/forgot', { config: { auth: 'user' } }, async () => null))).rejects.toThrow(UnloggedRouteError);
    await expect(appWith((a) => a.delete('/api/forgot/:id', { config: { auth: 'user' } }, async () => null))).rejects.toThrow(
      /declares no operation-log rule/,
    );
    const fine = await appWith((a) => {
      a.get('/api/read', { config: { auth: 'public' } }, async () => null);
      a.post('/api/beacon', { config: { auth: 'public', log: false } }, async () => null);
      a.post('/outside/api', { config: { auth: 'public' } }, async () => null);
    });
    await fine.close();
  });

  it('a failed write is logged and the call still answers', async () => {
    const broken = await createTestContext();
    try {
      const admin = await loginAs(broken, 'super_admin');
      await sql`drop table operation_logs`.execute(broken.db);
      const res = await call(broken, 'POST', '/api/admin/dict/type', { as: admin, payload: { code: 'still_works', name: 'x' } });
      expect(res.status).toBe(200);
      await expect(flushLogs(broken)).resolves.toBeUndefined();
    } finally {
      await broken.destroy();
    }
  });
});

describe('retention (the job calls this, decision 0110)', () => {
  it('removes the rows written before the cut-off, batch by batch, and takes exactly them off the daily counters', async () => {
    // 2019: before every row the other tests write. Three days, four rows each; the cut-off falls inside the second day.
    const base = Date.UTC(2019, 5, 1);
    const times = [0, 1, 2].flatMap((day) => [1, 7, 13, 19].map((h) => base + day * DAY_MS + h * HOUR_MS));
    for (const [i, createdAt] of times.entries()) {
      await recordOperation(ctx.db, {
        module: 'retention',
        action: i % 2 === 0 ? 'a' : 'b',
        content: '',
        operator: 'op',
        operatorId: null,
        status: i % 4 === 3 ? 0 : 1,
        ip: '',
        method: 'POST',
        path: '/x',
        durationMs: 1,
        errorMsg: '',
        userAgent: '',
        payload: '',
        createdAt,
      });
    }
    const cut = base + DAY_MS + 10 * HOUR_MS;
    const counters = async () =>
      (await ctx.db.selectFrom('operationLogDaily').selectAll().where('module', '=', 'retention').execute())
        .map((c) => `${c.action}|${c.status}|${(Number(c.day) - base) / DAY_MS}=${Number(c.n)}`)
        .sort();
    expect(await removeOldOperationLogs(ctx.db, cut, 3)).toBe(6);
    const left = await ctx.db
      .selectFrom('operationLogs')
      .select('createdAt')
      .where('module', '=', 'retention')
      .orderBy('createdAt')
      .execute();
    expect(left.map((r) => Number(r.createdAt))).toEqual(times.filter((t) => t >= cut));
    // The first day's counters are gone; the second day's count only its two rows left; the third day's are whole.
    expect(await counters()).toEqual(['a|1|1=1', 'a|1|2=2', 'b|0|1=1', 'b|0|2=1', 'b|1|2=1']);
    expect(await countLogs(ctx.db, { module: 'retention' })).toBe(6);
    expect(await removeOldOperationLogs(ctx.db, cut, 3)).toBe(0);
  });
});
