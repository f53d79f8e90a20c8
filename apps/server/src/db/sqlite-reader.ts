/**
 * SQLite's second, read-only connection to the database file, whose statements are prepared
 * once and kept (preparedRead runs on it), and the main connection that closes it with itself.
 * LockingSqliteDialect (sqlite-locking.ts) opens it beside a database file.
 */
import type { SqliteDatabase, SqliteDialectConfig, SqliteStatement } from 'kysely';

/** What preparedRead needs of better-sqlite3 (a subset of its Database and Statement). */
export interface BetterSqliteDatabase extends SqliteDatabase {
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
export class SqliteReader {
  /** Kept statements by SQL text: those answering objects, and those answering arrays (getAs). */
  readonly #kept = new Map<string, BetterSqliteStatement>();
  readonly #keptRaw = new Map<string, BetterSqliteStatement>();
  #connection: BetterSqliteDatabase | undefined;

  constructor(
    private readonly main: BetterSqliteDatabase,
    /** The connection's busy_timeout: SQLITE_BUSY_TIMEOUT_MS (sqlite-locking.ts), as the main connection's. */
    private readonly busyTimeoutMs: number,
  ) {}

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
        this.#connection.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
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

/** The main connection, which also closes the reader beside it. */
export class ClosingReader implements SqliteDatabase {
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

export const isFileDatabase = (database: SqliteDialectConfig['database']): database is BetterSqliteDatabase =>
  typeof database !== 'function' &&
  typeof (database as Partial<BetterSqliteDatabase>).name === 'string' &&
  (database as Partial<BetterSqliteDatabase>).memory === false;
