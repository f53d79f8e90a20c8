import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { CamelCasePlugin, Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import { LockingSqliteDialect } from './dialect.ts';
import type BetterSqlite3 from 'better-sqlite3';
import type { DbTarget } from '../config.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

const requireDriver = createRequire(import.meta.url);

/** better-sqlite3, loaded on first use: a PostgreSQL or MySQL install never loads it. */
export const sqliteDriver = (): typeof BetterSqlite3 => requireDriver('better-sqlite3') as typeof BetterSqlite3;

/**
 * A Kysely instance for the target. Only the configured driver is loaded: better-sqlite3 here,
 * pg or mysql2 by a dynamic import when the first connection is opened. A SQLite install never
 * loads pg or mysql2, and the reverse. A bad SQLite file fails here; a refused PostgreSQL or
 * MySQL connection surfaces at the first query.
 */
export function createDb(target: DbTarget): Db {
  const plugins = [new CamelCasePlugin()];
  switch (target.dialect) {
    case 'sqlite': {
      // Loaded here, synchronously, and only for SQLite: the session check's prepared reader
      // (dialect.ts preparedRead) needs the opened database object, not a factory.
      const SQLite = sqliteDriver();
      mkdirSync(dirname(target.file), { recursive: true });
      const database = new SQLite(target.file);
      database.pragma('journal_mode = WAL');
      database.pragma('foreign_keys = ON');
      database.pragma('busy_timeout = 5000');
      // 64 MiB of page cache (default 2 MiB): big imports and exports touch many index pages.
      database.pragma('cache_size = -65536');
      return new Kysely<Database>({ dialect: new LockingSqliteDialect({ database }), plugins });
    }
    case 'postgres': {
      const pool = async () => {
        const { default: pg } = await import('pg');
        // PostgreSQL returns int8 (bigint: our epoch-millisecond instants, count(*)) as strings.
        // Every such value we store fits in a double, so read them as numbers.
        pg.types.setTypeParser(20, (value: string) => Number(value));
        const created = new pg.Pool({ connectionString: target.url, max: 10, connectionTimeoutMillis: 10_000 });
        // An idle connection the server ends (a restart, a failover, an administrator) is reported
        // on the pool; unheard, that event would crash the process. The pool drops the connection
        // and opens a new one at the next query.
        created.on('error', (error) => console.warn(`database: an idle connection was closed (${error.message}); it will be replaced`));
        return created;
      };
      return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
    }
    case 'mysql': {
      const pool = async () => {
        const { createPool } = await import('mysql2');
        return createPool({
          uri: target.url,
          connectionLimit: 10,
          supportBigNumbers: true,
          bigNumberStrings: false,
          charset: 'utf8mb4',
        });
      };
      return new Kysely<Database>({ dialect: new MysqlDialect({ pool }), plugins });
    }
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
