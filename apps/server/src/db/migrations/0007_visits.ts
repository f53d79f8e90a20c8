/**
 * FROZEN. Visit statistics (issue 13, decision 0044): per-day counters beside the raw
 * page_views and client_events rows of 0002, written in the same transaction as each raw row,
 * so the overview reads a few hundred counter rows instead of millions of raw ones, and the raw
 * rows can expire under the retention rules while the counters stay.
 *
 * `day` is the start of the Asia/Shanghai day (the business's day), epoch ms.
 * - visit_daily (day): page views and unique visitors of the day;
 * - visitor_daily (day, visitor): one row per visitor and day (visitor = `u:<user id>` or a
 *   hash of ip + user agent), whose first insert adds one to visit_daily.uv;
 * - page_view_daily (day, path): page views per path (without its query string);
 * - referrer_daily (day, referrer): page views per referrer (a URL's origin, or an in-app path);
 * - event_daily (day, event): client events per name.
 * The primary keys start with `day`, so a range of days is an index range on every table.
 * client_events gains an index on created_at for retention and the monitor's "online now".
 */
import { MysqlAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

async function counterTable(
  db: Kysely<any>,
  name: string,
  key: { column: string; type: 'varchar(64)' | 'varchar(255)' } | null,
  columns: string[],
) {
  let builder = db.schema.createTable(name).addColumn('day', 'bigint', (col) => col.notNull());
  if (key !== null) builder = builder.addColumn(key.column, key.type, (col) => col.notNull());
  for (const column of columns) builder = builder.addColumn(column, 'bigint', (col) => col.notNull());
  builder = builder.addPrimaryKeyConstraint(`${name}_pk`, (key === null ? ['day'] : ['day', key.column]) as never);
  if (isMysql(db)) builder = builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  await builder.execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await counterTable(db, 'visit_daily', null, ['pv', 'uv']);
  await counterTable(db, 'visitor_daily', { column: 'visitor', type: 'varchar(64)' }, []);
  await counterTable(db, 'page_view_daily', { column: 'path', type: 'varchar(255)' }, ['n']);
  await counterTable(db, 'referrer_daily', { column: 'referrer', type: 'varchar(255)' }, ['n']);
  await counterTable(db, 'event_daily', { column: 'event', type: 'varchar(64)' }, ['n']);
  await db.schema.createIndex('client_events_created_idx').on('client_events').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('client_events_created_idx').on('client_events').execute();
  for (const name of ['event_daily', 'referrer_daily', 'page_view_daily', 'visitor_daily', 'visit_daily']) {
    await db.schema.dropTable(name).execute();
  }
}
