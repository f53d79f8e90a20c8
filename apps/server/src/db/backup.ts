/**
 * Backup and restore of the embedded SQLite database (decision 0036).
 * - Backup uses SQLite's online backup API (better-sqlite3 `backup()`): a consistent copy
 *   taken while the server runs and writes (WAL mode: the copy reads, nobody waits). It is
 *   written beside the target under a temporary name, checked, then renamed, so a file with
 *   the target's name is always a whole backup.
 * - Restore first checks that the file is a sound ClearPlay database no newer than this
 *   version, then refuses while any server holds the run lock (run-lock.ts), keeps the
 *   current database as `<file>.before-restore-<time>` and puts the copy in its place.
 * Errors are DataCareError with a message for the person at the terminal.
 */
import { existsSync, openSync, readSync, closeSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { sqliteDriver } from './sqlite-driver.ts';
import { migrations } from './migrate.ts';
import { holdSharedRunLock, RunLockBusyError, takeExclusiveRunLock } from './run-lock.ts';

export class DataCareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataCareError';
  }
}

/** Tables every ClearPlay database has (0001). */
const REQUIRED_TABLES = ['kysely_migration', 'roles', 'users', 'sessions'];
const SQLITE_HEADER = 'SQLite format 3\0';

function hasSqliteHeader(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

export interface DatabaseSummary {
  migrations: string[];
  users: number;
  bytes: number;
}

/**
 * Opens `file` and checks it is a sound ClearPlay database this version can run: SQLite,
 * intact (quick_check), ClearPlay's tables, and no migration this version does not know.
 */
export function inspectClearPlayDatabase(file: string): DatabaseSummary {
  if (!existsSync(file)) throw new DataCareError(`${file} does not exist.`);
  const info = statSync(file);
  if (!info.isFile()) throw new DataCareError(`${file} is not a file.`);
  if (!hasSqliteHeader(file)) throw new DataCareError(`${file} is not a SQLite database, so not a ClearPlay backup.`);
  let db: BetterSqlite3.Database;
  try {
    db = new (sqliteDriver())(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new DataCareError(`${file} cannot be opened as a SQLite database (${(error as Error).message}).`);
  }
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new DataCareError(`${file} is damaged (SQLite's check says: ${String(check)}).`);
    const tables = new Set(
      (db.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map((r) => r.name),
    );
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0)
      throw new DataCareError(`${file} is a SQLite database but not a ClearPlay one (no ${missing.join(', ')} table).`);
    const applied = (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
    const unknown = applied.filter((name) => !(name in migrations));
    if (unknown.length > 0) {
      throw new DataCareError(
        `${file} was made by a newer version of ClearPlay (migration ${unknown.join(', ')} is unknown here); update ClearPlay first.`,
      );
    }
    const users = Number((db.prepare('select count(*) as n from users').get() as { n: number }).n);
    return { migrations: applied, users, bytes: info.size };
  } catch (error) {
    if (error instanceof DataCareError) throw error;
    throw new DataCareError(`${file} cannot be read as a ClearPlay database (${(error as Error).message}).`);
  } finally {
    db.close();
  }
}

const busyMessage = (error: RunLockBusyError, action: string) =>
  error.wanted === 'shared'
    ? `A restore is in progress on this database; ${action} when it has finished.`
    : 'ClearPlay is running on this database. Stop every ClearPlay server that uses it (Ctrl+C or SIGTERM), then run the restore again.';

/** Runs `fn` holding the lock `take` gives; a lock held elsewhere becomes a DataCareError saying why. */
async function withLock<T>(take: () => { release(): void }, action: string, fn: () => Promise<T>): Promise<T> {
  let lock: { release(): void };
  try {
    lock = take();
  } catch (error) {
    if (error instanceof RunLockBusyError) throw new DataCareError(busyMessage(error, action));
    throw error;
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
}

/** Copies the live database `source` into the new file `target` (which must not exist). */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new DataCareError(`There is no database at ${source} yet: nothing to back up.`);
  if (existsSync(target)) throw new DataCareError(`${target} already exists; choose another file name or remove it first.`);
  if (!existsSync(dirname(target))) throw new DataCareError(`The folder ${dirname(target)} does not exist.`);
  inspectClearPlayDatabase(source);
  const started = Date.now();
  const partial = `${target}.partial`;
  return withLock(
    () => holdSharedRunLock(source),
    'back up',
    async () => {
      const db = new (sqliteDriver())(source, { fileMustExist: true, timeout: 5000 });
      try {
        // After the first step, copy the rest in one step: a step that another process's
        // write interrupts makes SQLite start over, so small steps could chase a busy server.
        await db.backup(partial, { progress: ({ remainingPages }) => Math.max(remainingPages, 100) });
      } catch (error) {
        rmSync(partial, { force: true });
        throw new DataCareError(`The backup failed: ${(error as Error).message}`);
      } finally {
        db.close();
      }
      try {
        // A backup is one self-contained file: rollback journal, not WAL (no -wal/-shm beside it).
        const copy = new (sqliteDriver())(partial, { fileMustExist: true });
        try {
          copy.pragma('journal_mode = DELETE');
        } finally {
          copy.close();
        }
        inspectClearPlayDatabase(partial);
      } catch (error) {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
        throw error;
      }
      renameSync(partial, target);
      return { file: target, bytes: statSync(target).size, ms: Date.now() - started };
    },
  );
}

export interface RestoreResult {
  /** Where the database that was replaced now lies (null: there was none). */
  previous: string | null;
  summary: DatabaseSummary;
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** Replaces the database `target` with the backup `backup`; refused while a server runs on `target`. */
export async function restoreSqlite(backup: string, target: string, now: Date = new Date()): Promise<RestoreResult> {
  const summary = inspectClearPlayDatabase(backup);
  return withLock(
    () => takeExclusiveRunLock(target),
    'restore',
    async () => {
      const incoming = `${target}.restoring`;
      rmSync(incoming, { force: true });
      const source = new (sqliteDriver())(backup, { readonly: true, fileMustExist: true });
      try {
        // A standalone copy, whatever journal files lie beside the backup.
        await source.backup(incoming);
      } finally {
        source.close();
      }
      let previous: string | null = null;
      if (existsSync(target)) {
        // Fold the current database's WAL into it, so the kept copy is whole on its own.
        const current = new (sqliteDriver())(target, { fileMustExist: true, timeout: 0 });
        try {
          current.pragma('wal_checkpoint(TRUNCATE)');
        } finally {
          current.close();
        }
        previous = `${target}.before-restore-${stamp(now)}`;
        renameSync(target, previous);
      }
      // Journal files of the replaced database must not be applied to the restored one.
      for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true });
      renameSync(incoming, target);
      return { previous, summary };
    },
  );
}
