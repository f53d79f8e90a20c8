/**
 * Faults (docs/reliability.md "Faults"): the database stopped under load, then frozen. A steady load of calls (the
 * order list, an order's detail, an order created by an inspector) runs against the app while
 * the database goes away; every call must answer, within its budget, either as usual or with
 * the clean 503 "briefly unavailable" envelope (decision 0083), never a 500 and never a hang;
 * readiness must say not-ready; nothing may be half-written (the books of books.ts hold, and
 * every acknowledged create is in the database); and once the database is back, calls succeed
 * again by themselves, without a restart.
 *
 * PostgreSQL and MariaDB: a TCP proxy (node:net, below) between the app and the real server,
 * which the test "stops" (every connection closed, new ones refused) and "freezes" (connections
 * accepted, nothing forwarded either way). SQLite has no server to stop: its fault is another
 * connection holding the file's write lock (a frozen writer: another process's stuck
 * transaction), against which writes give up after DB_LOCK_TIMEOUT_SECONDS with the same 503,
 * while reads go on (WAL) and readiness stays ready.
 *
 * Budgets: one second to get a connection and to wait for a lock, two for a statement; the load runs for
 * a few seconds per phase, RELIABILITY=full runs it longer and with more callers.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { OrderItem } from '@clearplay/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDb, sqliteDriver, type Db } from '../db/index.ts';
import { CLIENT_GRACE_MS } from '../db/pools.ts';
import { createTestContext, createUser, loginAs, testDbKind, type LoggedIn, type TestContext } from '../test/context.ts';
import { orderBody } from '../test/orders.ts';
import { readBooks } from './books.ts';

const FULL = process.env.RELIABILITY === 'full';
/** Callers running at once, and how long each phase of the load lasts. */
const CALLERS = FULL ? 24 : 8;
const PHASE_MS = FULL ? 15_000 : 4_000;
const SECOND = 1000;
const STATEMENT_MS = 2 * SECOND;
/**
 * The longest any call may take while the database is away: getting a connection (1 s), and two
 * statements the client gives up on (2 s + the client's 1 s grace each: the session check passes
 * just before the freeze, the next statement waits its whole budget), and a second of slack for
 * this busy machine. A call past it is a hang.
 */
const BUDGET_MS = SECOND + 2 * (STATEMENT_MS + CLIENT_GRACE_MS) + SECOND;
/** Once the database is back, the app answers again within this (no restart). */
const RECOVERY_MS = 10_000;

const UNAVAILABLE = { status: 503, msg: 'The service is briefly unavailable, please try again shortly', data: { retryAfterSeconds: 5 } };
/** Statements get two seconds: on a machine busy with the rest of the suite, one second was now and then too little for a plain list. */
const LIMITS = {
  DB_ACQUIRE_TIMEOUT_SECONDS: '1',
  DB_STATEMENT_TIMEOUT_SECONDS: String(STATEMENT_MS / SECOND),
  DB_LOCK_TIMEOUT_SECONDS: '1',
};

type Kind = 'list' | 'detail' | 'create';
interface Sample {
  kind: Kind;
  http: number;
  body: { status: number; msg: string; data: unknown };
  ms: number;
  /** The create's tag (its objWechat), to find it in the database afterwards. */
  tag?: string;
}

/**
 * A TCP proxy to the database server that can be stopped (every connection closed, new ones
 * refused: the port is closed) or frozen (connections accepted, nothing forwarded either way,
 * as a server stopped with SIGSTOP or a network partition leaves them), then resumed.
 */
class DbProxy {
  mode: 'pass' | 'stopped' | 'frozen' = 'pass';
  port = 0;
  #server: Server | null = null;
  readonly #sockets = new Set<Socket>();
  /** Connections open when the freeze began, or accepted during it: nothing passes on them. */
  readonly #frozen = new WeakSet<Socket>();

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    const server = createServer((client) => this.#accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.#sockets.delete(socket));
  }

  #accept(client: Socket): void {
    this.#track(client);
    if (this.mode === 'frozen') {
      // Accepted, and never a byte back.
      this.#frozen.add(client);
      client.on('data', () => undefined);
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    this.#track(upstream);
    const pass = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (!this.#frozen.has(from)) to.write(chunk);
      });
    pass(client, upstream);
    pass(upstream, client);
    for (const [one, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      one.on('close', () => {
        if (!this.#frozen.has(one)) other.destroy();
      });
    }
  }

  /** Every connection closed, and the port refuses new ones. */
  async stop(): Promise<void> {
    this.mode = 'stopped';
    const server = this.#server;
    this.#server = null;
    const closed = new Promise((resolve) => server?.close(resolve));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  /** The open connections pass nothing from now on; new ones are accepted and pass nothing either. */
  freeze(): void {
    this.mode = 'frozen';
    for (const socket of this.#sockets) this.#frozen.add(socket);
  }

  /** The database is back: the port listens again; connections left frozen are closed (the app has given up on them). */
  async resume(): Promise<void> {
    for (const socket of this.#sockets) if (this.#frozen.has(socket)) socket.destroy();
    this.mode = 'pass';
    if (this.#server === null) await this.listen();
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => (this.#server ? this.#server.close(resolve) : resolve(undefined)));
  }
}

const kind = testDbKind();
let ctx: TestContext;
/** The app under test: through the proxy on PostgreSQL and MariaDB, on the file itself on SQLite. */
let app: App;
let appDb: Db;
let proxy: DbProxy | undefined;
let inspector: LoggedIn;
let admin: LoggedIn;
let shop: { id: number };
const orderIds: number[] = [];
let creates = 0;
const acknowledged: string[] = [];
const unanswered: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ env: LIMITS });
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  shop = await createUser(ctx, 'shop');
  await ctx.db.updateTable('users').set({ defaultPriceCheat: 5000 }).where('id', '=', shop.id).execute();
  if (ctx.config.database.dialect === 'sqlite') {
    app = ctx.app;
    appDb = ctx.db;
  } else {
    const direct = new URL(ctx.config.database.url);
    proxy = new DbProxy({ host: direct.hostname, port: Number(direct.port || (kind === 'pg' ? 5432 : 3306)) });
    await proxy.listen();
    const through = new URL(direct);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    const config = loadConfig({ ...envOf(ctx), DATABASE_URL: through.toString() }, []);
    appDb = createDb(config.database, config.dbLimits);
    app = await buildApp({ config, db: appDb, logger: false });
  }
  // A few orders for the detail calls.
  for (let i = 0; i < 5; i++) {
    const res = await create(`seed_${i}`);
    expect(res.body.status, res.body.msg).toBe(200);
    orderIds.push((res.body.data as OrderItem).id);
  }
}, 60_000);

afterAll(async () => {
  if (proxy !== undefined) {
    await app?.close();
    await appDb?.destroy();
    await proxy.close();
  }
  await ctx?.destroy();
});

/** The configuration environment of the test's context (its DATA_DIR and budgets), for the app through the proxy. */
function envOf(c: TestContext): Record<string, string> {
  return {
    ...LIMITS,
    DATA_DIR: c.config.dataDir,
    WEB_DIST: c.config.webDist,
    INIT_ADMIN_PASSWORD: 'Admin12345',
    TOTP_REQUIRED: 'none',
  };
}

async function timed(kindOf: Kind, run: () => Promise<LightMyRequestResponse>, tag?: string): Promise<Sample> {
  const started = performance.now();
  // A call still unanswered long past its budget is recorded as hung (and fails the phase), not waited for.
  const res = await Promise.race([run(), new Promise<null>((r) => setTimeout(() => r(null), 3 * BUDGET_MS))]);
  const ms = performance.now() - started;
  if (res === null)
    return { kind: kindOf, http: 0, body: { status: 0, msg: 'no answer (hung)', data: null }, ms, ...(tag === undefined ? {} : { tag }) };
  let body: Sample['body'];
  try {
    body = res.json();
  } catch {
    body = { status: -1, msg: res.body.slice(0, 200), data: null };
  }
  return { kind: kindOf, http: res.statusCode, body, ms, ...(tag === undefined ? {} : { tag }) };
}

function create(tag: string): Promise<Sample> {
  const n = ++creates;
  const payload = orderBody(
    { userId: shop.id, inspectorId: inspector.id, amount: 5000 },
    { objWechat: tag, mac: `fa:${[n >> 16, (n >> 8) & 255, n & 255].map((b) => b.toString(16).padStart(2, '0')).join(':')}:00:01` },
  );
  return timed(
    'create',
    () =>
      app.inject({
        method: 'POST',
        url: '/api/admin/order/create',
        headers: { ...inspector.headers, 'accept-language': 'en-US' },
        payload,
      }),
    tag,
  );
}

const HEADERS = () => ({ ...admin.headers, 'accept-language': 'en-US' });

/** `CALLERS` callers, each calling list, detail, list, create in turn, for `ms`. */
async function load(phase: string, ms: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const until = performance.now() + ms;
  let seq = 0;
  const caller = async (c: number) => {
    for (let i = c; performance.now() < until; i++) {
      const step = i % 4;
      let sample: Sample;
      if (step === 3) {
        const tag = `${phase}_${c}_${seq++}`;
        sample = await create(tag);
        if (sample.body.status === 200) acknowledged.push(tag);
        else unanswered.push(tag);
      } else if (step === 1) {
        const id = orderIds[i % orderIds.length]!;
        sample = await timed('detail', () => app.inject({ method: 'GET', url: `/api/admin/order/detail?id=${id}`, headers: HEADERS() }));
      } else {
        sample = await timed('list', () =>
          app.inject({ method: 'GET', url: '/api/admin/order/list?page=1&pageSize=20&result=1', headers: HEADERS() }),
        );
      }
      samples.push(sample);
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, (_, c) => caller(c)));
  return samples;
}

async function ready(): Promise<{ http: number; ms: number; data: unknown }> {
  const started = performance.now();
  const res = await app.inject({ method: 'GET', url: '/api/ready' });
  return { http: res.statusCode, ms: performance.now() - started, data: res.json<{ data: unknown }>().data };
}

/** Every answer is 200 or the 503 envelope, none took longer than the budget; a summary of it. */
function expectClean(samples: Sample[], phase: string): { ok: number; unavailable: number; maxMs: number; p99: number } {
  const wrong = samples.filter((s) => !(s.http === 200 && s.body.status === 200) && !(s.http === 503 && matches503(s.body)));
  expect(
    wrong.slice(0, 3).map((s) => ({ kind: s.kind, http: s.http, body: s.body })),
    `${phase}: answers neither 200 nor the 503 envelope`,
  ).toEqual([]);
  const late = samples.filter((s) => s.ms > BUDGET_MS);
  expect(
    late.slice(0, 3).map((s) => ({ kind: s.kind, http: s.http, ms: Math.round(s.ms) })),
    `${phase}: calls past the ${BUDGET_MS} ms budget`,
  ).toEqual([]);
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    ok: samples.filter((s) => s.http === 200).length,
    unavailable: samples.filter((s) => s.http === 503).length,
    maxMs: Math.round(sorted.at(-1) ?? 0),
    p99: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0),
  };
}

const matches503 = (body: Sample['body']) => JSON.stringify(body) === JSON.stringify(UNAVAILABLE);

/** Waits until a list and a create answer 200 again; the time it took. */
async function recovery(phase: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const list = await app.inject({ method: 'GET', url: '/api/admin/order/list?page=1&pageSize=1', headers: HEADERS() });
    if (list.statusCode === 200) {
      const tag = `${phase}_recovered`;
      const made = await create(tag);
      if (made.body.status === 200) {
        acknowledged.push(tag);
        return performance.now() - started;
      }
      unanswered.push(tag);
    }
    if (performance.now() - started > RECOVERY_MS) throw new Error(`${phase}: no recovery within ${RECOVERY_MS} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The books hold; every acknowledged create is in the database once; an unanswered one may be, at most once. */
async function expectBooks(): Promise<{ acknowledged: number; unansweredWritten: number }> {
  const books = await readBooks(ctx.db);
  expect(books.broken).toEqual([]);
  const rows = await ctx.db.selectFrom('orders').select(['objWechat']).where('userId', '=', shop.id).execute();
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.objWechat, (count.get(r.objWechat) ?? 0) + 1);
  expect(acknowledged.filter((tag) => count.get(tag) !== 1)).toEqual([]);
  expect(unanswered.filter((tag) => (count.get(tag) ?? 0) > 1)).toEqual([]);
  const known = new Set([...acknowledged, ...unanswered, ...Array.from({ length: 5 }, (_, i) => `seed_${i}`)]);
  expect(rows.filter((r) => !known.has(r.objWechat))).toEqual([]);
  return { acknowledged: acknowledged.length, unansweredWritten: unanswered.filter((tag) => count.has(tag)).length };
}

if (kind !== 'sqlite')
  describe(`${kind === 'pg' ? 'PostgreSQL' : 'MariaDB'} behind a proxy, under a steady load of lists, details and creates`, () => {
    const figures: string[] = [];

    it('answers as usual before the fault', async () => {
      const before = await load('before', PHASE_MS / 3);
      const summary = expectClean(before, 'before');
      expect(summary.unavailable).toBe(0);
      expect((await ready()).http).toBe(200);
    });

    for (const fault of ['stopped', 'frozen'] as const) {
      it(`${fault}: not ready, every call a clean 503 within ${BUDGET_MS} ms, then it recovers by itself`, async () => {
        const during = load(fault, PHASE_MS);
        // The fault lands while the load runs.
        await new Promise((r) => setTimeout(r, 200));
        if (fault === 'stopped') await proxy!.stop();
        else proxy!.freeze();
        await new Promise((r) => setTimeout(r, PHASE_MS / 3));
        const readiness = await ready();
        expect(readiness.http).toBe(503);
        expect(readiness.data).toEqual({ db: 'down', migrations: 'unknown' });
        expect(readiness.ms).toBeLessThan(BUDGET_MS);
        const samples = await during;
        const summary = expectClean(samples, fault);
        // The fault was felt: every caller, about, had a 503.
        expect(summary.unavailable).toBeGreaterThanOrEqual(CALLERS);
        await proxy!.resume();
        const recovered = await recovery(fault);
        const afterSamples = await load(`${fault}_after`, PHASE_MS / 3);
        expectClean(afterSamples, `after ${fault}`);
        expect(
          afterSamples.filter((s) => s.http !== 200).map((s) => ({ kind: s.kind, ms: Math.round(s.ms), at: afterSamples.indexOf(s) })),
          'calls refused after the recovery',
        ).toEqual([]);
        expect((await ready()).http).toBe(200);
        figures.push(
          `${fault}: ${samples.length} calls, ${summary.ok} ok + ${summary.unavailable} 503, p99 ${summary.p99} ms, max ${summary.maxMs} ms (budget ${BUDGET_MS}); ready 503 in ${Math.round(readiness.ms)} ms; recovered in ${Math.round(recovered)} ms`,
        );
      }, 60_000);
    }

    it('nothing half-written: the books hold, every acknowledged create is there once', async () => {
      const { acknowledged: n, unansweredWritten } = await expectBooks();
      console.log(
        `faults-database (${kind}, ${CALLERS} callers): ${figures.join('; ')}; books hold, ${n} acknowledged creates all present, ${unansweredWritten} of ${unanswered.length} unanswered creates committed`,
      );
    });
  });

if (kind === 'sqlite')
  describe('SQLite with its write lock held by another connection (a frozen writer), under a steady load', () => {
    it(`writes answer a clean 503 within ${BUDGET_MS} ms, reads go on, readiness stays ready, and it recovers when the lock goes`, async () => {
      if (ctx.config.database.dialect !== 'sqlite') throw new Error('expected SQLite');
      const before = expectClean(await load('before', PHASE_MS / 3), 'before');
      expect(before.unavailable).toBe(0);

      const SQLite = sqliteDriver();
      const writer = new SQLite(ctx.config.database.file);
      writer.pragma('busy_timeout = 5000');
      writer.exec('begin immediate');
      const booksBefore = await readBooks(ctx.db);
      let samples: Sample[];
      let readiness: Awaited<ReturnType<typeof ready>>;
      try {
        const during = load('frozen', PHASE_MS);
        readiness = await ready();
        samples = await during;
      } finally {
        writer.exec('rollback');
        writer.close();
      }
      const summary = expectClean(samples, 'frozen writer');
      // Reads are served from the last commit (WAL); every create waited its budget and gave up.
      expect(samples.filter((s) => s.kind !== 'create').every((s) => s.http === 200)).toBe(true);
      const creates = samples.filter((s) => s.kind === 'create');
      expect(creates.length).toBeGreaterThan(0);
      expect(creates.every((s) => s.http === 503)).toBe(true);
      expect(Math.min(...creates.map((s) => s.ms))).toBeGreaterThanOrEqual(900);
      expect(readiness.http).toBe(200);
      // A read does not wait behind a write waiting for the lock (the write gives the connection back between tries).
      const reads = samples.filter((s) => s.kind !== 'create').map((s) => s.ms);
      expect(Math.max(...reads)).toBeLessThan(2 * SECOND);
      const booksDuring = await readBooks(ctx.db);
      expect(booksDuring.orders).toEqual(booksBefore.orders);

      const recovered = await recovery('frozen');
      const after = expectClean(await load('after', PHASE_MS / 3), 'after');
      expect(after.unavailable).toBe(0);
      const { acknowledged: n, unansweredWritten } = await expectBooks();
      expect(unansweredWritten).toBe(0);
      console.log(
        `faults-database (sqlite, ${CALLERS} callers): frozen writer: ${samples.length} calls, ${reads.length} reads ok (max ${Math.round(Math.max(...reads))} ms), ${creates.length} creates 503 in ${Math.round(Math.min(...creates.map((s) => s.ms)))}–${summary.maxMs} ms (budget ${BUDGET_MS}); ready 200; recovered in ${Math.round(recovered)} ms; books hold, ${n} acknowledged creates all present`,
      );
    }, 60_000);
  });
