/**
 * The rate limits counted in the database (decision 0074), on the configured database (TEST_DB):
 * two app instances, each with its own connection (pool) to one database as two server processes
 * would have, share each per-client limit of the public and tracking calls; a restart forgets
 * nothing; a window ends and the client may call again; clients and routes never share a count;
 * concurrent calls are counted exactly; ended windows are cleaned; a failing store lets calls through.
 */
import { PUBLIC_RATE_LIMITS } from '@clearplay/contract';
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { createDb, type Db } from '../../db/index.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { MINUTE_MS } from '../../lib/time.ts';
import { TRACKING_RATE_MAX } from '../tracking/tracking.routes.ts';
import { countCall, HITS_CAP } from './rate-limit.repository.ts';
import { databaseRateLimit, removeEndedWindows } from './rate-limit.service.ts';

let ctx: TestContext;
/** The second instance: its own pool, the same database. */
let otherDb: Db;
let other: App;
let ipCounter = 0;
/** Each test calls from its own addresses, so no test's counts reach another's. */
const freshIp = () => `10.44.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  ctx = await createTestContext();
  otherDb = createDb(ctx.config.database);
  other = await buildApp({ config: ctx.config, db: otherDb, logger: false });
});
afterAll(async () => {
  await other?.close();
  await otherDb?.destroy();
  await ctx?.destroy();
});
afterEach(() => {
  vi.useRealTimers();
});

const lookup = (app: App, ip: string, lang = 'en-US') =>
  app.inject({
    method: 'GET',
    url: `/api/public/lookup?chatId=wxid_nobody_${ipCounter}`,
    remoteAddress: ip,
    headers: { 'accept-language': lang },
  });
const pageView = (app: App, ip: string, lang = 'en-US') =>
  app.inject({
    method: 'POST',
    url: '/api/visit-stats/create',
    remoteAddress: ip,
    headers: { 'accept-language': lang },
    payload: { path: '/home' },
  });

describe('two instances on one database', () => {
  it('share the look-up limit: the call past it, on either instance, is a 429 with its message and Retry-After', async () => {
    const ip = freshIp();
    const max = PUBLIC_RATE_LIMITS.lookup;
    for (let i = 0; i < max; i++) expect((await lookup(i % 2 === 0 ? ctx.app : other, ip)).statusCode).toBe(200);
    for (const [app, lang, message] of [
      [other, 'zh-CN', /^请求过于频繁，请 \d+ 秒后再试$/],
      [ctx.app, 'en-US', /^Too many requests; try again in \d+ seconds$/],
    ] as const) {
      const over = await lookup(app, ip, lang);
      expect(over.statusCode).toBe(429);
      expect(over.json().status).toBe(429);
      expect(over.json().msg).toMatch(message);
      const seconds = Number(over.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
    }
  });

  it(`share the tracking limit of ${TRACKING_RATE_MAX} a minute, and a new instance (a restart) still refuses`, async () => {
    const ip = freshIp();
    for (let i = 0; i < TRACKING_RATE_MAX; i++) expect((await pageView(i % 2 === 0 ? ctx.app : other, ip)).statusCode).toBe(200);
    const refused = await pageView(ctx.app, ip, 'zh-CN');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toMatch(/^此客户端的统计请求过多，请 \d+ 秒后再试$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const restartedDb = createDb(ctx.config.database);
    const restarted = await buildApp({ config: ctx.config, db: restartedDb, logger: false });
    try {
      const again = await pageView(restarted, ip);
      expect(again.statusCode).toBe(429);
      expect(again.json().msg).toMatch(/^Too many tracking calls from this client; try again in \d+ seconds$/);
    } finally {
      await restarted.close();
      await restartedDb.destroy();
    }
  });

  it('count concurrent calls exactly: of 3 × the limit at once across both, exactly the limit pass', async () => {
    const ip = freshIp();
    const max = PUBLIC_RATE_LIMITS.lookup;
    const answers = await Promise.all(Array.from({ length: 3 * max }, (_, i) => lookup(i % 2 === 0 ? ctx.app : other, ip)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(max);
    expect(codes.filter((c) => c === 429)).toHaveLength(2 * max);
  });
});

describe('windows', () => {
  it('start at the first call and end a window later: Retry-After counts down, then the client may call again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2030-03-01T08:00:00.500Z');
    vi.setSystemTime(start);
    const ip = freshIp();
    const max = PUBLIC_RATE_LIMITS.lookup;
    for (let i = 0; i < max; i++) expect((await lookup(i % 2 === 0 ? ctx.app : other, ip)).statusCode).toBe(200);
    const first = await lookup(ctx.app, ip);
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('60');

    vi.setSystemTime(start + 45_000);
    const later = await lookup(other, ip);
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('15');
    expect(later.json().msg).toBe('Too many requests; try again in 15 seconds');

    vi.setSystemTime(start + MINUTE_MS);
    expect((await lookup(other, ip)).statusCode).toBe(200);
    // A new window, counted from that call, across both instances again.
    for (let i = 1; i < max; i++) expect((await lookup(i % 2 === 0 ? ctx.app : other, ip)).statusCode).toBe(200);
    expect((await lookup(ctx.app, ip)).statusCode).toBe(429);
  });

  it('are per client and per route: one client over one limit holds up no other client and no other route', async () => {
    const ip = freshIp();
    for (let i = 0; i < PUBLIC_RATE_LIMITS.lookup; i++) await lookup(ctx.app, ip);
    expect((await lookup(other, ip)).statusCode).toBe(429);
    expect((await lookup(other, freshIp())).statusCode).toBe(200);
    expect((await other.inject({ method: 'GET', url: '/api/public/figures', remoteAddress: ip })).statusCode).toBe(200);
    expect((await pageView(other, ip)).statusCode).toBe(200);
    const rows = await ctx.db.selectFrom('rateLimits').select(['bucket', 'hits']).where('clientKey', '=', ip).orderBy('bucket').execute();
    expect(rows.map((r) => [r.bucket, Number(r.hits)])).toEqual([
      ['GET /api/public/figures', 1],
      ['GET /api/public/lookup', PUBLIC_RATE_LIMITS.lookup + 1],
      ['POST /api/visit-stats/create', 1],
    ]);
  });

  it('count in one statement per call: the count and what is left of the window, per bucket and client', async () => {
    const t = 1_900_000_000_000;
    expect(await countCall(ctx.db, 'test:a', 'k1', 10_000, t)).toEqual({ current: 1, ttl: 10_000 });
    expect(await countCall(otherDb, 'test:a', 'k1', 10_000, t + 2_500)).toEqual({ current: 2, ttl: 7_500 });
    expect(await countCall(ctx.db, 'test:a', 'k1', 10_000, t + 9_999)).toEqual({ current: 3, ttl: 1 });
    // Another bucket, another client, a key differing only in case: each its own count.
    expect(await countCall(ctx.db, 'test:b', 'k1', 10_000, t + 9_999)).toEqual({ current: 1, ttl: 10_000 });
    expect(await countCall(ctx.db, 'test:a', 'k2', 10_000, t + 9_999)).toEqual({ current: 1, ttl: 10_000 });
    expect(await countCall(ctx.db, 'test:a', 'K1', 10_000, t + 9_999)).toEqual({ current: 1, ttl: 10_000 });
    // At its end the window starts again.
    expect(await countCall(otherDb, 'test:a', 'k1', 10_000, t + 10_000)).toEqual({ current: 1, ttl: 10_000 });
    expect(await countCall(ctx.db, 'test:a', 'k1', 10_000, t + 10_001)).toEqual({ current: 2, ttl: 9_999 });
    await expect(countCall(ctx.db, 'test:a', 'k1', 0, t)).rejects.toThrow(/window/);
  });

  it('keep counting far past any limit (MySQL stops at the cap, the others go on)', async () => {
    const t = 1_900_000_000_000;
    await ctx.db
      .insertInto('rateLimits')
      .values({ bucket: 'test:cap', clientKey: 'k', resetAt: t + 5_000, hits: HITS_CAP + 5 })
      .execute();
    const counted = await countCall(ctx.db, 'test:cap', 'k', 60_000, t);
    expect(counted.ttl).toBe(5_000);
    expect(counted.current).toBeGreaterThanOrEqual(HITS_CAP);
  });
});

describe('cleaning', () => {
  it('removes the windows that ended, batch by batch, and keeps those in progress', async () => {
    // Before every window the other tests leave, so only these end before it.
    const t = 1_000_000_000_000;
    const ends = [t - 3 * MINUTE_MS, t - MINUTE_MS, t - MINUTE_MS, t - 1, t, t + 1];
    await ctx.db
      .insertInto('rateLimits')
      .values(ends.map((resetAt, i) => ({ bucket: 'test:clean', clientKey: `c${i}`, resetAt, hits: 1 })))
      .execute();
    expect(await removeEndedWindows(ctx.db, t, 1)).toBe(4);
    const left = await ctx.db
      .selectFrom('rateLimits')
      .select('clientKey')
      .where('bucket', '=', 'test:clean')
      .orderBy('clientKey')
      .execute();
    expect(left.map((r) => r.clientKey)).toEqual(['c4', 'c5']);
    expect(await removeEndedWindows(ctx.db, t, 10)).toBe(0);
  });
});

describe('a failing store', () => {
  it('lets the calls through (fail open) and logs the failure once a minute, not once a call', async () => {
    // A pool that was open and is closed: every query fails, as when the database goes away.
    const deadDb = createDb(ctx.config.database);
    await deadDb.selectFrom('rateLimits').select('bucket').limit(1).execute();
    await deadDb.destroy();
    const logged: unknown[][] = [];
    const app = Fastify({ logger: false });
    await app.register(
      rateLimit,
      databaseRateLimit({ db: deadDb, log: { error: (...args: unknown[]) => void logged.push(args) } }, () => new Error('never over')),
    );
    app.get('/limited', { config: { rateLimit: { max: 1, timeWindow: MINUTE_MS } } }, async () => 'ok');
    try {
      for (let i = 0; i < 4; i++) {
        const res = await app.inject({ method: 'GET', url: '/limited' });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.body).toBe('ok');
      }
      expect(logged).toHaveLength(1);
      expect(logged[0]![1]).toMatch(/fail open/);
      expect(logged[0]![0]).toMatchObject({ bucket: 'GET /limited', unloggedSinceLast: 0 });
    } finally {
      await app.close();
    }
  });
});
