/**
 * What a database error means, on SQLite, PostgreSQL and MySQL/MariaDB alike: a unique
 * violation (someone else inserted first), a conflict worth running the transaction again
 * (a deadlock, a serialization failure, a busy SQLite file), or the database being unavailable
 * for now (a 503, decision 0083).
 */

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
