// The workplace at scale on SQLite and PostgreSQL: GET /admin/workplace over
// 1,000,000 orders and 2,000 shops, answered at the server (buildApp + app.inject), beside the
// plain recount the same figures would need without the counters (totals, results, this and
// last month, the 30-day series, pending, latest orders, renewals, balances) straight on the
// driver, in the same run. Seeded with bench/orders-seed.ts (which also fills the counters as
// the order writes keep them).
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { type Db } from '../apps/server/src/db/index.ts';
import { businessDayOf, businessMonthOf } from '../apps/server/src/lib/business-time.ts';
import { DAY_MS } from '../apps/server/src/lib/time.ts';
import { ADMIN_PASSWORD, fmt, ratio, timeBeside, type Section } from './lib.ts';
import { seedOrders, seedPeople } from './orders-seed.ts';
import { appOn, firstStart, onEachTarget, type Target } from './targets.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const SHOPS = Number(process.env.BENCH_SHOPS ?? 2_000);
const SPAN_MS = 730 * DAY_MS;
const REQUESTS = Number(process.env.BENCH_WORKPLACE_REQUESTS ?? 100);
const TARGET_P95_MS = 50;

/** The workplace's figures recounted from the raw rows (what the counters save). */
function recountQueries(db: Db, now: number) {
  const month = businessMonthOf(now);
  const seriesStart = businessDayOf(now) - 29 * DAY_MS;
  const shanghaiDay = sql<number>`created_at - ((created_at + ${sql.lit(8 * 3_600_000)}) % ${sql.lit(DAY_MS)})`;
  return [
    db.selectFrom('users').select((eb) => eb.fn.sum('balance').as('s')),
    db.selectFrom('orders').select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('amount').as('amount')]),
    db
      .selectFrom('orders')
      .select((eb) => ['result', eb.fn.countAll().as('n'), eb.fn.sum('amount').as('amount')])
      .groupBy('result'),
    db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('amount').as('amount')])
      .where('createdAt', '>=', month)
      .where('createdAt', '<', businessMonthOf(now, 1)),
    db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('amount').as('amount')])
      .where('createdAt', '>=', businessMonthOf(now, -1))
      .where('createdAt', '<', month),
    db
      .selectFrom('orders')
      .select((eb) => [shanghaiDay.as('day'), eb.fn.countAll().as('n'), eb.fn.sum('amount').as('amount')])
      .where('createdAt', '>=', seriesStart)
      .groupBy(shanghaiDay),
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('result', '=', 3),
    db.selectFrom('orders').selectAll().where('result', '=', 3).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(5),
    db.selectFrom('orders').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(8),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('serviceEndAt', '>=', now - 30 * DAY_MS)
      .where('serviceEndAt', '<=', now + 7 * DAY_MS),
  ].map((q) => q.compile());
}

async function runTarget(target: Target): Promise<string> {
  const { config, db } = appOn(target);
  const now = Date.now();
  try {
    await firstStart(db);
    const people = await seedPeople(db, SHOPS, 20, now);
    const timings = await seedOrders(db, target.name, people, { orders: ORDERS, now, spanMs: SPAN_MS });
    console.log(`  ${target.name}: ${timings.join('; ')}`);
    const app = await buildApp({ config, db, logger: false });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/admin/user/login',
        payload: { username: 'superadmin', password: ADMIN_PASSWORD },
      });
      const auth = `Bearer ${login.json<{ data: { token: string } }>().data.token}`;
      const queries = recountQueries(db, now);
      let total = 0;
      const { server, baseline: raw } = await timeBeside(
        REQUESTS,
        5,
        () => app.inject({ method: 'GET', url: '/api/admin/workplace', headers: { authorization: auth } }),
        async () => {
          for (const q of queries) await target.raw.run(q);
        },
        (res) => {
          const body = res.json<{ status: number; msg: string; data: { total: { count: number } } }>();
          if (body.status !== 200) throw new Error(`workplace: ${body.msg}`);
          total = body.data.total.count;
        },
      );
      if (total !== ORDERS) throw new Error(`workplace total ${total}, seeded ${ORDERS}`);
      return `| ${target.name} | ${fmt(ORDERS)} | ${fmt(server.p50, 1)} | ${fmt(server.p95, 1)} | ${fmt(raw.p50, 1)} | ${fmt(raw.p95, 1)} | ${ratio(server.p95, raw.p95)} | ${fmt(server.cpuMs, 2)} | ${server.p95 <= TARGET_P95_MS ? 'yes' : 'no'} |`;
    } finally {
      await app.close();
      await target.raw.close();
    }
  } finally {
    await db.destroy();
    await target.drop();
  }
}

export async function run(): Promise<Section[]> {
  const rows = await onEachTarget('workplace', runTarget);
  return [
    {
      title: 'Workplace (issue 13)',
      body: `GET /admin/workplace over ${fmt(ORDERS)} orders and ${fmt(SHOPS)} shops, ${REQUESTS} requests after 5 warm-ups, at the
server (\`app.inject\`: session, the service, serialization) beside the plain recount of the same figures from the
orders table (${10} queries straight on the driver) in the same run. Target: p95 ≤ ${TARGET_P95_MS} ms at the server.
"server CPU ms" is this process's CPU time per request (user + system, \`process.cpuUsage\`): on a loaded machine the
wall-clock percentiles grow with the other processes' load, the CPU time does not. On PostgreSQL the database's own
CPU is in its server process, not in this figure.

| database | orders | server p50 ms | server p95 ms | recount p50 ms | recount p95 ms | p95 server / recount | server CPU ms / request | ≤ ${TARGET_P95_MS} ms |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`,
    },
  ];
}
