import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import { lowerAsDb } from '../../db/text-search.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

/**
 * A target's normalized chat ID (decision 0059): lower(obj_wechat), indexed by
 * migration 0010 as (lower(obj_wechat), result, created_at, id); on MariaDB, which has no
 * expression indexes, the indexed virtual column obj_wechat_key holding the same.
 */
export const chatKeyOf = (db: Db, table = 'orders') =>
  dialectOf(db) === 'mysql' ? sql<string>`${sql.ref(`${table}.objWechatKey`)}` : sql<string>`lower(${sql.ref(`${table}.objWechat`)})`;

/** A chat ID as its key: trimmed and folded the way this database folds lower(column). */
export const chatKeyFor = (db: Db, objWechat: string) => lowerAsDb(db, objWechat.trim());

/** "Repeat target" as the reader sees it: staff see every record, a shop its own and every public one. */
export interface RepeatFilter {
  visibleTo?: number;
}

/**
 * The order's chat ID has an earlier cheating record the reader may see: one probe of the
 * 0010 index (key, result = 1, created_at < the order's) per order.
 */
export function earlierCheatExists(db: Db, eb: ExpressionBuilder<Database, 'orders'>, f: RepeatFilter): Expression<SqlBool> {
  let sub = db
    .selectFrom('orders as earlier')
    .select(sql.lit(1).as('one'))
    .where(chatKeyOf(db, 'earlier'), '=', chatKeyOf(db, 'orders'))
    .where('earlier.result', '=', 1)
    .where('earlier.createdAt', '<', sql.ref<number>('orders.createdAt'));
  if (f.visibleTo !== undefined) {
    const shop = f.visibleTo;
    sub = sub.where((e) => e.or([e('earlier.userId', '=', shop), e('earlier.ifPublic', '=', 1)]));
  }
  return eb.exists(sub);
}
