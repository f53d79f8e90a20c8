/**
 * The dialect a database speaks (dialectOf), and the few statements that must be written
 * differently on SQLite, PostgreSQL and MySQL/MariaDB: an insert answering its new id, a bulk
 * insert from column arrays (PostgreSQL), SELECT … FOR UPDATE. Repositories stay in the portable
 * subset of SQL; the other differences live beside this file by job (decision 0107): errors.ts,
 * write-transaction.ts, sqlite-locking.ts, prepared-read.ts, text-search.ts.
 */
import { MysqlAdapter, PostgresAdapter, SqliteAdapter, sql, type Insertable, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** Works on a Kysely instance or a transaction. */
export function dialectOf(db: Kysely<Database>): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  throw new Error(`Unsupported database adapter: ${adapter.constructor.name}`);
}

type TableWithId = { [T in keyof Database]: Database[T] extends { id: unknown } ? T : never }[keyof Database];

/**
 * Inserts one row and returns its new id. PostgreSQL has no "last insert id", so it uses
 * RETURNING; SQLite and MySQL use the driver's insert id (no RETURNING: MySQL has none).
 */
export async function insertReturningId<T extends TableWithId>(
  db: Kysely<Database>,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  // The generic table name defeats Kysely's per-table typing; `values` is checked above.
  const query = db.insertInto(table).values(values as never);
  if (dialectOf(db) === 'postgres') {
    const row = await query.returning('id' as never).executeTakeFirstOrThrow();
    return Number((row as { id: number | string }).id);
  }
  const result = await query.executeTakeFirstOrThrow();
  if (result.insertId === undefined) throw new Error(`Insert into ${table} returned no id`);
  return Number(result.insertId);
}

/** A PostgreSQL element type for a column of a bulk insert (see pgColumnArrays). */
export type PgArrayType = 'text' | 'int4' | 'int8';

/**
 * `select * from unnest($1::text[], $2::int8[], …)`: rows as one array per column, for
 * `insert into t (…) <this>` on PostgreSQL. Twenty parameters to bind and plan instead of one
 * per value (20,000 for 1,000 orders); on 10,000 orders about a third faster than multi-row
 * VALUES. `columns` gives each column's element type, in the insert's column order.
 */
export function pgColumnArrays<R, K extends keyof R & string>(
  rows: readonly R[],
  columns: readonly (readonly [K, PgArrayType])[],
): RawBuilder<unknown> {
  const arrays = columns.map(([name, type]) => sql`${rows.map((row) => row[name] ?? null)}::${sql.raw(type)}[]`);
  return sql`select * from unnest(${sql.join(arrays)})`;
}

/**
 * Rows read to be changed in the same transaction are locked (SELECT … FOR UPDATE) on
 * PostgreSQL and MySQL, so a concurrent writer waits and then sees the new row. SQLite needs
 * none: writeTransaction's BEGIN IMMEDIATE already runs writers one at a time.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: Kysely<Database>, query: Q): Q {
  return dialectOf(db) === 'sqlite' ? query : query.forUpdate();
}
