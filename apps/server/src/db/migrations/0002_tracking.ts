/**
 * FROZEN. Page views and client events (spec §7 "Tracking"): the Workplace's recently
 * visited list and the visit statistics read them.
 */
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

function table(db: Kysely<any>, name: string) {
  const adapter = db.getExecutor().adapter;
  let builder =
    adapter instanceof PostgresAdapter
      ? db.schema.createTable(name).addColumn('id', 'bigserial', (col) => col.primaryKey())
      : db.schema.createTable(name).addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  if (adapter instanceof MysqlAdapter) builder = builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  return builder;
}

export async function up(db: Kysely<any>): Promise<void> {
  await table(db, 'page_views')
    .addColumn('user_id', 'integer')
    .addColumn('path', 'varchar(512)', (col) => col.notNull())
    .addColumn('user_agent', 'varchar(512)', (col) => col.notNull())
    .addColumn('referrer', 'varchar(512)', (col) => col.notNull())
    .addColumn('ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('page_views_user_created_idx').on('page_views').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('page_views_created_idx').on('page_views').column('created_at').execute();

  await table(db, 'client_events')
    .addColumn('user_id', 'integer')
    .addColumn('event', 'varchar(64)', (col) => col.notNull())
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('client_time', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('client_events_event_created_idx').on('client_events').columns(['event', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_events').execute();
  await db.schema.dropTable('page_views').execute();
}
