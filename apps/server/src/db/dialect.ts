// Over 400 lines: every SQLite / PostgreSQL / MySQL difference the app needs, kept in one file on purpose (decision 0007).
/**
 * Every difference between SQLite, PostgreSQL and MySQL/MariaDB that application code
 * needs lives here, so repositories stay in the portable subset of SQL.
 */
import {
  CamelCasePlugin,
  DeleteQueryNode,
  InsertQueryNode,
  MergeQueryNode,
  MysqlAdapter,
  PostgresAdapter,
  SqliteAdapter,
  SqliteDialect,
  UpdateQueryNode,
  sql,
  type Compilable,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type UnknownRow,
  type Insertable,
  type Kysely,
  type QueryExecutorProvider,
  type RawBuilder,
  type SqlBool,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
  type TransactionSettings,
} from 'kysely';
import { checkpointInBackground } from './checkpoint.ts';
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

/** Is this error a unique-constraint violation, on any of the three databases? */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return (
    code === '23505' || // PostgreSQL unique_violation
    code === 'ER_DUP_ENTRY' || // MySQL / MariaDB
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

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
const WRITE_TRANSACTION_WAIT_MS = 60_000;

/** The error of a write that waited its whole budget for the lock: SQLite's own code, so it answers 503. */
const busyError = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

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

/** What preparedRead needs of better-sqlite3 (a subset of its Database and Statement). */
interface BetterSqliteDatabase extends SqliteDatabase {
  readonly name: string;
  readonly memory: boolean;
  pragma(source: string): unknown;
}
interface BetterSqliteStatement {
  get(...parameters: unknown[]): unknown;
  raw(toggle: boolean): BetterSqliteStatement;
  columns(): { name: string }[];
}

/**
 * A second, read-only connection to the database file for preparedRead: its statements are
 * prepared once and kept (Kysely's SQLite driver prepares every query it runs), and it reads
 * past the single connection Kysely shares, so a lookup never waits behind a long write
 * transaction and never sees one half done. Each run is its own read transaction (WAL), so it
 * sees everything committed before it, by this process or any other.
 */
class SqliteReader {
  /** Kept statements by SQL text: those answering objects, and those answering arrays (getAs). */
  readonly #kept = new Map<string, BetterSqliteStatement>();
  readonly #keptRaw = new Map<string, BetterSqliteStatement>();
  #connection: BetterSqliteDatabase | undefined;

  constructor(private readonly main: BetterSqliteDatabase) {}

  #statement(text: string, raw: boolean): BetterSqliteStatement {
    const kept = raw ? this.#keptRaw : this.#kept;
    let statement = kept.get(text);
    if (statement === undefined) {
      // Opened with the main connection's own class, so this module loads no driver itself.
      const Database = this.main.constructor as new (
        file: string,
        options: { readonly: boolean; fileMustExist: boolean },
      ) => BetterSqliteDatabase;
      if (this.#connection === undefined) {
        this.#connection = new Database(this.main.name, { readonly: true, fileMustExist: true });
        this.#connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      }
      statement = this.#connection.prepare(text) as unknown as BetterSqliteStatement;
      if (raw) statement.raw(true);
      kept.set(text, statement);
    }
    return statement;
  }

  get(text: string, parameters: readonly unknown[]): unknown {
    return this.#statement(text, false).get(...parameters);
  }

  /**
   * The row of `text` as `toRow` makes it of the values (one per column, in order), read as an
   * array: better-sqlite3 builds an array far cheaper than an object with named properties.
   */
  getAs<R>(text: string, parameters: readonly unknown[], toRow: (values: readonly unknown[]) => R): R | undefined {
    const values = this.#statement(text, true).get(...parameters) as unknown[] | undefined;
    return values === undefined ? undefined : toRow(values);
  }

  /** The column names of `text`'s result, in order. */
  columns(text: string): string[] {
    return this.#statement(text, true)
      .columns()
      .map((column) => column.name);
  }

  close(): void {
    this.#kept.clear();
    this.#keptRaw.clear();
    this.#connection?.close();
    this.#connection = undefined;
  }
}

/**
 * A function making a row of a column-values array, with `keys` as its property names in order:
 * one object literal, compiled once per query (as fast-json-stringify and pino compile theirs).
 * Setting the properties one by one in a loop makes V8 look every key up afresh on each row, which
 * cost about as much as the read itself on the session check (decision 0076). The keys are the
 * query's own column names after the camel-case plugin, written into the source as JSON strings,
 * so no text of a row or a caller ever reaches the compiled function.
 */
export function rowMaker(keys: readonly string[]): (values: readonly unknown[]) => Record<string, unknown> {
  const fields = keys.map((key, i) => `${JSON.stringify(key)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: readonly unknown[]) => Record<string, unknown>;
}

/** The main connection, which also closes the reader beside it. */
class ClosingReader implements SqliteDatabase {
  constructor(
    private readonly main: SqliteDatabase,
    private readonly reader: SqliteReader,
  ) {}

  prepare(text: string): SqliteStatement {
    return this.main.prepare(text);
  }

  close(): void {
    this.reader.close();
    this.main.close();
  }
}

const isFileDatabase = (database: SqliteDialectConfig['database']): database is BetterSqliteDatabase =>
  typeof database !== 'function' &&
  typeof (database as Partial<BetterSqliteDatabase>).name === 'string' &&
  (database as Partial<BetterSqliteDatabase>).memory === false;

export class LockingSqliteDialect extends SqliteDialect {
  readonly #reader: SqliteReader | null;
  readonly #gate = new SqliteWriteGate();
  readonly #file: string | null;
  readonly #lockWaitMs: number;

  /** `lockWaitMs`: how long a write transaction waits for another connection's write lock (0 or none: a minute). */
  constructor(config: SqliteDialectConfig, lockWaitMs = 0) {
    const file = isFileDatabase(config.database) ? config.database.name : null;
    const reader = isFileDatabase(config.database) ? new SqliteReader(config.database) : null;
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
const lockingAdapter = (db: Kysely<Database>): LockingSqliteAdapter | null => {
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

/**
 * A one-row read of committed data, built and compiled once per database and then run with new
 * parameter values: no query building per call. On a SQLite file it runs on SqliteReader's
 * connection, its statement prepared once; elsewhere (PostgreSQL, MySQL, inside a transaction)
 * the compiled text goes through Kysely's executor like any query. Either way the result passes
 * through the Kysely plugins (camel case), so both paths answer the same row: on SQLite, when
 * the only plugin is camel case (which only renames), the columns are renamed once and each row
 * is read as an array and given those names (rowMaker); any other plugin sees every row.
 *
 * On that SQLite path the row is answered at once, not as a promise (after the first call, which
 * names the columns): better-sqlite3 reads synchronously, and a caller on the request path
 * (the session check) then takes no promise and no microtask turn per call. Elsewhere, and at
 * the first call, it answers a promise; `await` takes either (decision 0071).
 *
 * `build` receives `placeholders` and must bind exactly them, in order, as the query's only
 * parameters (checked at the first compile); each call substitutes its own values.
 */
export function preparedRead<P extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...params: P) => Compilable<R>,
  placeholders: P,
): (db: Kysely<Database>, ...params: P) => R | undefined | Promise<R | undefined> {
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<R>>();
  /** Per database: the maker of a row (keys after the plugins) of its values, or null when the plugins do more than rename. */
  const renamed = new WeakMap<Kysely<Database>, ((values: readonly unknown[]) => R) | null>();
  const compile = (db: Kysely<Database>): CompiledQuery<R> => {
    const query = build(db, ...placeholders).compile();
    const bound = query.parameters;
    if (bound.length !== placeholders.length || bound.some((value, i) => value !== placeholders[i])) {
      throw new Error(`preparedRead: the query must bind exactly its ${placeholders.length} parameter(s), in order: ${query.sql}`);
    }
    compiled.set(db, query);
    return query;
  };
  type Executor = ReturnType<Kysely<Database>['getExecutor']>;
  const throughPlugins = async (executor: Executor, query: CompiledQuery<R>, rows: UnknownRow[]) => {
    let result: QueryResult<UnknownRow> = { rows };
    for (const plugin of executor.plugins) result = await plugin.transformResult({ result, queryId: query.queryId });
    return result.rows;
  };
  /** Camel case only renames: a row whose every column holds its own index, once through it, names the columns. */
  const nameColumns = async (db: Kysely<Database>, executor: Executor, query: CompiledQuery<R>, reader: SqliteReader) => {
    // Any other plugin may change values too, so it sees every row (null).
    let toRow: ((values: readonly unknown[]) => R) | null = null;
    if (executor.plugins.every((plugin) => plugin instanceof CamelCasePlugin)) {
      const columns = reader.columns(query.sql);
      const [probe] = await throughPlugins(executor, query, [Object.fromEntries(columns.map((name, i) => [name, i]))]);
      const entries = Object.entries(probe ?? {});
      if (entries.length === columns.length && entries.every(([, value], i) => value === i)) {
        toRow = rowMaker(entries.map(([key]) => key)) as unknown as (values: readonly unknown[]) => R;
      }
    }
    renamed.set(db, toRow);
  };
  const read = (db: Kysely<Database>, ...params: P): R | undefined | Promise<R | undefined> => {
    const query = compiled.get(db) ?? compile(db);
    const executor = db.getExecutor();
    const reader = executor.adapter instanceof LockingSqliteAdapter && !db.isTransaction ? executor.adapter.reader : null;
    if (reader === null) return db.executeQuery<R>({ ...query, parameters: params }).then((result) => result.rows[0]);
    const toRow = renamed.get(db);
    if (toRow === undefined) return nameColumns(db, executor, query, reader).then(() => read(db, ...params));
    if (toRow !== null) return reader.getAs(query.sql, params, toRow);
    const row = reader.get(query.sql, params) as UnknownRow | undefined;
    return row === undefined ? undefined : throughPlugins(executor, query, [row]).then((rows) => rows[0] as R | undefined);
  };
  return read;
}

/** A deadlock or serialization failure: the transaction lost a race and may simply be run again. */
export function isRetryableConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return (
    code === '40001' || // PostgreSQL serialization_failure
    code === '40P01' || // PostgreSQL deadlock_detected
    code === 'ER_LOCK_DEADLOCK' ||
    code === 'ER_LOCK_WAIT_TIMEOUT' ||
    code === 'SQLITE_BUSY'
  );
}

/** A LIKE pattern matching `text` literally as a prefix; `!` is the escape character (portable: MySQL treats `\` in literals). */
export const likePrefix = (text: string): string => `${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;

const lowerAscii = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `text` folded as this database's lower() folds a column: SQLite folds ASCII only, the others every letter. */
export const lowerAsDb = (db: Kysely<Database>, text: string): string =>
  dialectOf(db) === 'sqlite' ? lowerAscii(text) : text.toLowerCase();

/**
 * Case-insensitive prefix filter on `lower(column)`, written the way each database answers it
 * from the expression index of migration 0003. SQLite: a range on lower(column) (its LIKE
 * optimisation needs a NOCASE column, not an expression), exact because BINARY compares
 * code points; its lower() folds ASCII only, so the prefix is folded the same way.
 * PostgreSQL: LIKE 'prefix%' (text_pattern_ops index). MySQL/MariaDB: LIKE, no index.
 */
export function lowerPrefix(db: Kysely<Database>, column: string, prefix: string): RawBuilder<SqlBool> {
  const ref = sql.ref(column);
  if (dialectOf(db) === 'sqlite') {
    const low = lowerAsDb(db, prefix);
    const points = [...low];
    const last = points.pop()?.codePointAt(0);
    if (last === undefined || last >= 0x10ffff) return sql<SqlBool>`lower(${ref}) like ${likePrefix(low)} escape '!'`;
    const high = points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
    return sql<SqlBool>`(lower(${ref}) >= ${low} and lower(${ref}) < ${high})`;
  }
  return sql<SqlBool>`lower(${ref}) like ${likePrefix(lowerAsDb(db, prefix))} escape '!'`;
}

/** Case-insensitive "contains" (small tables only: no index can answer it), folded as the database folds lower(column). */
export function lowerContains(db: Kysely<Database>, column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${likePrefix(lowerAsDb(db, text))}`} escape '!'`;
}

/** Trimmed free-text filter; empty means "no filter". */
export const textFilter = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
};

/**
 * Rows read to be changed in the same transaction are locked (SELECT … FOR UPDATE) on
 * PostgreSQL and MySQL, so a concurrent writer waits and then sees the new row. SQLite needs
 * none: writeTransaction's BEGIN IMMEDIATE already runs writers one at a time.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: Kysely<Database>, query: Q): Q {
  return dialectOf(db) === 'sqlite' ? query : query.forUpdate();
}

/** Socket errors of a database connection: the server is down, unreachable or gone mid-call. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** PostgreSQL SQLSTATEs of a database that cannot answer now (class 08 is matched apart). */
const PG_UNAVAILABLE = new Set([
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '53300', // too_many_connections
]);

/** pg's and pg-pool's own errors, which carry no code. */
const PG_CLIENT_MESSAGES = [
  'Connection terminated', // unexpectedly, or due to connection timeout (connect budget)
  'timeout exceeded when trying to connect', // every pooled connection busy past the acquire budget
  'Query read timeout', // query_timeout: the server never answered
  'Client has encountered a connection error and is not queryable',
];

/**
 * mysql2's own errors without a code: a statement sent on a connection that closed while a call
 * held it (the server stopped between two statements of a transaction). Found by
 * reliability/faults-database.test.ts, where it answered 500.
 */
const MYSQL_CLIENT_MESSAGES = ["Can't add new command when connection is in closed state"];

const MYSQL_UNAVAILABLE = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT', // the per-statement client timer (db/pools.ts)
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'DB_ACQUIRE_TIMEOUT', // no pooled connection within the acquire budget (db/pools.ts)
  'ER_LOCK_WAIT_TIMEOUT', // innodb_lock_wait_timeout
  'ER_QUERY_TIMEOUT', // MySQL max_execution_time
  'ER_QUERY_INTERRUPTED',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CLIENT_INTERACTION_TIMEOUT',
]);
/** MariaDB's max_statement_time (ER_STATEMENT_TIMEOUT), which mysql2 knows only by number. */
const MARIADB_STATEMENT_TIMEOUT = 1969;

function unavailableHere(error: object): boolean {
  const { code, errno, message } = error as { code?: unknown; errno?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.has(code) || MYSQL_UNAVAILABLE.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true; // PostgreSQL connection_exception class
    if (code.startsWith('SQLITE_BUSY')) return true; // still locked after busy_timeout
    // The disk full, read-only or failing under the file (reliability/faults-disk.test.ts): not the call's fault.
    if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR')) return true;
  }
  if (errno === MARIADB_STATEMENT_TIMEOUT) return true;
  return typeof message === 'string' && [...PG_CLIENT_MESSAGES, ...MYSQL_CLIENT_MESSAGES].some((m) => message.startsWith(m));
}

/**
 * Is this error the database being unavailable for now (stopped, frozen, overloaded, a statement
 * or lock wait past its budget), rather than a fault of the call? Such a call answers 503, "try
 * again shortly" (decision 0083). Looks through a few `cause`s: drivers wrap their socket errors.
 */
export function isDbUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (unavailableHere(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
