/**
 * FROZEN. Detection orders (issue 5): orders, the shops' ledger with each shop's balance on
 * its user row, and per-day order counters.
 *
 * Index notes (same shape as 0003):
 * - The list sorts by `created_at desc, id desc`; each filter index ends in (created_at, id)
 *   so a page is read in index order and `limit` stops early.
 * - Chat ID, target name and target's shop are case-insensitive prefixes over lower(column):
 *   expression indexes on SQLite and PostgreSQL (text_pattern_ops); MariaDB scans.
 * - order_daily holds the number of orders per (UTC day, result, if_public), written in the
 *   same transaction as the order, so the list's total for "all", a result, a time range or a
 *   shop's view (own private + every public) is a sum of counters plus exact counts of the
 *   (at most two) partial days at the edges, instead of a count over a million rows.
 * - users.balance is the sum of the user's ledger_entries, changed only together with an entry.
 */
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;
const MYSQL_TABLE = sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`;

function table(db: Kysely<any>, name: string) {
  let builder = isPostgres(db)
    ? db.schema.createTable(name).addColumn('id', 'bigserial', (col) => col.primaryKey())
    : db.schema.createTable(name).addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  if (isMysql(db)) builder = builder.modifyEnd(MYSQL_TABLE);
  return builder;
}

const index = (db: Kysely<any>, name: string, on: string, columns: string[], unique = false) => {
  const builder = db.schema.createIndex(name).on(on).columns(columns);
  return (unique ? builder.unique() : builder).execute();
};

const LOWER_COLUMNS = ['obj_wechat', 'obj_wechat_name', 'obj_client_name'];

export async function up(db: Kysely<any>): Promise<void> {
  await table(db, 'orders')
    .addColumn('code', 'varchar(16)', (col) => col.notNull())
    .addColumn('obj_wechat', 'varchar(64)', (col) => col.notNull())
    .addColumn('obj_wechat_name', 'varchar(64)', (col) => col.notNull())
    .addColumn('game_name', 'varchar(64)', (col) => col.notNull())
    .addColumn('mac', 'varchar(17)', (col) => col.notNull())
    .addColumn('installation_at', 'bigint', (col) => col.notNull())
    .addColumn('result', 'integer', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('obj_client_name', 'varchar(100)', (col) => col.notNull())
    .addColumn('inspector_id', 'integer', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addColumn('if_public', 'integer', (col) => col.notNull())
    .addColumn('if_changed_mac', 'integer', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('cert_images', 'text', (col) => col.notNull())
    .addColumn('proof_images', 'text', (col) => col.notNull())
    .addColumn('person_cert_images', 'text', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await index(db, 'orders_code_idx', 'orders', ['code'], true);
  await index(db, 'orders_created_idx', 'orders', ['created_at', 'id']);
  await index(db, 'orders_result_created_idx', 'orders', ['result', 'created_at', 'id']);
  await index(db, 'orders_user_created_idx', 'orders', ['user_id', 'created_at', 'id']);
  await index(db, 'orders_user_public_created_idx', 'orders', ['user_id', 'if_public', 'created_at', 'id']);
  await index(db, 'orders_public_created_idx', 'orders', ['if_public', 'created_at', 'id']);
  await index(db, 'orders_inspector_created_idx', 'orders', ['inspector_id', 'created_at', 'id']);
  await index(db, 'orders_game_created_idx', 'orders', ['game_name', 'created_at', 'id']);
  await index(db, 'orders_mac_idx', 'orders', ['mac', 'created_at', 'id']);
  await index(db, 'orders_amount_idx', 'orders', ['amount', 'id']);
  for (const column of LOWER_COLUMNS) {
    if (isPostgres(db)) {
      await sql`create index ${sql.raw(`orders_${column}_lower_idx`)} on orders (lower(${sql.ref(column)}) text_pattern_ops)`.execute(db);
    } else if (!isMysql(db)) {
      await sql`create index ${sql.raw(`orders_${column}_lower_idx`)} on orders (lower(${sql.ref(column)}))`.execute(db);
    } else {
      await index(db, `orders_${column}_idx`, 'orders', [column]);
    }
  }

  let daily = db.schema
    .createTable('order_daily')
    /** Start of the UTC day, epoch ms. */
    .addColumn('day', 'bigint', (col) => col.notNull())
    .addColumn('result', 'integer', (col) => col.notNull())
    .addColumn('if_public', 'integer', (col) => col.notNull())
    .addColumn('n', 'bigint', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('order_daily_pk', ['day', 'result', 'if_public']);
  if (isMysql(db)) daily = daily.modifyEnd(MYSQL_TABLE);
  await daily.execute();

  await table(db, 'ledger_entries')
    .addColumn('user_id', 'integer', (col) => col.notNull())
    /** recharge | charge | adjust | reversal */
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    /** Signed fen: money in is positive. */
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addColumn('balance_after', 'bigint', (col) => col.notNull())
    .addColumn('order_id', 'bigint')
    .addColumn('remark', 'varchar(255)', (col) => col.notNull())
    .addColumn('operator', 'varchar(64)', (col) => col.notNull())
    .addColumn('operator_id', 'integer')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await index(db, 'ledger_entries_user_idx', 'ledger_entries', ['user_id', 'id']);
  await index(db, 'ledger_entries_order_idx', 'ledger_entries', ['order_id']);

  await db.schema
    .alterTable('users')
    .addColumn('balance', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();

  // Roles seeded before this migration learn 'order:view:all' (every order in full, not only
  // the shop's own plus the public ones), as the seed now gives it.
  const roles = await db
    .selectFrom('roles')
    .select(['id', 'name', 'permissions'])
    .where('name', 'in', ['super_admin', 'admin', 'inspector'])
    .execute();
  for (const role of roles as { id: number; permissions: string }[]) {
    let list: unknown;
    try {
      list = JSON.parse(role.permissions);
    } catch {
      list = [];
    }
    const permissions = Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
    if (permissions.includes('order:view:all')) continue;
    permissions.splice(Math.max(permissions.indexOf('order:view') + 1, 0), 0, 'order:view:all');
    await db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(permissions) })
      .where('id', '=', role.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('balance').execute();
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('order_daily').execute();
  await db.schema.dropTable('orders').execute();
}
