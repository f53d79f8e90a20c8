import type { OrderImportResult, OrderItem } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDriver } from '../../../db/index.ts';
import { call, createTestContext, loginAs, testDbKind, type LoggedIn, type TestContext } from '../../../test/context.ts';
import { orderBody } from '../../../test/orders.ts';
import { stopImportThread } from './thread.ts';

/**
 * A large order import beside the other users of the server: the health check and the order
 * list are answered while it runs, other writes wait for it without holding up the reads, and
 * an import cut short writes nothing. The assertions are about order (what answered while the
 * import was still running), never about times, which a loaded machine stretches.
 */

let ctx: TestContext;
let admin: LoggedIn;
let inspector: LoggedIn;
let shop: LoggedIn;

const ROWS = 20_000;
const HEADERS = ['Target WeChat ID', 'Target name', 'Game', 'MAC address', 'Install time', 'Result', 'Client shop', "Target's shop"];

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  shop = await loginAs(ctx, 'shop');
  await ctx.db
    .updateTable('users')
    .set({ defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 })
    .where('id', '=', shop.id)
    .execute();
});
afterAll(() => ctx?.destroy());

/** `rows` valid orders of the shop, their chat IDs starting with `prefix`. */
function bigCsv(prefix: string, rows: number): Buffer {
  const lines = [HEADERS.join(',')];
  for (let i = 0; i < rows; i++) {
    const hex = i.toString(16).padStart(6, '0');
    lines.push([`${prefix}${i}`, `Target ${i}`, 'CS2', `aabbcc${hex}`, '2026-01-02 03:04', i % 4, shop.username, 'Shop'].join(','));
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/** Starts an import of `file`; `settled` turns true when it has answered. */
async function startImport(
  file: Buffer,
): Promise<{ answer: Promise<{ http: number; status: number; data: OrderImportResult }>; settled: () => boolean }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'big.csv');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  let done = false;
  const answer = ctx.app
    .inject({
      method: 'POST',
      url: '/api/admin/order/import',
      headers: { ...inspector.headers, 'content-type': request.headers.get('content-type') ?? '', 'accept-language': 'en-US' },
      payload,
    })
    .then((res) => ({ http: res.statusCode, ...res.json<{ status: number; data: OrderImportResult }>() }))
    .finally(() => (done = true));
  return { answer, settled: () => done };
}

async function countOf(prefix: string): Promise<number> {
  const res = await call<{ list: OrderItem[]; total: number }>(ctx, 'GET', `/api/admin/order/list?pageSize=1&objWechat=${prefix}`, {
    as: admin,
  });
  expect(res.status).toBe(200);
  return res.data.total;
}

/** Whether another connection holds the SQLite file's write lock now (an import's transaction is open). */
function writeLockProbe(): { held: () => boolean; close: () => void } {
  const target = ctx.config.database;
  if (target.dialect !== 'sqlite') throw new Error('SQLite only');
  const SQLite = sqliteDriver();
  const probe = new SQLite(target.file, { timeout: 0 });
  return {
    held: () => {
      try {
        probe.exec('begin immediate');
        probe.exec('rollback');
        return false;
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return true;
        throw error;
      }
    },
    close: () => probe.close(),
  };
}

/**
 * A pause through the event loop. With SQLite answering synchronously, an injected request can
 * complete in microtasks alone: calls made back to back would starve the loop, and with it the
 * import thread's answer (a real client's calls arrive through the loop).
 */
const pause = () => new Promise((resolve) => setTimeout(resolve, 10));

/** Resolves once `ready()` is true; fails when `gaveUp()` turns true first. */
async function until(ready: () => boolean, gaveUp: () => boolean, what: string): Promise<void> {
  while (!ready()) {
    // Also where the import stops the request thread: no timer runs until it has answered.
    if (gaveUp()) throw new Error(`the import answered before the request thread saw ${what}`);
    await pause();
  }
}

describe('a large import beside other requests', { timeout: 180_000 }, () => {
  it('answers the health check and the order list while the import runs', async () => {
    const probe = testDbKind() === 'sqlite' ? writeLockProbe() : null;
    try {
      const running = await startImport(bigCsv('beside_', ROWS));
      // On SQLite: from the moment the import's transaction holds the write lock.
      if (probe !== null) await until(probe.held, running.settled, 'its transaction began');
      let answeredDuring = 0;
      let answeredWhileLocked = 0;
      while (!running.settled()) {
        await pause();
        const [health, list] = await Promise.all([
          ctx.app.inject({ method: 'GET', url: '/api/health' }),
          call<{ total: number }>(ctx, 'GET', '/api/admin/order/list?pageSize=20', { as: admin }),
        ]);
        expect(health.statusCode).toBe(200);
        expect(list.status).toBe(200);
        if (running.settled()) break;
        answeredDuring++;
        // The list saw the last commit, not the import half done.
        expect([0, ROWS]).toContain(list.data.total);
        if (probe?.held() === true) answeredWhileLocked++;
      }
      const answer = await running.answer;
      expect(answer.status).toBe(200);
      expect(answer.data).toMatchObject({ total: ROWS, imported: ROWS, rejected: [] });
      expect(answeredDuring).toBeGreaterThanOrEqual(3);
      if (probe !== null) expect(answeredWhileLocked).toBeGreaterThanOrEqual(3);
      expect(await countOf('beside_')).toBe(ROWS);
    } finally {
      probe?.close();
    }
  });
});

// Registered only on SQLite (the import's own thread and the file's one write lock), so the
// other databases' runs show no skipped test.
if (testDbKind() === 'sqlite')
  describe('a large import on SQLite', { timeout: 180_000 }, () => {
    it('lets another write wait for it without holding up reads; the write lands after the import', async () => {
      const probe = writeLockProbe();
      try {
        const running = await startImport(bigCsv('waits_', ROWS));
        await until(probe.held, running.settled, 'its transaction began');
        let created = false;
        const create = call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
          as: admin,
          payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: 100 }, { objWechat: 'waits_single' }),
        }).finally(() => (created = true));
        let readsWhileWaiting = 0;
        while (!created && !running.settled()) {
          await pause();
          const list = await call<{ total: number }>(ctx, 'GET', '/api/admin/order/list?pageSize=1&objWechat=waits_', { as: admin });
          expect(list.status).toBe(200);
          if (!created && !running.settled()) readsWhileWaiting++;
        }
        const answer = await running.answer;
        expect(answer.data).toMatchObject({ total: ROWS, imported: ROWS });
        expect((await create).status).toBe(200);
        expect(readsWhileWaiting).toBeGreaterThanOrEqual(3);
        expect(await countOf('waits_')).toBe(ROWS + 1);
      } finally {
        probe.close();
      }
    });

    it('writes nothing when its thread stops midway, and the next import runs on a new one', async () => {
      const probe = writeLockProbe();
      try {
        const before = await ctx.db.selectFrom('users').select('balance').where('id', '=', shop.id).executeTakeFirstOrThrow();
        const running = await startImport(bigCsv('cut_', ROWS));
        await until(probe.held, running.settled, 'its transaction began');
        // As when the server stops (the app's close hook) or the thread crashes.
        await stopImportThread(ctx.db);
        const answer = await running.answer;
        expect(answer.http).toBe(500);
        // Its transaction is gone with it, the lock free.
        expect(probe.held()).toBe(false);
        expect(await countOf('cut_')).toBe(0);
        const after = await ctx.db.selectFrom('users').select('balance').where('id', '=', shop.id).executeTakeFirstOrThrow();
        expect(after.balance).toBe(before.balance);

        const again = await startImport(bigCsv('again_', 50));
        expect((await again.answer).data).toMatchObject({ total: 50, imported: 50 });
        expect(await countOf('again_')).toBe(50);
      } finally {
        probe.close();
      }
    });
  });
