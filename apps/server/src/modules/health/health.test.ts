import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { createTestContext, testDbKind, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

// PostgreSQL only: the server ends the app's idle connections (as a restart or failover does).
describe.runIf(testDbKind() === 'pg')('when PostgreSQL ends idle connections', () => {
  it('keeps serving: the pool replaces them instead of crashing the process', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    if (ctx.config.database.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    // The pool tells of each idle connection it loses (src/db/index.ts): heard through console.warn.
    const warn = vi.spyOn(console, 'warn');
    const admin = new pg.Client({ connectionString: ctx.config.database.url });
    await admin.connect();
    const ended = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await admin.end();
    expect(ended.rowCount).toBeGreaterThan(0);
    // Once the pool has heard of every ended connection, the next query needs a new one.
    const dropped = () => warn.mock.calls.filter(([text]) => String(text).includes('an idle connection was closed')).length;
    await vi.waitFor(() => expect(dropped()).toBe(ended.rowCount), { timeout: 10_000, interval: 20 });
    warn.mockRestore();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toEqual({ status: 200, msg: 'ok', data: { db: 'up' } });
  });
});

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
