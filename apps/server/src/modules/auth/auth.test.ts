import { Status } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, loginAs, TEST_PASSWORD, type TestContext } from '../../test/context.ts';
import { HOUR_MS, DAY_MS } from '../../lib/time.ts';
import { hashToken } from '../../lib/tokens.ts';
import { ROLE_DESCRIPTIONS_EN } from '../../db/seed.ts';
import { insertReturningId } from '../../db/dialect.ts';
import { removeExpiredSessions, removeOldLoginRecords, revokeUserSessions } from './auth.service.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

interface Body {
  status: number;
  msg: string;
  data: unknown;
}

const login = (payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/api/admin/user/login', payload: payload as object, headers });
const info = (authorization?: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/admin/user/info', headers: authorization === undefined ? {} : { authorization } });

describe('POST /api/admin/user/login', () => {
  it('answers a cp_ token and its expiry, records the login and sets login_at', async () => {
    const user = await createUser(ctx, 'inspector');
    const before = Date.now();
    const res = await login({ username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json<Body & { data: { token: string; expiresAt: string } }>();
    expect(body.status).toBe(200);
    expect(body.msg).toBe('ok');
    expect(body.data.token).toMatch(/^cp_[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(body.data.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(12 * HOUR_MS - 1000);
    expect(expires - before).toBeLessThanOrEqual(12 * HOUR_MS + 60_000);

    const session = await ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('tokenHash', '=', hashToken(body.data.token))
      .executeTakeFirstOrThrow();
    expect(session.userId).toBe(user.id);
    const row = await ctx.db.selectFrom('users').select('loginAt').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.loginAt).toBeGreaterThanOrEqual(before);
    const records = await ctx.db.selectFrom('loginRecords').selectAll().where('username', '=', user.username).execute();
    expect(records).toMatchObject([{ success: 1, reason: 'ok', userId: user.id }]);
  });

  it('keeps a remembered session for SESSION_REMEMBER_DAYS', async () => {
    const user = await createUser(ctx, 'shop');
    const res = await login({ username: user.username, password: TEST_PASSWORD, remember: true });
    const expires = Date.parse(res.json<{ data: { expiresAt: string } }>().data.expiresAt);
    expect(expires - Date.now()).toBeGreaterThan(14 * DAY_MS - 60_000);
  });

  it('logs in the seeded super admin with INIT_ADMIN_PASSWORD', async () => {
    const res = await login({ username: 'superadmin', password: 'Admin12345' });
    expect(res.json<Body>().status).toBe(200);
  });

  it('refuses a wrong password with a clear message and records it', async () => {
    const user = await createUser(ctx, 'inspector');
    const res = await login({ username: user.username, password: 'wrong-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>()).toEqual({ status: 400, msg: 'Incorrect username or password', data: null });
    const records = await ctx.db.selectFrom('loginRecords').selectAll().where('username', '=', user.username).execute();
    expect(records).toMatchObject([{ success: 0, reason: 'bad_password', userId: user.id }]);
  });

  it('answers an unknown user exactly like a wrong password', async () => {
    const res = await login({ username: 'nobody_here', password: 'whatever1' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>()).toEqual({ status: 400, msg: 'Incorrect username or password', data: null });
    const records = await ctx.db.selectFrom('loginRecords').selectAll().where('username', '=', 'nobody_here').execute();
    expect(records).toMatchObject([{ success: 0, reason: 'unknown_user', userId: null }]);
  });

  it('refuses a disabled user with a clear message, in the request language', async () => {
    const user = await createUser(ctx, 'shop', { status: 0 });
    const res = await login({ username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json<Body>().msg).toBe('This account has been disabled, please contact an administrator');
    const zh = await login({ username: user.username, password: TEST_PASSWORD }, { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' });
    expect(zh.json<Body>().msg).toBe('该账号已被停用，请联系管理员');
    expect(await ctx.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute()).toEqual([]);
  });

  it('names the empty field', async () => {
    const res = await login({ username: '', password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>()).toEqual({
      status: 400,
      msg: 'username: cannot be empty',
      data: { errors: [{ field: 'username', message: 'cannot be empty' }] },
    });
    const zh = await login({ username: 'someone', password: '' }, { 'accept-language': 'zh' });
    expect(zh.json<Body>().msg).toBe('password：不能为空');
  });

  it('names a missing field', async () => {
    const res = await login({ username: 'someone' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().msg).toBe('password: is required');
  });

  it('refuses a too long username without touching the database', async () => {
    const res = await login({ username: 'u'.repeat(65), password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().msg).toBe('username: must NOT have more than 64 characters');
    const n = await ctx.db.selectFrom('loginRecords').select('id').where('username', '=', 'u'.repeat(65)).execute();
    expect(n).toEqual([]);
  });

  it('strips unknown fields instead of failing', async () => {
    const user = await createUser(ctx, 'inspector');
    const res = await login({ username: user.username, password: TEST_PASSWORD, isAdmin: true, role: 'super_admin' });
    expect(res.json<Body>().status).toBe(200);
  });

  it('answers malformed JSON with a 400 envelope, never a stack trace', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/user/login',
      payload: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>()).toEqual({ status: 400, msg: 'The request body is not valid JSON', data: null });
  });
});

describe('GET /api/admin/user/info', () => {
  it('answers the current user without secrets', async () => {
    const me = await loginAs(ctx, 'inspector');
    const res = await info(me.headers.authorization);
    expect(res.statusCode).toBe(200);
    const body = res.json<Body>();
    expect(body).toEqual({
      status: 200,
      msg: 'ok',
      data: {
        id: me.id,
        username: me.username,
        nickname: 'Test inspector',
        roleId: me.roleId,
        wechat: 'wx_test',
        phone: '13800000000',
        avatar: '',
        role: {
          name: 'inspector',
          description: expect.any(String),
          descriptionEn: ROLE_DESCRIPTIONS_EN.inspector,
          permissions: ['order:view', 'order:view:all', 'order:create', 'order:update', 'order:import', 'order:download'],
          isAdmin: false,
        },
      },
    });
    expect(res.body).not.toContain('passwordHash');
  });

  it('answers 401 without a token', async () => {
    const res = await info();
    expect(res.statusCode).toBe(401);
    expect(res.json<Body>()).toEqual({ status: Status.UNAUTHORIZED, msg: 'Please log in first', data: null });
  });

  it('answers 401 for a well-formed token nobody issued', async () => {
    const res = await info(`Bearer cp_${'A'.repeat(43)}`);
    expect(res.statusCode).toBe(401);
    expect(res.json<Body>().status).toBe(Status.UNAUTHORIZED);
  });

  it('answers 50008 for a malformed token', async () => {
    for (const header of ['Bearer not-a-token', `Bearer cp_${'A'.repeat(42)}`, 'Basic dXNlcjpwYXNz']) {
      const res = await info(header);
      expect(res.statusCode).toBe(401);
      expect(res.json<Body>().status).toBe(Status.TOKEN_ILLEGAL);
    }
  });

  it('reads the token whatever the case of the scheme and the spaces around it, and nothing glued to it', async () => {
    const me = await loginAs(ctx, 'shop');
    for (const header of [
      `Bearer ${me.token}`,
      `bearer ${me.token}`,
      `BEARER ${me.token}`,
      `Bearer   ${me.token}  `,
      `Bearer\t${me.token}`,
    ]) {
      const res = await info(header);
      expect(res.statusCode, header).toBe(200);
      expect(res.json<Body>().data).toMatchObject({ id: me.id });
    }
    for (const header of [`Bearer ${me.token}x`, `Bearer ${me.token} x`, `Bearer x${me.token}`, `Bearer${me.token}`, me.token]) {
      expect((await info(header)).json<Body>().status, header).toBe(Status.TOKEN_ILLEGAL);
    }
  });

  it('answers 50012 once the sessions are revoked, with the reason in the message', async () => {
    const me = await loginAs(ctx, 'shop');
    expect(await revokeUserSessions(ctx.db, me.id, 'password_reset')).toBe(1);
    const res = await info(me.headers.authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json<Body>()).toEqual({ status: Status.TOKEN_REVOKED, msg: 'Your password was reset, please log in again', data: null });
  });

  it('answers 50012 when the account was disabled after login, and ends that session', async () => {
    const me = await loginAs(ctx, 'shop');
    await ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', me.id).execute();
    const res = await info(me.headers.authorization);
    expect(res.json<Body>().status).toBe(Status.TOKEN_REVOKED);
    const session = await ctx.db
      .selectFrom('sessions')
      .select('revokeReason')
      .where('tokenHash', '=', hashToken(me.token))
      .executeTakeFirstOrThrow();
    expect(session.revokeReason).toBe('disabled');
  });

  it('answers 50012 when the account no longer exists', async () => {
    const me = await loginAs(ctx, 'shop');
    await ctx.db.deleteFrom('users').where('id', '=', me.id).execute();
    const res = await info(me.headers.authorization);
    expect(res.json<Body>()).toEqual({ status: Status.TOKEN_REVOKED, msg: 'Your account has been deleted', data: null });
  });

  it('answers 50014 after the session expired', async () => {
    const me = await loginAs(ctx, 'inspector');
    await ctx.db
      .updateTable('sessions')
      .set({ expiresAt: Date.now() - 1000 })
      .where('tokenHash', '=', hashToken(me.token))
      .execute();
    const res = await info(me.headers.authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json<Body>()).toEqual({ status: Status.TOKEN_EXPIRED, msg: 'Your login has expired, please log in again', data: null });
  });
});

describe('GET /api/admin/user/logout', () => {
  it('ends only this session: its token then answers 401', async () => {
    const me = await loginAs(ctx, 'inspector');
    const second = await login({ username: me.username, password: TEST_PASSWORD });
    const otherToken = second.json<{ data: { token: string } }>().data.token;

    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/user/logout', headers: me.headers });
    expect(res.json<Body>()).toEqual({ status: 200, msg: 'ok', data: null });

    const after = await info(me.headers.authorization);
    expect(after.statusCode).toBe(401);
    expect(after.json<Body>().status).toBe(Status.UNAUTHORIZED);
    expect((await info(`Bearer ${otherToken}`)).json<Body>().status).toBe(200);
  });

  it('needs a session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/user/logout' });
    expect(res.json<Body>().status).toBe(Status.UNAUTHORIZED);
  });
});

describe('retention (the job calls these, decision 0110)', () => {
  // Before every session and login record the other tests write, so only these are older.
  const t = 1_000_000_000_000;

  it('removes the sessions that expired before the cut-off, batch by batch, and keeps the rest', async () => {
    const me = await loginAs(ctx, 'shop');
    const ends = [t - 3 * DAY_MS, t - DAY_MS, t - 1, t, t + HOUR_MS];
    await ctx.db
      .insertInto('sessions')
      .values(
        ends.map((expiresAt, i) => ({
          tokenHash: `retention-${i}`.padEnd(64, '0'),
          userId: me.id,
          createdAt: expiresAt - HOUR_MS,
          expiresAt,
          lastSeenAt: expiresAt - HOUR_MS,
          ip: '127.0.0.1',
          userAgent: 'test',
        })),
      )
      .execute();
    expect(await removeExpiredSessions(ctx.db, t, 2)).toBe(3);
    const left = await ctx.db.selectFrom('sessions').select('tokenHash').where('tokenHash', 'like', 'retention-%').execute();
    expect(left.map((s) => s.tokenHash.slice(0, 11)).sort()).toEqual(['retention-3', 'retention-4']);
    expect((await info(me.headers.authorization)).json<Body>().status).toBe(200);
    expect(await removeExpiredSessions(ctx.db, t, 2)).toBe(0);
  });

  it('removes the login records written before the cut-off, batch by batch, and keeps the rest', async () => {
    const record = (username: string, createdAt: number) =>
      insertReturningId(ctx.db, 'loginRecords', {
        username,
        userId: null,
        ip: '127.0.0.1',
        userAgent: 'test',
        success: 1,
        reason: 'ok',
        createdAt,
      });
    const old = [await record('retention-a', t - 2 * DAY_MS), await record('retention-b', t - 1), await record('retention-c', t - DAY_MS)];
    const kept = await record('retention-d', t);
    expect(await removeOldLoginRecords(ctx.db, t, 2)).toBe(3);
    const left = (await ctx.db.selectFrom('loginRecords').select('id').execute()).map((r) => Number(r.id));
    expect(left).toContain(kept);
    for (const id of old) expect(left).not.toContain(id);
    expect(left.length).toBeGreaterThan(1); // the other tests' logins stay
    expect(await removeOldLoginRecords(ctx.db, t, 2)).toBe(0);
  });
});
