/**
 * FROZEN: never edit a migration once it has run anywhere; add a new one instead.
 * Migrations use Kysely<any> and never import application code, so later changes to the
 * app cannot change what this file does. Names here are the real snake_case SQL names.
 */
import { PostgresAdapter, MysqlAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

/** An integer auto-increment primary key `id`, on all three databases. */
function table(db: Kysely<any>, name: string): CreateTableBuilder<string, 'id'> {
  let builder = isPostgres(db)
    ? db.schema.createTable(name).addColumn('id', 'serial', (col) => col.primaryKey())
    : db.schema.createTable(name).addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  // MySQL: binary collation so text comparisons are case-sensitive like SQLite and PostgreSQL.
  if (isMysql(db)) builder = builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  return builder;
}

export async function up(db: Kysely<any>): Promise<void> {
  await table(db, 'roles')
    .addColumn('name', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('description', 'varchar(255)', (col) => col.notNull())
    .addColumn('permissions', 'text', (col) => col.notNull())
    .addColumn('is_admin', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();

  await table(db, 'users')
    .addColumn('username', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
    .addColumn('nickname', 'varchar(64)', (col) => col.notNull())
    .addColumn('role_id', 'integer', (col) => col.notNull().references('roles.id'))
    .addColumn('wechat', 'varchar(64)', (col) => col.notNull())
    .addColumn('phone', 'varchar(32)', (col) => col.notNull())
    .addColumn('avatar', 'varchar(1024)', (col) => col.notNull())
    .addColumn('if_public', 'integer', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('default_price', 'bigint', (col) => col.notNull())
    .addColumn('default_price_cheat', 'bigint', (col) => col.notNull())
    .addColumn('default_price_suspect', 'bigint', (col) => col.notNull())
    .addColumn('default_price_not_pass', 'bigint', (col) => col.notNull())
    .addColumn('service_end_at', 'bigint')
    .addColumn('login_at', 'bigint')
    .addColumn('password_changed_at', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('users_role_id_idx').on('users').column('role_id').execute();
  await db.schema.createIndex('users_status_idx').on('users').column('status').execute();

  // No foreign key to users: a session outlives a deleted user so its token can still
  // answer "session ended" (50012) rather than "unknown token".
  await table(db, 'sessions')
    .addColumn('token_hash', 'char(64)', (col) => col.notNull().unique())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('last_seen_at', 'bigint', (col) => col.notNull())
    .addColumn('ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('user_agent', 'varchar(512)', (col) => col.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoke_reason', 'varchar(32)')
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').columns(['user_id', 'revoked_at']).execute();
  await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

  await table(db, 'login_records')
    .addColumn('username', 'varchar(128)', (col) => col.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('user_agent', 'varchar(512)', (col) => col.notNull())
    .addColumn('success', 'integer', (col) => col.notNull())
    .addColumn('reason', 'varchar(32)', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('login_records_username_ip_created_idx')
    .on('login_records')
    .columns(['username', 'ip', 'created_at'])
    .execute();
  await db.schema.createIndex('login_records_created_at_idx').on('login_records').column('created_at').execute();

  await table(db, 'dict_types')
    .addColumn('code', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('name', 'varchar(128)', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('remark', 'varchar(512)', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();

  await table(db, 'dict_data')
    .addColumn('type_code', 'varchar(64)', (col) => col.notNull())
    .addColumn('label', 'varchar(255)', (col) => col.notNull())
    .addColumn('value', 'varchar(1024)', (col) => col.notNull())
    .addColumn('sort', 'integer', (col) => col.notNull())
    .addColumn('css_class', 'varchar(255)', (col) => col.notNull())
    .addColumn('list_class', 'varchar(32)', (col) => col.notNull())
    .addColumn('is_default', 'integer', (col) => col.notNull())
    .addColumn('parent_id', 'integer')
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('remark', 'varchar(512)', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('dict_data_type_status_sort_idx').on('dict_data').columns(['type_code', 'status', 'sort']).execute();
  await db.schema.createIndex('dict_data_parent_id_idx').on('dict_data').column('parent_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['dict_data', 'dict_types', 'login_records', 'sessions', 'users', 'roles']) {
    await db.schema.dropTable(name).execute();
  }
}
