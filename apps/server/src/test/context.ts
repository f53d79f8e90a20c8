/**
 * Test helpers. Every test file gets its own freshly migrated database, chosen by TEST_DB:
 * `sqlite` (default; a temp file), `pg` (a new database created through TEST_PG_URL) or
 * `mysql` (same through TEST_MYSQL_URL). The database is dropped when the file is done.
 * A test context's database is a copy of one migrated and seeded once per run
 * (test/global-setup.ts, decision 0122), not migrated and seeded again for each file.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig, type AppConfig, type DbTarget } from '../config.ts';
import { checkpointsSettled } from '../db/checkpoint.ts';
import { insertReturningId } from '../db/dialect.ts';
import { createDb, type Db } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';
import { hashPassword } from '../lib/passwords.ts';
import { nowMs } from '../lib/time.ts';

// Test infrastructure settings (not app configuration, which only config.ts reads).
const testEnv = process.env;
export type TestDbKind = 'sqlite' | 'pg' | 'mysql';

export function testDbKind(): TestDbKind {
  const kind = testEnv.TEST_DB ?? 'sqlite';
  if (kind !== 'sqlite' && kind !== 'pg' && kind !== 'mysql') throw new Error(`TEST_DB must be sqlite, pg or mysql, got "${kind}"`);
  return kind;
}

function adminUrl(name: 'TEST_PG_URL' | 'TEST_MYSQL_URL'): string {
  const url = testEnv[name];
  if (!url) throw new Error(`${name} must be set when TEST_DB=${testDbKind()}`);
  return url;
}

export interface TestDatabase {
  target: DbTarget;
  /** The environment that makes loadConfig() point at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** The database `name` on the server of `admin` (PostgreSQL), as a test database: its URL and how to drop it. */
function pgTestDatabase(admin: string, name: string): TestDatabase {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    target: { dialect: 'postgres', url: url.toString() },
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The same on MariaDB / MySQL. */
function mysqlTestDatabase(admin: string, name: string): TestDatabase {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    target: { dialect: 'mysql', url: url.toString() },
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = await mysql.createConnection(admin);
      await c.query(`drop database if exists ${name}`);
      await c.end();
    },
  };
}

/**
 * Removes a test's SQLite folder once no background checkpoint (db/checkpoint.ts: a worker thread
 * with a connection of its own, started after a bulk write such as the demo's seeding) can still
 * create its `-wal` and `-shm` files in it: removed under one, the folder was "not empty".
 */
async function dropSqliteDir(dir: string): Promise<void> {
  await checkpointsSettled();
  rmSync(dir, { recursive: true, force: true });
}

/** An empty database of the kind TEST_DB names. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `cp_t_${randomBytes(6).toString('hex')}`;
  const kind = testDbKind();
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'clearplay-test-'));
    return {
      target: { dialect: 'sqlite', file: join(dir, 'clearplay.db') },
      env: { DATA_DIR: dir },
      drop: () => dropSqliteDir(dir),
    };
  }
  if (kind === 'pg') {
    const admin = adminUrl('TEST_PG_URL');
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    return pgTestDatabase(admin, name);
  }
  const admin = adminUrl('TEST_MYSQL_URL');
  const connection = await mysql.createConnection(admin);
  await connection.query(`create database ${name} character set utf8mb4`);
  await connection.end();
  return mysqlTestDatabase(admin, name);
}

/** The password of the seeded super admin in every test context (and in the template). */
const TEST_ADMIN_PASSWORD = 'Admin12345';

/** A migrated, seeded database to copy test databases from: a SQLite file, or a database's name. */
export interface TestTemplate {
  kind: TestDbKind;
  /** The SQLite file, or the PostgreSQL / MariaDB database's name. */
  ref: string;
  drop(): Promise<void>;
}

/**
 * Migrates and seeds (as createTestContext does) one database to copy every test context's
 * from: test/global-setup.ts makes it once per run, before the files start.
 */
export async function createTestTemplate(): Promise<TestTemplate> {
  const database = await createTestDatabase();
  const config = loadConfig({ INIT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...database.env }, []);
  const db = createDb(config.database);
  try {
    await migrateToLatest(db);
    await seed(db, { initAdminPassword: TEST_ADMIN_PASSWORD, demo: false });
  } finally {
    await db.destroy();
  }
  const { target } = database;
  const ref = target.dialect === 'sqlite' ? target.file : new URL(target.url).pathname.slice(1);
  return { kind: testDbKind(), ref, drop: database.drop };
}

/** The run's template (test/global-setup.ts), if this run has one of this kind. */
function runTemplate(): TestTemplate['ref'] | undefined {
  try {
    const template = inject('testTemplate');
    return template?.kind === testDbKind() ? template.ref : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A new database holding what the template holds: SQLite copies the file; PostgreSQL creates it
 * from the template (a file copy on the server); MariaDB, which has no templates, creates each
 * table as the template's `SHOW CREATE TABLE` says (keys, indexes and foreign keys alike) and
 * copies its rows.
 */
async function copyOfTemplate(ref: string): Promise<TestDatabase> {
  const kind = testDbKind();
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'clearplay-test-'));
    const file = join(dir, 'clearplay.db');
    copyFileSync(ref, file);
    return { target: { dialect: 'sqlite', file }, env: { DATA_DIR: dir }, drop: () => dropSqliteDir(dir) };
  }
  const name = `cp_t_${randomBytes(6).toString('hex')}`;
  if (kind === 'pg') {
    const admin = adminUrl('TEST_PG_URL');
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(`create database ${name} template ${ref}`);
    } finally {
      await client.end();
    }
    return pgTestDatabase(admin, name);
  }
  const admin = adminUrl('TEST_MYSQL_URL');
  const connection = await mysql.createConnection(admin);
  try {
    await connection.query(`create database ${name} character set utf8mb4`);
    await connection.query(`use ${name}`);
    await connection.query('set foreign_key_checks = 0');
    const [tables] = await connection.query(`show full tables from ${ref} where Table_type = 'BASE TABLE'`);
    for (const row of tables as Record<string, string>[]) {
      const table = Object.values(row)[0] as string;
      const [created] = await connection.query(`show create table ${ref}.\`${table}\``);
      await connection.query((created as Record<string, string>[])[0]?.['Create Table'] ?? '');
      await connection.query(`insert into \`${table}\` select * from ${ref}.\`${table}\``);
    }
  } finally {
    await connection.end();
  }
  return mysqlTestDatabase(admin, name);
}

export interface TestContext {
  app: App;
  db: Db;
  config: AppConfig;
  /** DATA_DIR (secrets, the embedded host's files): a temp folder of this context's own. */
  dataDir: string;
  /** Closes the app and the pool (once) and drops the database. */
  destroy(): Promise<void>;
  /** Destroys only the connection pool, as if the database went away. */
  destroyDb(): Promise<void>;
}

export interface TestContextOptions {
  /** Extra configuration environment (PORT, TRUST_PROXY, WEB_DIST, …). */
  env?: Record<string, string>;
  /**
   * A fresh temp DATA_DIR apart from the database's folder, removed by destroy(): for a test that
   * lists what is stored there. Without it, SQLite's DATA_DIR is its database's folder, and the
   * other databases get a fresh temp folder anyway.
   */
  ownDataDir?: boolean;
}

/** A migrated, seeded database and an app built on it (not listening; use app.inject). */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  // The template's super admin has the default password: a context asking for another seeds its own.
  const template = options.env?.INIT_ADMIN_PASSWORD === undefined ? runTemplate() : undefined;
  const database = template === undefined ? await createTestDatabase() : await copyOfTemplate(template);
  // Every context its own DATA_DIR (SQLite's is its database's folder). A folder shared by the
  // files running side by side on PostgreSQL or MariaDB let one app's start clear the upload
  // tmp/ files of another's upload in flight (the host's start-up clean-up, INSTANCES=single):
  // an avatar upload failed with 599 "internal error" on CI.
  const ownDataDir =
    options.ownDataDir === true || database.env.DATA_DIR === undefined ? mkdtempSync(join(tmpdir(), 'clearplay-data-')) : undefined;
  // TOTP_REQUIRED=none unless a test says otherwise: the suites sign in as super admins and admins
  // with a password only; two-step verification has its own tests (modules/auth/second-factor.test.ts).
  const config = loadConfig(
    {
      WEB_DIST: join(tmpdir(), 'clearplay-no-web-dist'),
      INIT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      TOTP_REQUIRED: 'none',
      ...database.env,
      ...(ownDataDir === undefined ? {} : { DATA_DIR: ownDataDir }),
      ...options.env,
    },
    [],
  );
  const db = createDb(config.database, config.dbLimits);
  // Nothing to do on a copy of the template (both are idempotent), all of it on an empty database.
  await migrateToLatest(db);
  await seed(db, { initAdminPassword: config.initAdminPassword, demo: false });
  const app = await buildApp({ config, db, logger: false });
  let dbDestroyed = false;
  const destroyDb = async () => {
    if (dbDestroyed) return;
    dbDestroyed = true;
    await db.destroy();
  };
  return {
    app,
    db,
    config,
    dataDir: config.dataDir,
    destroyDb,
    destroy: async () => {
      await app.close();
      await destroyDb();
      await database.drop();
      if (ownDataDir !== undefined) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

export const TEST_PASSWORD = 'Passw0rd!';
let testPasswordHash: Promise<string> | undefined;
let userCounter = 0;

export interface TestUser {
  id: number;
  username: string;
  password: string;
  roleId: number;
}

/** Inserts a user of the named role (enabled unless told otherwise). */
export async function createUser(
  ctx: TestContext,
  roleName: string,
  overrides: { username?: string; status?: number } = {},
): Promise<TestUser> {
  const role = await ctx.db.selectFrom('roles').select('id').where('name', '=', roleName).executeTakeFirstOrThrow();
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  const username = overrides.username ?? `t_${roleName.slice(0, 8)}_${process.pid % 1000}_${++userCounter}`;
  const now = nowMs();
  const id = await insertReturningId(ctx.db, 'users', {
    username,
    passwordHash: await testPasswordHash,
    nickname: `Test ${roleName}`,
    roleId: role.id,
    wechat: 'wx_test',
    phone: '13800000000',
    avatar: '',
    ifPublic: 0,
    status: overrides.status ?? 1,
    defaultPrice: 0,
    defaultPriceCheat: 0,
    defaultPriceSuspect: 0,
    defaultPriceNotPass: 0,
    serviceEndAt: null,
    loginAt: null,
    passwordChangedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return { id, username, password: TEST_PASSWORD, roleId: role.id };
}

export interface LoggedIn extends TestUser {
  token: string;
  headers: { authorization: string };
}

/** Creates a user of the role and logs in through the real endpoint. */
export async function loginAs(ctx: TestContext, roleName: string): Promise<LoggedIn> {
  const user = await createUser(ctx, roleName);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/admin/user/login',
    payload: { username: user.username, password: user.password },
  });
  const body = res.json<{ status: number; data: { token: string } }>();
  if (body.status !== 200) throw new Error(`loginAs(${roleName}) failed: ${res.body}`);
  return { ...user, token: body.data.token, headers: { authorization: `Bearer ${body.data.token}` } };
}

/**
 * A test context and a user of each named role, logged in, in the order given; e.g.
 * `{ admin: 'admin', shopA: 'shop', shopB: 'shop' }` answers `users.admin`, `users.shopA`, `users.shopB`.
 */
export async function createTestContextWithUsers<const U extends Record<string, string>>(
  users: U,
  options: TestContextOptions = {},
): Promise<{ ctx: TestContext; users: { [K in keyof U]: LoggedIn } }> {
  const ctx = await createTestContext(options);
  const loggedIn: Partial<Record<keyof U, LoggedIn>> = {};
  for (const name of Object.keys(users) as (keyof U)[]) loggedIn[name] = await loginAs(ctx, users[name]!);
  return { ctx, users: loggedIn as { [K in keyof U]: LoggedIn } };
}

export interface CallResult<T> {
  http: number;
  status: number;
  msg: string;
  data: T;
}

/** The field a refused call names first (`data.errors[0].field` of a 400/409 answer), if any. */
export const fieldOf = (data: unknown): string | undefined => (data as { errors?: { field: string }[] } | null)?.errors?.[0]?.field;

/** One API call through app.inject, answering the envelope. */
export async function call<T = unknown>(
  ctx: TestContext,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { as?: { headers: Record<string, string> } | null; payload?: unknown; headers?: Record<string, string> } = {},
): Promise<CallResult<T>> {
  const res = await ctx.app.inject({
    method,
    url,
    headers: { ...options.as?.headers, ...options.headers },
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
  });
  const body = res.json<{ status: number; msg: string; data: T }>();
  return { http: res.statusCode, status: body.status, msg: body.msg, data: body.data };
}

/** Waits until every operation-log row of the calls made so far is written. */
export async function flushLogs(ctx: TestContext): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await ctx.app.flushOperationLogs();
}

/** Logs in an existing user through the real endpoint. */
export async function loginWith(
  ctx: TestContext,
  username: string,
  password: string,
): Promise<{ token: string; headers: { authorization: string } }> {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/admin/user/login', payload: { username, password } });
  const body = res.json<{ status: number; data: { token: string } }>();
  if (body.status !== 200) throw new Error(`login ${username} failed: ${res.body}`);
  return { token: body.data.token, headers: { authorization: `Bearer ${body.data.token}` } };
}

/** One part of a form: a text field, or a file with its name (and type). */
export type FormPart = [field: string, value: string | { body: Uint8Array | string; name: string; type?: string }];

/** A multipart/form-data body as a browser encodes it (the platform's FormData), parts in order. */
export async function multipartForm(parts: FormPart[]): Promise<{ contentType: string; payload: Buffer }> {
  const form = new FormData();
  for (const [field, value] of parts) {
    if (typeof value === 'string') form.append(field, value);
    else {
      const body = typeof value.body === 'string' ? value.body : new Uint8Array(value.body);
      form.append(field, new Blob([body], value.type === undefined ? {} : { type: value.type }), value.name);
    }
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { contentType: request.headers.get('content-type') ?? '', payload: Buffer.from(await request.arrayBuffer()) };
}

/**
 * Uploads one image as `as` for `purpose`, the way the browser does: a token from
 * GET /api/admin/upload/token, then the bytes to the embedded upload host. Answers the key
 * and the URL the host gave (what the uploader puts in a form).
 */
export async function uploadImage(
  ctx: TestContext,
  as: { headers: Record<string, string> },
  purpose: 'cert' | 'proof' | 'env' | 'avatar',
  bytes: Uint8Array,
): Promise<{ key: string; url: string }> {
  const token = await call<{ uploadToken: string; key: string }>(ctx, 'GET', `/api/admin/upload/token?purpose=${purpose}`, { as });
  if (token.status !== 200) throw new Error(`upload token: ${token.msg}`);
  const form = await multipartForm([
    ['file', { body: bytes, name: 'image.png', type: 'image/png' }],
    ['token', token.data.uploadToken],
    ['key', token.data.key],
  ]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/upload',
    headers: { 'content-type': form.contentType },
    payload: form.payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return res.json<{ key: string; url: string }>();
}

/**
 * Imports a spreadsheet as `as`, the way the browser does: POST /api/admin/order/import with the
 * file in the form field "file" (or `field`), `keepValid` in the query when given, in `lang`
 * (English unless told). Answers the raw response.
 */
export async function importFile(
  ctx: TestContext,
  as: { headers: Record<string, string> },
  file: Uint8Array | string,
  name: string,
  options: { keepValid?: boolean; lang?: string; field?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const form = await multipartForm([[options.field ?? 'file', { body: file, name }]]);
  const query = options.keepValid === undefined ? '' : `?keepValid=${options.keepValid}`;
  return ctx.app.inject({
    method: 'POST',
    url: `/api/admin/order/import${query}`,
    headers: { ...as.headers, ...options.headers, 'content-type': form.contentType, 'accept-language': options.lang ?? 'en-US' },
    payload: form.payload,
  });
}
