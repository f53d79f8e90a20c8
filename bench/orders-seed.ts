// Seeding for bench/orders.bench.ts: the two databases it runs on, 2,000 shops and a million
// orders generated inside the database in one INSERT ... SELECT (a recursive CTE on SQLite,
// generate_series on PostgreSQL), with the secondary indexes built after the load, then the
// per-day counters recomputed exactly and one opening ledger entry per shop.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../apps/server/src/db/index.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { DAY_MS, HOUR_MS } from '../apps/server/src/lib/time.ts';
import { enabledDataOfType } from '../apps/server/src/modules/dicts/dicts.repository.ts';

import type { TargetName } from './targets.ts';

export type { Target, TargetName } from './targets.ts';

// ── people ──

export const SHOP_PASSWORD = 'Bench#shop1';
/** The prices every seeded shop charges per result (fen): normal, cheating, failed, suspicious. */
export const PRICES = { 0: 1000, 1: 3000, 2: 500, 3: 2000 } as const;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export interface People {
  /** Shop ids in rank order: rank 0 has the most orders, the last the fewest. */
  shops: number[];
  shopNames: string[];
  inspectors: number[];
  inspectorNames: string[];
}

/** Ids of rows just inserted in one transaction, checked to be consecutive (the load addresses them by offset). */
async function consecutiveIds(db: Db, prefix: string, n: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select(['id', 'username']).where('username', 'like', `${prefix}%`).orderBy('id').execute();
  const ids = rows.map((r) => Number(r.id));
  if (ids.length !== n || ids.some((id, i) => id !== ids[0]! + i)) throw new Error(`seeded ${prefix}* users do not have consecutive ids`);
  return ids;
}

export async function seedPeople(db: Db, shops: number, inspectors: number, now: number): Promise<People> {
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const hash = await hashPassword(SHOP_PASSWORD);
  const person = (username: string, nickname: string, role: string, i: number) => ({
    username,
    passwordHash: hash,
    nickname,
    roleId: roles.get(role) ?? 0,
    wechat: `wx_${username}`,
    phone: `139${pad(i, 8)}`,
    avatar: '',
    ifPublic: i % 10 < 3 ? 1 : 0,
    status: 1,
    defaultPrice: PRICES[0],
    defaultPriceCheat: PRICES[1],
    defaultPriceNotPass: PRICES[2],
    defaultPriceSuspect: PRICES[3],
    serviceEndAt: role === 'shop' ? now + 365 * DAY_MS : null,
    loginAt: null,
    passwordChangedAt: now,
    createdAt: now - 800 * DAY_MS,
    updatedAt: now - 800 * DAY_MS,
  });
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < shops; from += 500) {
      const rows = [];
      for (let i = from; i < Math.min(shops, from + 500); i++) rows.push(person(`bshop${pad(i, 4)}`, `检测店铺${pad(i, 4)}`, 'shop', i));
      await trx.insertInto('users').values(rows).execute();
    }
    const rows = [];
    for (let i = 0; i < inspectors; i++) rows.push(person(`binsp${pad(i, 2)}`, `检测员${pad(i, 2)}`, 'inspector', i));
    await trx.insertInto('users').values(rows).execute();
  });
  return {
    shops: await consecutiveIds(db, 'bshop', shops),
    shopNames: Array.from({ length: shops }, (_, i) => `bshop${pad(i, 4)}`),
    inspectors: await consecutiveIds(db, 'binsp', inspectors),
    inspectorNames: Array.from({ length: inspectors }, (_, i) => `binsp${pad(i, 2)}`),
  };
}

// ── orders ──

/** Letters of the verification codes (codes.ts). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_SPACE = 31 ** 8;
const CODE_STEP = 387420489;
const CODE_OFFSET = 7777;

/** The verification code the load gives row number i (distinct for every i < 31^8); the SQL below writes the same. */
export function seedCode(i: number): string {
  const x = (i * CODE_STEP + CODE_OFFSET) % CODE_SPACE;
  let code = '';
  for (let k = 7; k >= 0; k--) code += CODE_ALPHABET[Math.floor(x / 31 ** k) % 31];
  return code;
}

export interface OrderLoad {
  orders: number;
  /** created_at runs evenly from now - spanMs to now, in id order. */
  now: number;
  spanMs: number;
}

/**
 * One INSERT ... SELECT for all orders. Distributions: created_at evenly over the span (ids in
 * time order); result 80 % normal, 10 % cheating, 5 % failed, 5 % suspicious; 30 % public;
 * chat ids 'wxid_' + 14 random hex digits; the client shop drawn as floor(shops · u²) for a
 * uniform u, so the first shop has ~2 % of all orders and the last ~0.03 %; codes distinct by
 * construction (an affine map of the row number over 31^8, written in the code alphabet).
 */
async function insertOrders(db: Db, dialect: TargetName, people: People, load: OrderLoad): Promise<void> {
  const sqlite = dialect === 'SQLite';
  const n = load.orders;
  // One uniform draw in [0, k) and k random hex digits, per dialect.
  const draw = (k: number) => (sqlite ? `((random() & 9223372036854775807) % ${k})` : `floor(random() * ${k})::bigint`);
  const hex = (digits: number) =>
    sqlite
      ? `lower(hex(randomblob(${digits / 2})))`
      : `lpad(to_hex(floor(random() * ${16 ** (digits / 2)})::bigint), ${digits / 2}, '0') || lpad(to_hex(floor(random() * ${16 ** (digits / 2)})::bigint), ${digits / 2}, '0')`;
  // a: the shop, b: the result, c: public, d: everything else; w: chat id, m: MAC.
  const draws: [string, string][] = [
    ['a', draw(1_000_000)],
    ['b', draw(100)],
    ['c', draw(100)],
    ['d', draw(1_000_000)],
    ['w', hex(14)],
    ['m', `upper(${hex(12)})`],
  ];
  const values = draws.map(([, e]) => e).join(', ');
  const source = sqlite
    ? `with recursive s(i, ${draws.map(([c]) => c).join(', ')}) as (select 0, ${values} union all select i + 1, ${values} from s where i + 1 < ${n})`
    : '';
  const from = sqlite
    ? 'from s'
    : `from (select i, ${draws.map(([c, e]) => `${e} as ${c}`).join(', ')} from generate_series(0::bigint, ${n - 1}::bigint) as i) s`;

  const games = (await enabledDataOfType(db, 'game')).map((g) => g.value);
  if (games.length === 0) throw new Error('no games in the dictionary');
  const game = sql.join(
    games.map((g, k) => sql`when ${sql.lit(k)} then ${sql.lit(g)}`),
    sql` `,
  );
  const code: RawBuilder<unknown>[] = [];
  const x = `((i * ${CODE_STEP} + ${CODE_OFFSET}) % ${CODE_SPACE})`;
  for (let k = 7; k >= 0; k--) code.push(sql.raw(`substr('${CODE_ALPHABET}', cast((${x} / ${31 ** k}) % 31 + 1 as integer), 1)`));
  const result = 'case when b < 80 then 0 when b < 90 then 1 when b < 95 then 2 else 3 end';
  const createdAt = `(${load.now - load.spanMs} + i * ${load.spanMs} / ${n})`;
  const shopCount = people.shops.length;
  const inspectorCount = people.inspectors.length;
  const inspector = `(${people.inspectors[0]} + (d / 7) % ${inspectorCount})`;

  const insert = sql`insert into orders (code, obj_wechat, obj_wechat_name, game_name, mac, installation_at, result, user_id,
      obj_client_name, inspector_id, amount, if_public, if_changed_mac, description, cert_images, proof_images,
      person_cert_images, created_by, created_at, updated_at)
    ${sql.raw(source)}
    select ${sql.join(code, sql` || `)},
      'wxid_' || w,
      '玩家' || (d % 100000),
      case d % ${sql.lit(games.length)} ${game} end,
      substr(m, 1, 2) || '-' || substr(m, 3, 2) || '-' || substr(m, 5, 2) || '-' || substr(m, 7, 2) || '-' || substr(m, 9, 2) || '-' || substr(m, 11, 2),
      ${sql.raw(createdAt)} - (d % 365) * ${sql.lit(DAY_MS)},
      ${sql.raw(result)},
      ${sql.lit(people.shops[0])} + (a * a) / ${sql.lit(Math.floor(1e12 / shopCount))},
      '店铺' || ((d / 11) % 3000),
      ${sql.raw(inspector)},
      case ${sql.raw(result)} when 0 then ${sql.lit(PRICES[0])} when 1 then ${sql.lit(PRICES[1])} when 2 then ${sql.lit(PRICES[2])} else ${sql.lit(PRICES[3])} end,
      case when c < 30 then 1 else 0 end,
      case when (d / 13) % 100 < 8 then 1 else 0 end,
      case when (d / 17) % 10 = 0 then '复检：设备与上次检测一致' else '' end,
      '/uploads/proof/' || w || '-cert.jpg',
      '/uploads/proof/' || w || '-1.jpg,/uploads/proof/' || w || '-2.jpg',
      '',
      ${sql.raw(inspector)},
      ${sql.raw(createdAt)},
      ${sql.raw(createdAt)}
    ${sql.raw(from)}`;
  await insert.execute(db);
}

/**
 * Loads a table with its secondary indexes dropped, then recreates them from the definitions
 * the migrations created (read back from the catalogue, so nothing here can drift from them).
 * Returns the milliseconds of the load and of the index builds, and how many indexes.
 * Measured for a million orders: SQLite 45 s with the indexes in place against 18 s this way;
 * PostgreSQL 85 s to copy the rows into an indexed table against 2.5 s + ~20 s of builds.
 */
/** The table's secondary indexes (name and CREATE statement) on SQLite or PostgreSQL. */
export async function indexDefs(db: Db, dialect: TargetName, table: string): Promise<{ name: string; def: string }[]> {
  const query =
    dialect === 'SQLite'
      ? sql<{
          name: string;
          def: string;
        }>`select name, sql as def from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`
      : sql<{
          name: string;
          def: string;
        }>`select indexname as name, indexdef as def from pg_indexes where tablename = ${table} and indexname not like '%_pkey'`;
  return (await query.execute(db)).rows;
}

async function withoutIndexes(db: Db, dialect: TargetName, table: string, load: () => Promise<void>): Promise<[number, number, number]> {
  const defs = await indexDefs(db, dialect, table);
  for (const d of defs) await sql`drop index ${sql.id(d.name)}`.execute(db);
  const t0 = performance.now();
  await load();
  const t1 = performance.now();
  for (const d of defs) await sql.raw(d.def).execute(db);
  return [t1 - t0, performance.now() - t1, defs.length];
}

/**
 * Bulk-load settings for the seeding connection, undone afterwards. SQLite: no journal and no
 * syncs while loading (a crash only loses the throwaway database) and a 1 GiB page cache for
 * the index sorts. PostgreSQL: more memory for the index sorts.
 */
async function bulkLoad<T>(db: Db, dialect: TargetName, load: () => Promise<T>): Promise<T> {
  if (dialect === 'PostgreSQL') {
    await sql`set maintenance_work_mem = '1GB'`.execute(db);
    try {
      return await load();
    } finally {
      await sql`reset maintenance_work_mem`.execute(db);
    }
  }
  const before = (await sql<{ cache_size: number; synchronous: number }>`select * from pragma_cache_size, pragma_synchronous`.execute(db))
    .rows[0]!;
  await sql`pragma journal_mode = off`.execute(db);
  await sql`pragma synchronous = off`.execute(db);
  await sql`pragma cache_size = -1048576`.execute(db);
  try {
    return await load();
  } finally {
    await sql.raw(`pragma cache_size = ${before.cache_size}`).execute(db);
    await sql.raw(`pragma synchronous = ${before.synchronous}`).execute(db);
    await sql`pragma journal_mode = wal`.execute(db);
  }
}

/** Seeds the orders, their exact per-day counters and one opening ledger entry per shop; returns what took how long. */
export async function seedOrders(db: Db, dialect: TargetName, people: People, load: OrderLoad): Promise<string[]> {
  const timings: string[] = [];
  const secs = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
  let t = performance.now();
  await bulkLoad(db, dialect, async () => {
    const [loadMs, indexMs, indexes] = await withoutIndexes(db, dialect, 'orders', () => insertOrders(db, dialect, people, load));
    timings.push(
      `${load.orders.toLocaleString('en-US')} orders in ${secs(t)} (one INSERT … SELECT in ${(loadMs / 1000).toFixed(1)} s, then its ${indexes} secondary indexes in ${(indexMs / 1000).toFixed(1)} s)`,
    );
    t = performance.now();
    // The counters the order writes keep row by row, rebuilt exactly in one statement.
    await sql`delete from order_daily`.execute(db);
    const day = sql.raw(`(created_at / ${DAY_MS}) * ${DAY_MS}`);
    await sql`insert into order_daily (day, result, if_public, n, amount)
      select ${day}, result, if_public, count(*), sum(amount) from orders group by ${day}, result, if_public`.execute(db);
    // The workplace's counters (migration 0006): per UTC hour, and per Shanghai day by game and by shop.
    await sql`delete from order_hourly`.execute(db);
    await sql`delete from order_game_daily`.execute(db);
    await sql`delete from order_user_daily`.execute(db);
    const hour = sql.raw(`(created_at - created_at % ${HOUR_MS})`);
    const shanghaiDay = sql.raw(`(created_at - (created_at + ${8 * HOUR_MS}) % ${DAY_MS})`);
    await sql`insert into order_hourly (hour, result, if_public, n, amount)
      select ${hour}, result, if_public, count(*), sum(amount) from orders group by ${hour}, result, if_public`.execute(db);
    await sql`insert into order_game_daily (day, game_name, result, n, amount)
      select ${shanghaiDay}, game_name, result, count(*), sum(amount) from orders group by ${shanghaiDay}, game_name, result`.execute(db);
    await sql`insert into order_user_daily (day, user_id, result, n, amount)
      select ${shanghaiDay}, user_id, result, count(*), sum(amount) from orders group by ${shanghaiDay}, user_id, result`.execute(db);
    // Balance = sum of the ledger: one opening entry per shop for what its orders charged.
    await sql`insert into ledger_entries (user_id, kind, amount, balance_after, remark, operator, created_at)
      select user_id, 'adjust', -sum(amount), -sum(amount), 'bench seed: opening balance', 'bench', ${sql.lit(load.now)}
      from orders group by user_id`.execute(db);
    await sql`update users set balance = coalesce((select sum(l.amount) from ledger_entries l where l.user_id = users.id), 0)
      where id in (select user_id from ledger_entries)`.execute(db);
    timings.push(`per-day counters and opening balances in ${secs(t)}`);
  });

  t = performance.now();
  // What autovacuum and the checkpointer would have done by the time anyone reads the list:
  // fresh statistics, visibility maps for index-only counts, and the load's dirty pages written.
  if (dialect === 'SQLite') {
    await sql`analyze`.execute(db);
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
  } else {
    await sql`vacuum analyze`.execute(db);
    await sql`checkpoint`.execute(db);
  }
  timings.push(`${dialect === 'SQLite' ? 'ANALYZE + WAL checkpoint' : 'VACUUM ANALYZE + CHECKPOINT'} in ${secs(t)}`);
  return timings;
}
