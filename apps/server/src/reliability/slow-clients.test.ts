/**
 * Faults (docs/reliability.md "Faults"): slowloris. Many connections to the listening app send their headers a
 * byte at a time, and others a body a byte at a time (a POST to the upload host announcing a
 * large Content-Length, and a sign-in announcing a small one); meanwhile a normal client's calls
 * (the order list, signed in) must keep being answered within a budget. And the slow ones must
 * be cut, not held forever: REQUEST_TIMEOUT_SECONDS bounds the whole request. Node enforces it for
 * the headers at its connections check (every second here, http/request-deadline.ts), answering
 * 408 and closing; a body Fastify has begun to handle Node never cut (the slow bodies held their
 * connections for good: found here), and the app's own deadline (http/request-deadline.ts) now
 * does. CONNECTION_TIMEOUT_SECONDS (no traffic) cannot stop a client that trickles a byte every
 * half second, and is not what cuts them.
 *
 * The slow clients do not depend on the database: this file runs once, on SQLite (it builds its
 * app itself rather than through the database test helpers). RELIABILITY=full opens more of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDb, type Db } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';
import { CONNECTIONS_CHECK_MS } from '../http/request-deadline.ts';

const FULL = process.env.RELIABILITY === 'full';
/** Slow connections of each kind. */
const SLOW_EACH = FULL ? 300 : 60;
const REQUEST_TIMEOUT_S = 5;
/** The app checks the request deadlines of open connections this often (http/request-deadline.ts). */
const CHECK_INTERVAL_MS = CONNECTIONS_CHECK_MS;
/** The normal client's budget per call on this busy machine (p99), and the most any one may take. */
const P99_BUDGET_MS = 2000;
const TRICKLE_MS = 500;

let dir: string;
let db: Db;
let app: App;
let port: number;
let bearer: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clearplay-slow-'));
  const config = loadConfig(
    {
      DATA_DIR: dir,
      WEB_DIST: join(tmpdir(), 'clearplay-no-web-dist'),
      INIT_ADMIN_PASSWORD: 'Admin12345',
      TOTP_REQUIRED: 'none',
      REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S),
      CONNECTION_TIMEOUT_SECONDS: '60',
    },
    [],
  );
  db = createDb(config.database, config.dbLimits);
  await migrateToLatest(db);
  await seed(db, { initAdminPassword: config.initAdminPassword, demo: false });
  app = await buildApp({ config, db, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
  const login = await fetch(`http://127.0.0.1:${port}/api/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'superadmin', password: 'Admin12345' }),
  });
  const body = (await login.json()) as { status: number; msg: string; data: { token: string } };
  if (body.status !== 200) throw new Error(`sign-in: ${body.msg}`);
  bearer = `Bearer ${body.data.token}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

interface Slow {
  kind: 'headers' | 'body';
  socket: Socket;
  opened: number;
  /** When the server closed it (ms after opening), and what it answered first. */
  closedAfter?: number;
  answer: string;
}

/**
 * A client that sends `head` and then `rest` a byte every TRICKLE_MS, never finishing in time;
 * stops trickling once the server answers or closes.
 */
function slowClient(kind: Slow['kind'], head: string, rest: string): Slow {
  const socket = connect(port, '127.0.0.1');
  const slow: Slow = { kind, socket, opened: performance.now(), answer: '' };
  socket.setNoDelay(true);
  socket.on('error', () => undefined);
  socket.on('data', (d: Buffer) => {
    if (slow.answer.length < 200) slow.answer += d.toString('latin1');
  });
  let i = 0;
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    socket.write(head);
    timer = setInterval(() => {
      if (socket.destroyed || !socket.writable) return;
      socket.write(rest[i % rest.length]!);
      i++;
    }, TRICKLE_MS);
  });
  socket.on('close', () => {
    clearInterval(timer);
    slow.closedAfter = performance.now() - slow.opened;
  });
  return slow;
}

describe('slowloris: slow headers and slow bodies on many connections', () => {
  it(`other clients keep being served (p99 under ${P99_BUDGET_MS} ms), and the slow ones are cut by the request timeout`, async () => {
    const slow: Slow[] = [];
    for (let n = 0; n < SLOW_EACH; n++) {
      // Headers a byte at a time, never ending.
      slow.push(slowClient('headers', 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaa\r\n'));
      // A body announced large and sent a byte at a time: to the upload host (2 MB) and to the sign-in (2 KB).
      slow.push(
        n % 2 === 0
          ? slowClient(
              'body',
              `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n--xyz\r\n`,
              'a',
            )
          : slowClient(
              'body',
              'POST /api/admin/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2048\r\n\r\n{"username":"',
              'a',
            ),
      );
    }

    // The normal client: signed-in list calls one after another, until every slow one is cut (or the deadline).
    const timings: number[] = [];
    const failures: string[] = [];
    const deadline = performance.now() + REQUEST_TIMEOUT_S * 1000 + CHECK_INTERVAL_MS + 5000;
    while (performance.now() < deadline && (slow.some((s) => s.closedAfter === undefined) || timings.length < 20)) {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/admin/order/list?page=1&pageSize=10`, {
        headers: { authorization: bearer },
        signal: AbortSignal.timeout(10_000),
      }).catch((error: unknown) => error as Error);
      timings.push(performance.now() - started);
      if (res instanceof Error) failures.push(res.message);
      else if (res.status !== 200) failures.push(`HTTP ${res.status}`);
      else await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const s of slow) s.socket.destroy();

    expect(failures).toEqual([]);
    const sorted = [...timings].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length * 0.5)]!;
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
    expect(p99).toBeLessThan(P99_BUDGET_MS);

    // Every slow connection was cut by the server, after the request timeout, within one check of it.
    const open = slow.filter((s) => s.closedAfter === undefined);
    expect(
      open.slice(0, 3).map((s) => ({ kind: s.kind, answer: s.answer.split('\r\n')[0] })),
      `${open.length} slow connections the server never cut`,
    ).toEqual([]);
    const cutAfter = slow.map((s) => s.closedAfter!);
    expect(Math.min(...cutAfter)).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 100);
    expect(Math.max(...cutAfter)).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + CHECK_INTERVAL_MS + 2000);
    // Told why: 408 Request Timeout, before the close.
    const told = slow.filter((s) => s.answer.startsWith('HTTP/1.1 408 '));
    expect(told.length).toBe(slow.length);
    console.log(
      `slow-clients: ${slow.length} slow connections (${SLOW_EACH} trickling headers, ${SLOW_EACH} bodies, a byte per ${TRICKLE_MS} ms); a normal client's ${timings.length} calls all 200, p50 ${Math.round(p50)} ms, p99 ${Math.round(p99)} ms, max ${Math.round(sorted.at(-1)!)} ms; slow ones cut after ${Math.round(Math.min(...cutAfter) / 1000)}–${Math.round(Math.max(...cutAfter) / 1000)} s (REQUEST_TIMEOUT_SECONDS=${REQUEST_TIMEOUT_S}, deadlines checked every ${CHECK_INTERVAL_MS / 1000} s), all ${told.length} told 408 first`,
    );
  }, 90_000);
});
