/**
 * FROZEN. Workplace and announcements (issue 13, decisions 0041 and 0042).
 *
 * Order counters beside order_daily (0004), written in the same transaction as every order
 * create, edit, delete and import (orders.repository.ts bumpCounters):
 * - order_hourly: orders per (UTC hour start, result, if_public). Whole hours serve the
 *   business's days and months in any whole-hour zone (Asia/Shanghai, UTC+8), today's orders
 *   per hour and the workplace's 30-day series.
 * - order_game_daily: per (business day, game_name, result); order_user_daily: per (business
 *   day, user_id, result), for the data analysis by game and by shop. `day` is the instant the
 *   Asia/Shanghai day starts: created_at - ((created_at + 8 h) mod 24 h).
 * Existing orders are counted into them here.
 *
 * announcements: rich-text notices (content is HTML sanitized by the server before it is
 * stored), listed pinned first then newest: (pinned, published_at, id) and the same behind type.
 * The dictionary type announcement_type (notice / activity / news) is added to a database
 * whose dictionaries were seeded already; a new database gets it from the seed.
 */
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;
const MYSQL_TABLE = sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`;

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Asia/Shanghai, UTC+08:00 (lib/business-time.ts). */
const OFFSET = 28_800_000;

async function counterTable(db: Kysely<any>, name: string, key: [string, 'bigint' | 'integer' | 'varchar(64)'][]): Promise<void> {
  let builder = db.schema.createTable(name);
  for (const [column, type] of key) builder = builder.addColumn(column, type, (col) => col.notNull());
  builder = builder
    .addColumn('n', 'bigint', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint(`${name}_pk`, key.map(([column]) => column) as any);
  if (isMysql(db)) builder = builder.modifyEnd(MYSQL_TABLE);
  await builder.execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await counterTable(db, 'order_hourly', [
    ['hour', 'bigint'],
    ['result', 'integer'],
    ['if_public', 'integer'],
  ]);
  await counterTable(db, 'order_game_daily', [
    ['day', 'bigint'],
    ['game_name', 'varchar(64)'],
    ['result', 'integer'],
  ]);
  await counterTable(db, 'order_user_daily', [
    ['day', 'bigint'],
    ['user_id', 'integer'],
    ['result', 'integer'],
  ]);
  // The analysis of one shop over a range reads (user_id, day); one game is a prefix of neither PK.
  await db.schema.createIndex('order_user_daily_user_idx').on('order_user_daily').columns(['user_id', 'day']).execute();
  await db.schema.createIndex('order_game_daily_game_idx').on('order_game_daily').columns(['game_name', 'day']).execute();

  const hour = sql`created_at - (created_at % ${sql.lit(HOUR)})`;
  const day = sql`created_at - ((created_at + ${sql.lit(OFFSET)}) % ${sql.lit(DAY)})`;
  await sql`insert into order_hourly (hour, result, if_public, n, amount)
    select ${hour}, result, if_public, count(*), sum(amount) from orders group by ${hour}, result, if_public`.execute(db);
  await sql`insert into order_game_daily (day, game_name, result, n, amount)
    select ${day}, game_name, result, count(*), sum(amount) from orders group by ${day}, game_name, result`.execute(db);
  await sql`insert into order_user_daily (day, user_id, result, n, amount)
    select ${day}, user_id, result, count(*), sum(amount) from orders group by ${day}, user_id, result`.execute(db);

  let announcements = isPostgres(db)
    ? db.schema.createTable('announcements').addColumn('id', 'serial', (col) => col.primaryKey())
    : db.schema.createTable('announcements').addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  announcements = announcements
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('type', 'varchar(32)', (col) => col.notNull())
    .addColumn('content', isMysql(db) ? sql`mediumtext` : 'text', (col) => col.notNull())
    .addColumn('pinned', 'integer', (col) => col.notNull())
    .addColumn('published_at', 'bigint', (col) => col.notNull())
    .addColumn('author_id', 'integer')
    .addColumn('author_name', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull());
  if (isMysql(db)) announcements = announcements.modifyEnd(MYSQL_TABLE);
  await announcements.execute();
  await db.schema.createIndex('announcements_list_idx').on('announcements').columns(['pinned', 'published_at', 'id']).execute();
  await db.schema
    .createIndex('announcements_type_list_idx')
    .on('announcements')
    .columns(['type', 'pinned', 'published_at', 'id'])
    .execute();

  const seeded = await db.selectFrom('dict_types').select('code').limit(1).execute();
  const present = await db.selectFrom('dict_types').select('code').where('code', '=', 'announcement_type').execute();
  if (seeded.length > 0 && present.length === 0) {
    const now = Date.now();
    await db
      .insertInto('dict_types')
      .values({ code: 'announcement_type', name: '公告类型', status: 1, remark: '公告的类型：通知、活动、新闻', created_at: now })
      .execute();
    const data = [
      { label: '通知', value: 'notice', list_class: 'primary', is_default: 1 },
      { label: '活动', value: 'activity', list_class: 'success', is_default: 0 },
      { label: '新闻', value: 'news', list_class: 'info', is_default: 0 },
    ];
    let sort = 0;
    for (const item of data) {
      await db
        .insertInto('dict_data')
        .values({
          type_code: 'announcement_type',
          ...item,
          sort: sort++,
          css_class: '',
          parent_id: null,
          status: 1,
          remark: '',
          created_at: now,
        })
        .execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('dict_data').where('type_code', '=', 'announcement_type').execute();
  await db.deleteFrom('dict_types').where('code', '=', 'announcement_type').execute();
  await db.schema.dropTable('announcements').execute();
  await db.schema.dropTable('order_user_daily').execute();
  await db.schema.dropTable('order_game_daily').execute();
  await db.schema.dropTable('order_hourly').execute();
}
