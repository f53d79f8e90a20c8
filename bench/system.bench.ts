// System management at scale: the user list over 100,000 users and the operation log
// over 1,000,000 rows, with the filters people use, answered at the server (buildApp +
// app.inject: routing, session check, validation, the service, serialization; no socket) beside
// the same compiled SQL run straight on the driver in the same run, plus the query plans.
import { sql, type CompiledQuery } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { type Db } from '../apps/server/src/db/index.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { DAY_MS } from '../apps/server/src/lib/time.ts';
import * as logRepo from '../apps/server/src/modules/logs/logs.repository.ts';
import { countQueries, toFilter as toLogFilter } from '../apps/server/src/modules/logs/logs.service.ts';
import * as userRepo from '../apps/server/src/modules/users/users.repository.ts';
import { toUserFilter } from '../apps/server/src/modules/users/users.service.ts';
import { indexDefs } from './orders-seed.ts';
import type { UserListQuery } from '@clearplay/contract';
import { fmt, timeBeside, type Section } from './lib.ts';
import { appOn, firstStart, onEachTarget, type Target } from './targets.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const LOGS = Number(process.env.BENCH_LOGS ?? 1_000_000);
const REQUESTS = 200;
const ADMIN_PASSWORD = 'Bench#2026';
const NOW = Date.now();
const SPAN_MS = 365 * DAY_MS;

/** A small deterministic generator, so both databases get the same data. */
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

const pad = (n: number, width: number) => String(n).padStart(width, '0');

// ── seeding: multi-row inserts in transactions, straight through Kysely ──

const MODULES: [string, string[]][] = [
  ['user', ['create', 'update', 'setStatus', 'resetPassword', 'setSubscription', 'cancelSubscription', 'delete']],
  ['role', ['create', 'update', 'delete']],
  ['dict', ['createType', 'updateType', 'createData', 'updateData', 'deleteData']],
  ['auth', ['login', 'logout']],
  ['order', ['create', 'update', 'delete', 'import', 'export']],
];

async function seedUsers(db: Db): Promise<void> {
  const random = rng(1);
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const hash = await hashPassword('Bench#user1');
  const BATCH = 1000;
  for (let from = 0; from < USERS; from += BATCH * 10) {
    await db.transaction().execute(async (trx) => {
      for (let b = from; b < Math.min(USERS, from + BATCH * 10); b += BATCH) {
        const rows = [];
        for (let i = b; i < Math.min(USERS, b + BATCH); i++) {
          const r = random();
          const role = r < 0.97 ? 'shop' : r < 0.99 ? 'inspector' : 'admin';
          const createdAt = NOW - 2 * SPAN_MS + Math.floor((i / USERS) * 2 * SPAN_MS);
          const end = random();
          rows.push({
            username: `${role === 'shop' ? 'shop' : role === 'inspector' ? 'insp' : 'adm'}${pad(i, 6)}`,
            passwordHash: hash,
            nickname: `店铺${pad(Math.floor(random() * 1e6), 6)}`,
            roleId: roles.get(role) ?? 0,
            wechat: `wx_${Math.floor(random() * 1e9).toString(36)}`,
            phone: `13${pad(Math.floor(random() * 1e9), 9)}`,
            avatar: '',
            ifPublic: random() < 0.5 ? 1 : 0,
            status: random() < 0.95 ? 1 : 0,
            defaultPrice: 1000,
            defaultPriceCheat: 3000,
            defaultPriceSuspect: 2000,
            defaultPriceNotPass: 500,
            serviceEndAt: role !== 'shop' || end < 0.3 ? null : NOW + Math.floor((end - 0.65) * SPAN_MS),
            loginAt: null,
            passwordChangedAt: createdAt,
            createdAt,
            updatedAt: createdAt,
          });
        }
        await trx.insertInto('users').values(rows).execute();
      }
    });
  }
}

async function seedLogs(db: Db): Promise<void> {
  const random = rng(2);
  const BATCH = 2000;
  for (let from = 0; from < LOGS; from += BATCH * 10) {
    await db.transaction().execute(async (trx) => {
      for (let b = from; b < Math.min(LOGS, from + BATCH * 10); b += BATCH) {
        const rows = [];
        for (let i = b; i < Math.min(LOGS, b + BATCH); i++) {
          const [module, actions] = MODULES[Math.floor(random() * MODULES.length)] ?? MODULES[0]!;
          const action = actions[Math.floor(random() * actions.length)] ?? 'create';
          const ok = random() < 0.95;
          const staff = Math.floor(random() * 40);
          const operator = module === 'auth' && random() < 0.7 ? `shop${pad(Math.floor(random() * USERS), 6)}` : `staff${pad(staff, 2)}`;
          const target = Math.floor(random() * USERS);
          rows.push({
            module,
            action,
            content: `${module} shop${pad(target, 6)} (#${target}): ${action}`,
            operator,
            operatorId: staff + 1,
            status: ok ? 1 : 0,
            ip: `10.0.${staff}.${Math.floor(random() * 255)}`,
            method: 'POST',
            path: `/api/admin/${module}/${action}`,
            durationMs: Math.floor(random() * 40),
            errorMsg: ok ? '' : 'Role #9 does not exist',
            userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0',
            payload: `{"id":${target},"status":1}`,
            createdAt: NOW - SPAN_MS + Math.floor((i / LOGS) * SPAN_MS),
          });
        }
        await trx.insertInto('operationLogs').values(rows).execute();
      }
    });
  }
  // The daily counters the log writer keeps row by row, built here in one statement.
  const day = sql.raw(`(created_at / ${DAY_MS}) * ${DAY_MS}`);
  await sql`insert into operation_log_daily (module, action, status, day, n)
    select module, action, status, ${day}, count(*) from operation_logs group by module, action, status, ${day}`.execute(db);
}

/**
 * Loads a table with its secondary indexes dropped, then recreates them from the definitions
 * the migrations created (read back from the catalogue, so nothing here can drift from them).
 */
async function withoutIndexes(db: Db, dialect: Target['name'], table: string, load: () => Promise<void>): Promise<void> {
  const defs = await indexDefs(db, dialect, table);
  const uniques = new Set(['users_username_unique']);
  const droppable = defs.filter((d) => !uniques.has(d.name) && !/unique/i.test(d.def));
  for (const d of droppable) await sql`drop index ${sql.id(d.name)}`.execute(db);
  await load();
  for (const d of droppable) await sql.raw(d.def).execute(db);
}

// ── measuring ──

interface Case {
  name: string;
  /** A query string per request (i = 0..REQUESTS-1), so caches see varied input. */
  query: (i: number) => Record<string, string>;
}

const USER_CASES: Case[] = [
  { name: 'no filter, page 1–5', query: (i) => ({ page: String((i % 5) + 1) }) },
  { name: 'status + role (enabled shops)', query: (i) => ({ status: '1', roleId: '4', page: String((i % 5) + 1) }) },
  { name: 'username prefix (case-insensitive)', query: (i) => ({ username: `SHOP0${pad((i * 37) % 1000, 3)}` }) },
  { name: 'nickname prefix', query: (i) => ({ nickname: `店铺${pad((i * 7) % 100, 2)}` }) },
  {
    name: 'created range (30 days)',
    query: (i) => ({
      createdStart: new Date(NOW - (60 + i) * DAY_MS).toISOString(),
      createdEnd: new Date(NOW - (30 + i) * DAY_MS).toISOString(),
    }),
  },
  { name: 'subscription expiring + enabled', query: () => ({ subscriptionState: 'expiring', status: '1' }) },
];

const LOG_CASES: Case[] = [
  { name: 'no filter, page 1–5', query: (i) => ({ page: String((i % 5) + 1) }) },
  { name: 'module + status (user, failed)', query: (i) => ({ module: 'user', status: 'failed', page: String((i % 3) + 1) }) },
  { name: 'operator (one staff member)', query: (i) => ({ operator: `staff${pad(i % 40, 2)}` }) },
  {
    name: 'time range (7 days, cut mid-day)',
    query: (i) => ({
      startTime: new Date(NOW - (20 + i) * DAY_MS - 5 * 3_600_000).toISOString(),
      endTime: new Date(NOW - (13 + i) * DAY_MS).toISOString(),
    }),
  },
  {
    name: 'module + action + time range (30 days)',
    query: (i) => ({
      module: 'auth',
      action: 'login',
      startTime: new Date(NOW - (40 + i) * DAY_MS).toISOString(),
      endTime: new Date(NOW - (10 + i) * DAY_MS).toISOString(),
    }),
  },
];

interface Figures {
  name: string;
  server: [number, number];
  raw: [number, number];
  total: number;
}

async function measure(
  app: Awaited<ReturnType<typeof buildApp>>,
  auth: string,
  path: string,
  cases: Case[],
  rawQueries: (q: Record<string, string>) => CompiledQuery[][],
  target: Target,
): Promise<{ figures: Figures[]; plans: string[] }> {
  const figures: Figures[] = [];
  const plans: string[] = [];
  for (const c of cases) {
    let total = 0;
    // 10 warm-up rounds of both paths, then REQUESTS timed ones
    const { server, baseline: raw } = await timeBeside(
      REQUESTS,
      10,
      (i) => app.inject({ method: 'GET', url: path, query: c.query(i), headers: { authorization: auth } }),
      async (i) => {
        for (const stage of rawQueries(c.query(i))) await Promise.all(stage.map((q) => target.raw.run(q)));
      },
      (res) => {
        const body = res.json<{ status: number; msg: string; data: { total: number } }>();
        if (body.status !== 200) throw new Error(`${path} ${c.name}: ${body.msg}`);
        total = body.data.total;
      },
    );
    figures.push({ name: c.name, server: [server.p50, server.p95], raw: [raw.p50, raw.p95], total });
    const explained: string[] = [];
    for (const stage of rawQueries(c.query(0)))
      for (const q of stage) explained.push(...(await target.raw.explain(q)).map((l) => `  ${l}`), '  --');
    plans.push(`${c.name}:\n${explained.slice(0, -1).join('\n')}`);
  }
  return { figures, plans };
}

async function runTarget(target: Target): Promise<Section> {
  const { config, db } = appOn(target);
  const timings: string[] = [];
  try {
    await firstStart(db);
    let t = performance.now();
    await withoutIndexes(db, target.name, 'users', () => seedUsers(db));
    timings.push(`${fmt(USERS)} users in ${fmt((performance.now() - t) / 1000, 1)} s`);
    t = performance.now();
    await withoutIndexes(db, target.name, 'operation_logs', () => seedLogs(db));
    timings.push(`${fmt(LOGS)} log rows in ${fmt((performance.now() - t) / 1000, 1)} s (indexes rebuilt after the load)`);
    t = performance.now();
    // What autovacuum and the checkpointer would have done by the time anyone reads the lists:
    // fresh statistics, visibility maps for index-only counts, and the load's dirty pages written.
    if (target.name === 'SQLite') {
      await sql`analyze`.execute(db);
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
    } else {
      await sql`vacuum analyze`.execute(db);
      await sql`checkpoint`.execute(db);
    }
    timings.push(
      `${target.name === 'SQLite' ? 'ANALYZE + WAL checkpoint' : 'VACUUM ANALYZE + CHECKPOINT'} in ${fmt((performance.now() - t) / 1000, 1)} s`,
    );

    const app = await buildApp({ config, db, logger: false });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/admin/user/login',
        payload: { username: 'superadmin', password: ADMIN_PASSWORD },
      });
      const auth = `Bearer ${login.json<{ data: { token: string } }>().data.token}`;

      const userRaw = (q: Record<string, string>) => {
        const query = {
          ...q,
          page: Number(q.page ?? 1),
          pageSize: 20,
          roleId: q.roleId === undefined ? undefined : Number(q.roleId),
          status: q.status === undefined ? undefined : (Number(q.status) as 0 | 1),
          subscriptionState: q.subscriptionState as UserListQuery['subscriptionState'],
        };
        const f = toUserFilter(query, Date.now());
        // The server drives a selective text filter's page from its index (users.service); the
        // bench's text filters all match far fewer than DRIVE_FROM_FILTER_MAX rows.
        const driveFromFilter = userRepo.hasTextFilter(f);
        return [[userRepo.listPage(db, f, (query.page - 1) * 20, 20, driveFromFilter).compile(), userRepo.countQuery(db, f).compile()]];
      };
      const logRaw = (q: Record<string, string>) => {
        const page = Number(q.page ?? 1);
        const f = toLogFilter({ ...q, status: q.status as 'success' | 'failed' | undefined });
        return [[logRepo.listPage(db, f, (page - 1) * 20, 20).compile(), ...countQueries(db, f).map((c) => c.compile())]];
      };
      // the real role id of "shop"
      const shopRole = await db.selectFrom('roles').select('id').where('name', '=', 'shop').executeTakeFirstOrThrow();
      for (const c of USER_CASES) {
        const inner = c.query;
        c.query = (i) => {
          const q = inner(i);
          return q.roleId === undefined ? q : { ...q, roleId: String(shopRole.id) };
        };
      }
      const users = await measure(app, auth, '/api/admin/user/list', USER_CASES, userRaw, target);
      const logs = await measure(app, auth, '/api/admin/log/list', LOG_CASES, logRaw, target);
      // the server also reads the page's latest subscription records (one more indexed query); the raw side does not
      const table = (
        title: string,
        rows: Figures[],
      ) => `| ${title} | total | server p50 ms | server p95 ms | raw SQL p50 ms | raw SQL p95 ms |
|---|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.name} | ${fmt(r.total)} | ${fmt(r.server[0], 2)} | **${fmt(r.server[1], 2)}** | ${fmt(r.raw[0], 2)} | ${fmt(r.raw[1], 2)} |`).join('\n')}`;
      const body = `Seeded: ${timings.join('; ')}.

${table(`user list (${fmt(USERS)} users)`, users.figures)}

${table(`log list (${fmt(LOGS)} rows)`, logs.figures)}

${REQUESTS} requests per case, one at a time, page size 20. "server" = \`app.inject\` on the real app
(routing, session look-up, validation, service, serialization; no socket); "raw SQL" = the same
compiled page and count queries run straight on the driver (better-sqlite3 / pg), in the same run.
The log list's total sums the per-day counters (operation_log_daily) for whole days and counts
only the partial days at the edges; the operator filter counts through its own index.

<details><summary>Query plans (${target.name})</summary>

\`\`\`
USER LIST
${users.plans.join('\n\n')}

LOG LIST
${logs.plans.join('\n\n')}
\`\`\`

</details>`;
      return { title: `System lists at scale (${target.name})`, body };
    } finally {
      await app.close();
    }
  } finally {
    await target.raw.close();
    await db.destroy();
    await target.drop();
  }
}

export const run = (): Promise<Section[]> => onEachTarget('system', runTarget);
