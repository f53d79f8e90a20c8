import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CamelCasePlugin, Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import { LockingSqliteDialect, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-locking.ts';
import { sqliteDriver } from './sqlite-driver.ts';
import type { DbLimits, DbTarget } from '../config.ts';
import { mysqlPool, mysqlSessionLimits, postgresPool } from './pools.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** No budgets: for work that is not a request (migrations, the seed, scripts). */
const UNBOUNDED: DbLimits = { poolSize: 10, statementTimeoutMs: 0, lockTimeoutMs: 0, acquireTimeoutMs: 10_000 };

export { sqliteDriver } from './sqlite-driver.ts';

/**
 * A Kysely instance for the target. Only the configured driver is loaded: better-sqlite3 here,
 * pg or mysql2 by a dynamic import when the first connection is opened. A SQLite install never
 * loads pg or mysql2, and the reverse. A bad SQLite file fails here; a refused PostgreSQL or
 * MySQL connection surfaces at the first query.
 *
 * `limits` bound the PostgreSQL and MySQL pools (db/pools.ts): the app passes the configured
 * ones; without them (migrations, the seed, scripts) a statement may run and wait as long as
 * it needs, on a pool of 10.
 */
export function createDb(target: DbTarget, limits: DbLimits = UNBOUNDED): Db {
  const plugins = [new CamelCasePlugin()];
  switch (target.dialect) {
    case 'sqlite': {
      // Loaded here, synchronously, and only for SQLite: the session check's prepared reader
      // (prepared-read.ts preparedRead) needs the opened database object, not a factory.
      const SQLite = sqliteDriver();
      mkdirSync(dirname(target.file), { recursive: true });
      const database = new SQLite(target.file);
      database.pragma('journal_mode = WAL');
      database.pragma('foreign_keys = ON');
      database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      // 64 MiB of page cache (default 2 MiB): big imports and exports touch many index pages.
      database.pragma('cache_size = -65536');
      return new Kysely<Database>({ dialect: new LockingSqliteDialect({ database }, limits.lockTimeoutMs), plugins });
    }
    case 'postgres':
      return new Kysely<Database>({ dialect: new PostgresDialect({ pool: () => postgresPool(target.url, limits) }), plugins });
    case 'mysql':
      return new Kysely<Database>({
        dialect: new MysqlDialect({
          pool: () => mysqlPool(target.url, limits),
          onCreateConnection: (connection) => mysqlSessionLimits(connection, limits),
        }),
        plugins,
      });
  }
}

/** `select 1`: true when the database answers within the timeout. Never throws. */
export async function pingDb(db: Db, timeoutMs = 3000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
