// The mixed back-office load: many connections, each sending one call after
// another, 70 % order-list pages with filters, 20 % order details, 10 % orders created by the demo
// inspectors for random shops. Used by load.bench.ts; build other runs of the same shape on it.
import type { Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { pct, type Proc } from './lib.ts';

/** The demo accounts' password (apps/server/src/db/seed.ts DEMO_PASSWORD). */
const DEMO_PASSWORD = 'demo123456';
const INSPECTORS = ['inspector01', 'inspector02', 'inspector03'];

export interface Mix {
  list: number;
  detail: number;
  create: number;
}
/** The mix of decision 0099's runs and of the reliability suite's load (docs/reliability.md "Load"). */
export const MIXED: Mix = { list: 70, detail: 20, create: 10 };
/** The same calls without the writes: the baseline of a mixed run. */
export const READ_ONLY: Mix = { list: 78, detail: 22, create: 0 };

export interface MixedResult {
  /** Calls answered. */
  total: number;
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors and answers other than a 200 envelope. */
  errors: number;
  /** Calls the client gave up on after `timeoutSeconds` without an answer. */
  timeouts: number;
  /** How many different connections had at least one timeout. */
  connectionsTimedOut: number;
  /** Seconds into the run of the first few timeouts (evidence of their rhythm). */
  timeoutTimes: number[];
  /** Calls answered of each kind, and of those not 200 (by the client's own count). */
  answered: Record<keyof Mix, number>;
  failed: Record<keyof Mix, number>;
  /** The load client's own event-loop delay during the run (ms): a blocked client reads answers late. */
  clientLoopDelay: { p99: number; max: number };
  /** The creates: every target chat ID handed to the client, and the orders acknowledged (200) with their id and code. */
  creates: { sent: string[]; acked: { id: number; code: string; objWechat: string }[] };
}

/** A sign-in over HTTP; the `authorization` header value. */
async function bearer(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { status: number; msg: string; data: { token: string } };
  if (body.status !== 200) throw new Error(`login ${username}: ${body.msg}`);
  return `Bearer ${body.data.token}`;
}

interface Fixtures {
  admin: string;
  inspectors: { id: number; auth: string }[];
  shops: { id: number; prices: Record<string, number> }[];
  orderIds: number[];
  gameNames: string[];
}

/** Who calls and on what: the super admin's token, the demo inspectors', shops with their prices, order ids. */
export async function fixtures(app: Proc, adminBearer: string): Promise<Fixtures> {
  const get = async <T>(path: string, auth: string): Promise<T> => {
    const res = await fetch(`${app.url}${path}`, { headers: { authorization: auth } });
    const body = (await res.json()) as { status: number; msg: string; data: T };
    if (body.status !== 200) throw new Error(`${path}: ${body.msg}`);
    return body.data;
  };
  const page = await get<{ list: { id: number; userId: number | null; gameName: string }[] }>(
    '/api/admin/order/list?page=1&pageSize=200',
    adminBearer,
  );
  const shopIds = [...new Set(page.list.map((o) => o.userId).filter((id): id is number => id !== null))];
  const inspectors = await Promise.all(
    INSPECTORS.map(async (username) => {
      const auth = await bearer(app.url, username, DEMO_PASSWORD);
      const info = await get<{ id?: number; user?: { id: number } }>('/api/admin/user/info', auth);
      const id = info.user?.id ?? info.id;
      if (id === undefined) throw new Error(`no id for ${username}`);
      return { id, auth };
    }),
  );
  const shops = await Promise.all(
    shopIds.map(async (id) => ({
      id,
      prices: (await get<{ prices: Record<string, number> }>(`/api/admin/order/price?userId=${id}`, inspectors[0]!.auth)).prices,
    })),
  );
  return {
    admin: adminBearer,
    inspectors,
    shops,
    orderIds: page.list.map((o) => o.id),
    gameNames: [...new Set(page.list.map((o) => o.gameName))],
  };
}

/** A small deterministic random source, so runs of the same seed send the same calls. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export interface MixedOptions {
  connections: number;
  seconds: number;
  mix: Mix;
  /** The client's per-call timeout (autocannon's default, 10 s). */
  timeoutSeconds?: number;
  seed?: number;
  /**
   * No creates in the run's last seconds (3 by default; reads instead), so that every create is
   * answered before the client closes its connections at the end: a call still in flight then
   * gets no answer, and whether the server wrote it is unknowable. With it, a create without an
   * answer is one the client gave up on, and the books can be exact (bench/books.ts).
   */
  quietEndSeconds?: number;
}

/** One connection of the load client: its port and when its TCP handshake completed (wall-clock ms). */
export interface ClientSocket {
  port: number;
  connectedAt: number;
}

/**
 * One run of the mixed load against a started app (`fx` from `fixtures`): autocannon, one call
 * after another on each connection, all connections opened at once at the start as autocannon
 * does. Also returns each socket's port and handshake time, for `acceptWaits`.
 */
export async function mixedLoad(app: Proc, fx: Fixtures, opts: MixedOptions): Promise<MixedResult & { sockets: ClientSocket[] }> {
  const random = rng(opts.seed ?? 24);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const day = 86_400_000;
  const now = Date.now();
  const filters: (() => string)[] = [
    () => '',
    () => `&result=${pick([0, 1, 2, 3])}`,
    () => `&gameName=${encodeURIComponent(pick(fx.gameNames))}`,
    () => `&userId=${pick(fx.shops).id}`,
    () => `&orderStartTime=${new Date(now - Math.floor(random() * 60) * day).toISOString()}&orderEndTime=${new Date(now).toISOString()}`,
    () => `&inspectorId=${pick(fx.inspectors).id}&sortField=createdTime&sortOrder=descend`,
    () => `&result=1&ifPublic=1`,
  ];
  const total = opts.mix.list + opts.mix.detail + opts.mix.create;
  const answered: Record<keyof Mix, number> = { list: 0, detail: 0, create: 0 };
  const failed: Record<keyof Mix, number> = { list: 0, detail: 0, create: 0 };
  let created = 0;
  let started = performance.now();
  const createsUntil = (opts.seconds - (opts.quietEndSeconds ?? 3)) * 1000;
  const sent: string[] = [];
  const acked: MixedResult['creates']['acked'] = [];
  // Every call gets headers of its own: autocannon writes Content-Length into the headers object
  // it is handed, so a shared one would carry a POST's length into the next GET. The kind of the
  // call in flight is kept in the connection's context (one call at a time per connection).
  const request: autocannon.Request = {
    setupRequest: (req, ctx) => {
      const context = ctx as { kind?: keyof Mix; objWechat?: string };
      const roll = random() * total;
      if (roll < opts.mix.list) {
        context.kind = 'list';
        return {
          ...req,
          method: 'GET',
          path: `/api/admin/order/list?page=${1 + Math.floor(random() * 3)}&pageSize=20${pick(filters)()}`,
          headers: { authorization: fx.admin },
          body: undefined,
        };
      }
      if (roll < opts.mix.list + opts.mix.detail || performance.now() - started > createsUntil) {
        context.kind = 'detail';
        return {
          ...req,
          method: 'GET',
          path: `/api/admin/order/detail?id=${pick(fx.orderIds)}`,
          headers: { authorization: fx.admin },
          body: undefined,
        };
      }
      context.kind = 'create';
      const inspector = pick(fx.inspectors);
      const shop = pick(fx.shops);
      const result = pick([0, 1, 2, 3]);
      const n = created++;
      const hex = (v: number) => (v & 255).toString(16).padStart(2, '0');
      context.objWechat = `load_${opts.seed ?? 24}_${now}_${n}`;
      sent.push(context.objWechat);
      const body = JSON.stringify({
        objWechat: context.objWechat,
        objWechatName: `压测目标 ${n}`,
        gameName: pick(fx.gameNames),
        mac: `02-00-00-${hex(n >> 16)}-${hex(n >> 8)}-${hex(n)}`,
        installationTime: new Date(now - day).toISOString(),
        result,
        userId: shop.id,
        objClientName: '压测对方店铺',
        inspectorId: inspector.id,
        amount: shop.prices[String(result)] ?? 0,
      });
      return {
        ...req,
        method: 'POST',
        path: '/api/admin/order/create',
        headers: { authorization: inspector.auth, 'content-type': 'application/json' },
        body,
      };
    },
    onResponse: (status, body, ctx) => {
      const context = ctx as { kind?: keyof Mix; objWechat?: string };
      const kind = context.kind ?? 'list';
      answered[kind]++;
      // The envelope's own status too: a refusal is answered with HTTP 200 and status 4xx inside.
      let envelope: { status?: number; data?: { id?: number; code?: string } } = {};
      try {
        envelope = JSON.parse(body) as typeof envelope;
      } catch {
        // not JSON: counted as failed below
      }
      if (status !== 200 || envelope.status !== 200) failed[kind]++;
      else if (kind === 'create' && envelope.data?.id !== undefined && context.objWechat !== undefined)
        acked.push({ id: envelope.data.id, code: envelope.data.code ?? '', objWechat: context.objWechat });
    },
  };

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const timedOut = new Set<number>();
  const timeoutTimes: number[] = [];
  const sockets: ClientSocket[] = [];
  let clientNo = 0;
  started = performance.now();
  loopDelay.enable();
  const r = await autocannon({
    url: app.url,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: opts.timeoutSeconds ?? 10,
    requests: [request],
    setupClient: (client) => {
      const no = clientNo++;
      // Each (re)connection's port and handshake time (autocannon's _connect opens a new socket).
      const c = client as unknown as { _connect: () => void; conn: Socket; on: (event: 'timeout', listener: () => void) => void };
      const connect = c._connect;
      c._connect = function (this: typeof c) {
        connect.call(this);
        const conn = this.conn;
        conn.once('connect', () => sockets.push({ port: conn.localPort ?? 0, connectedAt: performance.timeOrigin + performance.now() }));
      };
      c.on('timeout', () => {
        timedOut.add(no);
        if (timeoutTimes.length < 12) timeoutTimes.push(Math.round((performance.now() - started) / 100) / 10);
      });
    },
  });
  loopDelay.disable();
  return {
    total: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    // Connection errors, and every answer that was not a 200 envelope (HTTP or the envelope's status).
    errors: r.errors - r.timeouts + failed.list + failed.detail + failed.create,
    timeouts: r.timeouts,
    connectionsTimedOut: timedOut.size,
    timeoutTimes,
    answered,
    failed,
    clientLoopDelay: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    creates: { sent, acked },
    sockets,
  };
}

/** What the server saw of a run (bench/server-probe.mjs). */
export interface Probe {
  requests: number;
  answered: number;
  loopDelayP99: number;
  loopDelayMax: number;
  accepted: [port: number, at: number][];
}

/**
 * How long each client connection waited between its handshake and the server accepting it (ms,
 * ascending); never-accepted ones count to `end`. The client notes the handshake when its own
 * event loop gets to it, up to its loop delay late, so a wait is at least the figure.
 */
export function acceptWaits(sockets: readonly ClientSocket[], probe: Probe, end: number): number[] {
  const acceptedAt = new Map<number, number[]>();
  for (const [port, at] of probe.accepted) acceptedAt.set(port, [...(acceptedAt.get(port) ?? []), at]);
  return sockets
    .map((s) => {
      // A port is not reused within a run; the margin covers the client's late note of the handshake.
      const at = (acceptedAt.get(s.port) ?? []).find((t) => t >= s.connectedAt - 5000);
      return Math.max(0, (at ?? end) - s.connectedAt);
    })
    .sort((a, b) => a - b);
}

export { pct };
