import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { migrations } from '../../db/migrate.ts';
import { createTestContext, testDbKind, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

// PostgreSQL only: the server ends the app's idle connections (as a restart or failover does).
// Registered only on PostgreSQL, so the other databases' runs show no skipped test.
if (testDbKind() === 'pg')
  describe('when PostgreSQL ends idle connections', () => {
    it('keeps serving: the pool replaces them instead of crashing the process', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      if (ctx.config.database.dialect !== 'postgres') throw new Error('expected PostgreSQL');
      // The pool tells of each idle connection it loses (src/db/index.ts): heard through console.warn.
      const warn = vi.spyOn(console, 'warn');
      try {
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
      } finally {
        // Put back even when the wait fails: the files after this one run in the same process.
        warn.mockRestore();
      }
      const res = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.json()).toEqual({ status: 200, msg: 'ok', data: { db: 'up', migrations: 'done' } });
    });
  });

describe('GET /api/health and GET /api/ready', () => {
  it('answers alive and ready without a token', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 200, msg: 'ok', data: { uptimeSeconds: expect.any(Number) } });
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 200, msg: 'ok', data: { db: 'up', migrations: 'done' } });
  });

  it('is not ready while a migration of this build has not run', async () => {
    const last = Object.keys(migrations).at(-1)!;
    const row = await ctx.db
      .withoutPlugins()
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .where('name' as never, '=', last as never)
      .executeTakeFirstOrThrow();
    await ctx.db
      .withoutPlugins()
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', last as never)
      .execute();
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/ready', headers: { 'accept-language': 'en-US' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 503,
        msg: 'The database is not up to date: migrations have not run yet',
        data: { db: 'up', migrations: 'pending' },
      });
    } finally {
      await ctx.db
        .withoutPlugins()
        .insertInto('kysely_migration' as never)
        .values(row as never)
        .execute();
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('answers 503 not ready once the database is gone, and stays alive', async () => {
    await ctx.destroyDb();
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 503, msg: 'The database is unavailable', data: { db: 'down', migrations: 'unknown' } });
    }
    const zh = await ctx.app.inject({ method: 'GET', url: '/api/ready', headers: { 'accept-language': 'zh-CN' } });
    expect(zh.json<{ msg: string }>().msg).toBe('数据库不可用');
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});
