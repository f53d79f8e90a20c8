/**
 * SQLite's locking, which Kysely's SQLite dialect leaves out (it assumes one connection of one
 * process): the write gate of a lock lent to a worker thread, the migration lock, and the dialect,
 * adapter and driver that carry them, with the lock budgets writeTransaction (write-transaction.ts)
 * waits by.
 */
import {
  DeleteQueryNode,
  InsertQueryNode,
  MergeQueryNode,
  SqliteAdapter,
  SqliteDialect,
  UpdateQueryNode,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type Kysely,
  type QueryExecutorProvider,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import type { Database } from './schema.ts';
import { ClosingReader, isFileDatabase, SqliteReader } from './sqlite-reader.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long a SQLite statement waits for another connection's write lock before it fails with
 * SQLITE_BUSY (a 503, decision 0083): the connection's busy_timeout, and the budget of a write
 * waiting for an import on a worker thread (SqliteWriteGate).
 */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * How long writeTransaction waits for SQLite's write lock (BEGIN IMMEDIATE) before it gives up,
 * when no lock budget is configured (migrations, the seed, scripts): a database opened for the
 * app waits DB_LOCK_TIMEOUT_SECONDS instead (LockingSqliteDialect's `lockWaitMs`), as a row
 * lock does on PostgreSQL and MySQL, and then answers 503 (decision 0104).
 */
export const WRITE_TRANSACTION_WAIT_MS = 60_000;

/** The error of a write that waited its whole budget for the lock: SQLite's own code, so it answers 503. */
export const busyError = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/**
 * The write lock of a SQLite file lent to a worker thread of this process (an order import,
 * decision 0093), from the main connection's side. While it is held, a write on the main
 * connection would wait for the lock inside SQLite's busy handler, which sleeps on the thread
 * that serves every request; it waits here instead, without holding the connection, so reads
 * go on meanwhile. It waits at most its budget, then fails as a busy database does.
 */
export class SqliteWriteGate {
  #held = 0;
  #waiters = new Set<() => void>();

  /** Is the write lock lent now? */
  get held(): boolean {
    return this.#held > 0;
  }

  /** Lends the lock until the returned function is called (once). */
  hold(): () => void {
    this.#held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#held > 0) return;
      const waiters = [...this.#waiters];
      this.#waiters.clear();
      for (const wake of waiters) wake();
    };
  }

  /** Resolves once the lock is not lent (at once when it is not); rejects as SQLITE_BUSY after `timeoutMs`. */
  async wait(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#held > 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw busyError();
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      this.#waiters.add(wake);
      const timer = setTimeout(wake, left);
      try {
        await woken;
      } finally {
        clearTimeout(timer);
        this.#waiters.delete(wake);
      }
    }
  }
}

/**
 * SQLite's BEGIN IMMEDIATE (take the write lock now), polled without blocking the event
 * loop: busy_timeout is 0 while waiting, so connections of the same process can wait for
 * each other too. A plain BEGIN would deadlock when two readers both try to write.
 */
async function beginImmediate(db: QueryExecutorProvider, timeoutMs = WRITE_TRANSACTION_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await sql`pragma busy_timeout = 0`.execute(db);
  try {
    for (;;) {
      try {
        await sql`begin immediate`.execute(db);
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if ((code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') || Date.now() > deadline) throw error;
        await sleep(25);
      }
    }
  } finally {
    await sql`pragma busy_timeout = ${sql.raw(String(SQLITE_BUSY_TIMEOUT_MS))}`.execute(db);
  }
}

/**
 * Kysely's SQLite adapter takes no migration lock (it assumes one process). Ours holds
 * SQLite's write lock (BEGIN IMMEDIATE) for the whole migration run, so two processes (or
 * two connections) migrating the same file run one after the other; SQLite DDL is
 * transactional, so the run commits as a whole.
 */
export class LockingSqliteAdapter extends SqliteAdapter {
  constructor(
    readonly reader: SqliteReader | null = null,
    readonly gate: SqliteWriteGate = new SqliteWriteGate(),
    /** The database file; null for an in-memory database. */
    readonly file: string | null = null,
    /** How long writeTransaction waits for another connection's write lock (DB_LOCK_TIMEOUT_SECONDS). */
    readonly lockWaitMs: number = WRITE_TRANSACTION_WAIT_MS,
  ) {
    super();
  }

  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await beginImmediate(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`commit`.execute(db);
  }
}

export class LockingSqliteDialect extends SqliteDialect {
  readonly #reader: SqliteReader | null;
  readonly #gate = new SqliteWriteGate();
  readonly #file: string | null;
  readonly #lockWaitMs: number;

  /** `lockWaitMs`: how long a write transaction waits for another connection's write lock (0 or none: a minute). */
  constructor(config: SqliteDialectConfig, lockWaitMs = 0) {
    const file = isFileDatabase(config.database) ? config.database.name : null;
    const reader = isFileDatabase(config.database) ? new SqliteReader(config.database, SQLITE_BUSY_TIMEOUT_MS) : null;
    super(reader === null ? config : { ...config, database: new ClosingReader(config.database as SqliteDatabase, reader) });
    this.#reader = reader;
    this.#file = file;
    this.#lockWaitMs = lockWaitMs > 0 ? lockWaitMs : WRITE_TRANSACTION_WAIT_MS;
  }

  override createAdapter(): SqliteAdapter {
    return new LockingSqliteAdapter(this.#reader, this.#gate, this.#file, this.#lockWaitMs);
  }

  override createDriver(): Driver {
    return new GatedSqliteDriver(super.createDriver(), this.#gate);
  }
}

/** The adapter of a SQLite database of ours, or null on PostgreSQL and MySQL. */
export const lockingAdapter = (db: Kysely<Database>): LockingSqliteAdapter | null => {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof LockingSqliteAdapter ? adapter : null;
};

/** The write gate of a SQLite database (null on PostgreSQL and MySQL). */
export const sqliteWriteGate = (db: Kysely<Database>): SqliteWriteGate | null => lockingAdapter(db)?.gate ?? null;

/** The file of a SQLite database; null on PostgreSQL and MySQL, and for an in-memory database. */
export const sqliteFileOf = (db: Kysely<Database>): string | null => lockingAdapter(db)?.file ?? null;

/**
 * Is SQLite's write lock lent to a worker thread of this process now? A write would wait for it
 * (SqliteWriteGate); a write that can be left for later (a session's last-seen time) can skip.
 */
export const writeLockLent = (db: Kysely<Database>): boolean => sqliteWriteGate(db)?.held === true;

/** Does this statement, first on its connection, want SQLite's write lock (a write, or a deferred BEGIN that writes)? */
function wantsWriteLock(query: CompiledQuery): boolean {
  const node = query.query;
  if (InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node) || MergeQueryNode.is(node)) return true;
  // Raw text: our deferred transactions (Kysely's `begin`) all write; BEGIN IMMEDIATE waits on its own (beginImmediate).
  return /^\s*(?:insert|update|delete|replace|begin(?:\s+deferred)?(?:\s+transaction)?\s*;?\s*$)/i.test(query.sql);
}

/**
 * Kysely's SQLite driver holds its one connection from acquire to release, whether the holder
 * runs a query yet or not. Ours takes it at the holder's first statement, and when that statement
 * wants the write lock while it is lent to a worker thread (SqliteWriteGate), waits for it first
 * without holding the connection: reads go on, the write waits at most the busy timeout.
 */
class GatedSqliteDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly gate: SqliteWriteGate,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new GatedSqliteConnection(this.inner, this.gate);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => this.inner.savepoint!(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) =>
    this.inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.inner.releaseSavepoint!(connection, name, compile);

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as GatedSqliteConnection).release();
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

class GatedSqliteConnection implements DatabaseConnection {
  #held: Promise<DatabaseConnection> | null = null;

  constructor(
    private readonly driver: Driver,
    private readonly gate: SqliteWriteGate,
  ) {}

  #connection(query: CompiledQuery): Promise<DatabaseConnection> {
    this.#held ??= (async () => {
      if (this.gate.held && wantsWriteLock(query)) await this.gate.wait(SQLITE_BUSY_TIMEOUT_MS);
      return this.driver.acquireConnection();
    })();
    return this.#held;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.#connection(query)).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.#connection(query)).streamQuery<R>(query, chunkSize);
  }

  async release(): Promise<void> {
    const held = this.#held;
    this.#held = null;
    if (held === null) return;
    // A holder whose first statement gave up waiting for the gate never took the connection.
    const connection = await held.catch(() => null);
    if (connection !== null) await this.driver.releaseConnection(connection);
  }
}
