import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
let shop: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext();
  shop = await loginAs(ctx, 'shop');
});
afterAll(() => ctx.destroy());

const views = () => ctx.db.selectFrom('pageViews').selectAll().orderBy('id').execute();

describe('POST /api/visit-stats/create', () => {
  it('records a signed-in user’s page view with its path, referrer and user agent', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visit-stats/create',
      headers: { ...shop.headers, 'user-agent': 'ua-test' },
      payload: { path: '/order/inspect?x=1', referrer: '/dashboard/workplace', extra: 'dropped' },
    });
    expect(res.json()).toEqual({ status: 200, msg: 'ok', data: null });
    const [row] = (await views()).slice(-1);
    expect(row).toMatchObject({ userId: shop.id, path: '/order/inspect?x=1', referrer: '/dashboard/workplace', userAgent: 'ua-test' });
  });

  it('records an anonymous visit of a public page without a user', async () => {
    const before = (await views()).length;
    const res = await ctx.app.inject({ method: 'POST', url: '/api/visit-stats/create', payload: { path: '/home' } });
    expect(res.json().status).toBe(200);
    const rows = await views();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ userId: null, path: '/home', referrer: '' });
  });

  it('refuses a path that is missing or too long, naming the field, and writes nothing', async () => {
    const before = (await views()).length;
    for (const payload of [{}, { path: '' }, { path: 'x'.repeat(513) }]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/visit-stats/create', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toMatch(/^path/);
    }
    expect(await views()).toHaveLength(before);
  });

  it('answers 50014 for an expired token, so the client shows the logged-out dialog', async () => {
    const other = await loginAs(ctx, 'inspector');
    await ctx.db
      .updateTable('sessions')
      .set({ expiresAt: Date.now() - 1 })
      .where('userId', '=', other.id)
      .execute();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visit-stats/create',
      headers: other.headers,
      payload: { path: '/order/inspect' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().status).toBe(50014);
  });

  it('answers 50008 for a malformed token', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visit-stats/create',
      headers: { authorization: 'Bearer not-a-token' },
      payload: { path: '/x' },
    });
    expect(res.json().status).toBe(50008);
  });
});

describe('POST /api/analytics/event', () => {
  it('keeps the event name, its data as JSON and the client timestamp', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/analytics/event',
      headers: shop.headers,
      payload: { event: 'order.export', data: { rows: 12 }, timestamp: 1_700_000_000_000 },
    });
    expect(res.json().status).toBe(200);
    const row = await ctx.db.selectFrom('clientEvents').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ userId: shop.id, event: 'order.export', data: '{"rows":12}', clientTime: 1_700_000_000_000 });
  });

  it('refuses an event name with spaces', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/analytics/event', payload: { event: 'a b' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/^event/);
  });
});

describe('GET /api/admin/user/session', () => {
  it('answers when the session ends, for a live session only', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/user/session', headers: shop.headers });
    const body = res.json<{ status: number; data: { expiresAt: string } }>();
    expect(body.status).toBe(200);
    expect(Date.parse(body.data.expiresAt)).toBeGreaterThan(Date.now());
    const anon = await ctx.app.inject({ method: 'GET', url: '/api/admin/user/session' });
    expect(anon.statusCode).toBe(401);
  });
});
