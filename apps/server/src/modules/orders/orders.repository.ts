import { sql, type Expression, type ExpressionBuilder, type Insertable, type SqlBool, type Updateable } from 'kysely';
import { dialectOf, forUpdate, insertReturningId, pgColumnArrays, type PgArrayType } from '../../db/dialect.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { lowerPrefix } from '../../db/text-search.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { businessDayOf, hourOf } from '../../lib/business-time.ts';
import { DAY_MS } from '../../lib/time.ts';
import { earlierCheatExists, type RepeatFilter } from './orders.target-key.ts';

/** Filters of the order list and export, normalised (trimmed text, MAC prefix in normal form, epoch ms). */
export interface OrderFilter {
  objWechat?: string;
  objWechatName?: string;
  objClientName?: string;
  gameName?: string;
  macPrefix?: string;
  code?: string;
  result?: number;
  userId?: number;
  inspectorId?: number;
  ifPublic?: number;
  ifChangedMac?: number;
  /** created_at bounds, inclusive. */
  start?: number;
  end?: number;
  /** A shop's view: its own orders and every public one (docs/product.md "Visibility of orders"). */
  visibleTo?: number;
  /** Repeat targets only: an earlier cheating record under the chat ID, as the reader sees it. */
  repeatOnly?: RepeatFilter;
}

export type OrderSort = { field: 'createdAt' | 'amount'; dir: 'asc' | 'desc' };

type OrdersEb = ExpressionBuilder<Database, 'orders'>;

/** `column LIKE 'prefix%'` for a stored normal form (binary comparison on every database). */
const exactPrefix = (column: string, prefix: string) => {
  const escaped = prefix.replace(/[!%_]/g, (c) => `!${c}`);
  return sql<SqlBool>`${sql.ref(column)} like ${`${escaped}%`} escape '!'`;
};

export function where(db: Db, eb: OrdersEb, f: OrderFilter): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (f.objWechat !== undefined) parts.push(lowerPrefix(db, 'orders.objWechat', f.objWechat));
  if (f.objWechatName !== undefined) parts.push(lowerPrefix(db, 'orders.objWechatName', f.objWechatName));
  if (f.objClientName !== undefined) parts.push(lowerPrefix(db, 'orders.objClientName', f.objClientName));
  if (f.gameName !== undefined) parts.push(eb('orders.gameName', '=', f.gameName));
  if (f.macPrefix !== undefined)
    parts.push(f.macPrefix.length === 17 ? eb('orders.mac', '=', f.macPrefix) : exactPrefix('orders.mac', f.macPrefix));
  if (f.code !== undefined) parts.push(eb('orders.code', '=', f.code.toUpperCase()));
  if (f.result !== undefined) parts.push(eb('orders.result', '=', f.result));
  if (f.userId !== undefined) parts.push(eb('orders.userId', '=', f.userId));
  if (f.inspectorId !== undefined) parts.push(eb('orders.inspectorId', '=', f.inspectorId));
  if (f.ifPublic !== undefined) parts.push(eb('orders.ifPublic', '=', f.ifPublic));
  if (f.ifChangedMac !== undefined) parts.push(eb('orders.ifChangedMac', '=', f.ifChangedMac));
  if (f.start !== undefined) parts.push(eb('orders.createdAt', '>=', f.start));
  if (f.end !== undefined) parts.push(eb('orders.createdAt', '<=', f.end));
  if (f.repeatOnly !== undefined) parts.push(earlierCheatExists(db, eb, f.repeatOnly));
  // `+user_id`: no index on user_id for this OR. Without planner statistics SQLite would
  // otherwise merge two indexes and sort a third of the table; this way it walks the
  // created_at index newest first and stops at the page (PostgreSQL plans it the same either way).
  if (f.visibleTo !== undefined)
    parts.push(eb.or([eb(sql<number>`+${sql.ref('orders.userId')}`, '=', f.visibleTo), eb('orders.ifPublic', '=', 1)]));
  return eb.and(parts);
}

/** Every order column plus the client's and the inspector's names. */
export const withNames = (db: Db) =>
  db
    .selectFrom('orders')
    .leftJoin('users as client', 'client.id', 'orders.userId')
    .leftJoin('users as inspector', 'inspector.id', 'orders.inspectorId')
    .selectAll('orders')
    .select([
      'client.username as clientUsername',
      'client.nickname as clientNickname',
      'inspector.username as inspectorUsername',
      'inspector.nickname as inspectorNickname',
    ]);

export type OrderWithNamesRow = NonNullable<Awaited<ReturnType<typeof findById>>>;

/** Rows matching the filter in list order (the page and the export read the same query). */
export function filtered(db: Db, f: OrderFilter, sort: OrderSort) {
  const q = withNames(db).where((eb) => where(db, eb as unknown as OrdersEb, f));
  return sort.field === 'amount'
    ? q.orderBy('orders.amount', sort.dir).orderBy('orders.id', sort.dir)
    : q.orderBy('orders.createdAt', sort.dir).orderBy('orders.id', sort.dir);
}

export const listPage = (db: Db, f: OrderFilter, sort: OrderSort, offset: number, limit: number) =>
  filtered(db, f, sort).limit(limit).offset(offset);

export const findById = (db: Db, id: number) => withNames(db).where('orders.id', '=', id).executeTakeFirst();

/** The order row, locked for the rest of the transaction (see forUpdate). */
export const findRowForUpdate = (db: Db, id: number) =>
  forUpdate(db, db.selectFrom('orders').selectAll().where('id', '=', id)).executeTakeFirst();

/** Order rows, locked for the rest of the transaction, in id order (a stable lock order). */
export const findRowsForUpdate = (db: Db, ids: readonly number[]) =>
  forUpdate(db, db.selectFrom('orders').selectAll().where('id', 'in', ids).orderBy('id')).execute();

/** Exact count of the filter (no counters). */
export async function countExact(db: Db, f: OrderFilter): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => where(db, eb, f))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sum of the daily counters of days in [fromDay, toDayExclusive) for a result and/or public flag. */
export async function sumDaily(db: Db, opts: { result?: number; ifPublic?: number; fromDay?: number; toDay?: number }): Promise<number> {
  let q = db.selectFrom('orderDaily').select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), sql<number>`0`).as('n'));
  if (opts.result !== undefined) q = q.where('result', '=', opts.result);
  if (opts.ifPublic !== undefined) q = q.where('ifPublic', '=', opts.ifPublic);
  if (opts.fromDay !== undefined) q = q.where('day', '>=', opts.fromDay);
  if (opts.toDay !== undefined) q = q.where('day', '<', opts.toDay);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** What one order adds to (n 1) or takes from (n -1) the counters. */
export interface OrderCount {
  createdAt: number;
  result: number;
  ifPublic: number;
  gameName: string;
  userId: number;
  n: number;
  amount: number;
}

type CounterTable = 'orderDaily' | 'orderHourly' | 'orderGameDaily' | 'orderUserDaily';
type CounterRow = Record<string, string | number> & { n: number; amount: number };

/** The counters every order is kept in, and each one's key (migrations 0004 and 0006). */
const COUNTERS: readonly { table: CounterTable; key: (c: OrderCount) => Record<string, string | number> }[] = [
  { table: 'orderDaily', key: (c) => ({ day: dayOf(c.createdAt), result: c.result, ifPublic: c.ifPublic }) },
  { table: 'orderHourly', key: (c) => ({ hour: hourOf(c.createdAt), result: c.result, ifPublic: c.ifPublic }) },
  { table: 'orderGameDaily', key: (c) => ({ day: businessDayOf(c.createdAt), gameName: c.gameName, result: c.result }) },
  { table: 'orderUserDaily', key: (c) => ({ day: businessDayOf(c.createdAt), userId: c.userId, result: c.result }) },
];

/** Start of the UTC day (order_daily's key). */
const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Adds orders to (n 1) or takes them from (n -1) every order counter, in the caller's
 * transaction: order_daily (the list's totals), order_hourly (the workplace), order_game_daily
 * and order_user_daily (the analysis). A few multi-row upserts per table, keys in a fixed
 * order (no lock-order deadlock between two writers); keys whose changes cancel are skipped.
 */
export async function bumpCounters(db: Db, counts: readonly OrderCount[]): Promise<void> {
  if (counts.length === 0) return;
  for (const { table, key } of COUNTERS) {
    const sums = new Map<string, CounterRow>();
    for (const c of counts) {
      const k = key(c);
      const id = JSON.stringify(Object.values(k));
      const row = sums.get(id) ?? { ...k, n: 0, amount: 0 };
      row.n += c.n;
      row.amount += c.amount;
      sums.set(id, row);
    }
    const rows = [...sums.entries()]
      .filter(([, r]) => r.n !== 0 || r.amount !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, r]) => r);
    await addToCounters(db, table, Object.keys(key(counts[0]!)), rows);
  }
}

/** Adds each row's n and amount to the counter with its key, creating it when absent. */
export async function addToCounters(db: Db, table: CounterTable, keys: readonly string[], rows: readonly CounterRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    // The generic table defeats Kysely's per-table typing; the rows are built for it above.
    const insert = db.insertInto(table).values(rows.slice(i, i + 500) as never);
    if (dialectOf(db) === 'mysql') {
      await insert.onDuplicateKeyUpdate({ n: sql`n + values(n)`, amount: sql`amount + values(amount)` } as never).execute();
    } else {
      await insert
        .onConflict((oc) =>
          oc.columns(keys as never).doUpdateSet({
            n: sql`${sql.ref(`${table}.n`)} + ${sql.ref('excluded.n')}`,
            amount: sql`${sql.ref(`${table}.amount`)} + ${sql.ref('excluded.amount')}`,
          } as never),
        )
        .execute();
    }
  }
}

/**
 * Inserts an order with a fresh verification code; a (very unlikely) code collision is
 * retried with another code. On PostgreSQL the insert runs under a savepoint so a collision
 * does not abort the surrounding transaction.
 */
export async function insertOrder(
  db: Db,
  row: Omit<Insertable<Database['orders']>, 'code'>,
  newCode: () => string,
): Promise<{ id: number; code: string }> {
  for (let attempt = 0; ; attempt++) {
    const code = newCode();
    try {
      if (dialectOf(db) === 'postgres' && db.isTransaction) {
        await sql`savepoint order_code`.execute(db);
        try {
          const id = await insertReturningId(db, 'orders', { ...row, code });
          await sql`release savepoint order_code`.execute(db);
          return { id, code };
        } catch (error) {
          await sql`rollback to savepoint order_code`.execute(db);
          throw error;
        }
      }
      return { id: await insertReturningId(db, 'orders', { ...row, code }), code };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/** Many orders in few statements (import). Codes are checked against the table first. */
type NewOrder = Insertable<Database['orders']>;

/** The columns an order is inserted with, and their PostgreSQL element types (see pgColumnArrays). */
const ORDER_COLUMNS = [
  ['code', 'text'],
  ['objWechat', 'text'],
  ['objWechatName', 'text'],
  ['gameName', 'text'],
  ['mac', 'text'],
  ['installationAt', 'int8'],
  ['result', 'int4'],
  ['userId', 'int4'],
  ['objClientName', 'text'],
  ['inspectorId', 'int4'],
  ['amount', 'int8'],
  ['ifPublic', 'int4'],
  ['ifChangedMac', 'int4'],
  ['description', 'text'],
  ['certImages', 'text'],
  ['proofImages', 'text'],
  ['personCertImages', 'text'],
  ['createdBy', 'int4'],
  ['createdAt', 'int8'],
  ['updatedAt', 'int8'],
] as const satisfies readonly (readonly [keyof NewOrder & string, PgArrayType])[];
const ORDER_COLUMN_NAMES = ORDER_COLUMNS.map(([name]) => name);

/** Rows per statement: 1,000 × 20 values stays under SQLite's 32,766 bind parameters; PostgreSQL binds one array per column. */
const chunkOf = (db: Db) => (dialectOf(db) === 'postgres' ? 5000 : 1000);

/** The insert of one chunk: column arrays on PostgreSQL, multi-row VALUES elsewhere. */
const insertChunk = (db: Db, rows: readonly NewOrder[]) =>
  dialectOf(db) === 'postgres'
    ? db.insertInto('orders').columns(ORDER_COLUMN_NAMES).expression(pgColumnArrays(rows, ORDER_COLUMNS))
    : db.insertInto('orders').values([...rows]);

/** Inserts orders in batches (codes known to be free). */
export async function insertOrders(db: Db, rows: readonly NewOrder[]): Promise<void> {
  const n = chunkOf(db);
  for (let i = 0; i < rows.length; i += n) await insertChunk(db, rows.slice(i, i + n)).execute();
}

/**
 * Inserts orders whose fresh codes might, rarely, be taken already: the rows whose code is free
 * are written and answered as code → id; a row whose code is taken is left out (the caller
 * draws it a new code). SQLite and PostgreSQL do it in the insert itself
 * (`on conflict (code) do nothing returning id, code`); MySQL has no RETURNING, so it looks
 * the codes up before and the ids after.
 */
export async function insertOrdersWithFreshCodes(db: Db, rows: readonly NewOrder[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (dialectOf(db) === 'mysql') {
    const taken = await existingCodes(
      db,
      rows.map((r) => r.code),
    );
    const free = rows.filter((r) => !taken.has(r.code));
    await insertOrders(db, free);
    return idsByCode(
      db,
      free.map((r) => r.code),
    );
  }
  const n = chunkOf(db);
  for (let i = 0; i < rows.length; i += n) {
    const written = await insertChunk(db, rows.slice(i, i + n))
      .onConflict((oc) => oc.column('code').doNothing())
      .returning(['id', 'code'])
      .execute();
    for (const row of written) ids.set(row.code, Number(row.id));
  }
  return ids;
}

async function existingCodes(db: Db, codes: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < codes.length; i += 500) {
    const rows = await db
      .selectFrom('orders')
      .select('code')
      .where('code', 'in', codes.slice(i, i + 500))
      .execute();
    for (const r of rows) found.add(r.code);
  }
  return found;
}

/** Ids of orders with these codes (after a batch insert). */
async function idsByCode(db: Db, codes: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < codes.length; i += 500) {
    const rows = await db
      .selectFrom('orders')
      .select(['id', 'code'])
      .where('code', 'in', codes.slice(i, i + 500))
      .execute();
    for (const r of rows) ids.set(r.code, Number(r.id));
  }
  return ids;
}

export const updateOrder = (db: Db, id: number, set: Updateable<Database['orders']>) =>
  db.updateTable('orders').set(set).where('id', '=', id).execute();

export const deleteOrders = (db: Db, ids: readonly number[]) => db.deleteFrom('orders').where('id', 'in', ids).execute();

/** The people an order names: client shops and inspectors, with what the rules need. */
export const findParties = (db: Db, ids: readonly number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.roleId')
        .select([
          'users.id',
          'users.username',
          'users.nickname',
          'users.status',
          'users.ifPublic',
          'users.defaultPrice',
          'users.defaultPriceCheat',
          'users.defaultPriceNotPass',
          'users.defaultPriceSuspect',
          'roles.name as roleName',
          'roles.isAdmin',
        ])
        .where('users.id', 'in', ids)
        .execute();

/** Users whose lower(username) is one of `lowered` or whose nickname is one of `nicknames` (import look-ups). */
export const findUsersByName = (db: Db, lowered: readonly string[], nicknames: readonly string[]) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'nickname'])
    .where((eb) => eb.or([eb(eb.fn<string>('lower', ['username']), 'in', lowered), eb('nickname', 'in', nicknames)]))
    .execute();

export type PartyRow = Awaited<ReturnType<typeof findParties>>[number];

/** Orders naming this user as client or inspector (the user-delete check). */
export const countOrdersOf = async (db: Db, userId: number) =>
  Number(
    (
      await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where((eb) => eb.or([eb('userId', '=', userId), eb('inspectorId', '=', userId)]))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The image columns of up to `batch` orders after id `afterId`, in id order (the upload retention sweep's references). */
export const imageColumnsAfter = (db: Db, afterId: number, batch: number) =>
  db
    .selectFrom('orders')
    .select(['id', 'certImages', 'proofImages', 'personCertImages'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(batch)
    .execute();
