/**
 * The PostgreSQL and MySQL/MariaDB connection pools, bounded by the DB_* settings (decision
 * 0083): no call waits on the database longer than its budget, whether the server is stopped
 * (refused at once), frozen (accepts and never answers) or only slow.
 *
 * - Getting a connection, from the pool or newly opened, gives up after `acquireTimeoutMs`.
 * - A statement is stopped by the server after `statementTimeoutMs`, and a lock wait after
 *   `lockTimeoutMs`; the connection stays usable.
 * - A server that does not answer at all cannot stop anything: the client gives up a little
 *   after the statement budget ({@link CLIENT_GRACE_MS}) and closes that connection instead of
 *   handing it to the next call (which, on mysql2, would then wait on it for good).
 *
 * Both drivers are loaded here by a dynamic import, only for their own dialect (db/index.ts).
 */
import { CompiledQuery, type DatabaseConnection, type MysqlPool, type MysqlPoolConnection, type PostgresPool } from 'kysely';
import type { Pool as PgPool, PoolClient as PgPoolClient } from 'pg';
import type { DbLimits } from '../config.ts';
import { isDbUnavailable } from './errors.ts';

/** How much later than the server's own statement timeout the client gives up on a silent server. */
export const CLIENT_GRACE_MS = 1000;

const clientTimeout = (limits: DbLimits): number => (limits.statementTimeoutMs > 0 ? limits.statementTimeoutMs + CLIENT_GRACE_MS : 0);

/** pg's own error when query_timeout passes with no answer. */
const PG_CLIENT_TIMEOUT = 'Query read timeout';

/** A pg pool whose connections, after a statement the client gave up on, are closed on release instead of reused. */
export async function postgresPool(url: string, limits: DbLimits): Promise<PostgresPool> {
  const { default: pg } = await import('pg');
  // PostgreSQL returns int8 (bigint: our epoch-millisecond instants, count(*)) as strings.
  // Every such value we store fits in a double, so read them as numbers.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const pool: PgPool = new pg.Pool({
    connectionString: url,
    max: limits.poolSize,
    connectionTimeoutMillis: limits.acquireTimeoutMs,
    // Session settings sent with the connection's start-up message: no extra round trip.
    ...(limits.statementTimeoutMs > 0 ? { statement_timeout: limits.statementTimeoutMs, query_timeout: clientTimeout(limits) } : {}),
    ...(limits.lockTimeoutMs > 0 ? { lock_timeout: limits.lockTimeoutMs } : {}),
  });
  // An idle connection the server ends (a restart, a failover, an administrator) is reported
  // on the pool; unheard, that event would crash the process. The pool drops the connection
  // and opens a new one at the next query.
  pool.on('error', (error) => console.warn(`database: an idle connection was closed (${error.message}); it will be replaced`));

  type Client = Awaited<ReturnType<PostgresPool['connect']>>;
  const wrap = (client: PgPoolClient): Client => {
    let broken = false;
    // A connection that ends while a call holds it (the server stopped, a proxy or firewall cut it)
    // is reported as an 'error' event on the client; the pool listens only while it is idle, and
    // unheard the event would crash the process (found by reliability/faults-database.test.ts).
    // The call's query fails on its own; the connection is closed when it is released.
    client.on('error', () => {
      broken = true;
    });
    const query = (...args: unknown[]): unknown => {
      // A statement after one the client gave up on (a transaction's ROLLBACK) would wait its own
      // whole timeout on a frozen server: it fails at once instead, and the connection is closed
      // on release (reliability/faults-database.test.ts).
      if (broken && typeof args[args.length - 1] !== 'function') return Promise.reject(new Error(PG_CLIENT_TIMEOUT));
      const result = (client.query as (...a: unknown[]) => unknown)(...args);
      // Heard before the caller's own await (reactions run in order), so before it releases.
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (error instanceof Error && error.message === PG_CLIENT_TIMEOUT) broken = true;
        });
      }
      return result;
    };
    return {
      query: query as Client['query'],
      release: () => {
        // A connection left without an answer (a freeze, a partition, a failover) would hold the
        // next call until its own timer: closed, the next call opens a new one.
        client.release(broken ? new Error(PG_CLIENT_TIMEOUT) : undefined);
      },
    };
  };
  // Kysely keeps its own state per client object, so each pg client keeps one wrapper.
  const wrappers = new WeakMap<PgPoolClient, Client>();
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapped = wrappers.get(client);
      if (wrapped === undefined) {
        wrapped = wrap(client);
        wrappers.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

/** The code of the error a MySQL call gets when no connection came within the acquire budget. */
export const MYSQL_ACQUIRE_TIMEOUT = 'DB_ACQUIRE_TIMEOUT';

type MysqlCallback = (error: unknown, result: never) => void;

/**
 * A mysql2 pool with an acquire timeout (mysql2 has none: a call would wait in its queue for as
 * long as the pool is busy) and a client-side timeout on every statement, whose connection is
 * then destroyed rather than returned to the pool.
 */
export async function mysqlPool(url: string, limits: DbLimits): Promise<MysqlPool> {
  const { createPool } = await import('mysql2');
  const pool = createPool({
    uri: url,
    connectionLimit: limits.poolSize,
    connectTimeout: limits.acquireTimeoutMs,
    supportBigNumbers: true,
    bigNumberStrings: false,
    charset: 'utf8mb4',
  });
  type RawConnection = Parameters<Parameters<typeof pool.getConnection>[0]>[1];
  const timeout = clientTimeout(limits);
  const wrappers = new WeakMap<RawConnection, MysqlPoolConnection>();
  const wrap = (raw: RawConnection): MysqlPoolConnection => {
    let broken = false;
    const query = (sql: string, parameters: unknown[], callback?: MysqlCallback) => {
      // A statement after one the client gave up on (a transaction's ROLLBACK) would queue behind
      // it on this connection, whose timer starts only when it reaches the front: for good on a
      // frozen server (found by reliability/faults-database.test.ts: a create hung). It fails at once.
      if (broken && callback !== undefined) {
        const error = Object.assign(new Error('The connection was abandoned after a statement timed out'), {
          code: 'PROTOCOL_SEQUENCE_TIMEOUT',
        });
        setImmediate(() => callback(error, undefined as never));
        return undefined;
      }
      // A streamed read (no callback) is not bounded here: mysql2's timer would stop a long stream.
      if (callback === undefined || timeout === 0) return (raw.query as (...a: unknown[]) => unknown)(sql, parameters, callback);
      return raw.query({ sql, timeout }, parameters, (error: unknown, result: unknown) => {
        if ((error as { code?: unknown } | null)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') broken = true;
        callback(error, result as never);
      });
    };
    return {
      query: query as MysqlPoolConnection['query'],
      release: () => {
        if (broken) raw.destroy();
        else raw.release();
      },
    };
  };
  return {
    getConnection: (callback) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        const error = Object.assign(new Error(`No database connection within ${limits.acquireTimeoutMs} ms`), {
          code: MYSQL_ACQUIRE_TIMEOUT,
        });
        callback(error, undefined as never);
      }, limits.acquireTimeoutMs);
      pool.getConnection((error, raw) => {
        if (settled) {
          // The call has given up: the connection, if one came, goes back unused.
          raw?.release();
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (error) return callback(error, undefined as never);
        let wrapped = wrappers.get(raw);
        if (wrapped === undefined) {
          wrapped = wrap(raw);
          wrappers.set(raw, wrapped);
        }
        callback(null, wrapped);
      });
    },
    // Ending the pool of a server that is down fails on the connections it could not open: no news.
    end: (callback) => pool.end((error) => callback(isDbUnavailable(error) ? null : error)),
  };
}

/**
 * The server-side budgets of a new MySQL/MariaDB connection. Lock waits: innodb_lock_wait_timeout
 * (whole seconds, at least 1). Statements: MariaDB's max_statement_time (seconds), else MySQL's
 * max_execution_time (milliseconds, reads only); a server with neither keeps the client's timer.
 */
export async function mysqlSessionLimits(connection: DatabaseConnection, limits: DbLimits): Promise<void> {
  if (limits.lockTimeoutMs > 0) {
    const seconds = Math.max(1, Math.ceil(limits.lockTimeoutMs / 1000));
    await connection.executeQuery(CompiledQuery.raw(`set session innodb_lock_wait_timeout = ${seconds}`));
  }
  if (limits.statementTimeoutMs > 0) {
    try {
      await connection.executeQuery(CompiledQuery.raw(`set session max_statement_time = ${limits.statementTimeoutMs / 1000}`));
    } catch {
      await connection
        .executeQuery(CompiledQuery.raw(`set session max_execution_time = ${Math.round(limits.statementTimeoutMs)}`))
        .catch(() => undefined);
    }
  }
}
