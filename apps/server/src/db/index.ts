import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import { LockingSqliteDialect } from './dialect.ts';
import { createPool as createMysqlPool } from 'mysql2';
import pg from 'pg';
import type { DbTarget } from '../config.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

// PostgreSQL returns int8 (bigint: our epoch-millisecond instants, count(*)) as strings.
// Every such value we store fits in a double, so read them as numbers.
pg.types.setTypeParser(20, (value: string) => Number(value));

export function createDb(target: DbTarget): Db {
  const plugins = [new CamelCasePlugin()];
  switch (target.dialect) {
    case 'sqlite': {
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
      const pool = new pg.Pool({ connectionString: target.url, max: 10, connectionTimeoutMillis: 10_000 });
      // An idle connection the server ends (a restart, a failover, an administrator) is reported
      // on the pool; unheard, that event would crash the process. The pool drops the connection
      // and opens a new one at the next query.
      pool.on('error', (error) => console.warn(`database: an idle connection was closed (${error.message}); it will be replaced`));
      return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
    }
    case 'mysql':
      return new Kysely<Database>({
        dialect: new MysqlDialect({
          pool: createMysqlPool({
            uri: target.url,
            connectionLimit: 10,
            supportBigNumbers: true,
            bigNumberStrings: false,
            charset: 'utf8mb4',
          }),
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
