import { Status } from '@clearplay/contract';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, SUPERADMIN_USERNAME } from '../../db/seed.ts';
import {
  call,
  createTestContext,
  createUser,
  flushLogs,
  loginWith,
  TEST_PASSWORD,
  type TestContext,
  type TestUser,
} from '../../test/context.ts';
import { DAY_MS } from '../../lib/time.ts';
import { removeExpiredLoginTickets } from './second-factor.service.ts';

/**
 * Two-step verification (TOTP, RFC 6238; decision 0091): enrolment at sign-in and in the user
 * settings, the code or a recovery code after the password, the lockout, who must have one,
 * the demo exemption and the super admin's reset.
 */

const KEY = 'test-totp-secret-key-0123456789abcdefghij';
let ctx: TestContext;
let staff: TestContext;
let none: TestContext;
beforeAll(async () => {
  // One after the other: three apps starting at once can outlast a plugin's start timeout on a busy machine.
  ctx = await createTestContext({ env: { TOTP_REQUIRED: 'admins', TOTP_SECRET_KEY: KEY } });
  staff = await createTestContext({ env: { TOTP_REQUIRED: 'staff', TOTP_SECRET_KEY: KEY } });
  none = await createTestContext({ env: { TOTP_REQUIRED: 'none', TOTP_SECRET_KEY: KEY } });
}, 120_000);
afterAll(() => Promise.all([ctx?.destroy(), staff?.destroy(), none?.destroy()]));

type Login = { token?: string; expiresAt: string; secondFactor?: 'required' | 'enrol'; ticket?: string };
type Finish = { token: string; expiresAt: string; recoveryCodes?: string[] };
type Enrolment = { secret: string; otpauthUrl: string; qrCode: string };

const password = (c: TestContext, username: string, pass = TEST_PASSWORD, ip = '127.0.0.1') =>
  c.app
    .inject({ method: 'POST', url: '/api/admin/user/login', payload: { username, password: pass }, remoteAddress: ip })
    .then((res) => res.json<{ status: number; msg: string; data: Login }>());

const second = (c: TestContext, payload: { ticket: string; code?: string; recoveryCode?: string }, ip = '127.0.0.1') =>
  c.app
    .inject({ method: 'POST', url: '/api/admin/user/login/second-factor', payload, remoteAddress: ip })
    .then((res) => ({ http: res.statusCode, ...res.json<{ status: number; msg: string; data: Finish }>() }));

/** The code an authenticator app shows for `secret`, `offsetMs` from now. */
const codeOf = (secret: string, offsetMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + offsetMs });
/** A six-digit code that is not the current one (nor the one just before or after). */
const wrongCodeFor = (secret: string) => {
  const near = new Set([-30_000, 0, 30_000].map((o) => codeOf(secret, o)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
};

/** Signs in with the password, sets up the app at the enrol step, confirms it; answers the secret, the session and the recovery codes. */
async function enrolAtSignIn(c: TestContext, username: string) {
  const first = await password(c, username);
  expect(first.status).toBe(200);
  expect(first.data.secondFactor).toBe('enrol');
  const ticket = first.data.ticket!;
  const enrolment = await call<Enrolment>(c, 'POST', '/api/admin/user/login/enrol', { payload: { ticket } });
  expect(enrolment.status).toBe(200);
  const done = await second(c, { ticket, code: codeOf(enrolment.data.secret) });
  expect(done.status).toBe(200);
  return { secret: enrolment.data.secret, token: done.data.token, recoveryCodes: done.data.recoveryCodes ?? [] };
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('an admin without a second factor (TOTP_REQUIRED=admins, the default)', () => {
  it('gets no session from the password: the enrol step, a QR code, and with its first code a session and ten recovery codes', async () => {
    const admin = await createUser(ctx, 'admin');
    const first = await password(ctx, admin.username);
    expect(first.status).toBe(200);
    expect(first.data).toEqual({
      secondFactor: 'enrol',
      ticket: expect.stringMatching(/^st_[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
    });
    expect(first.data.token).toBeUndefined();
    // No sign-in is recorded before the second step.
    const records = await ctx.db.selectFrom('loginRecords').select('reason').where('username', '=', admin.username).execute();
    expect(records).toEqual([]);

    const ticket = first.data.ticket!;
    const enrolment = await call<Enrolment>(ctx, 'POST', '/api/admin/user/login/enrol', { payload: { ticket } });
    expect(enrolment.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.data.otpauthUrl).toContain(`otpauth://totp/ClearPlay:${admin.username}?`);
    expect(enrolment.data.qrCode).toMatch(/^data:image\/png;base64,/);

    const wrong = await second(ctx, { ticket, code: wrongCodeFor(enrolment.data.secret) });
    expect(wrong).toMatchObject({ http: 400, status: 400, msg: 'The verification code is wrong' });

    const done = await second(ctx, { ticket, code: codeOf(enrolment.data.secret) });
    expect(done.status).toBe(200);
    expect(done.data.recoveryCodes).toHaveLength(10);
    expect(new Set(done.data.recoveryCodes).size).toBe(10);
    for (const code of done.data.recoveryCodes!) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const info = await call<{ username: string }>(ctx, 'GET', '/api/admin/user/info', { as: bearer(done.data.token) });
    expect(info.data.username).toBe(admin.username);

    // The ticket opened its one session.
    const again = await second(ctx, { ticket, code: codeOf(enrolment.data.secret, 30_000) });
    expect(again.msg).toBe('This sign-in step has expired or was already used, please enter your password again');
    const reasons = await ctx.db.selectFrom('loginRecords').select('reason').where('username', '=', admin.username).orderBy('id').execute();
    expect(reasons.map((r) => r.reason)).toEqual(['bad_code', 'ok']);
  });

  it('keeps the secret and the recovery codes unreadable in the database', async () => {
    const admin = await createUser(ctx, 'admin');
    const { secret, recoveryCodes } = await enrolAtSignIn(ctx, admin.username);
    const row = await ctx.db
      .selectFrom('users')
      .select(['totpSecret', 'totpPendingSecret'])
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(row.totpPendingSecret).toBeNull();
    expect(row.totpSecret).toMatch(/^v1\./);
    expect(row.totpSecret).not.toContain(secret);
    const hashes = await ctx.db.selectFrom('totpRecoveryCodes').select('codeHash').where('userId', '=', admin.id).execute();
    expect(hashes).toHaveLength(10);
    for (const { codeHash } of hashes) {
      expect(codeHash).toMatch(/^\$argon2id\$/);
      for (const code of recoveryCodes) expect(codeHash).not.toContain(code.replace('-', ''));
    }
  });
});

describe('signing in with a second factor', () => {
  let admin: TestUser;
  let secret: string;
  let recoveryCodes: string[];
  beforeAll(async () => {
    admin = await createUser(ctx, 'admin');
    ({ secret, recoveryCodes } = await enrolAtSignIn(ctx, admin.username));
  });

  it('asks for the code after the password; a code works once', async () => {
    const first = await password(ctx, admin.username);
    expect(first.data).toEqual({ secondFactor: 'required', ticket: expect.any(String), expiresAt: expect.any(String) });
    // The enrolment took this 30-second step's code: the next one's is taken (clocks drift).
    const code = codeOf(secret, 30_000);
    const done = await second(ctx, { ticket: first.data.ticket!, code });
    expect(done.status).toBe(200);
    expect(done.data.recoveryCodes).toBeUndefined();
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: bearer(done.data.token) })).status).toBe(200);

    const replay = await password(ctx, admin.username);
    const refused = await second(ctx, { ticket: replay.data.ticket!, code });
    expect(refused.msg).toBe('The verification code is wrong');
  });

  it('takes a recovery code (in any case, with or without its dash) once', async () => {
    const code = recoveryCodes[0]!;
    const first = await password(ctx, admin.username);
    const done = await second(ctx, { ticket: first.data.ticket!, recoveryCode: code.toUpperCase().replace('-', '') });
    expect(done.status).toBe(200);
    const left = await ctx.db
      .selectFrom('totpRecoveryCodes')
      .select('id')
      .where('userId', '=', admin.id)
      .where('usedAt', 'is', null)
      .execute();
    expect(left).toHaveLength(9);

    const again = await password(ctx, admin.username);
    expect((await second(ctx, { ticket: again.data.ticket!, recoveryCode: code })).msg).toBe('The verification code is wrong');
  });

  it('refuses a call with both or neither of code and recovery code, and an unknown ticket', async () => {
    const first = await password(ctx, admin.username);
    const both = await second(ctx, { ticket: first.data.ticket!, code: '123456', recoveryCode: recoveryCodes[1]! });
    expect(both).toMatchObject({ status: 400, msg: 'Give either the verification code or a recovery code' });
    expect((await second(ctx, { ticket: first.data.ticket! })).status).toBe(400);
    const unknown = await second(ctx, { ticket: 'st_unknown', code: '123456' });
    expect(unknown.msg).toBe('This sign-in step has expired or was already used, please enter your password again');
    // the enrol call is for accounts that must set up an app, not for a ticket of step `required`
    const enrol = await call(ctx, 'POST', '/api/admin/user/login/enrol', { payload: { ticket: first.data.ticket } });
    expect(enrol.status).toBe(400);
  });

  it('counts wrong codes towards the lockout of (username, IP), like wrong passwords', async () => {
    const ip = '10.9.9.9';
    const first = await password(ctx, admin.username, TEST_PASSWORD, ip);
    const wrong = wrongCodeFor(secret);
    for (let i = 0; i < 5; i++) expect((await second(ctx, { ticket: first.data.ticket!, code: wrong }, ip)).status).toBe(400);
    const locked = await second(ctx, { ticket: first.data.ticket!, code: codeOf(secret, 30_000) }, ip);
    expect(locked).toMatchObject({ http: 429, status: 429 });
    expect(locked.msg).toMatch(/^Too many failed logins/);
    expect((await password(ctx, admin.username, TEST_PASSWORD, ip)).status).toBe(429);
    // another address is not locked
    expect((await password(ctx, admin.username, TEST_PASSWORD, '10.9.9.10')).status).toBe(200);
  });
});

describe('who must have a second factor', () => {
  it('optional roles sign in with the password as before: the same answer, a token and its end', async () => {
    const inspector = await createUser(ctx, 'inspector');
    const res = await password(ctx, inspector.username);
    expect(res.status).toBe(200);
    expect(Object.keys(res.data).sort()).toEqual(['expiresAt', 'token']);
  });

  it('TOTP_REQUIRED=staff asks every staff role to enrol, not shops; none asks nobody', async () => {
    const inspector = await createUser(staff, 'inspector');
    expect((await password(staff, inspector.username)).data.secondFactor).toBe('enrol');
    const shop = await createUser(staff, 'shop');
    expect((await password(staff, shop.username)).data.token).toEqual(expect.any(String));
    const admin = await createUser(none, 'admin');
    expect((await password(none, admin.username)).data.token).toEqual(expect.any(String));
    const superAdmin = await createUser(none, 'super_admin');
    expect((await password(none, superAdmin.username)).data.token).toEqual(expect.any(String));
  });

  it('the first-start super admin is asked to enrol at first sign-in', async () => {
    const first = await password(ctx, SUPERADMIN_USERNAME, 'Admin12345');
    expect(first.data.secondFactor).toBe('enrol');
  });

  it('demo accounts (and the super admin a demo start creates) are exempt, and their settings say so', async () => {
    const demo = await createTestContext({ env: { TOTP_REQUIRED: 'admins', TOTP_SECRET_KEY: KEY } });
    try {
      // A demo start on an empty database: the seed marks the accounts it creates.
      await demo.db.deleteFrom('users').execute();
      await seed(demo.db, { initAdminPassword: 'Admin12345', demo: true });
      const superAdmin = await password(demo, SUPERADMIN_USERNAME, 'Admin12345');
      expect(superAdmin.data.token).toEqual(expect.any(String));
      const admin01 = await password(demo, 'admin01', 'demo123456');
      expect(admin01.data.token).toEqual(expect.any(String));
      const state = await call(demo, 'GET', '/api/admin/account/second-factor', { as: bearer(admin01.data.token!) });
      expect(state.data).toEqual({ enabled: false, required: false, exempt: true, enabledTime: null, recoveryCodesLeft: 0 });
    } finally {
      await demo.destroy();
    }
  });
});

describe('the user settings', () => {
  it('an optional role turns it on (QR code, confirming code, ten codes) and off again with a code', async () => {
    const inspector = await createUser(ctx, 'inspector');
    const session = await loginWith(ctx, inspector.username, TEST_PASSWORD);
    const off = await call(ctx, 'GET', '/api/admin/account/second-factor', { as: session });
    expect(off.data).toEqual({ enabled: false, required: false, exempt: false, enabledTime: null, recoveryCodesLeft: 0 });

    const enrolment = await call<Enrolment>(ctx, 'POST', '/api/admin/account/second-factor/enrol', { as: session });
    expect(enrolment.data.qrCode).toMatch(/^data:image\/png;base64,/);
    const wrong = await call(ctx, 'POST', '/api/admin/account/second-factor/confirm', {
      as: session,
      payload: { code: wrongCodeFor(enrolment.data.secret) },
    });
    expect(wrong).toMatchObject({ status: 400, msg: 'The verification code is wrong', data: { errors: [{ field: 'code' }] } });
    const confirmed = await call<{ recoveryCodes: string[] }>(ctx, 'POST', '/api/admin/account/second-factor/confirm', {
      as: session,
      payload: { code: codeOf(enrolment.data.secret) },
    });
    expect(confirmed.data.recoveryCodes).toHaveLength(10);
    const on = await call<{ enabled: boolean; recoveryCodesLeft: number }>(ctx, 'GET', '/api/admin/account/second-factor', { as: session });
    expect(on.data).toMatchObject({ enabled: true, required: false, recoveryCodesLeft: 10 });
    // A second set-up is refused while one is on.
    expect((await call(ctx, 'POST', '/api/admin/account/second-factor/enrol', { as: session })).status).toBe(409);

    // Signing in now asks for the code.
    expect((await password(ctx, inspector.username)).data.secondFactor).toBe('required');

    const disabled = await call(ctx, 'POST', '/api/admin/account/second-factor/disable', {
      as: session,
      payload: { code: codeOf(enrolment.data.secret, 30_000) },
    });
    expect(disabled.status).toBe(200);
    expect((await password(ctx, inspector.username)).data.token).toEqual(expect.any(String));
  });

  it('a role that must have it cannot turn it off', async () => {
    const admin = await createUser(ctx, 'admin');
    const { secret, token } = await enrolAtSignIn(ctx, admin.username);
    const state = await call(ctx, 'GET', '/api/admin/account/second-factor', { as: bearer(token) });
    expect(state.data).toMatchObject({ enabled: true, required: true, exempt: false });
    const refused = await call(ctx, 'POST', '/api/admin/account/second-factor/disable', {
      as: bearer(token),
      payload: { code: codeOf(secret, 30_000) },
    });
    expect(refused).toMatchObject({ status: 403, msg: 'Your account must use two-step verification: it cannot be turned off' });
  });
});

describe("a super admin resets another user's second factor", () => {
  it("removes it, ends the user's sessions, logs who did it; the next sign-in asks to enrol again", async () => {
    const boss = await createUser(ctx, 'super_admin');
    const bossSession = await enrolAtSignIn(ctx, boss.username);
    const admin = await createUser(ctx, 'admin');
    const target = await enrolAtSignIn(ctx, admin.username);
    const list = await call<{ list: { username: string; secondFactor: boolean }[] }>(
      ctx,
      'GET',
      `/api/admin/user/list?username=${admin.username}`,
      {
        as: bearer(bossSession.token),
      },
    );
    expect(list.data.list[0]?.secondFactor).toBe(true);

    // an admin (no user management) is refused
    const other = await createUser(ctx, 'admin');
    const otherSession = await enrolAtSignIn(ctx, other.username);
    const refused = await call(ctx, 'POST', '/api/admin/user/resetSecondFactor', {
      as: bearer(otherSession.token),
      payload: { id: admin.id },
    });
    expect(refused.status).toBe(403);

    const reset = await call(ctx, 'POST', '/api/admin/user/resetSecondFactor', {
      as: bearer(bossSession.token),
      payload: { id: admin.id },
    });
    expect(reset.status).toBe(200);
    const ended = await call(ctx, 'GET', '/api/admin/user/info', { as: bearer(target.token) });
    expect(ended).toMatchObject({
      status: Status.TOKEN_REVOKED,
      msg: 'Your two-step verification was reset by a super admin, please log in again',
    });
    expect((await password(ctx, admin.username)).data.secondFactor).toBe('enrol');
    const codes = await ctx.db.selectFrom('totpRecoveryCodes').select('id').where('userId', '=', admin.id).execute();
    expect(codes).toEqual([]);

    await flushLogs(ctx);
    const log = await ctx.db
      .selectFrom('operationLogs')
      .select(['operator', 'content', 'status'])
      .where('action', '=', 'resetSecondFactor')
      .where('status', '=', 1)
      .executeTakeFirstOrThrow();
    expect(log.operator).toBe(boss.username);
    expect(log.content).toBe(`User ${admin.username} (#${admin.id}): two-step verification reset by ${boss.username}, sessions ended`);

    // nothing left to reset; and not one's own
    expect(
      (await call(ctx, 'POST', '/api/admin/user/resetSecondFactor', { as: bearer(bossSession.token), payload: { id: admin.id } })).status,
    ).toBe(400);
    expect(
      (await call(ctx, 'POST', '/api/admin/user/resetSecondFactor', { as: bearer(bossSession.token), payload: { id: boss.id } })).status,
    ).toBe(400);
  });
});

describe('retention (the job calls this, decision 0110)', () => {
  it('removes the sign-in tickets that expired before the cut-off, batch by batch; a live ticket still signs in', async () => {
    const t = 1_000_000_000_000; // before every ticket the other tests write
    const admin = await ctx.db.selectFrom('users').select('id').where('username', '=', SUPERADMIN_USERNAME).executeTakeFirstOrThrow();
    const ends = [t - 2 * DAY_MS, t - 1, t - DAY_MS, t, t + 60_000];
    await ctx.db
      .insertInto('loginTickets')
      .values(
        ends.map((expiresAt, i) => ({
          tokenHash: `retention-${i}`.padEnd(64, '0'),
          userId: admin.id,
          step: 'required' as const,
          remember: 0,
          createdAt: expiresAt - 5 * 60_000,
          expiresAt,
          usedAt: null,
        })),
      )
      .execute();
    const user = await createUser(ctx, 'admin');
    const live = await password(ctx, user.username);
    expect(live.data.secondFactor).toBe('enrol');

    expect(await removeExpiredLoginTickets(ctx.db, t, 2)).toBe(3);
    const left = await ctx.db.selectFrom('loginTickets').select('tokenHash').where('tokenHash', 'like', 'retention-%').execute();
    expect(left.map((r) => r.tokenHash.slice(0, 11)).sort()).toEqual(['retention-3', 'retention-4']);
    expect(await removeExpiredLoginTickets(ctx.db, t, 2)).toBe(0);
    // the ticket of a sign-in in progress is untouched
    const enrolment = await call<Enrolment>(ctx, 'POST', '/api/admin/user/login/enrol', { payload: { ticket: live.data.ticket } });
    expect(enrolment.status, enrolment.msg).toBe(200);
  });
});
