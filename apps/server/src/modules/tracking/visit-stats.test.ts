import type { VisitOverview } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { DAY_MS, nowMs } from '../../lib/time.ts';
import { businessDayOf } from '../../lib/business-time.ts';
import { TRACKING_RATE_MAX } from './tracking.routes.ts';
import {
  recentlyVisited,
  recordEvent,
  recordPageView,
  removeOldClientEvents,
  removeOldPageViews,
  visitOverview,
  type Visitor,
} from './tracking.service.ts';

/**
 * Visit statistics on the configured database (TEST_DB): the day counters written with every
 * raw row, the overview's figures against hand-computed data (including the Asia/Shanghai day
 * edge), the recently visited list, the tracking limits and who may read the overview.
 */

let ctx: TestContext;
let superAdmin: { headers: { authorization: string } };
beforeAll(async () => {
  ctx = await createTestContext();
  superAdmin = await loginAs(ctx, 'super_admin');
});
afterAll(() => ctx.destroy());

const anon = (ip: string, userAgent = 'ua-1'): Visitor => ({ userId: null, ip, userAgent, host: 'clearplay.test' });
const user = (id: number): Visitor => ({ userId: id, ip: '10.1.1.1', userAgent: 'ua-user', host: 'clearplay.test' });

// 2026-03-10 00:00 in Shanghai is 2026-03-09T16:00:00Z.
const MAR10 = Date.UTC(2026, 2, 9, 16);
const at = (dayOffset: number, hour: number, minute = 0) => MAR10 + dayOffset * DAY_MS + hour * 3_600_000 + minute * 60_000;

describe('overview figures from the day counters', () => {
  it('counts page views, unique visitors, pages, referrers and events per Shanghai day', async () => {
    const view = (path: string, visitor: Visitor, when: number, referrer?: string) =>
      recordPageView(ctx.db, { path, ...(referrer === undefined ? {} : { referrer }) }, visitor, when);
    // Mar 10 (Shanghai): 00:00 exactly and 23:59.
    await view('/home', anon('1.1.1.1'), at(0, 0), 'https://www.google.com/search?q=clearplay');
    await view('/home?x=1', anon('1.1.1.1'), at(0, 23, 59), 'https://www.google.com/other');
    await view('/linkstore', anon('1.1.1.1', 'ua-2'), at(0, 12), 'http://clearplay.test/home');
    await view('/order/list?page=2', user(7), at(0, 9), '/dashboard/workplace');
    await view('/order/list', user(7), at(0, 10));
    // One millisecond before Mar 10 in Shanghai is still Mar 9 (15:59:59.999 UTC on Mar 9).
    await view('/home', anon('1.1.1.1'), MAR10 - 1, 'not a url');
    // Mar 11 at 07:59 UTC-wise is 15:59 Shanghai; 16:00 UTC on Mar 10 is 00:00 Mar 11 in Shanghai.
    await view('/home', user(7), at(1, 0));
    await recordEvent(ctx.db, { event: 'order.export' }, user(7), at(0, 8));
    await recordEvent(ctx.db, { event: 'order.export' }, user(7), at(1, 1));
    await recordEvent(ctx.db, { event: 'login.ok' }, anon('1.1.1.1'), at(0, 1));
    // Feb 9: the first day of the window on Mar 10, outside it on Mar 11.
    await view('/old', anon('9.9.9.9'), at(-29, 5));
    await recordEvent(ctx.db, { event: 'old.event' }, anon('9.9.9.9'), at(-29, 5));

    const overview = await visitOverview(ctx.db, at(1, 23, 59));
    expect(overview.timeZone).toBe('Asia/Shanghai');
    expect(overview.days).toHaveLength(30);
    expect(overview.days[0]!.date).toBe('2026-02-10');
    expect(overview.today).toEqual({ date: '2026-03-11', pv: 1, uv: 1 });
    const byDate = new Map(overview.days.map((d) => [d.date, d]));
    // Mar 10: five views by three visitors (1.1.1.1/ua-1, 1.1.1.1/ua-2, user 7).
    expect(byDate.get('2026-03-10')).toEqual({ date: '2026-03-10', pv: 5, uv: 3 });
    expect(byDate.get('2026-03-09')).toEqual({ date: '2026-03-09', pv: 1, uv: 1 });
    expect(byDate.get('2026-02-10')).toEqual({ date: '2026-02-10', pv: 0, uv: 0 });
    expect(overview.topPages).toEqual([
      { name: '/home', count: 4 },
      { name: '/order/list', count: 2 },
      { name: '/linkstore', count: 1 },
    ]);
    expect(overview.topReferrers).toEqual([
      { name: 'https://www.google.com', count: 2 },
      { name: '/dashboard/workplace', count: 1 },
      { name: '/home', count: 1 },
    ]);
    expect(overview.topEvents).toEqual([
      { name: 'order.export', count: 2 },
      { name: 'login.ok', count: 1 },
    ]);
    // On Mar 10 (Shanghai) the window reaches back to Feb 9, where the old rows are.
    const earlier = await visitOverview(ctx.db, at(0, 23, 59));
    expect(earlier.today).toEqual({ date: '2026-03-10', pv: 5, uv: 3 });
    expect(earlier.topPages.find((p) => p.name === '/old')).toEqual({ name: '/old', count: 1 });
    expect(earlier.topEvents.find((p) => p.name === 'old.event')).toEqual({ name: 'old.event', count: 1 });
  });

  it('keeps the top 10 of each list, by count then name', async () => {
    const when = at(100, 12);
    for (let i = 0; i < 12; i += 1) {
      for (let k = 0; k <= i; k += 1) await recordPageView(ctx.db, { path: `/p${String(i).padStart(2, '0')}` }, anon('2.2.2.2'), when);
    }
    const overview = await visitOverview(ctx.db, when);
    expect(overview.topPages).toHaveLength(10);
    expect(overview.topPages[0]).toEqual({ name: '/p11', count: 12 });
    expect(overview.topPages[9]).toEqual({ name: '/p02', count: 3 });
    expect(overview.today).toEqual({ date: '2026-06-18', pv: 78, uv: 1 });
  });

  it('the counters always equal a recount of the raw rows', async () => {
    const raw = await ctx.db
      .selectFrom('pageViews')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const counted = await ctx.db
      .selectFrom('visitDaily')
      .select((eb) => eb.fn.sum<number | string>('pv').as('n'))
      .executeTakeFirstOrThrow();
    const paths = await ctx.db
      .selectFrom('pageViewDaily')
      .select((eb) => eb.fn.sum<number | string>('n').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(Number(raw.n));
    expect(Number(paths.n)).toBe(Number(raw.n));
    const events = await ctx.db
      .selectFrom('clientEvents')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const eventDaily = await ctx.db
      .selectFrom('eventDaily')
      .select((eb) => eb.fn.sum<number | string>('n').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(eventDaily.n)).toBe(Number(events.n));
  });
});

describe('recentlyVisited', () => {
  it('answers the latest visit of each distinct path, newest first, without query strings', async () => {
    const id = 4242;
    const base = nowMs() - DAY_MS;
    const paths = ['/a', '/b?x=1', '/a?y=2', '/c', '/b'];
    for (const [i, path] of paths.entries()) await recordPageView(ctx.db, { path }, user(id), base + i * 1000);
    expect(await recentlyVisited(ctx.db, id, 10)).toEqual([
      { path: '/b', visitedAt: new Date(base + 4000).toISOString() },
      { path: '/c', visitedAt: new Date(base + 3000).toISOString() },
      { path: '/a', visitedAt: new Date(base + 2000).toISOString() },
    ]);
    expect(await recentlyVisited(ctx.db, id, 2)).toHaveLength(2);
    expect(await recentlyVisited(ctx.db, 999_999, 5)).toEqual([]);
  });

  it('finds distinct paths beyond the first batch of a busy user', async () => {
    const id = 4343;
    const base = nowMs() - DAY_MS;
    await recordPageView(ctx.db, { path: '/first' }, user(id), base);
    for (let i = 1; i <= 450; i += 1) await recordPageView(ctx.db, { path: '/same' }, user(id), base + i);
    expect((await recentlyVisited(ctx.db, id, 5)).map((r) => r.path)).toEqual(['/same', '/first']);
  });
});

describe('GET /api/admin/visit-stats/overview', () => {
  it('answers the super admin today’s figures, including a visit just made through the API', async () => {
    const before = await call<VisitOverview>(ctx, 'GET', '/api/admin/visit-stats/overview', { as: superAdmin });
    expect(before.status).toBe(200);
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/visit-stats/create',
      remoteAddress: '10.9.9.9',
      payload: { path: '/home', referrer: 'https://news.example.com/a' },
    });
    expect(sent.json().status).toBe(200);
    const after = await call<VisitOverview>(ctx, 'GET', '/api/admin/visit-stats/overview', { as: superAdmin });
    expect(after.data.today.pv).toBe(before.data.today.pv + 1);
    expect(after.data.today.date).toBe(new Date(businessDayOf(nowMs()) + 8 * 3_600_000).toISOString().slice(0, 10));
    expect(after.data.topReferrers).toContainEqual({ name: 'https://news.example.com', count: 1 });
  });

  it('is refused to every other seeded role and to the anonymous', async () => {
    for (const role of ['admin', 'inspector', 'shop'] as const) {
      const someone: LoggedIn = await loginAs(ctx, role);
      const res = await call(ctx, 'GET', '/api/admin/visit-stats/overview', { as: someone });
      expect(res.http, role).toBe(403);
    }
    const anonymous = await call(ctx, 'GET', '/api/admin/visit-stats/overview');
    expect(anonymous.http).toBe(401);
  });
});

describe('tracking limits', () => {
  it('answers 413 for a page view body beyond its limit, before reading it', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visit-stats/create',
      remoteAddress: '10.7.7.7',
      payload: { path: '/x', referrer: 'r'.repeat(3000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413 });
  });

  it('refuses a path that is not an in-app path and junk JSON with a clear 400', async () => {
    const notPath = await ctx.app.inject({
      method: 'POST',
      url: '/api/visit-stats/create',
      remoteAddress: '10.7.7.8',
      payload: { path: 'http://x' },
    });
    expect(notPath.statusCode).toBe(400);
    expect(notPath.json().msg).toMatch(/^path/);
    const junk = await ctx.app.inject({
      method: 'POST',
      url: '/api/analytics/event',
      remoteAddress: '10.7.7.8',
      headers: { 'content-type': 'application/json' },
      payload: '{"event":',
    });
    expect(junk.statusCode).toBe(400);
    const bigEvent = await ctx.app.inject({
      method: 'POST',
      url: '/api/analytics/event',
      remoteAddress: '10.7.7.8',
      payload: { event: 'x', data: 'd'.repeat(9000) },
    });
    expect(bigEvent.statusCode).toBe(413);
  });

  it(`limits each client to ${TRACKING_RATE_MAX} calls a minute per route, with a 429 envelope in its language`, async () => {
    const send = (ip: string, language = 'en-US') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/visit-stats/create',
        remoteAddress: ip,
        headers: { 'accept-language': language },
        payload: { path: '/home' },
      });
    for (let i = 0; i < TRACKING_RATE_MAX; i += 1) expect((await send('10.3.3.3')).statusCode).toBe(200);
    const refused = await send('10.3.3.3', 'zh-CN');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().status).toBe(429);
    expect(refused.json().msg).toMatch(/^此客户端的统计请求过多，请 \d+ 秒后再试$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const english = await send('10.3.3.3');
    expect(english.json().msg).toMatch(/^Too many tracking calls/);
    // Another client, and another route of the same client, are not held up.
    expect((await send('10.3.3.4')).statusCode).toBe(200);
    const event = await ctx.app.inject({ method: 'POST', url: '/api/analytics/event', remoteAddress: '10.3.3.3', payload: { event: 'x' } });
    expect(event.statusCode).toBe(200);
  });
});

describe('retention (the job calls these, decision 0110)', () => {
  it('removes the raw page views and client events recorded before the cut-off, batch by batch; the day counters stay', async () => {
    // 2024: before every visit the other tests record.
    const base = Date.UTC(2024, 0, 10, 4);
    const cut = base + 3 * DAY_MS;
    const times = [base, base + DAY_MS, base + 2 * DAY_MS, cut, cut + DAY_MS];
    for (const when of times) {
      await recordPageView(ctx.db, { path: '/retention' }, anon('9.9.9.9'), when);
      await recordEvent(ctx.db, { event: 'retention.test' }, anon('9.9.9.9'), when);
    }
    const counters = async () => ({
      visits: await ctx.db.selectFrom('visitDaily').selectAll().orderBy('day').execute(),
      visitors: await ctx.db.selectFrom('visitorDaily').selectAll().orderBy('day').orderBy('visitor').execute(),
      pages: await ctx.db.selectFrom('pageViewDaily').selectAll().orderBy('day').orderBy('path').execute(),
      events: await ctx.db.selectFrom('eventDaily').selectAll().orderBy('day').orderBy('event').execute(),
    });
    const before = await counters();
    expect(before.pages.filter((p) => p.path === '/retention')).toHaveLength(5);

    expect(await removeOldPageViews(ctx.db, cut, 2)).toBe(3);
    expect(await removeOldClientEvents(ctx.db, cut, 2)).toBe(3);
    const views = await ctx.db.selectFrom('pageViews').select('createdAt').where('path', '=', '/retention').orderBy('createdAt').execute();
    expect(views.map((v) => Number(v.createdAt))).toEqual([cut, cut + DAY_MS]);
    const events = await ctx.db
      .selectFrom('clientEvents')
      .select('createdAt')
      .where('event', '=', 'retention.test')
      .orderBy('createdAt')
      .execute();
    expect(events.map((e) => Number(e.createdAt))).toEqual([cut, cut + DAY_MS]);
    expect(await counters()).toEqual(before);
    expect(await removeOldPageViews(ctx.db, cut, 2)).toBe(0);
    expect(await removeOldClientEvents(ctx.db, cut, 2)).toBe(0);
  });
});
