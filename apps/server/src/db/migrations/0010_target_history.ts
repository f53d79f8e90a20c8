/**
 * FROZEN. Target history (issue 17, decision 0059): a target's records are found by the
 * normalized chat ID (lower(obj_wechat), equal) and the normalized MAC (mac, equal), newest first.
 *
 * Index notes:
 * - MAC: 0004's orders_mac_idx (mac, created_at, id) already answers `mac = ? order by
 *   created_at desc` in index order; nothing to add.
 * - Chat ID: 0004's lower(obj_wechat) index (text_pattern_ops on PostgreSQL) finds the rows but
 *   not in date order; this adds (lower(obj_wechat), result, created_at, id) so the list's
 *   "repeat targets" EXISTS (same chat ID, result cheating, earlier) is one index probe, and
 *   the history reads the rows of a chat ID from the index. MariaDB has no expression
 *   indexes: a virtual column obj_wechat_key = lower(obj_wechat) carries the index there, and
 *   the queries name that column on MariaDB/MySQL (modules/orders/orders.history.repository.ts).
 */
import { MysqlAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (isMysql(db)) {
    await sql`alter table orders add column obj_wechat_key varchar(64) as (lower(obj_wechat)) virtual`.execute(db);
    await sql`create index orders_wechat_key_result_idx on orders (obj_wechat_key, result, created_at, id)`.execute(db);
  } else {
    // Default operator class on PostgreSQL too: equality and order, which is what these queries use.
    await sql`create index orders_wechat_key_result_idx on orders (lower(obj_wechat), result, created_at, id)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index orders_wechat_key_result_idx${isMysql(db) ? sql` on orders` : sql``}`.execute(db);
  if (isMysql(db)) await sql`alter table orders drop column obj_wechat_key`.execute(db);
}
