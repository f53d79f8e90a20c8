import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test/context.ts';
import { createDb } from './index.ts';
import { migrateToLatest, migrations } from './migrate.ts';

const TABLES = [
  'announcements',
  'client_events',
  'dict_data',
  'dict_types',
  'event_daily',
  'idempotency_keys',
  'job_leases',
  'ledger_entries',
  'login_records',
  'login_tickets',
  'messages',
  'operation_log_daily',
  'operation_logs',
  'order_daily',
  'order_game_daily',
  'order_hourly',
  'order_user_daily',
  'orders',
  'page_view_daily',
  'page_views',
  'rate_limits',
  'referrer_daily',
  'roles',
  'sessions',
  'subscriptions',
  'totp_recovery_codes',
  'user_counts',
  'users',
  'visit_daily',
  'visitor_daily',
];
// MySQL/MariaDB keep no user_counts (see migration 0003).
const EXPECTED = testDbKind() === 'mysql' ? TABLES.filter((t) => t !== 'user_counts') : TABLES;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('migrations', () => {
  it('run once even when two processes start at the same time (the migrator lock)', async () => {
    // Two separate pools, as two server processes would have.
    const first = createDb(database.target);
    const second = createDb(database.target);
    try {
      const [a, b] = await Promise.all([migrateToLatest(first), migrateToLatest(second)]);
      const applied = [...(a.results ?? []), ...(b.results ?? [])].filter((r) => r.status === 'Success');
      expect(applied.map((r) => r.migrationName)).toEqual(Object.keys(migrations));

      const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(first);
      expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(migrations));
      const tables = (await first.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('kysely_'));
      expect(tables.sort()).toEqual(EXPECTED);

      // A restart finds nothing left to do.
      expect((await migrateToLatest(second)).results).toEqual([]);
    } finally {
      await Promise.all([first.destroy(), second.destroy()]);
    }
  });

  it('enforce unique usernames and keep epoch milliseconds as numbers', async () => {
    const db = createDb(database.target);
    try {
      const now = Date.now();
      await db.insertInto('roles').values({ name: 'r', description: '', permissions: '[]', isAdmin: 0, createdAt: now }).execute();
      const role = await db.selectFrom('roles').select(['id', 'createdAt']).executeTakeFirstOrThrow();
      expect(role.createdAt).toBe(now);
      const user = {
        username: 'someone',
        passwordHash: 'x',
        nickname: '',
        roleId: role.id,
        wechat: '',
        phone: '',
        avatar: '',
        ifPublic: 0,
        status: 1,
        defaultPrice: 12_345_678_901,
        defaultPriceCheat: 0,
        defaultPriceSuspect: 0,
        defaultPriceNotPass: 0,
        serviceEndAt: null,
        loginAt: null,
        passwordChangedAt: now,
        createdAt: now,
        updatedAt: now,
      };
      await db.insertInto('users').values(user).execute();
      await expect(db.insertInto('users').values(user).execute()).rejects.toThrow();
      // Case matters on every database (MySQL tables use a binary collation).
      await db
        .insertInto('users')
        .values({ ...user, username: 'SOMEONE' })
        .execute();
      const found = await db.selectFrom('users').select(['username', 'defaultPrice']).where('username', '=', 'someone').execute();
      expect(found).toEqual([{ username: 'someone', defaultPrice: 12_345_678_901 }]);
      const count = await sql<{ n: number }>`select count(*) as n from users`.execute(db);
      expect(Number(count.rows[0]?.n)).toBe(2);
    } finally {
      await db.destroy();
    }
  });
});
