import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDbUnavailable } from './errors.ts';
import { writeTransaction } from './write-transaction.ts';
import { createDb, sqliteDriver, type Db } from './index.ts';

/**
 * SQLite's write lock held by another connection (another process's stuck transaction): a write
 * transaction of the app waits DB_LOCK_TIMEOUT_SECONDS for it, as a row lock on PostgreSQL and
 * MySQL, then fails as a busy database (503) — it waited a minute before (decision 0104).
 */
let dir: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clearplay-lock-budget-'));
  db = createDb(
    { dialect: 'sqlite', file: join(dir, 'lock.db') },
    { poolSize: 1, statementTimeoutMs: 1000, lockTimeoutMs: 1000, acquireTimeoutMs: 1000 },
  );
  await sql`create table probe (id integer primary key)`.execute(db);
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('a SQLite write transaction against another connection holding the write lock', () => {
  it('gives up after the lock budget as a busy database, and goes through once the lock is released', async () => {
    const other = new (sqliteDriver())(join(dir, 'lock.db'));
    other.exec('begin immediate');
    let error: unknown;
    const started = performance.now();
    try {
      await writeTransaction(db, (trx) => sql`insert into probe (id) values (1)`.execute(trx));
    } catch (e) {
      error = e;
    } finally {
      other.exec('rollback');
      other.close();
    }
    const took = performance.now() - started;
    expect(isDbUnavailable(error)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(3000);
    await writeTransaction(db, (trx) => sql`insert into probe (id) values (2)`.execute(trx));
    expect((await sql<{ n: number }>`select count(*) as n from probe`.execute(db)).rows[0]!.n).toBe(1);
  });

  it('fails with the error that says why, not with the ROLLBACK of a transaction SQLite already ended', async () => {
    const error = await writeTransaction(db, async (trx) => {
      await sql`insert into probe (id) values (3)`.execute(trx);
      // What SQLite does on SQLITE_FULL or an I/O error: the transaction is gone.
      await sql`rollback`.execute(trx);
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as { code?: unknown }).code).toBe('SQLITE_FULL');
    expect(isDbUnavailable(error)).toBe(true);
  });
});
