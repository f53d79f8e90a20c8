import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDbUnavailable } from './errors.ts';
import { sqliteWriteGate, writeLockLent, type SqliteWriteGate } from './sqlite-locking.ts';
import { writeTransaction } from './write-transaction.ts';
import { createDb, type Db } from './index.ts';

/**
 * SQLite's write lock lent to an import's worker thread (decision 0093), from the request
 * thread's side: its writes wait for it without holding the one connection, so reads go on,
 * and give up as a busy database does after the busy timeout.
 */
let dir: string;
let db: Db;
let gate: SqliteWriteGate;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clearplay-gate-'));
  db = createDb({ dialect: 'sqlite', file: join(dir, 'gate.db') });
  await sql`create table gate_probe (id integer primary key, note text not null)`.execute(db);
  gate = sqliteWriteGate(db)!;
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const rows = async () => Number((await sql<{ n: number }>`select count(*) as n from gate_probe`.execute(db)).rows[0]!.n);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the SQLite write gate', () => {
  it('holds writes, plain or in a transaction, while reads go on, and lets them through once the lock is back', async () => {
    expect(writeLockLent(db)).toBe(false);
    const release = gate.hold();
    expect(writeLockLent(db)).toBe(true);
    const settled: string[] = [];
    const plain = db
      .insertInto('gate_probe' as never)
      .values({ id: 1, note: 'plain' } as never)
      .execute()
      .then(() => settled.push('plain'));
    const deferred = db
      .transaction()
      .execute((trx) => sql`insert into gate_probe (id, note) values (2, 'deferred')`.execute(trx))
      .then(() => settled.push('deferred'));
    const immediate = writeTransaction(db, (trx) => sql`insert into gate_probe (id, note) values (3, 'immediate')`.execute(trx)).then(() =>
      settled.push('immediate'),
    );
    await pause(100);
    // Reads are answered meanwhile, on the connection the writes do not hold.
    expect(await rows()).toBe(0);
    expect(settled).toEqual([]);
    release();
    await Promise.all([plain, deferred, immediate]);
    expect(settled.sort()).toEqual(['deferred', 'immediate', 'plain']);
    expect(await rows()).toBe(3);
  });

  it('fails a plain write as a busy database (503) once it has waited the busy timeout', async () => {
    const release = gate.hold();
    try {
      const started = Date.now();
      const error = await db
        .insertInto('gate_probe' as never)
        .values({ id: 4, note: 'late' } as never)
        .execute()
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
      expect((error as { code?: unknown } | null)?.code).toBe('SQLITE_BUSY');
      expect(isDbUnavailable(error)).toBe(true);
      // Reads still answer, and the connection is free for the next write once the lock is back.
      expect(await rows()).toBe(3);
    } finally {
      release();
    }
    await sql`insert into gate_probe (id, note) values (5, 'after')`.execute(db);
    expect(await rows()).toBe(4);
  });
});
