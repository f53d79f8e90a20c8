import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, TEST_PASSWORD, type TestContext } from '../../test/context.ts';
import { LOCK_WINDOW_MS } from './auth.service.ts';

let ctx: TestContext;
let proxied: TestContext;
beforeAll(async () => {
  [ctx, proxied] = await Promise.all([createTestContext(), createTestContext({ env: { TRUST_PROXY: 'true' } })]);
});
afterAll(() => Promise.all([ctx.destroy(), proxied.destroy()]));

interface Body {
  status: number;
  msg: string;
  data: { retryAfterSeconds?: number } | null;
}

const attempt = (c: TestContext, username: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  c.app.inject({ method: 'POST', url: '/api/admin/user/login', payload: { username, password }, remoteAddress: ip, headers });

async function failFiveTimes(c: TestContext, username: string, ip: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const res = await attempt(c, username, 'wrong-password', ip);
    expect(res.json<Body>().status).toBe(400);
  }
}

describe('login brute-force lock per (username, IP)', () => {
  it('refuses the 6th attempt with 429 even with the right password, and records it as locked', async () => {
    const user = await createUser(ctx, 'shop');
    await failFiveTimes(ctx, user.username, '10.0.0.1');
    const res = await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.1');
    expect(res.statusCode).toBe(429);
    const body = res.json<Body>();
    expect(body.status).toBe(429);
    expect(body.msg).toBe('Too many failed logins, please try again in 10 minutes');
    expect(body.data?.retryAfterSeconds).toBeGreaterThan(590);
    expect(body.data?.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(res.headers['retry-after']).toBe(String(body.data?.retryAfterSeconds));
    const last = await ctx.db
      .selectFrom('loginRecords')
      .select(['reason', 'success'])
      .where('username', '=', user.username)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ reason: 'locked', success: 0 });

    const zh = await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.1', { 'accept-language': 'zh-CN' });
    expect(zh.json<Body>().msg).toBe('登录失败次数过多，请 10 分钟后再试');
  });

  it('does not lock the same username from another IP', async () => {
    const user = await createUser(ctx, 'shop');
    await failFiveTimes(ctx, user.username, '10.0.0.2');
    const res = await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.3');
    expect(res.json<Body>().status).toBe(200);
  });

  it('counts only failures after the last success', async () => {
    const user = await createUser(ctx, 'shop');
    for (let i = 0; i < 4; i++) await attempt(ctx, user.username, 'wrong-password', '10.0.0.4');
    expect((await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.4')).json<Body>().status).toBe(200);
    for (let i = 0; i < 4; i++) await attempt(ctx, user.username, 'wrong-password', '10.0.0.4');
    expect((await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.4')).json<Body>().status).toBe(200);
  });

  it('lifts the lock once the failures are older than the window', async () => {
    const user = await createUser(ctx, 'shop');
    await failFiveTimes(ctx, user.username, '10.0.0.5');
    expect((await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.5')).statusCode).toBe(429);
    // Age the failures past the window, as if ten minutes went by.
    await ctx.db
      .updateTable('loginRecords')
      .set((eb) => ({ createdAt: eb('createdAt', '-', LOCK_WINDOW_MS + 1000) }))
      .where('username', '=', user.username)
      .execute();
    expect((await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.5')).json<Body>().status).toBe(200);
  });

  it('locks unknown usernames too, so guessing is as slow as for real ones', async () => {
    await failFiveTimes(ctx, 'ghost_user', '10.0.0.6');
    expect((await attempt(ctx, 'ghost_user', 'anything', '10.0.0.6')).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const user = await createUser(ctx, 'shop');
    await failFiveTimes(ctx, user.username, '10.0.0.7');
    // A client cannot escape the lock by inventing a forwarded address.
    const res = await attempt(ctx, user.username, TEST_PASSWORD, '10.0.0.7', { 'x-forwarded-for': '203.0.113.9' });
    expect(res.statusCode).toBe(429);
    const ips = await ctx.db.selectFrom('loginRecords').select('ip').where('username', '=', user.username).execute();
    expect(new Set(ips.map((r) => r.ip))).toEqual(new Set(['10.0.0.7']));
  });

  it('takes the client IP from X-Forwarded-For behind a trusted proxy', async () => {
    const user = await createUser(proxied, 'shop');
    for (let i = 0; i < 5; i++) {
      await attempt(proxied, user.username, 'wrong-password', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' });
    }
    const locked = await attempt(proxied, user.username, TEST_PASSWORD, '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' });
    expect(locked.statusCode).toBe(429);
    // Same proxy, another client: not locked.
    const other = await attempt(proxied, user.username, TEST_PASSWORD, '127.0.0.1', { 'x-forwarded-for': '198.51.100.2' });
    expect(other.json<Body>().status).toBe(200);
  });

  it('behind the proxy, takes the address the proxy appended, not one the client wrote before it', async () => {
    // nginx's $proxy_add_x_forwarded_for: what the client sent, then the address nginx saw.
    const user = await createUser(proxied, 'shop');
    for (let i = 0; i < 5; i++) {
      const res = await attempt(proxied, user.username, 'wrong-password', '127.0.0.1', {
        'x-forwarded-for': `203.0.113.${i + 1}, 198.51.100.3`,
      });
      expect(res.statusCode).toBe(400);
    }
    const locked = await attempt(proxied, user.username, TEST_PASSWORD, '127.0.0.1', { 'x-forwarded-for': '203.0.113.99, 198.51.100.3' });
    expect(locked.statusCode).toBe(429);
    const ips = await proxied.db.selectFrom('loginRecords').select('ip').where('username', '=', user.username).execute();
    expect(new Set(ips.map((r) => r.ip))).toEqual(new Set(['198.51.100.3']));
  });
});
