/**
 * FROZEN. Public pages (issue 16, decisions 0048–0051).
 * - The public look-up compares a chat ID exactly on lower(obj_wechat). SQLite and PostgreSQL
 *   answer that from 0004's expression indexes (a text_pattern_ops index also answers `=`).
 *   MySQL/MariaDB had only a plain index on the case-sensitive column, so they get an
 *   invisible virtual column lower(obj_wechat) with its own index (not in `select *`, never
 *   written by the app).
 * - The published prices' dictionary (`public_price`), empty, on databases seeded before it
 *   existed; a fresh database gets it from the seed, which runs after the migrations and
 *   writes the dictionaries only into an empty dict_types.
 */
import { MysqlAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (isMysql(db)) {
    await sql`alter table orders add column obj_wechat_lower varchar(64) generated always as (lower(obj_wechat)) virtual invisible`.execute(
      db,
    );
    await sql`create index orders_obj_wechat_exact_idx on orders (obj_wechat_lower)`.execute(db);
  }
  const types = await db.selectFrom('dict_types').select(['code']).execute();
  if (types.length > 0 && !types.some((t) => t.code === 'public_price')) {
    await db
      .insertInto('dict_types')
      .values({
        code: 'public_price',
        name: '公开价格',
        status: 1,
        remark: '首页公布的检测价格：标签为结果，值为价格（分）',
        created_at: Date.now(),
      })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isMysql(db)) {
    await sql`drop index orders_obj_wechat_exact_idx on orders`.execute(db);
    await sql`alter table orders drop column obj_wechat_lower`.execute(db);
  }
}
