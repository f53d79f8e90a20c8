/**
 * writeTransaction: a read-then-write transaction that is safe when several processes run it at
 * once, on every database; on SQLite it takes the write lock first (BEGIN IMMEDIATE) within the
 * lock budget, and a bulk write (an import) widens the page cache and leaves the WAL checkpoint
 * to a worker thread.
 */
import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { checkpointInBackground } from './checkpoint.ts';
import { dialectOf } from './dialect.ts';
import type { Database } from './schema.ts';
import { busyError, lockingAdapter, SQLITE_BUSY_TIMEOUT_MS, sqliteWriteGate, WRITE_TRANSACTION_WAIT_MS } from './sqlite-locking.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface WriteOptions {
  /**
   * A bulk write (an import): on SQLite the page cache may grow to BULK_CACHE_KIB while it runs,
   * and its commit leaves the WAL checkpoint to a worker thread (see checkpoint.ts).
   */
  bulk?: boolean;
}

/**
 * SQLite page cache (KiB) during a bulk write. 10,000 orders into a table of a million dirty
 * ~30,000 pages of its random-keyed indexes (code, MAC, chat ID, names, shop); with the usual
 * 64 MiB the cache spills them to the WAL midway and reads them back, a third slower. The cache
 * shrinks back when the write ends (SQLite frees the pages beyond the limit).
 */
const BULK_CACHE_KIB = 256 * 1024;

/** A numeric SQLite setting of this connection (`pragma cache_size`, …). */
export async function sqlitePragma(conn: QueryExecutorProvider, name: 'cache_size' | 'wal_autocheckpoint'): Promise<number> {
  // The answer's column is renamed by the camel-case plugin: take the only value of the row.
  const { rows } = await sql<Record<string, unknown>>`pragma ${sql.raw(name)}`.execute(conn);
  const found = Number(Object.values(rows[0] ?? {})[0]);
  if (!Number.isInteger(found)) throw new Error(`pragma ${name} gave no number`);
  return found;
}

/** The settings a bulk write changes, read before it starts (they are put back after). */
async function bulkSettings(conn: QueryExecutorProvider): Promise<{ cache: number; autocheckpoint: number; file: string }> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(conn);
  // '' for an in-memory database, which has no WAL.
  const file = rows.find((r) => r.name === 'main')?.file ?? '';
  return { cache: await sqlitePragma(conn, 'cache_size'), autocheckpoint: await sqlitePragma(conn, 'wal_autocheckpoint'), file };
}

/**
 * A read-then-write transaction that is safe when several processes run it at once.
 * SQLite: BEGIN IMMEDIATE, so they run one after the other. PostgreSQL and MySQL: an
 * ordinary transaction; unique constraints stop the loser (see isUniqueViolation).
 */
export async function writeTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Kysely<Database>) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return db.transaction().execute(fn);
  // Waiting for an import's worker without the connection, which reads keep using meanwhile.
  if (!db.isTransaction) await sqliteWriteGate(db)?.wait(WRITE_TRANSACTION_WAIT_MS);
  // Another connection's write lock (another process's transaction, a stuck writer) is waited for
  // as long as the configured lock budget, not a minute, so the caller gets 503 in time; and
  // between tries the connection goes back, so reads on it go on meanwhile (decision 0104).
  const deadline = Date.now() + (lockingAdapter(db)?.lockWaitMs ?? WRITE_TRANSACTION_WAIT_MS);
  for (;;) {
    const outcome = await db.connection().execute(async (conn): Promise<T | typeof NOT_YET> => {
      if (!(await tryBeginImmediate(conn))) return NOT_YET;
      const bulk = options.bulk === true ? await bulkSettings(conn) : null;
      let result: T;
      try {
        if (bulk !== null) {
          await sql`pragma cache_size = ${sql.raw(String(-BULK_CACHE_KIB))}`.execute(conn);
          await sql`pragma wal_autocheckpoint = 0`.execute(conn);
        }
        result = await fn(conn);
        await sql`commit`.execute(conn);
      } catch (error) {
        // SQLite may have rolled back already (SQLITE_FULL, an I/O error): the rollback then fails
        // with "no transaction is active", and that error must not hide the one that says why
        // (found by reliability/faults-disk.test.ts: a full disk answered 500, not 503).
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw error;
      } finally {
        if (bulk !== null) {
          await sql`pragma cache_size = ${sql.raw(String(bulk.cache))}`.execute(conn);
          await sql`pragma wal_autocheckpoint = ${sql.raw(String(bulk.autocheckpoint))}`.execute(conn);
        }
      }
      if (bulk !== null && bulk.file !== '' && bulk.autocheckpoint > 0) void checkpointInBackground(bulk.file);
      return result;
    });
    if (outcome !== NOT_YET) return outcome as T;
    if (Date.now() > deadline) throw busyError();
    await sleep(25);
  }
}

/** writeTransaction's "the lock is held elsewhere, try again". */
const NOT_YET = Symbol('not yet');

/** One try at SQLite's write lock (BEGIN IMMEDIATE), without waiting: false when another connection holds it. */
async function tryBeginImmediate(conn: QueryExecutorProvider): Promise<boolean> {
  await sql`pragma busy_timeout = 0`.execute(conn);
  try {
    await sql`begin immediate`.execute(conn);
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return false;
    throw error;
  } finally {
    await sql`pragma busy_timeout = ${sql.raw(String(SQLITE_BUSY_TIMEOUT_MS))}`.execute(conn);
  }
}
