/**
 * "Is ClearPlay running on this SQLite database?" answered by the operating system's file
 * locks (decision 0036). Beside the database file lies a tiny lock database
 * (`clearplay.db.lock`). Every server process (and a backup) holds a read transaction on it
 * for as long as it runs: a SHARED lock, which any number of processes can hold together. A
 * restore needs an EXCLUSIVE lock on it, which SQLite grants only when nobody holds SHARED,
 * and it keeps it until it has finished, so no server starts on a half-restored file. The
 * locks are released by the kernel when a process ends, however it ends: no stale pid files.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type SQLiteDatabase from 'better-sqlite3';
import { sqliteDriver } from './sqlite-driver.ts';

export const lockFileOf = (databaseFile: string): string => `${databaseFile}.lock`;

export interface RunLock {
  release(): void;
}

export class RunLockBusyError extends Error {
  constructor(
    readonly lockFile: string,
    readonly wanted: 'shared' | 'exclusive',
  ) {
    super(
      wanted === 'shared'
        ? `a restore is in progress (${lockFile} is held)`
        : `ClearPlay is running on this database (${lockFile} is held)`,
    );
    this.name = 'RunLockBusyError';
  }
}

const isBusy = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

/**
 * Opens the lock database and runs `acquire` in it; a busy lock is a RunLockBusyError. The lock
 * holds until release() (or the process's end).
 */
function openLock(
  databaseFile: string,
  timeoutMs: number,
  wanted: 'shared' | 'exclusive',
  acquire: (lock: SQLiteDatabase.Database) => void,
): RunLock {
  const file = lockFileOf(databaseFile);
  // A restore onto a new machine: the data folder may not exist yet.
  mkdirSync(dirname(file), { recursive: true });
  const SQLite = sqliteDriver();
  const lock = new SQLite(file, { timeout: timeoutMs });
  try {
    acquire(lock);
  } catch (error) {
    lock.close();
    if (isBusy(error)) throw new RunLockBusyError(file, wanted);
    throw error;
  }
  return {
    release() {
      if (!lock.open) return;
      lock.exec('rollback');
      lock.close();
    },
  };
}

/** Held by every running server (and a backup): many at once, never together with a restore. */
export function holdSharedRunLock(databaseFile: string, timeoutMs = 2000): RunLock {
  return openLock(databaseFile, timeoutMs, 'shared', (lock) => {
    const exists = lock.prepare(`select 1 from sqlite_master where type = 'table' and name = 'run_lock'`).get();
    if (exists === undefined) lock.exec('create table if not exists run_lock (note text)');
    lock.exec('begin');
    // The read takes the SHARED lock, held until release.
    lock.prepare('select count(*) from run_lock').get();
  });
}

/** Held by a restore: refused at once while any server (or backup) holds the shared lock. */
export function takeExclusiveRunLock(databaseFile: string): RunLock {
  return openLock(databaseFile, 0, 'exclusive', (lock) => lock.exec('begin exclusive'));
}
