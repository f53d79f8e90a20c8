import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEEDED_ROLE_PERMISSIONS } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestDatabase, type TestDatabase } from '../test/context.ts';
import { createDb, type Db } from './index.ts';
import { migrateToLatest } from './migrate.ts';
import { DEMO_PASSWORD, DEMO_USERS, DICTIONARIES, seed, SUPERADMIN_USERNAME } from './seed.ts';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.target);
  await migrateToLatest(db);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const login = async (username: string, password: string) => {
  const config = loadConfig({ ...database.env, WEB_DIST: '/nonexistent' }, []);
  const app = await buildApp({ config, db, logger: false });
  try {
    const res = await app.inject({ method: 'POST', url: '/api/admin/user/login', payload: { username, password } });
    return res.json<{ status: number }>().status;
  } finally {
    await app.close();
  }
};

describe('seed', () => {
  let firstPassword = '';

  it('creates the four roles, the super admin with a generated password, and the dictionaries', async () => {
    const result = await seed(db, { initAdminPassword: undefined, demo: false });
    expect(result.rolesCreated).toBe(true);
    expect(result.dictsCreated).toBe(true);
    expect(result.demoUsers).toEqual([]);
    expect(result.admin?.username).toBe(SUPERADMIN_USERNAME);
    expect(result.admin?.generated).toBe(true);
    expect(result.admin?.password).toMatch(/^[A-Za-z2-9]{16}$/);
    firstPassword = result.admin?.password ?? '';

    const roles = await db.selectFrom('roles').select(['name', 'isAdmin', 'permissions']).orderBy('id').execute();
    expect(roles.map((r) => [r.name, r.isAdmin])).toEqual([
      ['super_admin', 1],
      ['admin', 1],
      ['inspector', 0],
      ['shop', 0],
    ]);
    for (const role of roles) {
      expect(JSON.parse(role.permissions)).toEqual(SEEDED_ROLE_PERMISSIONS[role.name as keyof typeof SEEDED_ROLE_PERMISSIONS]);
    }
    const users = await db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.roleId')
      .select(['username', 'roles.name', 'status'])
      .execute();
    expect(users).toEqual([{ username: 'superadmin', name: 'super_admin', status: 1 }]);
    const types = await db.selectFrom('dictTypes').select('code').execute();
    expect(types.map((t) => t.code).sort()).toEqual(DICTIONARIES.map((d) => d.code).sort());
    expect(await login(SUPERADMIN_USERNAME, firstPassword)).toBe(200);
  });

  it('changes nothing on a restart, not even with INIT_ADMIN_PASSWORD set now', async () => {
    const hashBefore = await db
      .selectFrom('users')
      .select('passwordHash')
      .where('username', '=', SUPERADMIN_USERNAME)
      .executeTakeFirstOrThrow();
    const counts = async () =>
      Promise.all(
        (['roles', 'users', 'dictTypes', 'dictData'] as const).map(async (t) => (await db.selectFrom(t).select('id').execute()).length),
      );
    const before = await counts();

    const again = await seed(db, { initAdminPassword: 'another-pass', demo: false });
    expect(again).toEqual({ admin: null, demoUsers: [], rolesCreated: false, dictsCreated: false });
    expect(await counts()).toEqual(before);
    const hashAfter = await db
      .selectFrom('users')
      .select('passwordHash')
      .where('username', '=', SUPERADMIN_USERNAME)
      .executeTakeFirstOrThrow();
    expect(hashAfter).toEqual(hashBefore);
    expect(await login(SUPERADMIN_USERNAME, firstPassword)).toBe(200);
    expect(await login(SUPERADMIN_USERNAME, 'another-pass')).toBe(400);
  });

  it('adds the demo accounts once in demo mode', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'clearplay-seed-'));
    const result = await seed(db, { initAdminPassword: undefined, demo: true });
    expect(result.admin).toBeNull();
    expect(result.demoUsers).toEqual(DEMO_USERS.map((u) => u.username));
    for (const demo of DEMO_USERS) expect(await login(demo.username, DEMO_PASSWORD)).toBe(200);
    const roles = await db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.roleId')
      .select(['username', 'roles.name'])
      .where(
        'username',
        'in',
        DEMO_USERS.map((u) => u.username),
      )
      .orderBy('username')
      .execute();
    expect(roles).toEqual([
      { username: 'admin01', name: 'admin' },
      { username: 'inspector01', name: 'inspector' },
      { username: 'shop0001', name: 'shop' },
    ]);
    expect((await seed(db, { initAdminPassword: undefined, demo: true })).demoUsers).toEqual([]);
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe('seed on a fresh database with INIT_ADMIN_PASSWORD', () => {
  it('uses the given password, and two processes seeding at once create one admin', async () => {
    const fresh = await createTestDatabase();
    const a = createDb(fresh.target);
    const b = createDb(fresh.target);
    try {
      await migrateToLatest(a);
      const results = await Promise.all([
        seed(a, { initAdminPassword: 'Given12345', demo: false }),
        seed(b, { initAdminPassword: 'Given12345', demo: false }),
      ]);
      expect(results.filter((r) => r.admin !== null)).toHaveLength(1);
      expect(results.find((r) => r.admin !== null)?.admin).toEqual({ username: 'superadmin', password: 'Given12345', generated: false });
      expect(results.filter((r) => r.rolesCreated)).toHaveLength(1);
      expect((await a.selectFrom('users').select('id').execute()).length).toBe(1);
      expect((await a.selectFrom('roles').select('id').execute()).length).toBe(4);
      expect((await a.selectFrom('dictTypes').select('id').execute()).length).toBe(DICTIONARIES.length);
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
      await fresh.drop();
    }
  });
});
