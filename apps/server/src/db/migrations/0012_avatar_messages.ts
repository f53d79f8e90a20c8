/**
 * FROZEN. Avatars and the retention of read messages (issue 14, decision 0062).
 *
 * - users.avatar exists since 0001; an avatar is now an upload of its own (`avatar/<user id>/…`),
 *   and the upload retention job reads users.avatar as a reference: a plain scan of users (few
 *   rows, once per upload run), so no index.
 * - messages (is_read, created_at, id): the retention job deletes read messages older than
 *   MESSAGE_RETENTION_DAYS in batches, `is_read = 1 and created_at < ?` in created order: one
 *   range of this index per batch (every index of 0009 starts with user_id and cannot answer it).
 */
import { MysqlAdapter, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('messages_read_created_idx').on('messages').columns(['is_read', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const drop = db.schema.dropIndex('messages_read_created_idx');
  await (isMysql(db) ? drop.on('messages') : drop).execute();
}
