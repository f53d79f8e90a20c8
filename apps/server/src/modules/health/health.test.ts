import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

describe('GET /api/health', () => {
  it('answers db up without a token', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200, msg: 'ok', data: { db: 'up' } });
  });

  it('answers 503 db down once the database is gone, and keeps serving', async () => {
    await ctx.destroyDb();
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 503, msg: 'The database is unavailable', data: { db: 'down' } });
    }
  });
});
