/**
 * FROZEN. System management (issue 3): subscription records, the operation log with its
 * daily counters, and the indexes behind every filter of the user list and the log list.
 *
 * Index notes:
 * - Lists sort by `created_at desc, id desc`, so each filter index ends in (created_at, id):
 *   the page is read in index order and `limit` stops early, on all three databases.
 * - Text filters of the user list are case-insensitive prefixes over lower(column): an
 *   expression index on SQLite and PostgreSQL (text_pattern_ops, so LIKE 'abc%' uses it
 *   whatever the database collation). MariaDB has no expression indexes; it scans (it is not
 *   a benchmark target, and 100k users scan in tens of milliseconds).
 * - user_counts holds the number of users per (role_id, status), kept by triggers on SQLite and
 *   PostgreSQL (so no writer can forget it), so the user list's total for "all", a role, a
 *   status or both is a sum of a handful of rows instead of a count over every user. MySQL and
 *   MariaDB count directly (triggers there need extra privileges when binary logging is on).
 * - operation_log_daily holds per-day counts by (module, action, status), written in the same
 *   transaction as each log row, so the log list's `total` over a million rows is a sum of a
 *   few hundred counters plus an exact count of the (at most two) partial days at the edges.
 */
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

function table(db: Kysely<any>, name: string, bigId = false) {
  let builder = isPostgres(db)
    ? db.schema.createTable(name).addColumn('id', bigId ? 'bigserial' : 'serial', (col) => col.primaryKey())
    : db.schema.createTable(name).addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  if (isMysql(db)) builder = builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  return builder;
}

const index = (db: Kysely<any>, name: string, on: string, columns: string[]) =>
  db.schema.createIndex(name).on(on).columns(columns).execute();

export async function up(db: Kysely<any>): Promise<void> {
  // ── subscriptions: every subscribe / renew / cancel, newest last ──
  await table(db, 'subscriptions')
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('action', 'varchar(16)', (col) => col.notNull())
    .addColumn('type', 'varchar(16)')
    .addColumn('duration_days', 'integer')
    .addColumn('start_at', 'bigint', (col) => col.notNull())
    .addColumn('end_at', 'bigint', (col) => col.notNull())
    .addColumn('operator', 'varchar(64)', (col) => col.notNull())
    .addColumn('operator_id', 'integer')
    .addColumn('remark', 'varchar(255)', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await index(db, 'subscriptions_user_id_idx', 'subscriptions', ['user_id', 'id']);

  // ── operation_logs ──
  await table(db, 'operation_logs', true)
    .addColumn('module', 'varchar(32)', (col) => col.notNull())
    .addColumn('action', 'varchar(32)', (col) => col.notNull())
    .addColumn('content', 'varchar(512)', (col) => col.notNull())
    .addColumn('operator', 'varchar(64)', (col) => col.notNull())
    .addColumn('operator_id', 'integer')
    /** 1 success, 0 failed. */
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('method', 'varchar(8)', (col) => col.notNull())
    .addColumn('path', 'varchar(512)', (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addColumn('error_msg', 'varchar(512)', (col) => col.notNull())
    .addColumn('user_agent', 'varchar(512)', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await index(db, 'operation_logs_created_idx', 'operation_logs', ['created_at', 'id']);
  await index(db, 'operation_logs_module_idx', 'operation_logs', ['module', 'created_at', 'id']);
  await index(db, 'operation_logs_module_status_idx', 'operation_logs', ['module', 'status', 'created_at', 'id']);
  await index(db, 'operation_logs_action_idx', 'operation_logs', ['action', 'created_at', 'id']);
  await index(db, 'operation_logs_operator_idx', 'operation_logs', ['operator', 'created_at', 'id']);
  await index(db, 'operation_logs_status_idx', 'operation_logs', ['status', 'created_at', 'id']);

  let daily = db.schema
    .createTable('operation_log_daily')
    .addColumn('module', 'varchar(32)', (col) => col.notNull())
    .addColumn('action', 'varchar(32)', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    /** Start of the UTC day, epoch ms. */
    .addColumn('day', 'bigint', (col) => col.notNull())
    .addColumn('n', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('operation_log_daily_pk', ['module', 'action', 'status', 'day']);
  if (isMysql(db)) daily = daily.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  await daily.execute();
  await index(db, 'operation_log_daily_day_idx', 'operation_log_daily', ['day']);

  // ── users: one index per filter of the user list ──
  await index(db, 'users_created_idx', 'users', ['created_at', 'id']);
  await index(db, 'users_role_status_created_idx', 'users', ['role_id', 'status', 'created_at', 'id']);
  await index(db, 'users_role_created_idx', 'users', ['role_id', 'created_at', 'id']);
  await index(db, 'users_status_created_idx', 'users', ['status', 'created_at', 'id']);
  // (service_end_at, status): the subscription-state filter, with or without status, counts inside the index.
  await index(db, 'users_service_end_idx', 'users', ['service_end_at', 'status']);
  await userCounts(db);
  for (const column of ['username', 'nickname', 'wechat', 'phone']) {
    if (isPostgres(db)) {
      await sql`create index ${sql.raw(`users_${column}_lower_idx`)} on users (lower(${sql.ref(column)}) text_pattern_ops)`.execute(db);
    } else if (!isMysql(db)) {
      await sql`create index ${sql.raw(`users_${column}_lower_idx`)} on users (lower(${sql.ref(column)}))`.execute(db);
    }
  }
}

/** user_counts and the triggers that keep it (SQLite and PostgreSQL). */
async function userCounts(db: Kysely<any>): Promise<void> {
  if (isMysql(db)) return;
  await db.schema
    .createTable('user_counts')
    .addColumn('role_id', 'integer', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('n', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('user_counts_pk', ['role_id', 'status'])
    .execute();
  const bump = (sign: '+' | '-', row: 'new' | 'old') =>
    sign === '+'
      ? `insert into user_counts (role_id, status, n) values (${row}.role_id, ${row}.status, 1)
         on conflict (role_id, status) do update set n = user_counts.n + 1;`
      : `update user_counts set n = n - 1 where role_id = ${row}.role_id and status = ${row}.status;`;
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function user_counts_keep() returns trigger language plpgsql as $$
         begin
           if tg_op in ('DELETE', 'UPDATE') then ${bump('-', 'old')} end if;
           if tg_op in ('INSERT', 'UPDATE') then ${bump('+', 'new')} end if;
           return null;
         end $$`,
      )
      .execute(db);
    await sql.raw('create trigger users_count_insert after insert on users for each row execute function user_counts_keep()').execute(db);
    await sql.raw('create trigger users_count_delete after delete on users for each row execute function user_counts_keep()').execute(db);
    await sql
      .raw(
        `create trigger users_count_update after update of role_id, status on users for each row
         when (old.role_id is distinct from new.role_id or old.status is distinct from new.status)
         execute function user_counts_keep()`,
      )
      .execute(db);
  } else {
    await sql.raw(`create trigger users_count_insert after insert on users begin ${bump('+', 'new')} end`).execute(db);
    await sql.raw(`create trigger users_count_delete after delete on users begin ${bump('-', 'old')} end`).execute(db);
    await sql
      .raw(
        `create trigger users_count_update after update of role_id, status on users
         when old.role_id <> new.role_id or old.status <> new.status
         begin ${bump('-', 'old')} ${bump('+', 'new')} end`,
      )
      .execute(db);
  }
  await sql`insert into user_counts (role_id, status, n) select role_id, status, count(*) from users group by role_id, status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const t of ['users_count_insert', 'users_count_delete', 'users_count_update'])
      await sql.raw(`drop trigger ${t} on users`).execute(db);
    await sql.raw('drop function user_counts_keep()').execute(db);
  } else if (!isMysql(db)) {
    for (const t of ['users_count_insert', 'users_count_delete', 'users_count_update']) await sql.raw(`drop trigger ${t}`).execute(db);
  }
  if (!isMysql(db)) await db.schema.dropTable('user_counts').execute();
  for (const name of [
    'users_created_idx',
    'users_role_status_created_idx',
    'users_role_created_idx',
    'users_status_created_idx',
    'users_service_end_idx',
  ]) {
    const drop = db.schema.dropIndex(name);
    await (isMysql(db) ? drop.on('users') : drop).execute();
  }
  if (!isMysql(db)) {
    for (const column of ['username', 'nickname', 'wechat', 'phone']) await db.schema.dropIndex(`users_${column}_lower_idx`).execute();
  }
  await db.schema.dropTable('operation_log_daily').execute();
  await db.schema.dropTable('operation_logs').execute();
  await db.schema.dropTable('subscriptions').execute();
}
