import type { AccountProfile, ActiveSession, LedgerPage, LoginHistoryPage } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestContext,
  fieldOf,
  loginAs,
  loginWith,
  TEST_PASSWORD,
  uploadImage,
  type LoggedIn,
  type TestContext,
} from '../../test/context.ts';
import { pngBytes } from '../uploads/host/test-support.ts';

/**
 * The signed-in user's own account through HTTP: profile and its edits (nickname,
 * chat ID, phone, avatar, language), the password change that ends every other session but
 * this one, own sign-ins and sessions, "sign out other sessions", a shop's own ledger.
 */

let ctx: TestContext;
let admin: LoggedIn;
let shop: LoggedIn;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  shop = await loginAs(ctx, 'shop');
});
afterAll(() => ctx?.destroy());

const as = (headers: { authorization: string }) => ({ headers });

describe('the profile', () => {
  it('answers my own profile; a shop sees its balance and subscription, staff none', async () => {
    const mine = await call<AccountProfile>(ctx, 'GET', '/api/admin/account/profile', { as: shop });
    expect(mine.status).toBe(200);
    expect(mine.data).toMatchObject({ id: shop.id, username: shop.username, roleName: 'shop', locale: null });
    expect(mine.data.shop).toEqual({ balance: 0, serviceEndDate: null, subscriptionState: 'none' });
    expect(mine.data.loginTime).not.toBeNull();
    expect((await call<AccountProfile>(ctx, 'GET', '/api/admin/account/profile', { as: admin })).data.shop).toBeNull();
  });

  it('edits my nickname, chat ID, phone, avatar and language, and nothing of anyone else', async () => {
    const before = await ctx.db.selectFrom('users').select(['nickname']).where('id', '=', admin.id).executeTakeFirstOrThrow();
    const picture = await uploadImage(ctx, shop, 'avatar', pngBytes(3000));
    const res = await call<AccountProfile>(ctx, 'POST', '/api/admin/account/profile', {
      as: shop,
      payload: { nickname: ' 新名字 ', wechat: 'wx_new', phone: '13900000000', avatar: picture.url, locale: 'en-US' },
    });
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toMatchObject({
      nickname: '新名字',
      wechat: 'wx_new',
      phone: '13900000000',
      avatar: picture.url,
      locale: 'en-US',
    });
    // The session's user shows it at once (the navbar reads user info).
    const info = await call<{ nickname: string; avatar: string }>(ctx, 'GET', '/api/admin/user/info', { as: shop });
    expect(info.data).toMatchObject({ nickname: '新名字', avatar: picture.url });
    expect((await ctx.db.selectFrom('users').select(['nickname']).where('id', '=', admin.id).executeTakeFirstOrThrow()).nickname).toBe(
      before.nickname,
    );
    // An id in the body is dropped (unknown fields are stripped): the call still edits only me.
    const sneaky = await call<AccountProfile>(ctx, 'POST', '/api/admin/account/profile', {
      as: shop,
      payload: { id: admin.id, nickname: 'x', wechat: 'w', phone: '1' },
    });
    expect(sneaky.data).toMatchObject({ id: shop.id, nickname: 'x' });
    expect((await ctx.db.selectFrom('users').select(['nickname']).where('id', '=', admin.id).executeTakeFirstOrThrow()).nickname).toBe(
      before.nickname,
    );
    const empty = await call(ctx, 'POST', '/api/admin/account/profile', { as: shop, payload: { nickname: ' ', wechat: 'w', phone: '1' } });
    expect(empty.http).toBe(400);
    expect(empty.msg).toContain('nickname');
    expect(
      (
        await call(ctx, 'POST', '/api/admin/account/profile', {
          as: shop,
          payload: { nickname: 'a', wechat: 'w', phone: '1', locale: 'fr' },
        })
      ).http,
    ).toBe(400);
  });
});

/**
 * The first-start super admin and the demo inspectors have no chat ID and no phone, and could
 * not change their nickname or language without inventing them (decision 0084: the spec's rule
 * is the user-management form's; my own settings need only a nickname).
 */
describe('my settings without a chat ID or a phone', () => {
  it('the first-start super admin saves a new nickname and language with neither', async () => {
    const superAdmin = await loginWith(ctx, 'superadmin', 'Admin12345');
    const before = await call<AccountProfile>(ctx, 'GET', '/api/admin/account/profile', { as: superAdmin });
    expect(before.data).toMatchObject({ wechat: '', phone: '' });
    const res = await call<AccountProfile>(ctx, 'POST', '/api/admin/account/profile', {
      as: superAdmin,
      payload: { nickname: '站长', wechat: '', phone: '', locale: 'en-US' },
    });
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toMatchObject({ nickname: '站长', wechat: '', phone: '', locale: 'en-US' });
  });

  it('an inspector clears them, or leaves them out and keeps them; a phone given is still checked', async () => {
    const me = await loginAs(ctx, 'inspector');
    const save = (payload: object) => call<AccountProfile>(ctx, 'POST', '/api/admin/account/profile', { as: me, payload });
    expect((await save({ nickname: 'a', wechat: 'wx_a', phone: '13900000000' })).data).toMatchObject({
      wechat: 'wx_a',
      phone: '13900000000',
    });
    const kept = await save({ nickname: 'b' });
    expect(kept.status, kept.msg).toBe(200);
    expect(kept.data).toMatchObject({ nickname: 'b', wechat: 'wx_a', phone: '13900000000' });
    expect((await save({ nickname: 'c', wechat: ' ', phone: '' })).data).toMatchObject({ nickname: 'c', wechat: '', phone: '' });
    const bad = await call(ctx, 'POST', '/api/admin/account/profile', {
      as: me,
      payload: { nickname: 'd', phone: 'call me' },
      headers: { 'accept-language': 'en-US' },
    });
    expect(bad.http).toBe(400);
    expect(fieldOf(bad.data)).toBe('phone');
  });
});

describe('my avatar', () => {
  const setAvatar = (as: LoggedIn, avatar: string, locale = 'en-US') =>
    call<AccountProfile>(ctx, 'POST', '/api/admin/account/avatar', { as, payload: { avatar }, headers: { 'accept-language': locale } });

  it('is set from my own avatar upload, shown in user info, replaced, and removed with an empty value', async () => {
    const me = await loginAs(ctx, 'inspector');
    const first = await uploadImage(ctx, me, 'avatar', pngBytes(4000, 1));
    expect(first.url).toMatch(new RegExp(`^/upload/files/avatar/${me.id}/[0-9a-f]{32}$`));
    const set = await setAvatar(me, first.url);
    expect(set.status, set.msg).toBe(200);
    expect(set.data).toMatchObject({ id: me.id, avatar: first.url });
    expect((await call<{ avatar: string }>(ctx, 'GET', '/api/admin/user/info', { as: me })).data.avatar).toBe(first.url);
    // the file is served where the URL says
    const served = await ctx.app.inject({ method: 'GET', url: first.url });
    expect(served.statusCode).toBe(200);

    const second = await uploadImage(ctx, me, 'avatar', pngBytes(4000, 2));
    expect((await setAvatar(me, second.url)).data.avatar).toBe(second.url);
    const removed = await setAvatar(me, '');
    expect(removed.status, removed.msg).toBe(200);
    expect((await call<{ avatar: string }>(ctx, 'GET', '/api/admin/user/info', { as: me })).data.avatar).toBe('');
  });

  it('refuses, naming the field in both languages, anything but my own stored avatar upload', async () => {
    const me = await loginAs(ctx, 'admin');
    const mine = await uploadImage(ctx, me, 'avatar', pngBytes(3000, 3));
    const theirs = await uploadImage(ctx, shop, 'avatar', pngBytes(3000, 4));
    const evidence = await uploadImage(ctx, me, 'cert', pngBytes(3000, 5));
    const notUploaded = mine.url.replace(/[0-9a-f]{32}$/, '0'.repeat(32));
    for (const bad of [
      'https://tracker.example/pixel.png',
      theirs.url,
      evidence.url,
      `${mine.url}/../x`,
      mine.key,
      'javascript:alert(1)',
    ]) {
      const res = await setAvatar(me, bad);
      expect(res.http, bad).toBe(400);
      expect(res.msg).toBe('The avatar must be an image you uploaded as your own avatar');
      expect((res.data as unknown as { errors: { field: string }[] }).errors[0]!.field).toBe('avatar');
    }
    const zh = await setAvatar(me, theirs.url, 'zh-CN');
    expect(zh.msg).toBe('头像必须是你本人上传的头像图片');
    const missing = await setAvatar(me, notUploaded);
    expect([missing.http, missing.msg]).toEqual([400, 'The avatar image was not found: upload it again']);
    expect((await setAvatar(me, notUploaded, 'zh-CN')).msg).toBe('找不到头像图片，请重新上传');
    // the profile edit checks the same way
    const viaProfile = await call(ctx, 'POST', '/api/admin/account/profile', {
      as: me,
      payload: { nickname: 'a', wechat: 'w', phone: '1', avatar: theirs.url },
    });
    expect(viaProfile.http).toBe(400);
    expect((await call<{ avatar: string }>(ctx, 'GET', '/api/admin/user/info', { as: me })).data.avatar).toBe('');
    // and it needs a sign-in
    expect((await call(ctx, 'POST', '/api/admin/account/avatar', { payload: { avatar: '' } })).http).toBe(401);
  });
});

describe('changing my password', () => {
  it('needs the current one, ends every other session of mine and keeps this one', async () => {
    const me = await loginAs(ctx, 'inspector');
    const other = await loginWith(ctx, me.username, TEST_PASSWORD);
    const third = await loginWith(ctx, me.username, TEST_PASSWORD);
    const bystander = await loginAs(ctx, 'inspector');

    const wrong = await call(ctx, 'POST', '/api/admin/account/password', {
      as: me,
      payload: { oldPassword: 'nope-nope', newPassword: 'NewPass#1' },
    });
    expect(wrong.http).toBe(400);
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: as(other.headers) })).status).toBe(200);
    expect(
      (await call(ctx, 'POST', '/api/admin/account/password', { as: me, payload: { oldPassword: TEST_PASSWORD, newPassword: '12345' } }))
        .http,
    ).toBe(400);

    const res = await call<{ sessionsEnded: number }>(ctx, 'POST', '/api/admin/account/password', {
      as: me,
      payload: { oldPassword: TEST_PASSWORD, newPassword: 'NewPass#1' },
    });
    expect(res.status, res.msg).toBe(200);
    expect(res.data.sessionsEnded).toBe(2);
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: me })).status).toBe(200);
    for (const ended of [other, third])
      expect((await call(ctx, 'GET', '/api/admin/user/info', { as: as(ended.headers) })).status).toBe(50012);
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: bystander })).status).toBe(200);
    // The new password signs in; the old one no longer does.
    await expect(loginWith(ctx, me.username, TEST_PASSWORD)).rejects.toThrow();
    await loginWith(ctx, me.username, 'NewPass#1');
  });
});

describe('my sign-ins and sessions', () => {
  it('lists only my own sign-ins and live sessions, and signs out the others', async () => {
    const me = await loginAs(ctx, 'shop');
    const second = await loginWith(ctx, me.username, TEST_PASSWORD);
    await ctx.app.inject({ method: 'POST', url: '/api/admin/user/login', payload: { username: me.username, password: 'wrong-one' } });
    const logins = await call<LoginHistoryPage>(ctx, 'GET', '/api/admin/account/logins?pageSize=10', { as: me });
    expect(logins.data.total).toBe(3);
    expect(logins.data.list.map((l) => l.success)).toEqual([false, true, true]);

    const sessions = await call<ActiveSession[]>(ctx, 'GET', '/api/admin/account/sessions', { as: me });
    expect(sessions.data).toHaveLength(2);
    expect(sessions.data.filter((s) => s.current)).toHaveLength(1);

    const ended = await call<{ ended: number }>(ctx, 'POST', '/api/admin/account/sessions/end-others', { as: me });
    expect(ended.data.ended).toBe(1);
    expect((await call(ctx, 'GET', '/api/admin/user/info', { as: as(second.headers) })).status).toBe(50012);
    expect((await call<ActiveSession[]>(ctx, 'GET', '/api/admin/account/sessions', { as: me })).data).toHaveLength(1);
  });

  it('shows a shop its own ledger, read-only; staff have none', async () => {
    const boss = await loginAs(ctx, 'super_admin');
    await call(ctx, 'POST', '/api/admin/user/recharge', { as: boss, payload: { userId: shop.id, amount: 5000 } });
    const ledger = await call<LedgerPage>(ctx, 'GET', '/api/admin/account/ledger', { as: shop });
    expect(ledger.status, ledger.msg).toBe(200);
    expect(ledger.data.balance).toBe(5000);
    expect(ledger.data.list.every((e) => e.userId === shop.id)).toBe(true);
    expect((await call(ctx, 'GET', '/api/admin/account/ledger', { as: admin })).http).toBe(404);
    // …while the staff ledger route stays closed to a shop.
    expect((await call(ctx, 'GET', `/api/admin/user/ledger?userId=${shop.id}`, { as: shop })).http).toBe(403);
  });
});
