/**
 * Bad input the contract's schemas let through or Fastify answers itself, found by the
 * generated fuzzing (src/reliability/fuzz.test.ts, decision 0102): every one a clear 400 in the
 * envelope on every database, where they were 500s or Fastify's own body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../test/context.ts';

let ctx: TestContext;
let admin: LoggedIn;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'super_admin');
});
afterAll(async () => {
  await ctx.destroy();
});

describe('numbers in a query string are finite', () => {
  it.each([
    ['/api/admin/dict/type/list?pageSize=Infinity', 'pageSize'],
    ['/api/admin/order/list?page=1e400', 'page'],
    ['/api/admin/order/detail?id=Infinity', 'id'],
    ['/api/admin/order/detail?id=-Infinity', 'id'],
  ])('%s is refused naming %s (was LIMIT Infinity, a 500, or past the maximum)', async (url, field) => {
    const res = await call(ctx, 'GET', url, { as: admin });
    expect(res.http).toBe(400);
    expect(res.msg).toBe(`${field}: must be a finite number`);
    expect(res.data).toEqual({ errors: [{ field, message: 'must be a finite number' }] });
  });
});

describe('no text carries NUL (PostgreSQL refuses it: a 500 there, stored elsewhere)', () => {
  it.each([
    ['/api/admin/order/export?objWechat=%00', 'objWechat'],
    ['/api/admin/order/list?objWechat=a%00b', 'objWechat'],
    ['/api/public/lookup?chatId=%00', 'chatId'],
    ['/api/admin/dict/data/a%00b', 'type'],
  ])('GET %s is refused naming %s', async (url, field) => {
    const res = await call(ctx, 'GET', url, { as: admin });
    expect(res.http).toBe(400);
    expect(res.msg).toBe(`${field}: must not contain the NUL character`);
  });

  it('refuses a body field with NUL and stores nothing', async () => {
    const before = await ctx.db
      .selectFrom('announcements')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await call(ctx, 'POST', '/api/admin/announcement/add', {
      as: admin,
      payload: { title: 'a\u0000b', type: 'notice', content: 'x' },
    });
    expect(res.http).toBe(400);
    expect(res.data).toEqual({ errors: [{ field: 'title', message: 'must not contain the NUL character' }] });
    const after = await ctx.db
      .selectFrom('announcements')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('a URL whose percent-encoding is not UTF-8', () => {
  it.each(['/api/admin/dict/data/%FF', '/api/admin/dict/data/%ED%A0%80', '/api/admin/dict/type/%zz'])(
    '%s answers the envelope',
    async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { ...admin.headers, 'accept-language': 'en-US' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: 400, msg: 'The request address is not valid (its percent-encoding is not UTF-8)', data: null });
    },
  );

  it("answers the provider's error under the upload host, and text elsewhere", async () => {
    const upload = await ctx.app.inject({ method: 'GET', url: '/upload/files/%ED%A0%80' });
    expect(upload.statusCode).toBe(400);
    expect(upload.json()).toEqual({ error: 'invalid URL' });
    const page = await ctx.app.inject({ method: 'GET', url: '/orders/%FF' });
    expect(page.statusCode).toBe(400);
    expect(page.body).toBe('Bad request');
  });
});
