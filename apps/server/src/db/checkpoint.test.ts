import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test/context.ts';
import { checkpointInBackground, checkpointsSettled } from './checkpoint.ts';
import { sqlitePragma, writeTransaction } from './write-transaction.ts';
import { createDb, type Db } from './index.ts';

let database: TestDatabase;
let db: Db;
/** The SQLite database file ('' on the other databases). */
let file = '';
beforeAll(async () => {
  database = await createTestDatabase();
  if (database.target.dialect === 'sqlite') file = database.target.file;
  db = createDb(database.target);
  // A table of this test's own: 2,000 rows of 1 KB are ~500 pages, well past one page of WAL.
  await sql`create table bulk_probe (id integer primary key, body varchar(1200) not null)`.execute(db);
});
afterAll(async () => {
  await checkpointsSettled();
  await db.destroy();
  await database.drop();
});

const body = (i: number) => `${i}:`.padEnd(1024, 'x');
const insertRows = async (trx: Db, from: number, n: number) => {
  for (let i = from; i < from + n; i += 200) {
    const values = Array.from({ length: Math.min(200, from + n - i) }, (_, k) => sql`(${i + k}, ${body(i + k)})`);
    await sql`insert into bulk_probe (id, body) values ${sql.join(values)}`.execute(trx);
  }
};
const count = async () => Number((await sql<{ n: number | string }>`select count(*) as n from bulk_probe`.execute(db)).rows[0]!.n);

describe('a bulk write transaction', () => {
  it('commits what it wrote, as any write transaction does', async () => {
    const before = await count();
    const answer = await writeTransaction(
      db,
      async (trx) => {
        await insertRows(trx, 1, 2000);
        return 'written';
      },
      { bulk: true },
    );
    expect(answer).toBe('written');
    expect(await count()).toBe(before + 2000);
  });

  it('rolls back everything when it fails, and the error reaches the caller', async () => {
    const before = await count();
    await expect(
      writeTransaction(
        db,
        async (trx) => {
          await insertRows(trx, 100_001, 500);
          throw new Error('row 501 is wrong');
        },
        { bulk: true },
      ),
    ).rejects.toThrow('row 501 is wrong');
    expect(await count()).toBe(before);
  });
});

// Registered only on SQLite, so the other databases' runs show no skipped test.
if (testDbKind() === 'sqlite')
  describe('a bulk write on SQLite', () => {
    it('runs with the larger page cache and no automatic checkpoint, then puts both back (after a commit and after a rollback)', async () => {
      const cache = await sqlitePragma(db, 'cache_size');
      const autocheckpoint = await sqlitePragma(db, 'wal_autocheckpoint');
      expect(cache).toBe(-65536);
      expect(autocheckpoint).toBe(1000);

      const during = await writeTransaction(
        db,
        async (trx) => [await sqlitePragma(trx, 'cache_size'), await sqlitePragma(trx, 'wal_autocheckpoint')],
        { bulk: true },
      );
      expect(during).toEqual([-262144, 0]);
      expect([await sqlitePragma(db, 'cache_size'), await sqlitePragma(db, 'wal_autocheckpoint')]).toEqual([cache, autocheckpoint]);

      await expect(writeTransaction(db, () => Promise.reject(new Error('no')), { bulk: true })).rejects.toThrow('no');
      expect([await sqlitePragma(db, 'cache_size'), await sqlitePragma(db, 'wal_autocheckpoint')]).toEqual([cache, autocheckpoint]);

      // An ordinary write transaction changes neither.
      expect(
        await writeTransaction(db, async (trx) => [await sqlitePragma(trx, 'cache_size'), await sqlitePragma(trx, 'wal_autocheckpoint')]),
      ).toEqual([cache, autocheckpoint]);
    });

    it('commits into the WAL, and a worker thread copies it into the database file', async () => {
      await checkpointsSettled();
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
      const sizeBefore = statSync(file).size;

      await writeTransaction(db, (trx) => insertRows(trx, 200_001, 2000), { bulk: true });
      // The committing connection ran no checkpoint (it had them off), and no later commit ran
      // one: whatever of the 2 MB reaches the database file, the worker's checkpoint put there.
      await checkpointsSettled();
      expect(statSync(file).size).toBeGreaterThanOrEqual(sizeBefore + 2000 * 1024);
      expect(Number((await sql<{ n: number }>`select count(*) as n from bulk_probe where id > 200000`.execute(db)).rows[0]!.n)).toBe(2000);
    });

    it('checkpointInBackground answers with what SQLite copied, and null for a database that is gone', async () => {
      await sql`pragma wal_autocheckpoint = 0`.execute(db);
      try {
        await insertRows(db, 300_001, 300);
      } finally {
        await sql`pragma wal_autocheckpoint = 1000`.execute(db);
      }
      const answer = await checkpointInBackground(file);
      expect(answer).not.toBeNull();
      expect(answer!.busy).toBe(0);
      expect(answer!.log).toBeGreaterThan(0);
      expect(answer!.checkpointed).toBe(answer!.log);

      expect(await checkpointInBackground(`${file}.missing`)).toBeNull();
    });
  });
