/**
 * FROZEN. The message box (issue 14): one row per recipient and event, written in the same
 * transaction as the event, so reading the box never scans orders or users.
 *
 * - kind: message (something happened to this user), notice (an announcement), todo (work
 *   waiting for this user; done_at is set when the work is done).
 * - event + params (JSON): the text is rendered in the reader's language when the box is read,
 *   from this one stored form (as ledger remarks are, decision 0022).
 * - target_type + target_id: what the item opens (order, announcement, subscription, ledger).
 * - dedupe_key: unique per recipient (NULLs do not collide on any of the three databases), so
 *   a reminder or a notice is never written twice for the same recipient.
 *
 * Index notes (lists sort by created_at desc, id desc; every list index ends so):
 * - (user_id, is_read, kind, created_at, id): the unread counts per kind (one range, index
 *   only) and a tab filtered by read state.
 * - (user_id, kind, created_at, id): a tab, every read state.
 * - (user_id, is_read, created_at, id) and (user_id, created_at, id): the full page without a kind.
 * - (target_type, target_id): closing the todos of an order or a subscription.
 *
 * The user centre and settings (same issue): users.locale, the language a user chose (applied
 * at sign-in on any browser; null = the browser's), and login_records (user_id, created_at, id)
 * for a user's own login history.
 */
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

const index = (db: Kysely<any>, name: string, columns: string[], unique = false) => {
  const builder = db.schema.createIndex(name).on('messages').columns(columns);
  return (unique ? builder.unique() : builder).execute();
};

export async function up(db: Kysely<any>): Promise<void> {
  let messages = isPostgres(db)
    ? db.schema.createTable('messages').addColumn('id', 'bigserial', (col) => col.primaryKey())
    : db.schema.createTable('messages').addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  if (isMysql(db)) messages = messages.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  await messages
    .addColumn('user_id', 'integer', (col) => col.notNull())
    /** message | notice | todo */
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('event', 'varchar(48)', (col) => col.notNull())
    .addColumn('params', 'text', (col) => col.notNull())
    /** order | announcement | subscription | ledger, or null */
    .addColumn('target_type', 'varchar(16)')
    .addColumn('target_id', 'bigint')
    .addColumn('is_read', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('read_at', 'bigint')
    .addColumn('done_at', 'bigint')
    .addColumn('dedupe_key', 'varchar(128)')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await index(db, 'messages_user_read_kind_idx', ['user_id', 'is_read', 'kind', 'created_at', 'id']);
  await index(db, 'messages_user_kind_idx', ['user_id', 'kind', 'created_at', 'id']);
  await index(db, 'messages_user_read_idx', ['user_id', 'is_read', 'created_at', 'id']);
  await index(db, 'messages_user_created_idx', ['user_id', 'created_at', 'id']);
  await index(db, 'messages_user_dedupe_idx', ['user_id', 'dedupe_key'], true);
  await index(db, 'messages_target_idx', ['target_type', 'target_id']);

  await db.schema.alterTable('users').addColumn('locale', 'varchar(8)').execute();
  await db.schema.createIndex('login_records_user_created_idx').on('login_records').columns(['user_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const drop = db.schema.dropIndex('login_records_user_created_idx');
  await (isMysql(db) ? drop.on('login_records') : drop).execute();
  await db.schema.alterTable('users').dropColumn('locale').execute();
  await db.schema.dropTable('messages').execute();
}
