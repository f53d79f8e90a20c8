import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import { dialectOf, insertReturningId, pgColumnArrays, type PgArrayType } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Adds each user's delta to their balance (PostgreSQL: one UPDATE joined to the deltas; others:
 * one UPDATE per 500 users, a CASE on the id) and
 * reads the new balances back. Must run inside a write transaction.
 */
export async function addToBalances(db: Db, deltas: ReadonlyMap<number, number>): Promise<Map<number, number>> {
  const balances = new Map<number, number>();
  const ids = [...deltas.keys()];
  if (ids.length === 0) return balances;
  if (dialectOf(db) === 'postgres') {
    // One statement joined to the deltas as arrays: a CASE of 500 branches per chunk cost
    // about 300 ms for the 2,000 shops of one import.
    const { rows } = await sql<{ id: number | string; balance: number | string }>`update users set balance = users.balance + d.delta
      from unnest(${ids}::int4[], ${ids.map((id) => deltas.get(id) ?? 0)}::int8[]) as d(id, delta)
      where users.id = d.id returning users.id, users.balance`.execute(db);
    for (const row of rows) balances.set(Number(row.id), Number(row.balance));
    return balances;
  }
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const cases = sql.join(
      chunk.map((id) => sql`when ${id} then ${deltas.get(id) ?? 0}`),
      sql` `,
    );
    await db
      .updateTable('users')
      .set({ balance: sql`balance + (case id ${cases} else 0 end)` })
      .where('id', 'in', chunk)
      .execute();
    const rows = await db.selectFrom('users').select(['id', 'balance']).where('id', 'in', chunk).execute();
    for (const row of rows) balances.set(row.id, Number(row.balance));
  }
  return balances;
}

export const insertEntry = (db: Db, row: Insertable<Database['ledgerEntries']>) => insertReturningId(db, 'ledgerEntries', row);

type NewEntry = Insertable<Database['ledgerEntries']>;

/** The columns of a ledger entry and their PostgreSQL element types (see pgColumnArrays). */
const ENTRY_COLUMNS = [
  ['userId', 'int4'],
  ['kind', 'text'],
  ['amount', 'int8'],
  ['balanceAfter', 'int8'],
  ['orderId', 'int8'],
  ['remark', 'text'],
  ['operator', 'text'],
  ['operatorId', 'int4'],
  ['createdAt', 'int8'],
] as const satisfies readonly (readonly [keyof NewEntry & string, PgArrayType])[];

/** Many entries (an import): column arrays on PostgreSQL, multi-row VALUES of 2,000 elsewhere. */
export async function insertEntries(db: Db, rows: readonly NewEntry[]): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (let i = 0; i < rows.length; i += 5000) {
      await db
        .insertInto('ledgerEntries')
        .columns(ENTRY_COLUMNS.map(([name]) => name))
        .expression(pgColumnArrays(rows.slice(i, i + 5000), ENTRY_COLUMNS))
        .execute();
    }
    return;
  }
  for (let i = 0; i < rows.length; i += 2000)
    await db
      .insertInto('ledgerEntries')
      .values(rows.slice(i, i + 2000))
      .execute();
}

export const entriesPage = (db: Db, userId: number, offset: number, limit: number) =>
  db.selectFrom('ledgerEntries').selectAll().where('userId', '=', userId).orderBy('id', 'desc').limit(limit).offset(offset).execute();

export const countEntries = async (db: Db, userId: number) =>
  Number(
    (
      await db
        .selectFrom('ledgerEntries')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('userId', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findAccount = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.roleId')
    .select(['users.id', 'users.username', 'users.balance', 'roles.isAdmin'])
    .where('users.id', '=', userId)
    .executeTakeFirst();

/** Every entry of an order (its charge, adjustments, reversal), oldest first (index ledger_entries_order_idx). */
export const entriesOfOrder = (db: Db, orderId: number) =>
  db.selectFrom('ledgerEntries').selectAll().where('orderId', '=', orderId).orderBy('id', 'asc').execute();
