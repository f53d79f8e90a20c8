// The databases a benchmark runs on: a fresh SQLite data folder, or a throwaway PostgreSQL
// database, each with a connection of its own for running the raw SQL beside the server.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { loadConfig, type AppConfig } from '../apps/server/src/config.ts';
import { createDb, type Db } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seed } from '../apps/server/src/db/seed.ts';
import { ADMIN_PASSWORD } from './lib.ts';

/** The PostgreSQL server benchmarks use unless BENCH_PG_URL says otherwise. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TargetName = 'SQLite' | 'PostgreSQL';

export interface Target {
  name: TargetName;
  env: Record<string, string>;
  /** Runs compiled SQL straight on the driver (a connection of its own). */
  raw: { run(q: CompiledQuery): Promise<unknown[]>; explain(q: CompiledQuery): Promise<string[]>; close(): Promise<void> };
  drop(): Promise<void>;
}

/** A fresh SQLite data folder (the server creates the file); `label` names the temp folder. */
export async function sqliteTarget(label: string): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), `clearplay-bench-${label}-`));
  let conn: SQLite.Database | undefined;
  const open = () => (conn ??= new SQLite(join(dir, 'clearplay.db'), { readonly: true }));
  return {
    name: 'SQLite',
    env: { DATA_DIR: dir },
    raw: {
      run: async (q) =>
        open()
          .prepare(q.sql)
          .all(...(q.parameters as unknown[])),
      explain: async (q) =>
        (
          open()
            .prepare(`explain query plan ${q.sql}`)
            .all(...(q.parameters as unknown[])) as { detail: string }[]
        ).map((r) => r.detail),
      close: async () => {
        conn?.close();
        conn = undefined;
      },
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A throwaway PostgreSQL database beside `adminUrl`, or null when PostgreSQL is not reachable. */
export async function postgresTarget(adminUrl: string): Promise<Target | null> {
  const name = `cp_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL not reachable at ${adminUrl} (${(error as Error).message}); skipping it`);
    return null;
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let pool: pg.Pool | undefined;
  const open = () => (pool ??= new pg.Pool({ connectionString: url.toString(), max: 4 }));
  return {
    name: 'PostgreSQL',
    env: { DATABASE_URL: url.toString() },
    raw: {
      run: async (q) => (await open().query(q.sql, q.parameters as unknown[])).rows,
      explain: async (q) =>
        (await open().query<{ 'QUERY PLAN': string }>(`explain ${q.sql}`, q.parameters as unknown[])).rows.map((r) => r['QUERY PLAN']),
      close: async () => {
        await pool?.end();
        pool = undefined;
      },
    },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Runs a benchmark on a fresh SQLite database, then on a throwaway PostgreSQL one when reachable. */
export async function onEachTarget<T>(label: string, run: (target: Target) => Promise<T>): Promise<T[]> {
  const results = [await run(await sqliteTarget(label))];
  const pg = await postgresTarget(PG_ADMIN_URL);
  if (pg !== null) results.push(await run(pg));
  return results;
}

/**
 * The app's configuration on `target` (no web build: the benches call the API) and a database
 * connection to it. `firstStart` then gives the database what a first start writes.
 */
export function appOn(target: Target): { config: AppConfig; db: Db } {
  // TOTP_REQUIRED=none: the benches sign in as the super admin with the password alone (decision 0091).
  const config = loadConfig(
    { ...target.env, INIT_ADMIN_PASSWORD: ADMIN_PASSWORD, TOTP_REQUIRED: 'none', WEB_DIST: join(tmpdir(), 'clearplay-no-web-dist') },
    [],
  );
  return { config, db: createDb(config.database) };
}

/** Migrates and seeds a fresh database as a first start does: roles, the super admin (ADMIN_PASSWORD), dictionaries. */
export async function firstStart(db: Db): Promise<void> {
  await migrateToLatest(db);
  await seed(db, { initAdminPassword: ADMIN_PASSWORD, demo: false });
}
