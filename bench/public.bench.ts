// The public calls over 1,000,000 orders on SQLite and PostgreSQL, each beside the
// raw SQL it runs, in the same run: the look-up by chat ID (a public hit, a private one, none),
// the certificate by code (public, private = 404), the links, the prices and the figures.
// "server" = app.inject on the real app (routing, rate limit, validation, service, the result
// labels' dictionary read, serialization); "raw SQL" = the module's order query compiled from
// public.repository, run straight on the driver. Each request comes from its own address, so
// the per-client limits never answer 429 here.
import { cpus, loadavg } from 'node:os';
import { sql, type CompiledQuery } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { type Db } from '../apps/server/src/db/index.ts';
import { DAY_MS } from '../apps/server/src/lib/time.ts';
import * as repo from '../apps/server/src/modules/public/public.repository.ts';
import { fmt, ratio, timeBeside, type Section } from './lib.ts';
import { seedCode, seedOrders, seedPeople } from './orders-seed.ts';
import { appOn, firstStart, onEachTarget, type Target } from './targets.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const SHOPS = Number(process.env.BENCH_SHOPS ?? 2_000);
const REQUESTS = 200;
const TARGET_P95_MS = 20;

const spread = (i: number, mod: number) => ((i * 2654435761) >>> 0) % mod;
const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i & 255) + 1}`;

interface Case {
  name: string;
  url: (i: number) => string;
  expect: number;
  raw: (i: number) => CompiledQuery;
}

interface Row {
  name: string;
  server: [number, number];
  raw: [number, number];
}

const dictQuery = (db: Db, code: string) =>
  db
    .selectFrom('dictData')
    .innerJoin('dictTypes', 'dictTypes.code', 'dictData.typeCode')
    .selectAll('dictData')
    .where('dictData.typeCode', '=', code)
    .where('dictData.status', '=', 1)
    .where('dictTypes.status', '=', 1)
    .orderBy('dictData.sort')
    .orderBy('dictData.id')
    .compile();

async function runTarget(target: Target): Promise<Section> {
  const { config, db } = appOn(target);
  const now = Date.now();
  const loadBefore = loadavg()[0]!;
  try {
    await firstStart(db);
    const people = await seedPeople(db, SHOPS, 20, now);
    const timings = await seedOrders(db, target.name, people, { orders: ORDERS, now, spanMs: 730 * DAY_MS });
    // Published prices, so the prices call reads rows.
    const priceLabels = [
      ['正常', 'Normal'],
      ['作弊', 'Cheating'],
      ['未通过', 'Failed'],
      ['可疑', 'Suspicious'],
    ] as const;
    for (const [k, [label, labelEn]] of priceLabels.entries()) {
      await db
        .insertInto('dictData')
        .values({
          typeCode: 'public_price',
          label,
          labelEn,
          value: String(3000 + k * 1000),
          sort: k,
          cssClass: '',
          listClass: 'default',
          isDefault: 0,
          parentId: null,
          status: 1,
          remark: '',
          createdAt: now,
        })
        .execute();
    }
    // Every step-th order from the 7th on; with fewer than 8,000 orders the step is below 8 and
    // `id % step` never reaches 7, so start from the remainder 0 instead of an empty sample.
    const step = Math.max(1, Math.floor(ORDERS / 1000));
    const remainder = step > 7 ? 7 : 0;
    const sample = (ifPublic: number) =>
      db
        .selectFrom('orders')
        .select(['objWechat', 'code'])
        .where('ifPublic', '=', ifPublic)
        .where(sql<boolean>`id % ${step} = ${remainder}`)
        .limit(200)
        .execute();
    const publicRows = await sample(1);
    const privateRows = await sample(0);
    if (publicRows.length === 0 || privateRows.length === 0)
      throw new Error(`public bench: no public or private order among ${ORDERS} to sample`);
    const cases: Case[] = [
      {
        name: 'look-up, a public chat ID (found)',
        url: (i) => `/api/public/lookup?chatId=${publicRows[i % publicRows.length]!.objWechat.toUpperCase()}`,
        expect: 200,
        raw: (i) => repo.publicOrdersByChatIdQuery(db, publicRows[i % publicRows.length]!.objWechat.toLowerCase(), 20).compile(),
      },
      {
        name: 'look-up, a private chat ID (nothing)',
        url: (i) => `/api/public/lookup?chatId=${privateRows[i % privateRows.length]!.objWechat}`,
        expect: 200,
        raw: (i) => repo.publicOrdersByChatIdQuery(db, privateRows[i % privateRows.length]!.objWechat, 20).compile(),
      },
      {
        name: 'certificate, a public code',
        url: (i) => `/api/public/verify/${publicRows[i % publicRows.length]!.code}`,
        expect: 200,
        raw: (i) => repo.publicOrderByCodeQuery(db, publicRows[i % publicRows.length]!.code).compile(),
      },
      {
        name: 'certificate, a private or unknown code (404)',
        url: (i) => `/api/public/verify/${i % 2 === 0 ? privateRows[i % privateRows.length]!.code : seedCode(ORDERS + spread(i, 1e6))}`,
        expect: 404,
        raw: (i) =>
          repo
            .publicOrderByCodeQuery(db, i % 2 === 0 ? privateRows[i % privateRows.length]!.code : seedCode(ORDERS + spread(i, 1e6)))
            .compile(),
      },
      { name: 'links', url: () => '/api/public/links', expect: 200, raw: () => dictQuery(db, 'linkstore') },
      { name: 'prices', url: () => '/api/public/prices', expect: 200, raw: () => dictQuery(db, 'public_price') },
      {
        name: 'figures (order_daily sums)',
        url: () => '/api/public/figures',
        expect: 200,
        raw: () => repo.orderFiguresQuery(db, 1).compile(),
      },
    ];
    const app = await buildApp({ config, db, logger: false });
    const rows: Row[] = [];
    const plans: string[] = [];
    let n = 0;
    try {
      for (const c of cases) {
        const get = (i: number) => app.inject({ method: 'GET', url: c.url(i), remoteAddress: ip(++n) });
        const { server, baseline: raw } = await timeBeside(
          REQUESTS,
          10,
          get,
          (i) => target.raw.run(c.raw(i)),
          (res) => {
            if (res.statusCode !== c.expect) throw new Error(`${c.name}: HTTP ${res.statusCode} ${res.body}`);
          },
        );
        rows.push({ name: c.name, server: [server.p50, server.p95], raw: [raw.p50, raw.p95] });
        plans.push(`${c.name}:\n${(await target.raw.explain(c.raw(0))).map((l) => `  ${l}`).join('\n')}`);
      }
    } finally {
      await app.close();
    }
    const worst = Math.max(...rows.map((r) => r.server[1]));
    const table = [
      '| call | server p50 / p95, ms | raw SQL p50 / p95, ms | p95 ratio |',
      '|---|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${fmt(r.server[0], 2)} / **${fmt(r.server[1], 2)}** | ${fmt(r.raw[0], 2)} / ${fmt(r.raw[1], 2)} | ${ratio(r.server[1], r.raw[1])} |`,
      ),
    ].join('\n');
    const body = `Seeded: ${timings.join('; ')}. Machine load (1-minute average) ${fmt(loadBefore, 1)} at the start, ${fmt(loadavg()[0]!, 1)} at the end, on ${cpus().length} CPUs.

${table}

Target: every public call p95 ≤ ${TARGET_P95_MS} ms at ${fmt(ORDERS)} orders — worst here **${fmt(worst, 2)} ms** (${worst <= TARGET_P95_MS ? 'met' : 'NOT met'}).
${REQUESTS} requests per call, one at a time, each from its own address (no 429). "server" = \`app.inject\` on the real
app (routing, rate limit, validation, service with its dictionary read, serialization; no socket); "raw SQL" =
the call's main query compiled from \`modules/public/public.repository.ts\` (links and prices: the dictionary
query), straight on the driver, in the same run. Orders as in the orders bench (30 % public, chat IDs
\`wxid_\` + 14 hex digits); the look-up sends the chat ID in upper case (matched case-insensitively).

<details><summary>Query plans</summary>

\`\`\`
${plans.join('\n')}
\`\`\`
</details>`;
    return { title: `Public calls at ${fmt(ORDERS)} orders (${target.name})`, body };
  } finally {
    await target.raw.close();
    await db.destroy();
    await target.drop();
  }
}

export async function run(): Promise<Section[]> {
  return onEachTarget('public', runTarget);
}
