/**
 * FROZEN. Two-step verification (TOTP, RFC 6238; decision 0091).
 *
 * users:
 * - totp_secret: the authenticator app's secret, encrypted (AES-256-GCM under TOTP_SECRET_KEY),
 *   or null: no second factor;
 * - totp_pending_secret: the secret of a set-up not yet confirmed with a code (encrypted), or null;
 * - totp_enabled_at: when the factor was confirmed, epoch ms;
 * - totp_last_step: the 30-second step of the last code accepted; a code of that step or an
 *   earlier one is refused (a code works once);
 * - totp_exempt: 1 for the demo accounts (never required to have a factor), 0 otherwise.
 * totp_recovery_codes: the ten recovery codes of a factor, argon2id hashes; used_at once used.
 * login_tickets: the step between a right password and the second factor: a random ticket
 * (its sha256 kept), the user, what comes next ('required' | 'enrol'), whether the session is
 * remembered, until when, and used_at once spent. Rows of a user are deleted when they expire
 * and another is made.
 */
import { MysqlAdapter, PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

function table(db: Kysely<any>, name: string): CreateTableBuilder<string, 'id'> {
  let builder = isPostgres(db)
    ? db.schema.createTable(name).addColumn('id', 'serial', (col) => col.primaryKey())
    : db.schema.createTable(name).addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  if (isMysql(db)) builder = builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  return builder;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'varchar(255)').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'varchar(255)').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('totp_exempt', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await table(db, 'totp_recovery_codes')
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('code_hash', 'varchar(255)', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('totp_recovery_codes_user_idx').on('totp_recovery_codes').column('user_id').execute();

  await table(db, 'login_tickets')
    .addColumn('token_hash', 'char(64)', (col) => col.notNull().unique())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('step', 'varchar(16)', (col) => col.notNull())
    .addColumn('remember', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('login_tickets_user_idx').on('login_tickets').columns(['user_id', 'expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_tickets').execute();
  await db.schema.dropTable('totp_recovery_codes').execute();
  for (const column of ['totp_exempt', 'totp_last_step', 'totp_enabled_at', 'totp_pending_secret', 'totp_secret']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
