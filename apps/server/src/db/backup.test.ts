import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { sqliteDriver } from './sqlite-driver.ts';

const SQLite = sqliteDriver();
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeToolAdvice } from '../cli/native-tools.ts';
import { loadConfig, REPO_ROOT } from '../config.ts';
import { backupSqlite, DataCareError, inspectClearPlayDatabase, restoreSqlite } from './backup.ts';
import { writeTransaction } from './write-transaction.ts';
import { createDb, type Db } from './index.ts';
import { migrateToLatest } from './migrate.ts';
import { holdSharedRunLock, RunLockBusyError, takeExclusiveRunLock } from './run-lock.ts';
import { seed } from './seed.ts';

/**
 * Backup and restore of the embedded SQLite database (they exist for SQLite only, so this file
 * uses a SQLite database of its own whatever TEST_DB says): a backup taken by the real command
 * while this process keeps writing is a consistent snapshot, a restore gives back exactly that
 * snapshot, and the restore command refuses while a real server runs on the database.
 */

const TSX = resolve(REPO_ROOT, 'node_modules/.bin/tsx');
const SRC = resolve(import.meta.dirname, '..');
const NO_STACK = /\bat .*\.(ts|js):\d+/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnTsx(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(TSX, [resolve(SRC, script), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function finished(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolveRun, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

const runCli = (name: 'backup' | 'restore', file: string, env: Record<string, string>) => finished(spawnTsx(`cli/${name}.ts`, [file], env));

/** Every table's rows, in a stable order: what "the same database" means here. */
function contents(file: string): Record<string, unknown[]> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = (
      db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`select * from "${t}" order by 1, 2`).all()]));
  } finally {
    db.close();
  }
}

async function newDatabase(dir: string): Promise<{ db: Db; file: string; env: Record<string, string> }> {
  const env = { DATA_DIR: dir, INIT_ADMIN_PASSWORD: 'Admin12345', LOG_LEVEL: 'warn' };
  const config = loadConfig(env, []);
  if (config.database.dialect !== 'sqlite') throw new Error('expected SQLite');
  const db = createDb(config.database);
  await migrateToLatest(db);
  await seed(db, { initAdminPassword: config.initAdminPassword, demo: false });
  return { db, file: config.database.file, env };
}

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'clearplay-backup-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('backup while writing, then restore', () => {
  let source: { db: Db; file: string; env: Record<string, string> };
  let backupFile: string;
  let pairsAtStart = 0;
  let pairsAtEnd = 0;

  beforeAll(async () => {
    source = await newDatabase(await tempDir());
    // Some bulk, so the copy has many pages to go through.
    await writeTransaction(source.db, async (trx) => {
      for (let i = 0; i < 40; i++) {
        await trx
          .insertInto('loginRecords')
          .values(
            Array.from({ length: 500 }, (_, j) => ({
              username: `bulk${i}_${j}`,
              userId: null,
              ip: '10.0.0.1',
              userAgent: 'x'.repeat(200),
              success: 1,
              reason: 'ok',
              createdAt: j,
            })),
          )
          .execute();
      }
    });
  });
  afterAll(async () => {
    await source.db.destroy().catch(() => undefined);
  });

  it('copies a consistent snapshot with the real command while this process keeps writing', async () => {
    // The writer: two rows per transaction; a snapshot has both rows of a pair or neither.
    let pairs = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const n = pairs;
        await writeTransaction(source.db, async (trx) => {
          for (const half of ['a', 'b']) {
            await trx
              .insertInto('loginRecords')
              .values({ username: `pair${n}`, userId: null, ip: half, userAgent: '', success: 1, reason: 'ok', createdAt: n })
              .execute();
          }
        });
        pairs = n + 1;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await new Promise<void>((r) => {
      const wait = () => (pairs >= 20 ? r() : setImmediate(wait));
      wait();
    });

    backupFile = join(await tempDir(), 'snapshot.db');
    pairsAtStart = pairs;
    const run = await runCli('backup', backupFile, source.env);
    pairsAtEnd = pairs;
    stop = true;
    await writer;

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`to ${backupFile}`);
    // The writer really wrote while the command ran.
    expect(pairsAtEnd).toBeGreaterThan(pairsAtStart);
    // One self-contained file: nothing left beside it.
    expect(readdirSync(dirname(backupFile))).toEqual(['snapshot.db']);

    const copy = new SQLite(backupFile, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = copy
        .prepare(`select username, count(*) as n from login_records where username like 'pair%' group by username`)
        .all() as { username: string; n: number }[];
      // Whole transactions only, and a prefix of them: pair0 … pair(k-1).
      expect(rows.every((r) => r.n === 2)).toBe(true);
      const k = rows.length;
      expect(k).toBeGreaterThanOrEqual(pairsAtStart);
      expect(k).toBeLessThanOrEqual(pairsAtEnd);
      expect(rows.map((r) => r.username).sort()).toEqual(Array.from({ length: k }, (_, i) => `pair${i}`).sort());
      expect((copy.prepare(`select count(*) as n from login_records where username like 'bulk%'`).get() as { n: number }).n).toBe(20_000);
    } finally {
      copy.close();
    }
  }, 60_000);

  it('restores exactly the snapshot, into a new data folder and over the live one', async () => {
    const snapshot = contents(backupFile);

    // A data folder that does not exist yet (a new machine).
    const fresh = join(await tempDir(), 'new-machine', 'data', 'clearplay.db');
    const intoFresh = await restoreSqlite(backupFile, fresh);
    expect(intoFresh.previous).toBeNull();
    expect(contents(fresh)).toEqual(snapshot);

    // Over the database it was taken from (now holding later writes): stopped first.
    await source.db.destroy();
    const before = contents(source.file);
    const over = await restoreSqlite(backupFile, source.file, new Date(Date.UTC(2026, 0, 31, 12, 0, 0)));
    expect(contents(source.file)).toEqual(snapshot);
    expect(over.previous).toBe(`${source.file}.before-restore-20260131T120000Z`);
    expect(contents(over.previous!)).toEqual(before);
    expect(before.login_records!.length).toBeGreaterThan(snapshot.login_records!.length);

    // The restored database opens and migrates like any other: nothing left to do.
    const reopened = createDb({ dialect: 'sqlite', file: source.file });
    try {
      expect((await migrateToLatest(reopened)).results).toEqual([]);
      const admin = await reopened.selectFrom('users').select('username').where('username', '=', 'superadmin').executeTakeFirst();
      expect(admin?.username).toBe('superadmin');
    } finally {
      await reopened.destroy();
    }
  });
});

describe('restore refuses while the server runs', () => {
  it('refuses with a clear message while a real server uses the database, and restores once it has stopped', async () => {
    const dir = await tempDir();
    const env = {
      DATA_DIR: dir,
      INIT_ADMIN_PASSWORD: 'Admin12345',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_DIST: join(dir, 'no-web'),
    };
    const server = spawnTsx('server.ts', [], env);
    const exited = finished(server);
    let output = '';
    server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await new Promise<void>((ready, failed) => {
        server.stdout?.on('data', () => output.includes('ClearPlay is running') && ready());
        void exited.then((r) => failed(new Error(`server exited early: ${r.stderr}`)));
      });

      // A backup is safe while the server runs.
      const backupFile = join(dir, 'while-running.db');
      const backup = await runCli('backup', backupFile, env);
      expect(backup.code, backup.stderr).toBe(0);

      const refused = await runCli('restore', backupFile, env);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        'ClearPlay is running on this database. Stop every ClearPlay server that uses it (Ctrl+C or SIGTERM), then run the restore again.',
      );
      expect(refused.stderr).not.toMatch(NO_STACK);
      expect(readdirSync(dir).filter((f) => f.includes('before-restore'))).toEqual([]);

      server.kill('SIGTERM');
      expect((await exited).code).toBe(0);

      const restored = await runCli('restore', backupFile, env);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`Restored ${backupFile} into ${join(dir, 'clearplay.db')}`);
      expect(readdirSync(dir).filter((f) => f.includes('before-restore'))).toHaveLength(1);
    } finally {
      server.kill('SIGKILL');
    }
  }, 120_000);

  it('lets servers share the run lock, and keeps them and a restore apart', async () => {
    const file = join(await tempDir(), 'clearplay.db');
    const first = holdSharedRunLock(file);
    const second = holdSharedRunLock(file);
    expect(() => takeExclusiveRunLock(file)).toThrow(RunLockBusyError);
    first.release();
    expect(() => takeExclusiveRunLock(file)).toThrow(RunLockBusyError);
    second.release();
    const restore = takeExclusiveRunLock(file);
    // A server starting during a restore is refused (after a short wait).
    expect(() => holdSharedRunLock(file, 0)).toThrow('a restore is in progress');
    restore.release();
    holdSharedRunLock(file, 0).release();
  });
});

describe('what backup and restore refuse', () => {
  let dir: string;
  let live: { db: Db; file: string; env: Record<string, string> };
  beforeAll(async () => {
    dir = await tempDir();
    live = await newDatabase(dir);
  });
  afterAll(async () => {
    await live.db.destroy();
  });

  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DataCareError);
    return (error as Error).message;
  };

  it('restores nothing that is not a sound ClearPlay database of this version or older', async () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, just some text that is long enough');
    expect(await refusal(restoreSqlite(junk, live.file))).toBe(`${junk} is not a SQLite database, so not a ClearPlay backup.`);

    expect(await refusal(restoreSqlite(join(dir, 'missing.db'), live.file))).toBe(`${join(dir, 'missing.db')} does not exist.`);

    const other = join(dir, 'other.db');
    const foreign = new SQLite(other);
    foreign.exec('create table notes (id integer primary key, body text)');
    foreign.close();
    expect(await refusal(restoreSqlite(other, live.file))).toBe(
      `${other} is a SQLite database but not a ClearPlay one (no kysely_migration, roles, users, sessions table).`,
    );

    const newer = join(dir, 'newer.db');
    await backupSqlite(live.file, newer);
    const edit = new SQLite(newer);
    edit.prepare(`insert into kysely_migration (name, timestamp) values ('9999_future', '2030-01-01')`).run();
    edit.close();
    expect(await refusal(restoreSqlite(newer, live.file))).toContain(
      'was made by a newer version of ClearPlay (migration 9999_future is unknown here)',
    );

    // Nothing was replaced by any of these.
    expect(readdirSync(dir).filter((f) => f.includes('before-restore'))).toEqual([]);
    expect(inspectClearPlayDatabase(live.file).users).toBeGreaterThan(0);
  });

  it('never overwrites a file with a backup, and needs a database to back up', async () => {
    const existing = join(dir, 'taken.db');
    writeFileSync(existing, 'mine');
    expect(await refusal(backupSqlite(live.file, existing))).toBe(
      `${existing} already exists; choose another file name or remove it first.`,
    );
    expect(await refusal(backupSqlite(join(dir, 'nothing-here.db'), join(dir, 'b.db')))).toContain('There is no database at');
    expect(await refusal(backupSqlite(live.file, join(dir, 'no-such-folder', 'b.db')))).toContain('does not exist');
  });

  it('tells PostgreSQL and MySQL users which native tool to use, without their password', async () => {
    const run = await runCli('backup', 'x.dump', { DATABASE_URL: 'postgres://cp:s3cret@db.internal:5432/clearplay' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pg_dump --format=custom');
    expect(run.stderr).toContain('docs/deploy.md');
    expect(run.stderr).not.toContain('s3cret');
    expect(run.stderr).not.toMatch(NO_STACK);

    const advice = nativeToolAdvice({ dialect: 'mysql', url: 'mysql://cp:s3cret@db.internal:3306/clearplay' }, 'restore');
    expect(advice).toContain('mariadb -h db.internal -u <user> -p clearplay < clearplay.sql');
    expect(advice).not.toContain('s3cret');
  }, 60_000);
});
