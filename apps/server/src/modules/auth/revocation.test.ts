/**
 * Revocation is immediate across app instances: two apps, each with its own connection (pool)
 * to one database, as two server processes would have. What one instance ends, the other
 * refuses at the very next call, though it answered that token a moment before.
 */
import { Status, type RoleItem } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { createDb, type Db } from '../../db/index.ts';
import {
  call,
  createTestContext,
  createUser,
  loginAs,
  loginWith,
  TEST_PASSWORD,
  type LoggedIn,
  type TestContext,
} from '../../test/context.ts';

let ctx: TestContext;
/** The second instance: its own database connection, same database. */
let otherDb: Db;
let other: App;
let boss: LoggedIn;

beforeAll(async () => {
  ctx = await createTestContext();
  otherDb = createDb(ctx.config.database);
  other = await buildApp({ config: ctx.config, db: otherDb, logger: false });
  boss = await loginAs(ctx, 'super_admin');
});
afterAll(async () => {
  await other.close();
  await otherDb.destroy();
  await ctx.destroy();
});

interface Answer {
  http: number;
  status: number;
  msg: string;
}

async function onOther(method: 'GET' | 'POST', url: string, headers: { authorization: string }): Promise<Answer> {
  const res = await other.inject({ method, url, headers });
  const body = res.json<{ status: number; msg: string }>();
  return { http: res.statusCode, status: body.status, msg: body.msg };
}

const sessionOnOther = (headers: { authorization: string }) => onOther('GET', '/api/admin/user/session', headers);

/** A user signed in through the other instance, whose session that instance has answered (twice). */
async function signedInOnOther(role = 'shop') {
  const user = await createUser(ctx, role);
  const res = await other.inject({
    method: 'POST',
    url: '/api/admin/user/login',
    payload: { username: user.username, password: user.password },
  });
  const token = res.json<{ data: { token: string } }>().data.token;
  const headers = { authorization: `Bearer ${token}` };
  expect(await sessionOnOther(headers)).toMatchObject({ http: 200, status: 200 });
  expect(await sessionOnOther(headers)).toMatchObject({ http: 200, status: 200 });
  return { ...user, headers };
}

describe('revocation across instances sharing one database', () => {
  it('disabling an account on one instance ends its session on the other at the next call', async () => {
    const user = await signedInOnOther();
    expect((await call(ctx, 'POST', '/api/admin/user/setUserStatus', { as: boss, payload: { id: user.id, status: 0 } })).status).toBe(200);
    expect(await sessionOnOther(user.headers)).toEqual({
      http: 401,
      status: Status.TOKEN_REVOKED,
      msg: 'Your account has been disabled, you have been logged out',
    });
    expect((await onOther('GET', '/api/admin/user/info', user.headers)).status).toBe(Status.TOKEN_REVOKED);
  });

  it('a password reset on one instance ends the session on the other at the next call', async () => {
    const user = await signedInOnOther();
    const reset = await call(ctx, 'POST', '/api/admin/user/resetPassword', {
      as: boss,
      payload: { id: user.id, newPassword: 'NewPass#12' },
    });
    expect(reset.status).toBe(200);
    expect(await sessionOnOther(user.headers)).toEqual({
      http: 401,
      status: Status.TOKEN_REVOKED,
      msg: 'Your password was reset, please log in again',
    });
    // The new password opens a new session, which the other instance answers.
    const again = await loginWith(ctx, user.username, 'NewPass#12');
    expect(await sessionOnOther(again.headers)).toMatchObject({ http: 200, status: 200 });
  });

  it('a logout on one instance ends that token on the other at the next call, and only that token', async () => {
    const user = await signedInOnOther();
    const second = await loginWith(ctx, user.username, TEST_PASSWORD);
    const out = await ctx.app.inject({ method: 'GET', url: '/api/admin/user/logout', headers: user.headers });
    expect(out.json<{ status: number }>().status).toBe(200);
    expect(await sessionOnOther(user.headers)).toEqual({ http: 401, status: Status.UNAUTHORIZED, msg: 'Please log in first' });
    expect(await sessionOnOther(second.headers)).toMatchObject({ http: 200, status: 200 });
  });

  it('a permission taken from a role on one instance is refused on the other at the next call', async () => {
    const created = await call<RoleItem>(ctx, 'POST', '/api/admin/role/create', {
      as: boss,
      payload: { name: 'log_reader', description: 'Reads logs', permissions: ['log:view', 'user:view'], isAdmin: false },
    });
    expect(created.status).toBe(200);
    const reader = await signedInOnOther('log_reader');
    expect(await onOther('GET', '/api/admin/log/list', reader.headers)).toMatchObject({ http: 200, status: 200 });
    const update = await call(ctx, 'POST', '/api/admin/role/update', {
      as: boss,
      payload: { id: created.data.id, name: 'log_reader', description: 'Reads users', permissions: ['user:view'], isAdmin: false },
    });
    expect(update.status).toBe(200);
    expect(await onOther('GET', '/api/admin/log/list', reader.headers)).toEqual({
      http: 403,
      status: 403,
      msg: 'You do not have permission to do this (log:view)',
    });
    expect(await sessionOnOther(reader.headers)).toMatchObject({ http: 200, status: 200 });
  });
});
