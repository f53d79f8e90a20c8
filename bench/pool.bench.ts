// The connection pool's size on PostgreSQL (decision 0083): 200 connections of mixed traffic
// (the order list and order details, half each) against the server with DB_POOL_SIZE=20, beside
// the same load against the same server with the former fixed pool of 10, in alternating rounds
// of the same run. Real HTTP on loopback, the server run as `npm start` runs it, the demo
// business on a throwaway PostgreSQL database (BENCH_PG_URL).
import type autocannon from 'autocannon';
import { fmt, load, ratio, startApp, superAdminBearer, type Load, type Section } from './lib.ts';
import { PG_ADMIN_URL, postgresTarget } from './targets.ts';

const CONNECTIONS = 200;
const ROUNDS = 3;
const SECONDS = 8;
const BASELINE_POOL = 10;
const POOLS = [20, 40];

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export async function run(): Promise<Section[]> {
  const target = await postgresTarget(PG_ADMIN_URL);
  if (target === null) return [];
  try {
    const results = new Map<number, Load[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const pool of [BASELINE_POOL, ...POOLS]) {
        const app = await startApp({ ...target.env, DB_POOL_SIZE: String(pool) }, { built: true });
        try {
          const headers = { authorization: await superAdminBearer(app) };
          const list = await fetch(`${app.url}/api/admin/order/list?page=1&pageSize=50`, { headers });
          const ids = ((await list.json()) as { data: { list: { id: number }[] } }).data.list.map((o) => o.id);
          let next = 0;
          const requests: autocannon.Request[] = [
            { method: 'GET', path: '/api/admin/order/list?page=1&pageSize=20', headers },
            {
              method: 'GET',
              headers,
              setupRequest: (req) => ({ ...req, path: `/api/admin/order/detail?id=${ids[next++ % ids.length] ?? 1}` }),
            },
          ];
          await load({ url: app.url, requests, connections: CONNECTIONS, duration: 2 }); // warm-up
          const measured = await load({ url: app.url, requests, connections: CONNECTIONS, duration: SECONDS });
          results.set(pool, [...(results.get(pool) ?? []), measured]);
        } finally {
          await app.stop();
        }
      }
    }
    const base = results.get(BASELINE_POOL) ?? [];
    const baseRps = median(base.map((r) => r.rps));
    const baseP50 = median(base.map((r) => r.p50));
    const baseP99 = median(base.map((r) => r.p99));
    const row = (pool: number, runs: Load[]) => {
      const rps = median(runs.map((r) => r.rps));
      const p50 = median(runs.map((r) => r.p50));
      const p99 = median(runs.map((r) => r.p99));
      const errors = runs.reduce((n, r) => n + r.errors, 0);
      return `| ${pool} | ${fmt(rps)} | ${fmt(p50)} | ${fmt(p99)} | ${errors} | ${ratio(rps, baseRps)} | ${ratio(p50, baseP50)} | ${ratio(p99, baseP99)} |`;
    };
    const body = `
${CONNECTIONS} autocannon connections, half order-list pages (20 rows) and half order details, for ${SECONDS} s per
round after a 2 s warm-up; ${ROUNDS} rounds, each pool size in turn, medians shown. The server is the built bundle on a
throwaway PostgreSQL database with the demo business; each round restarts it with \`DB_POOL_SIZE\` set. Baseline: the
former fixed pool of ${BASELINE_POOL}, in the same rounds.

| DB_POOL_SIZE | req/s | p50 ms | p99 ms | errors | req/s ÷ pool ${BASELINE_POOL} | p50 ÷ pool ${BASELINE_POOL} | p99 ÷ pool ${BASELINE_POOL} |
| --: | --: | --: | --: | --: | --: | --: | --: |
${row(BASELINE_POOL, base)}
${POOLS.map((pool) => row(pool, results.get(pool) ?? [])).join('\n')}
`;
    return [{ title: 'Connection pool size on PostgreSQL (mixed list and detail load)', body }];
  } finally {
    await target.drop();
  }
}
