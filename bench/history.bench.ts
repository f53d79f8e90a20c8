// The target history (decision 0059) over 1,000,000 orders on SQLite and PostgreSQL:
// GET /admin/order/history for a mix of chat IDs and MACs, as staff and as a shop, at the
// server (buildApp + app.inject: session, permission, validation, the service, serialization)
// beside the raw SQL of the same call (the history queries compiled from
// orders.history.repository with the same key, MAC and visibility, straight on the driver), in
// the same run. Seeded with bench/orders-seed.ts, whose chat IDs and MACs are all distinct; a
// thousand rows spread over the two years then get 50 repeat targets (20 records each, chat
// IDs in mixed case) on 70 shared machines, so a call finds real histories. The query plans are
// read with EXPLAIN and checked to use the normalized chat ID index (migration 0010) and the
// MAC index (0004).
import { cpus, loadavg } from 'node:os';
import { normalizeMac } from '@clearplay/contract';
import { sql, type CompiledQuery } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { DAY_MS } from '../apps/server/src/lib/time.ts';
import * as repo from '../apps/server/src/modules/orders/history/orders.history.repository.ts';
import { ADMIN_PASSWORD, fmt, ratio, timeBeside, type Section } from './lib.ts';
import { seedOrders, seedPeople, SHOP_PASSWORD } from './orders-seed.ts';
import { appOn, firstStart, onEachTarget, type Target } from './targets.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const SHOPS = Number(process.env.BENCH_SHOPS ?? 2_000);
const REQUESTS = Number(process.env.BENCH_HISTORY_REQUESTS ?? 200);
const TARGET_P95_MS = 10;
/** Planted: this many repeat targets and shared machines over 1,000 spread rows. */
const REPEAT_TARGETS = 50;
const MACHINES = 70;

/** The normalized chat ID's indexes: 0010's (key, result, created_at, id) and 0004's lower(obj_wechat); the MAC's: 0004's. */
const CHAT_INDEXES = ['orders_wechat_key_result_idx', 'orders_obj_wechat_lower_idx'];
const MAC_INDEXES = ['orders_mac_idx'];

/** The chat ID of planted target k as stored (mixed case, so the lookup's folding is exercised). */
const repeatChat = (k: number) => `Wxid_Repeat${k}`;
/** The MAC of planted machine k in normal form; its digits are decimal, so valid hex. */
const machineMac = (k: number) => `0A-00-00-00-00-${k + 10}`;

interface Who {
  name: 'staff' | 'shop';
  auth: string;
  /** The visibility the service applies: undefined for staff, the shop's id for a shop. */
  visibleTo: number | undefined;
}

interface Call {
  objWechat?: string;
  mac?: string;
  /** Only records before this order (the detail modal). */
  before?: { id: number; createdAt: number; objWechat: string; mac: string };
}

interface Case {
  name: string;
  who: Who;
  call: (i: number) => Call;
}

const spread = (i: number, mod: number) => ((i * 2654435761) >>> 0) % mod;

function urlOf(c: Call): string {
  const q = new URLSearchParams();
  if (c.before !== undefined) q.set('orderId', String(c.before.id));
  if (c.objWechat !== undefined) q.set('objWechat', c.objWechat);
  if (c.mac !== undefined) q.set('mac', c.mac);
  return `/api/admin/order/history?${q.toString()}`;
}

/** The history queries the service runs for this call, compiled (latestFlagged only runs when the listed records lack one). */
function rawQueries(db: Parameters<typeof repo.sameTargetQuery>[0], c: Call, who: Who): { chat: CompiledQuery[]; mac: CompiledQuery[] } {
  const objWechat = c.objWechat ?? c.before?.objWechat;
  const macText = c.mac ?? c.before?.mac;
  const mac = macText === undefined ? undefined : (normalizeMac(macText) ?? undefined);
  const scope: repo.HistoryScope = { visibleTo: who.visibleTo };
  if (c.before !== undefined) scope.before = { createdAt: c.before.createdAt, id: c.before.id };
  const key = objWechat === undefined ? undefined : repo.chatKeyFor(db, objWechat);
  return {
    chat: key === undefined ? [] : [repo.sameTargetQuery(db, key, scope).compile(), repo.countByResultQuery(db, key, scope).compile()],
    mac:
      mac === undefined
        ? []
        : [repo.sameMachineQuery(db, [mac], key, scope).compile(), repo.machineChatIdsQuery(db, [mac], key, scope).compile()],
  };
}

interface Row {
  name: string;
  records: number;
  server: { p50: number; p95: number };
  raw: { p50: number; p95: number };
  indexes: string;
}

async function runTarget(target: Target): Promise<Section> {
  const { config, db } = appOn(target);
  const now = Date.now();
  const loadBefore = loadavg()[0]!;
  try {
    await firstStart(db);
    const people = await seedPeople(db, SHOPS, 20, now);
    const timings = await seedOrders(db, target.name, people, { orders: ORDERS, now, spanMs: 730 * DAY_MS });

    // Plant the repeat targets and shared machines on 1,000 rows spread over the span.
    const step = Math.max(1, Math.floor(ORDERS / 1000));
    const t0 = performance.now();
    await sql`update orders
      set obj_wechat = ${sql.lit('Wxid_Repeat')} || cast((id / ${sql.lit(step)}) % ${sql.lit(REPEAT_TARGETS)} as varchar(8)),
        mac = ${sql.lit('0A-00-00-00-00-')} || cast((id / ${sql.lit(step)}) % ${sql.lit(MACHINES)} + 10 as varchar(8))
      where id % ${sql.lit(step)} = 0`.execute(db);
    // Fresh statistics after the plant, as autovacuum (PostgreSQL) or a maintained SQLite database would have.
    await (target.name === 'SQLite' ? sql`analyze` : sql`analyze orders`).execute(db);
    timings.push(`${REPEAT_TARGETS} repeat targets on ${MACHINES} machines planted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // Single records (the usual target) and orders of the planted targets for the detail modal.
    const singles = await db
      .selectFrom('orders')
      .select(['objWechat', 'mac'])
      .where(sql<boolean>`id % ${sql.lit(step)} = ${sql.lit(Math.floor(step / 2))}`)
      .limit(200)
      .execute();
    const planted = await db
      .selectFrom('orders')
      .select(['id', 'createdAt', 'objWechat', 'mac', 'userId', 'ifPublic'])
      .where(sql<boolean>`id % ${sql.lit(step)} = 0`)
      .orderBy('id', 'desc')
      .limit(200)
      .execute();
    const shopId = people.shops[0]!;
    const seenByShop = planted.filter((r) => Number(r.userId) === shopId || r.ifPublic === 1);
    if (singles.length === 0 || seenByShop.length === 0) throw new Error('no rows to look up');
    const before = (r: (typeof planted)[number]) => ({
      id: Number(r.id),
      createdAt: Number(r.createdAt),
      objWechat: r.objWechat,
      mac: r.mac,
    });

    const app = await buildApp({ config, db, logger: false });
    const login = async (username: string, password: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/admin/user/login', payload: { username, password } });
      const body = res.json<{ status: number; msg: string; data: { token: string } }>();
      if (body.status !== 200) throw new Error(`login ${username}: ${body.msg}`);
      return `Bearer ${body.data.token}`;
    };
    const rows: Row[] = [];
    const plans: string[] = [];
    try {
      const staff: Who = { name: 'staff', auth: await login('superadmin', ADMIN_PASSWORD), visibleTo: undefined };
      const shop: Who = { name: 'shop', auth: await login(people.shopNames[0]!, SHOP_PASSWORD), visibleTo: shopId };
      const repeat = (i: number) => spread(i, REPEAT_TARGETS);
      const cases: Case[] = [];
      for (const who of [staff, shop]) {
        cases.push(
          {
            name: `${who.name}: the form, a repeat target's chat ID (upper case) and a shared MAC`,
            who,
            call: (i) => ({ objWechat: repeatChat(repeat(i)).toUpperCase(), mac: machineMac(spread(i + 7, MACHINES)) }),
          },
          {
            name: `${who.name}: the form, a first-seen target (one record, its MAC as aa:bb:…)`,
            who,
            call: (i) => {
              const r = singles[i % singles.length]!;
              return { objWechat: r.objWechat, mac: r.mac.toLowerCase().replaceAll('-', ':') };
            },
          },
          { name: `${who.name}: a chat ID only`, who, call: (i) => ({ objWechat: repeatChat(repeat(i)) }) },
          { name: `${who.name}: a MAC only`, who, call: (i) => ({ mac: machineMac(spread(i, MACHINES)) }) },
          {
            name: `${who.name}: the detail modal (orderId, records before it)`,
            who,
            call: (i) => {
              const list = who.visibleTo === undefined ? planted : seenByShop;
              return { before: before(list[i % list.length]!) };
            },
          },
        );
      }

      for (const c of cases) {
        let records = 0;
        const { server: s, baseline: b } = await timeBeside(
          REQUESTS,
          10,
          (i) => app.inject({ method: 'GET', url: urlOf(c.call(i)), headers: { authorization: c.who.auth } }),
          async (i) => {
            const q = rawQueries(db, c.call(i), c.who);
            for (const query of [...q.chat, ...q.mac]) await target.raw.run(query);
          },
          (res) => {
            const body = res.json<{ status: number; msg: string; data: { sameTarget: unknown[]; sameMachine: unknown[] } }>();
            if (body.status !== 200) throw new Error(`${c.name}: ${body.msg}`);
            records += body.data.sameTarget.length + body.data.sameMachine.length;
          },
        );
        // Which indexes the plans use: each chat ID query one of the normalized chat ID's, each MAC query the MAC's.
        const q = rawQueries(db, c.call(0), c.who);
        const used: string[] = [];
        const lines: string[] = [];
        for (const [list, indexes] of [
          [q.chat, CHAT_INDEXES],
          [q.mac, MAC_INDEXES],
        ] as const) {
          for (const query of list) {
            const plan = await target.raw.explain(query);
            lines.push(...plan.map((l) => `  ${l}`));
            const found = indexes.find((index) => plan.some((l) => l.includes(index)));
            used.push(found === undefined ? `**NONE** (${indexes.join(' / ')})` : `\`${found}\``);
          }
        }
        plans.push(`${c.name}:\n${lines.join('\n')}`);
        rows.push({
          name: c.name,
          records: Math.round(records / REQUESTS),
          server: s,
          raw: b,
          indexes: [...new Set(used)].join(', '),
        });
      }
    } finally {
      await app.close();
    }
    const worst = Math.max(...rows.map((r) => r.server.p95));
    const table = [
      '| call | records / call | server p50 / p95, ms | raw SQL p50 / p95, ms | p95 ratio | indexes used |',
      '|---|---:|---:|---:|---:|---|',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${fmt(r.records)} | ${fmt(r.server.p50, 2)} / **${fmt(r.server.p95, 2)}** | ${fmt(r.raw.p50, 2)} / ${fmt(r.raw.p95, 2)} | ${ratio(r.server.p95, r.raw.p95)} | ${r.indexes} |`,
      ),
    ].join('\n');
    const body = `Seeded: ${timings.join('; ')}. Machine load (1-minute average) ${fmt(loadBefore, 1)} at the start, ${fmt(loadavg()[0]!, 1)} at the end, on ${cpus().length} CPUs.

${table}

Target: p95 ≤ ${TARGET_P95_MS} ms at ${fmt(ORDERS)} orders — worst here **${fmt(worst, 2)} ms** (${worst <= TARGET_P95_MS ? 'met' : 'NOT met'}).
${REQUESTS} requests per call after 10 warm-ups, one at a time. "server" = \`app.inject\` on the real app (session,
permission, validation, the order look-up of the detail case, the service, serialization; no socket); "raw SQL" = the
call's history queries (same target, counts by result, same machine, the machine's chat IDs) compiled from
\`modules/orders/history/orders.history.repository.ts\` with the same key, MAC and visibility, straight on the driver, one
after the other, in the same run. "staff" = superadmin (every record); "shop" = the shop with the most orders (~2 %;
its own records and every public one). Planted: ${REPEAT_TARGETS} repeat targets (20 records each at 1M orders) on
${MACHINES} machines; the other chat IDs and MACs of the seed are all distinct. "indexes used": the indexes the
EXPLAIN of the call's queries names, each chat ID query checked for \`${CHAT_INDEXES.join('` or `')}\` (both on
lower(obj_wechat)) and each MAC query for \`${MAC_INDEXES[0]}\`; **NONE** would mean a query scans.

<details><summary>Query plans</summary>

\`\`\`
${plans.join('\n')}
\`\`\`
</details>`;
    return { title: `Target history at ${fmt(ORDERS)} orders (${target.name})`, body };
  } finally {
    await target.raw.close();
    await db.destroy();
    await target.drop();
  }
}

export async function run(): Promise<Section[]> {
  return onEachTarget('history', runTarget);
}
