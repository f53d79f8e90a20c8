import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AccountProfile, OrderItem, UnreadCounts } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContextWithUsers, flushLogs, loginAs, uploadImage, type LoggedIn, type TestContext } from '../../test/context.ts';
import { orderBody } from '../../test/orders.ts';
import { insertReturningId } from '../../db/dialect.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, nowMs } from '../../lib/time.ts';
import { countLogs, recordOperation } from '../logs/logs.service.ts';
import { recordEvent, recordPageView, visitOverview } from '../tracking/tracking.service.ts';
import { pngBytes } from '../uploads/host/test-support.ts';
import { localBlobSweepStore } from '../uploads/uploads.service.ts';
import { analyze, planOf } from '../../test/plans.ts';
import { insertMessages, oldReadMessagesQuery } from '../messages/messages.repository.ts';
import { retentionJob, runRetention, uploadRetentionJob } from './retention.ts';
import { tellLog } from '../../lib/log-text.ts';

/**
 * The retention job on the configured database (TEST_DB): it removes exactly the expired
 * sessions, the old login records and operation logs (with their daily counters) and the
 * evidence images no order names, keeps everything else, and logs what it removed.
 */

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('retention', () => {
  let ctx: TestContext;
  let dataDir: string;
  let inspector: LoggedIn;
  let shop: LoggedIn;
  let admin: LoggedIn;
  const now = nowMs();

  const filePath = (key: string) => join(dataDir, 'uploads', 'files', key);
  async function storeFile(key: string, ageMs: number): Promise<void> {
    const path = filePath(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, pngBytes(200, 1));
    await age(key, ageMs);
  }
  async function age(key: string, ageMs: number): Promise<void> {
    const at = new Date(now - ageMs);
    await utimes(filePath(key), at, at);
  }
  const key = (n: number) => `evidence/cert/202601/${n.toString(16).padStart(32, '0')}`;

  async function createOrder(images: { certImages?: string; proofImages?: string; personCertImages?: string }): Promise<OrderItem> {
    const created = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: inspector,
      payload: orderBody(
        { userId: shop.id, inspectorId: inspector.id, amount: 0 },
        { certImages: '', proofImages: '', personCertImages: '', ...images },
      ),
    });
    expect(created.status, created.msg).toBe(200);
    return created.data;
  }

  async function addSession(expiresAt: number, token: string): Promise<void> {
    await ctx.db
      .insertInto('sessions')
      .values({
        tokenHash: token.padEnd(64, '0'),
        userId: shop.id,
        createdAt: expiresAt - HOUR_MS,
        expiresAt,
        lastSeenAt: expiresAt - HOUR_MS,
        ip: '127.0.0.1',
        userAgent: 'test',
      })
      .execute();
  }

  async function addTicket(expiresAt: number, token: string): Promise<void> {
    await ctx.db
      .insertInto('loginTickets')
      .values({
        tokenHash: token.padEnd(64, '0'),
        userId: admin.id,
        step: 'required',
        remember: 0,
        createdAt: expiresAt - 5 * 60_000,
        expiresAt,
        usedAt: null,
      })
      .execute();
  }

  async function addLoginRecord(createdAt: number, username: string): Promise<number> {
    return insertReturningId(ctx.db, 'loginRecords', {
      username,
      userId: null,
      ip: '127.0.0.1',
      userAgent: 'test',
      success: 1,
      reason: 'ok',
      createdAt,
    });
  }

  async function addLog(createdAt: number, action: string): Promise<void> {
    await recordOperation(ctx.db, {
      module: 'retention-test',
      action,
      content: action,
      operator: 'tester',
      operatorId: null,
      status: 1,
      ip: '',
      method: 'POST',
      path: '/x',
      durationMs: 1,
      errorMsg: '',
      userAgent: '',
      payload: '',
      createdAt,
    });
  }

  /** Every daily counter equals the number of rows it counts. */
  async function countersMatchRows(): Promise<void> {
    const rows = await ctx.db.selectFrom('operationLogs').select(['module', 'action', 'status', 'createdAt']).execute();
    const expected = new Map<string, number>();
    for (const r of rows) {
      const id = `${r.module}|${r.action}|${r.status}|${Math.floor(Number(r.createdAt) / DAY_MS) * DAY_MS}`;
      expected.set(id, (expected.get(id) ?? 0) + 1);
    }
    const counters = await ctx.db.selectFrom('operationLogDaily').selectAll().execute();
    const actual = new Map(counters.map((c) => [`${c.module}|${c.action}|${c.status}|${Number(c.day)}`, Number(c.n)]));
    expect(actual).toEqual(expected);
  }

  beforeAll(async () => {
    ({
      ctx,
      users: { inspector, shop, admin },
    } = await createTestContextWithUsers({ inspector: 'inspector', shop: 'shop', admin: 'admin' }, { ownDataDir: true }));
    dataDir = ctx.dataDir;
  });
  afterAll(() => ctx?.destroy());

  it('removes exactly what is past its time, in batches, and keeps the rest', async () => {
    // Sessions: expired two days ago (goes), expired an hour ago (kept a day), still valid.
    await addSession(now - 2 * DAY_MS, 'a1');
    await addSession(now - 3 * DAY_MS, 'a2');
    await addSession(now - HOUR_MS, 'b1');
    await addSession(now + DAY_MS, 'c1');
    const sessionsBefore = await ctx.db.selectFrom('sessions').select('tokenHash').execute();
    // Sign-in tickets of two-step verification, written in time order: expired three and two days
    // ago (go), an hour ago (kept a day, like a session), still valid.
    await addTicket(now - 3 * DAY_MS, 't1');
    await addTicket(now - 2 * DAY_MS, 't2');
    await addTicket(now - HOUR_MS, 't3');
    await addTicket(now + 60_000, 't4');

    // Login records and operation logs: 181 days old go, 179 days old stay.
    const oldRecords = [];
    for (let i = 0; i < 5; i++) oldRecords.push(await addLoginRecord(now - 181 * DAY_MS - i * DAY_MS, `old${i}`));
    const keptRecord = await addLoginRecord(now - 179 * DAY_MS, 'recent');
    for (let i = 0; i < 5; i++) await addLog(now - 181 * DAY_MS - i * HOUR_MS, i % 2 === 0 ? 'old-even' : 'old-odd');
    await addLog(now - 179 * DAY_MS, 'recent');
    await countersMatchRows();

    // Page views and client events: 181 days old go, 179 days old stay; their day counters stay.
    const visitor = { userId: null, ip: '10.0.0.1', userAgent: 'test' };
    for (let i = 0; i < 3; i++) await recordPageView(ctx.db, { path: '/home' }, visitor, now - 181 * DAY_MS - i * HOUR_MS);
    await recordPageView(ctx.db, { path: '/home' }, visitor, now - 179 * DAY_MS);
    for (let i = 0; i < 3; i++) await recordEvent(ctx.db, { event: 'retention.test' }, visitor, now - 181 * DAY_MS - i * HOUR_MS);
    await recordEvent(ctx.db, { event: 'retention.test' }, visitor, now - 179 * DAY_MS);
    const visitCounters = async () => ({
      pv: await ctx.db.selectFrom('visitDaily').select(['day', 'pv', 'uv']).orderBy('day').execute(),
      events: await ctx.db.selectFrom('eventDaily').selectAll().orderBy('day').execute(),
      pastOverview: await visitOverview(ctx.db, now - 170 * DAY_MS),
    });
    const countersBefore = await visitCounters();
    expect(countersBefore.pastOverview.topPages).toEqual([{ name: '/home', count: 4 }]);

    // Rate-limit windows (decision 0074): those that ended go (three: more than one batch), the one in progress stays.
    const windows = [now - 1, now - MINUTE_MS, now - DAY_MS, now + 1].map((resetAt, i) => ({
      bucket: 'GET /api/public/lookup',
      clientKey: `10.9.9.${i}`,
      resetAt,
      hits: 3,
    }));
    await ctx.db.insertInto('rateLimits').values(windows).execute();

    // Idempotency keys (decision 0109): those past their 24 h go (three: more than one batch), a live one stays.
    await ctx.db
      .insertInto('idempotencyKeys')
      .values(
        [now - 1, now - HOUR_MS, now - DAY_MS, now + HOUR_MS].map((expiresAt, i) => ({
          userId: inspector.id,
          scope: 'order.create',
          idemKey: `retention-key-${i}`,
          fingerprint: '0'.repeat(64),
          status: 200,
          answer: '{}',
          createdAt: expiresAt - DAY_MS,
          expiresAt,
        })),
      )
      .execute();

    // Uploads: one uploaded for real through the embedded host and never used; others on disk.
    const abandoned = (await uploadImage(ctx, inspector, 'proof', pngBytes(300, 2))).key;
    await age(abandoned, 25 * HOUR_MS);

    await storeFile(key(1), 30 * DAY_MS); // named by an order as a path
    await storeFile(key(2), 30 * DAY_MS); // named by an order as an absolute URL on this host
    await storeFile(key(3), 25 * HOUR_MS); // named by nothing: goes
    await storeFile(key(4), 23 * HOUR_MS); // named by nothing, but young: stays
    await storeFile(key(5), 30 * DAY_MS); // named by an order that is then deleted: goes
    await storeFile(key(6), 30 * DAY_MS); // named in an order's person images, with a query string
    await storeFile('avatars/someone.png', 30 * DAY_MS); // not evidence: never swept
    await createOrder({ certImages: `/upload/files/${key(1)}`, proofImages: `http://shop.example:3000/upload/files/${key(2)}` });
    await createOrder({ personCertImages: `https://elsewhere.example/a.png,/upload/files/${key(6)}?v=2` });
    const doomed = await createOrder({ certImages: `/upload/files/${key(5)}` });
    const deleted = await call(ctx, 'POST', '/api/admin/order/delete', { as: admin, payload: { ids: [doomed.id] } });
    expect(deleted.status, deleted.msg).toBe(200);

    await flushLogs(ctx);
    const logsBefore = await countLogs(ctx.db, {});
    const report = await runRetention(ctx.db, {
      days: 180,
      uploadGraceHours: 24,
      blobs: localBlobSweepStore(dataDir),
      now: () => now,
      batchSize: 2,
    });

    expect(report).toMatchObject({
      sessions: 2,
      loginTickets: 2,
      rateLimits: 3,
      loginRecords: 5,
      operationLogs: 5,
      pageViews: 3,
      clientEvents: 3,
      uploads: 3,
      aborted: false,
    });
    const views = await ctx.db.selectFrom('pageViews').select('createdAt').execute();
    expect(views.map((v) => Number(v.createdAt))).toEqual([now - 179 * DAY_MS]);
    const events = await ctx.db.selectFrom('clientEvents').select('createdAt').execute();
    expect(events.map((v) => Number(v.createdAt))).toEqual([now - 179 * DAY_MS]);
    expect(await visitCounters()).toEqual(countersBefore);
    expect(report.uploadKeys.sort()).toEqual([abandoned, key(3), key(5)].sort());

    const sessionsAfter = (await ctx.db.selectFrom('sessions').select('tokenHash').execute()).map((s) => s.tokenHash).sort();
    const expectedSessions = sessionsBefore
      .map((s) => s.tokenHash)
      // the two expired ones by their whole value: a real session's hash may start with 'a1' or 'a2' too
      .filter((t) => t !== 'a1'.padEnd(64, '0') && t !== 'a2'.padEnd(64, '0'))
      .sort();
    expect(sessionsAfter).toEqual(expectedSessions);
    expect(sessionsAfter).toContain('b1'.padEnd(64, '0'));
    expect(sessionsAfter).toContain('c1'.padEnd(64, '0'));

    const tickets = (await ctx.db.selectFrom('loginTickets').select('tokenHash').execute()).map((t) => t.tokenHash.slice(0, 2)).sort();
    expect(tickets).toEqual(['t3', 't4']);

    const liveWindows = await ctx.db
      .selectFrom('rateLimits')
      .select(['clientKey', 'resetAt'])
      .where('clientKey', 'like', '10.9.9.%')
      .execute();
    expect(liveWindows.map((w) => [w.clientKey, Number(w.resetAt)])).toEqual([['10.9.9.3', now + 1]]);

    const liveKeys = await ctx.db.selectFrom('idempotencyKeys').select('idemKey').where('idemKey', 'like', 'retention-key-%').execute();
    expect(liveKeys.map((k) => k.idemKey)).toEqual(['retention-key-3']);

    const records = (await ctx.db.selectFrom('loginRecords').select('id').execute()).map((r) => Number(r.id));
    expect(records).toContain(keptRecord);
    for (const id of oldRecords) expect(records).not.toContain(id);

    const logs = await ctx.db.selectFrom('operationLogs').select('action').where('module', '=', 'retention-test').execute();
    expect(logs.map((l) => l.action)).toEqual(['recent']);
    await countersMatchRows();
    expect(await countLogs(ctx.db, {})).toBe(logsBefore - 5);

    for (const k of [key(1), key(2), key(4), key(6), 'avatars/someone.png']) expect(await exists(filePath(k)), k).toBe(true);
    for (const k of [abandoned, key(3), key(5)]) expect(await exists(filePath(k)), k).toBe(false);

    // A second run finds nothing more.
    const again = await runRetention(ctx.db, { days: 180, uploadGraceHours: 24, blobs: localBlobSweepStore(dataDir), now: () => now });
    expect(again).toMatchObject({
      sessions: 0,
      loginTickets: 0,
      rateLimits: 0,
      loginRecords: 0,
      operationLogs: 0,
      pageViews: 0,
      clientEvents: 0,
      uploads: 0,
    });
  });

  it('keeps logs and uploads forever when their settings are 0', async () => {
    await addLoginRecord(now - 400 * DAY_MS, 'ancient');
    await addLog(now - 400 * DAY_MS, 'ancient');
    await recordPageView(ctx.db, { path: '/ancient' }, { userId: null, ip: '10.0.0.2', userAgent: 'test' }, now - 400 * DAY_MS);
    await storeFile(key(7), 400 * DAY_MS);
    const report = await runRetention(ctx.db, { days: 0, uploadGraceHours: 0, blobs: localBlobSweepStore(dataDir), now: () => now });
    expect(report).toMatchObject({ loginRecords: 0, operationLogs: 0, pageViews: 0, clientEvents: 0, uploads: 0, cutoff: null });
    expect(await ctx.db.selectFrom('pageViews').select('id').where('path', '=', '/ancient').executeTakeFirst()).toBeDefined();
    expect(await ctx.db.selectFrom('loginRecords').select('id').where('username', '=', 'ancient').executeTakeFirst()).toBeDefined();
    expect(await exists(filePath(key(7)))).toBe(true);
  });

  it('as two jobs (rows hourly, uploads daily), writes what each removed to the operation log', async () => {
    await addSession(now - 5 * DAY_MS, 'd1');
    // The 400-day-old login record, log, page view and image of the previous test go now.
    const deps = {
      db: ctx.db,
      retention: { days: 180, uploadGraceHours: 24, intervalMinutes: 60 },
      blobs: localBlobSweepStore(dataDir),
      now: () => now,
    };
    const rows = retentionJob(deps);
    const uploads = uploadRetentionJob(deps);
    expect([rows.name, rows.intervalMs]).toEqual(['retention', 60 * 60 * 1000]);
    expect([uploads.name, uploads.intervalMs]).toEqual(['retention-uploads', 24 * 60 * 60 * 1000]);
    expect(uploadRetentionJob({ ...deps, retention: { ...deps.retention, uploadGraceHours: 2 } }).intervalMs).toBe(2 * 60 * 60 * 1000);

    await rows.run(new AbortController().signal);
    expect(await exists(filePath(key(7)))).toBe(true);
    await uploads.run(new AbortController().signal);
    expect(await exists(filePath(key(7)))).toBe(false);

    const logged = await ctx.db
      .selectFrom('operationLogs')
      .selectAll()
      .where('module', '=', 'system')
      .where('action', '=', 'retention')
      .orderBy('id')
      .execute();
    expect(logged.map((r) => [r.status, r.operator, r.path, r.content])).toEqual([
      [
        1,
        'system',
        'job:retention',
        'retention: removed 1 expired session, 0 ended rate-limit windows, 1 login record, 1 operation log, 1 page view and 0 client events older than 180 days',
      ],
      [1, 'system', 'job:retention-uploads', 'retention: removed 1 unreferenced upload'],
    ]);
    expect(JSON.parse(logged[0]!.payload)).toEqual({
      sessions: 1,
      loginTickets: 0,
      rateLimits: 0,
      loginRecords: 1,
      operationLogs: 1,
      pageViews: 1,
      clientEvents: 0,
      cutoff: new Date(now - 180 * DAY_MS).toISOString(),
    });
    expect(JSON.parse(logged[1]!.payload)).toEqual({ uploads: 1, uploadGraceHours: 24, uploadKeys: [key(7)] });
    await countersMatchRows();

    // The rows are visible in the log list like any other.
    const superAdmin = await loginAs(ctx, 'super_admin');
    const list = await call<{ list: { content: string }[] }>(ctx, 'GET', '/api/admin/log/list?module=system&action=retention', {
      as: superAdmin,
    });
    expect(list.status, list.msg).toBe(200);
    // Told from their event in the reader's language (decision 0097), English here.
    expect(list.data.list.map((r) => r.content)).toEqual([
      'Retention removed unreferenced uploads: 1',
      'Retention removed expired sessions: 1, ended rate-limit windows: 0, login records: 1, operation logs: 1, page views: 1, client events: 0, each older than 180 days',
    ]);
  });

  it('logs a failed run as failed, with the error', async () => {
    const broken = {
      list: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('disk unreadable')) }) }),
      delete: async () => undefined,
    };
    const job = uploadRetentionJob({
      db: ctx.db,
      retention: { days: 180, uploadGraceHours: 24, intervalMinutes: 60 },
      blobs: broken,
      now: () => now,
    });
    await expect(job.run(new AbortController().signal)).rejects.toThrow('disk unreadable');
    const row = await ctx.db
      .selectFrom('operationLogs')
      .selectAll()
      .where('module', '=', 'system')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect([row.status, row.content, row.errorMsg]).toEqual([0, 'retention: removing unreferenced uploads failed', 'disk unreadable']);
    await countersMatchRows();
  });

  it('checks a bounded share of old uploads per run, and every one of them over the runs', async () => {
    // A folder of its own holding only five old images that no order names.
    const folder = await mkdtemp(join(tmpdir(), 'clearplay-retention-cap-'));
    try {
      const keys = [20, 21, 22, 23, 24].map(key);
      for (const k of keys) {
        const path = join(folder, 'uploads', 'files', k);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, pngBytes(100, 1));
        await utimes(path, new Date(now - 3 * DAY_MS), new Date(now - 3 * DAY_MS));
      }
      const removedPerRun: number[] = [];
      for (let run = 0; run < 4; run++) {
        const report = await runRetention(ctx.db, {
          days: 0,
          uploadGraceHours: 24,
          blobs: localBlobSweepStore(folder),
          now: () => now,
          maxUploadCandidates: 2,
        });
        removedPerRun.push(report.uploads);
      }
      expect(removedPerRun).toEqual([2, 2, 1, 0]);
      for (const k of keys) expect(await exists(join(folder, 'uploads', 'files', k)), k).toBe(false);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("keeps a user's avatar, and removes a replaced or abandoned avatar once past the grace period", async () => {
    const setAvatar = async (url: string) => {
      const res = await call<AccountProfile>(ctx, 'POST', '/api/admin/account/avatar', { as: shop, payload: { avatar: url } });
      expect(res.status, res.msg).toBe(200);
    };
    const replaced = await uploadImage(ctx, shop, 'avatar', pngBytes(2000, 11));
    await setAvatar(replaced.url);
    const current = await uploadImage(ctx, shop, 'avatar', pngBytes(2000, 12));
    await setAvatar(current.url);
    const abandoned = await uploadImage(ctx, shop, 'avatar', pngBytes(2000, 13)); // uploaded, never saved
    const young = await uploadImage(ctx, shop, 'avatar', pngBytes(2000, 14)); // uploaded, never saved, an hour old
    for (const k of [replaced.key, current.key, abandoned.key]) await age(k, 30 * DAY_MS);
    await age(young.key, HOUR_MS);

    const report = await runRetention(ctx.db, {
      days: 0,
      uploadGraceHours: 24,
      blobs: localBlobSweepStore(dataDir),
      now: () => now,
      batchSize: 2,
    });
    expect(report.uploadKeys).toContain(replaced.key);
    expect(report.uploadKeys).toContain(abandoned.key);
    expect(report.uploadKeys).not.toContain(current.key);
    expect(report.uploadKeys).not.toContain(young.key);
    expect(await exists(filePath(current.key))).toBe(true);
    expect(await exists(filePath(young.key))).toBe(true);
    for (const k of [replaced.key, abandoned.key]) expect(await exists(filePath(k)), k).toBe(false);
    // still served where the user's avatar says
    expect((await ctx.app.inject({ method: 'GET', url: current.url })).statusCode).toBe(200);

    // Removed as the avatar, it goes on the next run past the grace period.
    await setAvatar('');
    const after = await runRetention(ctx.db, { days: 0, uploadGraceHours: 24, blobs: localBlobSweepStore(dataDir), now: () => now });
    expect(after.uploadKeys).toContain(current.key);
    expect(await exists(filePath(current.key))).toBe(false);
    expect(await exists(filePath(young.key))).toBe(true);
  });

  it('removes read messages older than RETENTION_MESSAGE_DAYS; unread ones and open todos stay; the job logs it', async () => {
    const base = { userId: shop.id, event: 'order.created', params: '{}', targetType: null, targetId: null, dedupeKey: null };
    const add = async (label: string, values: { kind: 'message' | 'notice' | 'todo'; isRead: number; ageDays: number; done?: boolean }) =>
      insertReturningId(ctx.db, 'messages', {
        ...base,
        params: JSON.stringify({ label }),
        kind: values.kind,
        isRead: values.isRead,
        readAt: values.isRead === 1 ? now - values.ageDays * DAY_MS + HOUR_MS : null,
        doneAt: values.done === true ? now - values.ageDays * DAY_MS + HOUR_MS : null,
        createdAt: now - values.ageDays * DAY_MS,
      });
    const gone = [
      await add('read, 91 days', { kind: 'message', isRead: 1, ageDays: 91 }),
      await add('read notice, 200 days', { kind: 'notice', isRead: 1, ageDays: 200 }),
      await add('done todo, 95 days', { kind: 'todo', isRead: 1, ageDays: 95, done: true }),
    ];
    const kept = [
      await add('read, 89 days', { kind: 'message', isRead: 1, ageDays: 89 }),
      await add('unread, 300 days', { kind: 'message', isRead: 0, ageDays: 300 }),
      await add('unread todo, 120 days', { kind: 'todo', isRead: 0, ageDays: 120 }),
      await add('read open todo, 120 days', { kind: 'todo', isRead: 1, ageDays: 120 }),
    ];
    const unread = async () => (await call<UnreadCounts>(ctx, 'GET', '/api/admin/message/unread', { as: shop })).data;
    const unreadBefore = await unread();

    const report = await runRetention(ctx.db, {
      days: 0,
      uploadGraceHours: 0,
      messageDays: 90,
      blobs: null,
      now: () => now,
      batchSize: 2,
    });
    expect(report).toMatchObject({ messages: 3, messageCutoff: now - 90 * DAY_MS });
    const left = (await ctx.db.selectFrom('messages').select('id').where('userId', '=', shop.id).execute()).map((r) => Number(r.id));
    for (const id of gone) expect(left).not.toContain(id);
    for (const id of kept) expect(left).toContain(id);
    expect(await unread()).toEqual(unreadBefore);

    // 0 keeps them all
    const old = await add('read, 400 days', { kind: 'message', isRead: 1, ageDays: 400 });
    expect((await runRetention(ctx.db, { days: 0, uploadGraceHours: 0, messageDays: 0, blobs: null, now: () => now })).messages).toBe(0);
    expect((await runRetention(ctx.db, { days: 0, uploadGraceHours: 0, blobs: null, now: () => now })).messages).toBe(0);

    // The rows job removes it and says so in the operation log.
    const job = retentionJob({
      db: ctx.db,
      retention: { days: 180, uploadGraceHours: 24, intervalMinutes: 60, messageDays: 90 },
      blobs: null,
      now: () => now,
    });
    await job.run(new AbortController().signal);
    expect(await ctx.db.selectFrom('messages').select('id').where('id', '=', old).executeTakeFirst()).toBeUndefined();
    const row = await ctx.db
      .selectFrom('operationLogs')
      .selectAll()
      .where('module', '=', 'system')
      .where('path', '=', 'job:retention')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
    expect(row.content).toMatch(/^retention: removed .* older than 180 days, 1 read message older than 90 days$/);
    // Read in Chinese, the line is told in Chinese (decision 0097).
    expect(tellLog('zh-CN', row.event ?? '', row.params)).toMatch(/^数据保留：删除了 .*，均早于 180 天，1 条早于 90 天的已读消息$/);
    expect(JSON.parse(row.payload)).toMatchObject({ messages: 1, messageCutoff: new Date(now - 90 * DAY_MS).toISOString() });
    await countersMatchRows();

    // Each batch is one range of messages_read_created_idx (0012), not a scan of the table: planned
    // on a table that also holds what a running box holds, recent and unread messages (on a table of
    // only the few old ones above, a full scan is rightly the cheaper plan for MariaDB).
    const userId = (await ctx.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    await insertMessages(
      ctx.db,
      Array.from({ length: 600 }, (_, i) => ({
        userId,
        kind: 'message' as const,
        event: 'order.created',
        params: '{}',
        targetType: null,
        targetId: null,
        isRead: i % 3 === 0 ? 1 : 0,
        readAt: null,
        doneAt: null,
        dedupeKey: null,
        createdAt: now - (i % 30) * DAY_MS,
      })),
    );
    await analyze(ctx.db, 'messages');
    const plan = await planOf(ctx.db, oldReadMessagesQuery(ctx.db, now - 90 * DAY_MS, 1000));
    expect(plan).toMatch(/messages_read_created_idx/);
    expect(plan).not.toMatch(/SCAN messages\b(?! USING)|Seq Scan/);
  });
});
