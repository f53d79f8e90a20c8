// Visit statistics at scale: GET /admin/visit-stats/overview over 1,000,000 page views
// (and 200,000 client events) spread over 90 days, answered at the server (buildApp + app.inject:
// routing, session, the service, serialization; no socket) beside, in the same run, (a) the same
// compiled counter queries straight on the driver and (b) the plain recount of the raw rows the
// counters replace. Rows are seeded directly (as bench/orders-seed.ts does), and the day
// counters are built from them exactly as the tracking service writes them row by row.
import { sql, type CompiledQuery } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { type Db } from '../apps/server/src/db/index.ts';
import { BUSINESS_UTC_OFFSET_MS, businessDayOf } from '../apps/server/src/lib/business-time.ts';
import { DAY_MS } from '../apps/server/src/lib/time.ts';
import * as trackingRepo from '../apps/server/src/modules/tracking/tracking.repository.ts';
import { overviewFrom, TOP_LIMIT, visitorKey } from '../apps/server/src/modules/tracking/tracking.service.ts';
import { ADMIN_PASSWORD, fmt, percentiles, ratio, timeBeside, type Section } from './lib.ts';
import { appOn, firstStart, onEachTarget, type Target } from './targets.ts';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 1_000_000);
const EVENTS = Math.round(VIEWS / 5);
const DAYS = 90;
const REQUESTS = 200;
const RECOUNT_REQUESTS = 20;
const TARGET_P95_MS = 50;
const NOW = Date.now();

function rng(seedValue: number) {
  let s = seedValue >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATHS = [
  '/',
  '/home',
  '/linkstore',
  '/login',
  '/dashboard/workplace',
  '/dashboard/monitor',
  '/order/inspect',
  '/system/user',
  '/system/log',
  '/system/role',
  '/system/dict',
  '/visualization/data-analysis',
  ...Array.from({ length: 40 }, (_, i) => `/help/article-${i}`),
];
const REFERRERS = ['', '', '', 'https://www.baidu.com', 'https://www.google.com', 'https://mp.weixin.qq.com', '/home', '/order/inspect'];
const EVENT_NAMES = ['order.export', 'order.import', 'order.create', 'theme.toggle', 'locale.change', 'announcement.open', 'search'];

async function seedVisits(db: Db): Promise<string> {
  const random = rng(13);
  const t = performance.now();
  const visitDay = new Map<number, { pv: number; visitors: Set<string> }>();
  const pageDay = new Map<string, number>();
  const refDay = new Map<string, number>();
  const eventDay = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const BATCH = 2000;
  for (let from = 0; from < VIEWS; from += BATCH * 10) {
    await db.transaction().execute(async (trx) => {
      for (let b = from; b < Math.min(VIEWS, from + BATCH * 10); b += BATCH) {
        const rows = [];
        for (let i = b; i < Math.min(VIEWS, b + BATCH); i++) {
          const createdAt = NOW - DAYS * DAY_MS + Math.floor((i / VIEWS) * DAYS * DAY_MS);
          const signedIn = random() < 0.3;
          const userId = signedIn ? 1 + Math.floor(random() * 200) : null;
          const ip = `10.${Math.floor(random() * 8)}.${Math.floor(random() * 250)}.${Math.floor(random() * 250)}`;
          const userAgent = `Mozilla/5.0 bench-${Math.floor(random() * 4)}`;
          const path = PATHS[Math.floor(Math.pow(random(), 2) * PATHS.length)]!;
          const referrer = REFERRERS[Math.floor(random() * REFERRERS.length)]!;
          rows.push({ userId, path, userAgent, referrer, ip, createdAt });
          const day = businessDayOf(createdAt);
          const entry = visitDay.get(day) ?? { pv: 0, visitors: new Set<string>() };
          entry.pv += 1;
          entry.visitors.add(visitorKey({ userId, ip, userAgent }, userAgent));
          visitDay.set(day, entry);
          bump(pageDay, `${day}|${path}`);
          if (referrer !== '') bump(refDay, `${day}|${referrer}`);
        }
        await trx.insertInto('pageViews').values(rows).execute();
      }
    });
  }
  for (let from = 0; from < EVENTS; from += BATCH) {
    const rows = [];
    for (let i = from; i < Math.min(EVENTS, from + BATCH); i++) {
      const createdAt = NOW - DAYS * DAY_MS + Math.floor((i / EVENTS) * DAYS * DAY_MS);
      const event = EVENT_NAMES[Math.floor(random() * EVENT_NAMES.length)]!;
      rows.push({ userId: null, event, data: '', clientTime: createdAt, createdAt });
      bump(eventDay, `${businessDayOf(createdAt)}|${event}`);
    }
    await db.insertInto('clientEvents').values(rows).execute();
  }
  const split = (key: string): [number, string] => {
    const at = key.indexOf('|');
    return [Number(key.slice(0, at)), key.slice(at + 1)];
  };
  await db.transaction().execute(async (trx) => {
    for (const [day, v] of visitDay) {
      await trx.insertInto('visitDaily').values({ day, pv: v.pv, uv: v.visitors.size }).execute();
      const visitors = [...v.visitors];
      for (let i = 0; i < visitors.length; i += 5000)
        await trx
          .insertInto('visitorDaily')
          .values(visitors.slice(i, i + 5000).map((visitor) => ({ day, visitor })))
          .execute();
    }
    const named = async (
      table: 'pageViewDaily' | 'referrerDaily' | 'eventDaily',
      column: 'path' | 'referrer' | 'event',
      map: Map<string, number>,
    ) => {
      const rows = [...map].map(([key, n]) => {
        const [day, name] = split(key);
        return { day, [column]: name, n };
      });
      for (let i = 0; i < rows.length; i += 2000)
        await trx
          .insertInto(table)
          .values(rows.slice(i, i + 2000) as never)
          .execute();
    };
    await named('pageViewDaily', 'path', pageDay);
    await named('referrerDaily', 'referrer', refDay);
    await named('eventDaily', 'event', eventDay);
  });
  const uv = [...visitDay.values()].reduce((a, v) => a + v.visitors.size, 0);
  return `${fmt(VIEWS)} page views, ${fmt(EVENTS)} client events over ${DAYS} days (${fmt(uv)} visitor-days) and their day counters in ${fmt((performance.now() - t) / 1000, 1)} s`;
}

/** The plain recount the counters replace: the same figures from the raw rows of the 30 days. */
function recountQueries(db: Db, from: number): CompiledQuery[] {
  const day = sql.raw(`(((created_at + ${BUSINESS_UTC_OFFSET_MS}) / ${DAY_MS}) * ${DAY_MS} - ${BUSINESS_UTC_OFFSET_MS})`);
  const visitor = sql.raw(`coalesce(cast(user_id as varchar(20)), ip || user_agent)`);
  const top = (column: string, table: string, extra = '') =>
    sql`select ${sql.ref(column)} as name, count(*) as count from ${sql.table(table)} where created_at >= ${from} ${sql.raw(extra)}
      group by ${sql.ref(column)} order by count desc, name limit ${TOP_LIMIT}`;
  return [
    sql`select ${day} as day, count(*) as pv, count(distinct ${visitor}) as uv from page_views where created_at >= ${from} group by ${day}`,
    top('path', 'page_views'),
    top('referrer', 'page_views', "and referrer <> ''"),
    top('event', 'client_events'),
  ].map((q) => q.compile(db));
}

async function runTarget(target: Target): Promise<Section> {
  const { config, db } = appOn(target);
  try {
    await firstStart(db);
    const seeded = await seedVisits(db);
    if (target.name === 'SQLite') {
      await sql`analyze`.execute(db);
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
    } else {
      await sql`vacuum analyze`.execute(db);
      await sql`checkpoint`.execute(db);
    }
    const app = await buildApp({ config, db, logger: false });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/admin/user/login',
        payload: { username: 'superadmin', password: ADMIN_PASSWORD },
      });
      const auth = `Bearer ${login.json<{ data: { token: string } }>().data.token}`;
      const from = overviewFrom(Date.now());
      const counterQueries = [
        trackingRepo.visitDaysQuery(db, from).compile(),
        trackingRepo.topNamedQuery('pageViewDaily', from, TOP_LIMIT).compile(db),
        trackingRepo.topNamedQuery('referrerDaily', from, TOP_LIMIT).compile(db),
        trackingRepo.topNamedQuery('eventDaily', from, TOP_LIMIT).compile(db),
      ];
      const recount = recountQueries(db, from);
      const call = async () => {
        const res = await app.inject({ method: 'GET', url: '/api/admin/visit-stats/overview', headers: { authorization: auth } });
        const body = res.json<{ status: number; msg: string; data: { today: { pv: number } } }>();
        if (body.status !== 200) throw new Error(`overview: ${body.msg}`);
        return body.data;
      };
      let pv30 = 0;
      const { server, baseline: raw } = await timeBeside(
        REQUESTS,
        10,
        call,
        async () => {
          for (const q of counterQueries) await target.raw.run(q);
        },
        (data) => {
          pv30 = (data as unknown as { days: { pv: number }[] }).days.reduce((a, d) => a + d.pv, 0);
        },
      );
      const recountTimes: number[] = [];
      let recountPv = 0;
      for (let i = 0; i < RECOUNT_REQUESTS; i++) {
        const t0 = performance.now();
        const [days] = await Promise.all(recount.map((q) => target.raw.run(q)));
        recountTimes.push(performance.now() - t0);
        recountPv = (days as { pv: number | string }[]).reduce((a, d) => a + Number(d.pv), 0);
      }
      if (recountPv !== pv30) throw new Error(`the counters (${pv30} page views in 30 days) disagree with the recount (${recountPv})`);
      const recounts = percentiles(recountTimes);
      const plans: string[] = [];
      for (const q of counterQueries) plans.push(...(await target.raw.explain(q)).map((l) => `  ${l}`), '  --');
      const p95 = server.p95;
      return {
        title: `Visit statistics overview (${target.name})`,
        body: `Seeded: ${seeded}.

| call | server p50 ms | server p95 ms | counter SQL p50 ms | counter SQL p95 ms | raw recount p50 ms | raw recount p95 ms |
|---|---:|---:|---:|---:|---:|---:|
| GET /admin/visit-stats/overview (${fmt(pv30)} page views in its 30 days) | ${fmt(server.p50, 2)} | **${fmt(p95, 2)}** | ${fmt(raw.p50, 2)} | ${fmt(raw.p95, 2)} | ${fmt(recounts.p50, 1)} | ${fmt(recounts.p95, 1)} |

Target p95 ≤ ${TARGET_P95_MS} ms: **${p95 <= TARGET_P95_MS ? 'met' : 'NOT met'}**. Server p95 / counter SQL p95 = ${ratio(p95, raw.p95)};
server p95 / raw recount p95 = ${ratio(p95, recounts.p95)}. ${REQUESTS} requests one at a time ("server" = \`app.inject\` on the real
app: session check, service, serialization), the counter SQL = the same four compiled queries on the driver, the raw recount = the same
figures counted from page_views and client_events (${RECOUNT_REQUESTS} runs; its 30-day page-view total equals the counters').

<details><summary>Query plans (${target.name})</summary>

\`\`\`
${plans.slice(0, -1).join('\n')}
\`\`\`
</details>`,
      };
    } finally {
      await app.close();
    }
  } finally {
    await db.destroy();
    await target.raw.close();
    await target.drop();
  }
}

export async function run(): Promise<Section[]> {
  return onEachTarget('visits', runTarget);
}
